"""Splitting an article into chunks along its headings (roughly 50-500 tokens each).

An article is Markdown (or plain text): optional front matter (``title:``,
``url:``), a ``# Title``, sections under ``##``-``######`` headings. A
"Sources" or "References" section is not a chunk: its items become every
chunk's ``references``, so an answer can cite the public source behind a fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.knowledge.links import render_links

MIN_TOKENS = 50
MAX_TOKENS = 500
# Long sections are cut into pieces of about this size, so the last piece of a
# section is rarely a stub.
TARGET_TOKENS = 350

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TOKEN = re.compile(r"\w+|[^\w\s]")
_SENTENCE_END = re.compile(r"(?<=[.!?。])\s+")
_REFERENCE_HEADINGS = {"sources", "references", "further reading", "출처", "참고", "참고 문헌", "참고문헌"}
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


def count_tokens(text: str) -> int:
    """A model-independent token estimate: words and punctuation marks."""
    return len(_TOKEN.findall(text))


@dataclass
class Piece:
    """A chunk before it has an id: where it sits and what it says."""

    section_path: tuple[str, ...]
    text: str
    links: list[str] = field(default_factory=list)


@dataclass
class Article:
    """A parsed article, cut into pieces."""

    title: str
    url: str | None
    pieces: list[Piece]
    references: list[str]


def _front_matter(lines: list[str]) -> tuple[dict[str, str], list[str]]:
    if not lines or lines[0].strip() != "---":
        return {}, lines
    for i in range(1, min(len(lines), 40)):
        if lines[i].strip() in ("---", "..."):
            meta: dict[str, str] = {}
            for line in lines[1:i]:
                key, sep, value = line.partition(":")
                if sep:
                    meta[key.strip().lower()] = value.strip().strip("\"'")
            return meta, lines[i + 1 :]
    return {}, lines


def _sections(lines: list[str], title: str | None) -> tuple[str | None, list[tuple[tuple[str, ...], str]]]:
    """Group lines under their headings; the first ``#`` heading is the title when none is given."""
    sections: list[tuple[tuple[str, ...], list[str]]] = [((), [])]
    stack: list[tuple[int, str]] = []
    in_fence = False
    for line in lines:
        if _FENCE.match(line):
            in_fence = not in_fence
        match = None if in_fence else _HEADING.match(line)
        if match is None:
            sections[-1][1].append(line)
            continue
        level, text = len(match.group(1)), render_links(match.group(2))[0].strip()
        if level == 1 and title is None:
            title = text
            continue
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, text))
        sections.append((tuple(t for _, t in stack), []))
    return title, [(path, "\n".join(body).strip()) for path, body in sections]


def _split_long(text: str) -> list[str]:
    """Cut a long text at paragraph, then sentence, then word boundaries into ~TARGET_TOKENS pieces."""
    units: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        if count_tokens(paragraph) <= TARGET_TOKENS:
            units.append(paragraph)
            continue
        for sentence in _SENTENCE_END.split(paragraph):
            if count_tokens(sentence) <= TARGET_TOKENS:
                units.append(sentence)
                continue
            words = sentence.split()
            step = max(1, TARGET_TOKENS // 2)
            units.extend(" ".join(words[i : i + step]) for i in range(0, len(words), step))
    pieces: list[str] = []
    size = 0
    for unit in units:
        n = count_tokens(unit)
        if pieces and size + n <= TARGET_TOKENS:
            pieces[-1] += "\n\n" + unit
            size += n
        else:
            pieces.append(unit)
            size = n
    return pieces


def _merge_small(pieces: list[Piece]) -> list[Piece]:
    """Fold pieces under MIN_TOKENS into a neighbour, keeping their heading as a line of text."""
    merged: list[Piece] = []
    carry: Piece | None = None
    for piece in pieces:
        if carry is not None:
            # The piece joins the small one before it, which keeps its place (and heading).
            piece = Piece(carry.section_path, f"{carry.text}\n\n{_labelled(piece)}", carry.links + piece.links)
            carry = None
        small = count_tokens(piece.text) < MIN_TOKENS
        if small and merged and count_tokens(merged[-1].text) + count_tokens(piece.text) <= MAX_TOKENS:
            last = merged[-1]
            merged[-1] = Piece(last.section_path, f"{last.text}\n\n{_labelled(piece, last)}", last.links + piece.links)
        elif small and not merged:
            carry = piece
        else:
            merged.append(piece)
    if carry is not None:
        merged.append(carry)
    for piece in merged:
        piece.links = list(dict.fromkeys(piece.links))
    return merged


def _labelled(piece: Piece, into: Piece | None = None) -> str:
    if not piece.section_path or (into is not None and into.section_path == piece.section_path):
        return piece.text
    return f"{piece.section_path[-1]}: {piece.text}"


def _reference_items(body: str) -> list[str]:
    items = []
    for line in body.splitlines():
        text = _LIST_MARK.sub("", line).strip()
        if text:
            items.append(render_links(text)[0])
    return items


def parse_article(text: str, *, fallback_title: str) -> Article:
    """Parse Markdown (or plain text) into an article cut into chunk-sized pieces.

    Args:
        text: The file's text.
        fallback_title: The title when neither front matter nor a ``#`` heading gives one.

    Returns:
        The article: its title, its ``url`` from front matter (if any), its
        pieces in order and its references.
    """
    meta, lines = _front_matter(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    title, sections = _sections(lines, meta.get("title") or None)
    title = title or fallback_title
    pieces: list[Piece] = []
    references: list[str] = []
    for path, body in sections:
        if path and path[-1].strip().casefold() in _REFERENCE_HEADINGS:
            references.extend(_reference_items(body))
            continue
        if not body:
            continue
        # Cut before rendering, so each piece keeps exactly the links its own text has.
        for part in _split_long(body) if count_tokens(body) > MAX_TOKENS else [body]:
            rendered, links = render_links(part)
            pieces.append(Piece(path, rendered, links))
    return Article(title=title, url=meta.get("url") or None, pieces=_merge_small(pieces), references=references)
