"""Telegram's HTML parse mode as the fake checks it: allowed tags, balance, escaping, UTF-16 length."""

from __future__ import annotations

import html
import re

_ALLOWED_TAGS = {
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "a",
    "code",
    "pre",
    "tg-spoiler",
    "blockquote",
    "span",
    "tg-emoji",
}
_MARKUP = re.compile(r"<(/?)([A-Za-z][\w-]*)((?:\s[^>]*)?)>|&(#\d+|#x[0-9A-Fa-f]+|lt|gt|amp|quot);|[<&]")


class ParseError(Exception):
    """Bad markup: the Bot API answers 400 "can't parse entities"."""


def html_to_text(text: str) -> str:
    """What Telegram shows for HTML: tags removed, entities decoded; raises on bad markup."""
    out: list[str] = []
    stack: list[str] = []
    pos = 0
    for m in _MARKUP.finditer(text):
        out.append(text[pos : m.start()])
        pos = m.end()
        offset = len(text[: m.start()].encode())
        if m.group(0) in ("<", "&"):
            raise ParseError(f"can't parse entities: unexpected {m.group(0)!r} at byte offset {offset}")
        if m.group(4) is not None:
            out.append(html.unescape(m.group(0)))
            continue
        name = m.group(2).lower()
        if name not in _ALLOWED_TAGS:
            raise ParseError(f'can\'t parse entities: Unsupported start tag "{name}" at byte offset {offset}')
        if not m.group(1):
            stack.append(name)
        elif not stack or stack[-1] != name:
            raise ParseError(
                f'can\'t parse entities: Unmatched end tag at byte offset {offset}, expected "</{stack[-1] if stack else ""}>"'
            )
        else:
            stack.pop()
    out.append(text[pos:])
    if stack:
        raise ParseError(f"can't parse entities: Can't find end tag corresponding to start tag \"{stack[-1]}\"")
    return "".join(out)


def utf16(text: str) -> int:
    """Length in UTF-16 code units, as Telegram counts its limits."""
    return len(text.encode("utf-16-le")) // 2
