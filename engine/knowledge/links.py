"""Links between articles: ``[[Wiki Links]]`` and Markdown links to other ``.md`` files.

A link names an article by its title (wiki links) or its file (Markdown links);
both are compared through :func:`article_key`, so ``[[Progressive Overload]]``,
``[[progressive overload]]`` and ``[overload](progressive-overload.md)`` all
reach the article titled "Progressive overload" in ``progressive-overload.md``.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import PurePosixPath

# [[Target]], [[Target|label]], [[Target#Section]], [[Target#Section|label]]
_WIKI = re.compile(r"\[\[([^\[\]\n|#]*)(?:#[^\[\]\n|]*)?(?:\|([^\[\]\n]*))?\]\]")
# [label](href "optional title"); images (![…]) are left alone.
_MARKDOWN = re.compile(r"(?<!!)\[([^\[\]\n]+)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"\n]*\")?\s*\)")
_ARTICLE_SUFFIXES = (".md", ".markdown")
_NON_WORD = re.compile(r"[\W_]+")


def article_key(title: str) -> str:
    """The form titles and file names are matched in: case-folded words joined by ``-``.

    Unicode letters stay (``디로드`` is a key of its own); everything else separates words.
    """
    folded = unicodedata.normalize("NFKC", title).casefold()
    return _NON_WORD.sub("-", folded).strip("-")


def _markdown_target(href: str) -> str | None:
    """The article a Markdown link points to, or None for a URL, an anchor or another kind of file."""
    if "://" in href or href.startswith(("#", "mailto:")):
        return None
    path = PurePosixPath(href.split("#", 1)[0])
    if path.suffix.lower() not in _ARTICLE_SUFFIXES:
        return None
    return path.stem.replace("-", " ").replace("_", " ").strip() or None


def render_links(text: str) -> tuple[str, list[str]]:
    """Replace article links by their labels and list the linked titles.

    Args:
        text: Markdown text.

    Returns:
        The text with ``[[Target|label]]`` shown as ``label`` (``Target`` when
        there is no label) and ``[label](other.md)`` as ``label``, and the
        linked titles in order of first appearance, without repeats. Links to
        URLs stay as they are and are not article links.
    """
    targets: list[str] = []
    seen: set[str] = set()

    def note(title: str) -> None:
        key = article_key(title)
        if key and key not in seen:
            seen.add(key)
            targets.append(title.strip())

    def wiki(match: re.Match[str]) -> str:
        target, label = match.group(1).strip(), (match.group(2) or "").strip()
        if target:
            note(target)
        return label or target

    def markdown(match: re.Match[str]) -> str:
        label, href = match.group(1), match.group(2)
        target = _markdown_target(href)
        if target is None:
            return match.group(0)
        note(target)
        return label

    rendered = _MARKDOWN.sub(markdown, _WIKI.sub(wiki, text))
    return rendered, targets
