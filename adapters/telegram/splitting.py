"""Telegram HTML by length: counting as Telegram counts, splitting under the limit, a plain fallback.

Pure functions, no network. Splitting happens after escaping and counts
UTF-16 code units, as Telegram does.
"""

from __future__ import annotations

import html
import re

MESSAGE_LIMIT = 4096
"""Telegram's limit for one message, in UTF-16 code units."""


def utf16_len(text: str) -> int:
    """Length as Telegram counts it: characters outside the BMP (most emoji) are two units."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


_TOKEN = re.compile(r"<[^>]*>|&(?:#\d+|#x[0-9A-Fa-f]+|[A-Za-z]+);|.", re.S)
_TAG = re.compile(r"<(/?)([A-Za-z][\w-]*)[^>]*>")


def split_html(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split HTML into messages of at most ``limit`` UTF-16 units each.

    Cuts fall between tokens (a tag, an entity such as ``&amp;`` or one
    character, so never inside a surrogate pair), preferably at a line break,
    else at a space. Tags open at a cut are closed at the end of one part and
    reopened at the start of the next, so every part parses on its own.
    """
    if utf16_len(text) <= limit:
        return [text] if text.strip() else []
    parts: list[str] = []
    buf: list[str] = []
    size = 0
    stack: list[tuple[str, str]] = []  # (name, opening tag) of open tags
    newline: tuple[int, int, list[tuple[str, str]]] | None = None  # (index, size, stack) after a "\n"
    space: tuple[int, int, list[tuple[str, str]]] | None = None

    def closing(tags: list[tuple[str, str]]) -> str:
        return "".join(f"</{name}>" for name, _ in reversed(tags))

    for token in _TOKEN.findall(text):
        units = utf16_len(token)
        after = _apply(stack, token)
        if buf and size + units + utf16_len(closing(after)) > limit:
            # Prefer the last line break, then the last space, if it keeps the part at least half full.
            cut = next((c for c in (newline, space) if c is not None and c[1] >= limit // 2), None)
            at, tags = (cut[0], cut[2]) if cut else (len(buf), stack)
            parts.append("".join(buf[:at]) + closing(tags))
            reopen = "".join(tag for _, tag in tags)
            buf = [reopen, *buf[at:]]
            size = sum(utf16_len(t) for t in buf)
            newline = space = None
        buf.append(token)
        size += units
        stack = after
        if token == "\n":
            newline = (len(buf), size, list(stack))
        elif token == " ":
            space = (len(buf), size, list(stack))
    parts.append("".join(buf))
    return [p for p in parts if _visible(p)]


def _apply(stack: list[tuple[str, str]], token: str) -> list[tuple[str, str]]:
    m = _TAG.match(token) if token.startswith("<") else None
    if m is None:
        return stack
    name = m.group(2).lower()
    if not m.group(1):
        return [*stack, (name, token)]
    for i in range(len(stack) - 1, -1, -1):
        if stack[i][0] == name:
            return stack[:i] + stack[i + 1 :]
    return stack


def _visible(part: str) -> bool:
    return bool(html.unescape(re.sub(r"<[^>]*>", "", part)).strip())


def to_plain(text: str) -> str:
    """The same message without markup: what is sent when Telegram rejects the HTML."""
    return html.unescape(re.sub(r"<[^>]*>", "", text))
