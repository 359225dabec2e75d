"""Knowledge-base articles in an answer: offered by reference, cited by title and source.

Each article found becomes a ``K<n>`` reference (written as its title), and
every value in its text an ``A<n>`` reference: the model is shown
"deload every {A1}" and the values list says ``A1: from K1 = 4 to 6
weeks``. So a number taken from an article travels like any fact: the
structural check (:mod:`engine.query.grounding`) accepts it only as a
reference, code writes it back exactly as the article has it, and the
article it came from is cited with the answer.

The articles' text goes into the prompt fenced as data, trimmed to a budget
(a 7B model with an 8k context also needs room for the person's values).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime

from pydantic import BaseModel

from engine.knowledge.model import Chunk
from engine.outcomes import Citation
from engine.query.number_reading import numerals
from engine.query.references import REF, Ref, RefTable, used

MAX_CHARS = 3500
"""Article text in one prompt, all chunks together (about 900 tokens of English)."""
MAX_CHUNK_CHARS = 800
"""Text of one chunk; a longer section is cut at a sentence end."""
MAX_VALUES = 30
"""Article values in one table; chunks past it are left out."""
MAX_CITED = 4

FROM = "from "
"""An article value's label: ``from K1`` (the prompt line reads ``A3: from K1 = 4 to 6 weeks``)."""

_JOINER = re.compile(r"\s*(?:–|—|-|to|or|/|x|×|~)\s*", re.IGNORECASE)
_UNIT = re.compile(
    r"\s*(?:%|percent\b|g/kg\b|g/lb\b|kcal\b|calories\b|kg\b|g\b|lbs?\b|reps?\b|sets?\b|weeks?\b|days?\b|hours?\b"
    r"|h\b|minutes?\b|min\b|seconds?\b|sec\b|s\b|km\b|m\b|miles?\b|bpm\b|times\b|sessions?\b|mg\b|ml\b|l\b)",
    re.IGNORECASE,
)
_EDGE = ".,;:!?)]}\"'’”"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


class ArticleNote(BaseModel):
    """One chunk of an article as the answer's prompt shows it."""

    ref: str
    """The article's ``K<n>`` (chunks of one article share it)."""
    chunk_id: str
    title: str
    heading: str
    """``Title > Section``."""
    source: str
    text: str
    """The chunk's text as the article has it (trimmed)."""
    shown: str
    """The same text with each value replaced by its ``{A<n>}``."""
    depth: int = 0
    """0: found by the search; 1-2: added by link expansion."""


def _trim(text: str, limit: int) -> str:
    # Lines are kept: a list's "2." at a line start numbers the list and is no value.
    text = "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    ends = [m.start() for m in _SENTENCE_END.finditer(cut)]
    return cut[: ends[-1]] if ends and ends[-1] > limit // 2 else cut.rsplit(" ", 1)[0] + " …"


def value_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` states a value: a number (or number word), a range of them, and its unit."""
    spans: list[tuple[int, int]] = []
    for n in numerals(text):
        start, end = n.start, n.end
        while end > start and text[end - 1] in _EDGE:
            end -= 1
        while start < end and text[start] in "([{\"'‘“":
            start += 1
        if start == end:
            continue
        if spans and (spans[-1][1] == start or _JOINER.fullmatch(text, spans[-1][1], start)):
            start = spans.pop()[0]  # "1.6 to 2.2", "4–6": one value
        if (unit := _UNIT.match(text, end)) is not None:
            end = unit.end()
        spans.append((start, end))
    return spans


def _with_refs(text: str, spans: list[tuple[int, int]], table: RefTable, source_ref: str, chunk_id: str) -> str:
    out: list[str] = []
    last = 0
    for start, end in spans:
        ref = table.add("article", text[start:end], label=FROM + source_ref, key=chunk_id)
        out.append(text[last:start] + "{" + ref.id + "}")
        last = end
    return "".join(out) + text[last:]


def offer(table: RefTable, chunks: Sequence[Chunk], max_chars: int = MAX_CHARS) -> list[ArticleNote]:
    """Add the articles of ``chunks`` (best first) and their values to ``table``; the notes the prompt shows."""
    notes: list[ArticleNote] = []
    by_title: dict[str, str] = {}
    spent = 0
    for chunk in chunks:
        text = _trim(chunk.text, MAX_CHUNK_CHARS)
        if notes and spent + len(text) > max_chars:
            continue  # a shorter one further down may still fit
        text = REF.sub(lambda m: f"({m.group(1)}{m.group(2)})", text)  # braces in an article are no references
        spans = value_spans(text)
        if notes and len(table.of("article")) + len(spans) > MAX_VALUES:
            continue
        if chunk.article_title not in by_title:
            by_title[chunk.article_title] = table.add(
                "source", chunk.article_title, label="article", key=chunk.chunk_id, url=chunk.source
            ).id
        ref = by_title[chunk.article_title]
        notes.append(
            ArticleNote(
                ref=ref,
                chunk_id=chunk.chunk_id,
                title=chunk.article_title,
                heading=chunk.heading,
                source=chunk.source,
                text=text,
                shown=_with_refs(text, spans, table, ref, chunk.chunk_id),
                depth=chunk.depth,
            )
        )
        spent += len(text)
    return notes


def prompt(notes: Sequence[ArticleNote]) -> str:
    """The articles as the model reads them: ``K1: Deloads > When`` and the section's text."""
    return "\n\n".join(f"{n.ref}: {n.heading}\n{n.shown}" for n in notes) or "(none)"


def found_note(notes: Sequence[ArticleNote]) -> list[str]:
    """A retrieval note naming the articles found (for the Analyzer: knowledge it need not ask for)."""
    titles = list(dict.fromkeys(n.title for n in notes))
    return [f"Knowledge-base articles found: {'; '.join(titles)}"] if titles else []


def source_of(table: RefTable, ref: Ref) -> Ref | None:
    """The article (``K``) a reference names, or takes its value from (``A``); None for any other."""
    if ref.kind == "source":
        return ref
    if ref.kind == "article":
        return table.get(ref.label.removeprefix(FROM))
    return None


def values_of(table: RefTable, source: Ref) -> list[Ref]:
    """The values offered from the article ``source``."""
    return [r for r in table.of("article") if r.label == FROM + source.id]


def _citation(note: ArticleNote, now: datetime) -> Citation:
    return Citation(title=note.title, ref=f"article:{note.chunk_id}", url=note.source, retrieved_at=now)


def cited(
    notes: Sequence[ArticleNote], table: RefTable, text: str, named: Iterable[str], now: datetime
) -> list[Citation]:
    """The articles an answer rests on: those it names ({K1}, or in its ``sources``) or takes a value from."""
    wanted: set[str] = set()
    for ref_id in [*used(text), *(s.strip().strip("{}[]").upper() for s in named)]:
        if (ref := table.get(ref_id)) is not None and (source := source_of(table, ref)) is not None:
            wanted.add(source.id)
    out: dict[str, Citation] = {}
    for note in notes:
        if note.ref in wanted and note.title not in out:
            out[note.title] = _citation(note, now)
    return list(out.values())[:MAX_CITED]


def excerpts(notes: Sequence[ArticleNote], now: datetime, limit: int = 2) -> tuple[list[str], list[Citation]]:
    """Lines quoting the articles the search found first, verbatim, for an answer written by code."""
    lines: list[str] = []
    citations: dict[str, Citation] = {}
    for note in notes:
        if note.depth > 0 or note.title in citations:
            continue
        lines.append(f"- {note.heading}: {_trim(note.text, 280)}")
        citations[note.title] = _citation(note, now)
        if len(citations) == limit:
            break
    return lines, list(citations.values())
