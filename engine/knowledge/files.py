"""Reading one article file: regular files only, and only up to a size.

A named pipe with an article's name blocks ``open`` until something writes to
it, and a device may never end; either hangs an ingest that holds the
knowledge base's lock. A huge file is no article: a 33 MB one kept an ingest
embedding for twenty minutes. So a file is looked at (``stat``, which follows
links) before it is opened, and never read past the limit.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_ARTICLE_BYTES = 1_000_000
"""The largest article read (1 MB, the text of a long book); a bigger file is skipped and reported."""


class Unreadable(Exception):
    """A file that is not read; the message says why (the ingest report shows it)."""


def read_article(path: Path, max_bytes: int = MAX_ARTICLE_BYTES) -> tuple[bytes, str]:
    """The bytes of an article file and their text.

    Raises:
        Unreadable: not a regular file (a pipe, socket, device, folder, broken link), over
            ``max_bytes``, unreadable, or not UTF-8 text.
    """
    try:
        _check(path.stat(), max_bytes)
    except FileNotFoundError:
        raise Unreadable("a broken link" if path.is_symlink() else "no such file") from None
    except OSError as exc:
        raise Unreadable(_reason(exc)) from None
    try:
        # Non-blocking: should the file have become a pipe since the look above,
        # opening it still returns at once, and fstat turns it away.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise Unreadable(_reason(exc)) from None
    with os.fdopen(fd, "rb") as f:
        _check(os.fstat(fd), max_bytes)
        try:
            raw = f.read(max_bytes + 1)  # a file that grew past the limit meanwhile stops here
        except OSError as exc:
            raise Unreadable(_reason(exc)) from None
    if len(raw) > max_bytes:
        raise Unreadable(_too_big(len(raw), max_bytes))
    try:
        return raw, raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"not UTF-8 text ({exc})") from None


def _check(info: os.stat_result, max_bytes: int) -> None:
    kind = _kind(info.st_mode)
    if kind is not None:
        raise Unreadable(f"{kind}, not a regular file; not opened")
    if info.st_size > max_bytes:
        raise Unreadable(_too_big(info.st_size, max_bytes))


def _kind(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "something else"


def _too_big(size: int, max_bytes: int) -> str:
    return f"too big for an article ({size:,} bytes; the limit is {max_bytes:,}): not read; split it into smaller files"


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)
