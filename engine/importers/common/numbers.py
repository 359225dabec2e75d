"""Numbers, times and durations as export files write them."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from functools import lru_cache

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_CLOCK = re.compile(r"(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)")
_PARTS = re.compile(
    r"(\d+(?:[.,]\d+)?)\s*(h|hr|hrs|hours?|시간|m|min|mins|minutes?|분|s|sec|secs|seconds?|초)(?![a-z])"
)


def num(x: float) -> str:
    """``60``, ``62.5``: a number without a trailing ``.0``."""
    return f"{x:g}"


@lru_cache(maxsize=4096)  # an export writes the same few loads and counts on row after row
def number(text: str) -> float | None:
    """A number as apps write it (``62.5``, ``62,5``, ``1.234,5``); None when blank.

    Raises:
        ValueError: not a finite number.
    """
    s = text.strip().replace("\u00a0", "").replace(" ", "")
    if not s:
        return None
    if "," in s and "." in s:
        thousands = "." if s.rfind(",") > s.rfind(".") else ","
        s = s.replace(thousands, "")
    s = s.replace(",", ".")
    if not _NUMBER.fullmatch(s):
        raise ValueError(text)
    value = float(s)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def clock(seconds: float) -> str:
    """``M:SS`` or ``H:MM:SS``."""
    total = round(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def duration_text(seconds: float) -> str:
    """A workout's length the way Strong writes it: ``1h 5m``, ``50m``, ``40s``."""
    total = round(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if not hours and not minutes:
        return f"{secs}s"
    return " ".join(p for p in (f"{hours}h" if hours else "", f"{minutes}m" if minutes else "") if p)


def seconds_of(text: str) -> float | None:
    """Seconds in ``1:52:40``, ``25:30``, ``1h 5m``, ``90s``, ``1시간 5분`` or a bare number of seconds.

    Returns:
        None when the text is blank or says no length.
    """
    s = text.strip().casefold()
    if not s:
        return None
    if (m := _CLOCK.fullmatch(s)) is not None:
        return int(m[1] or 0) * 3600 + int(m[2]) * 60 + float(m[3])
    try:
        plain = number(s)
    except ValueError:
        plain = None
    if plain is not None:
        return plain
    total, found = 0.0, False
    for value, unit in _PARTS.findall(s):
        amount = float(value.replace(",", "."))
        total += amount * (3600 if unit[0] in "h시" else 60 if unit[0] in "m분" else 1)
        found = True
    return total if found else None


def read_numbers(
    texts: Mapping[str, str], label: Callable[[str], str] = str, *, keep_negative: bool = True
) -> tuple[dict[str, float | None], list[str]]:
    """Read a row's numeric columns: the values by field, and a problem per bad one.

    Args:
        texts: field -> the cell's text, in the order problems should be listed.
        label: how a field is named in a problem (the file's own column name).
        keep_negative: whether a negative value is kept beside its problem.
    """
    numbers: dict[str, float | None] = {}
    problems: list[str] = []
    for fld, text in texts.items():
        try:
            value = number(text)
        except ValueError:
            problems.append(f"{label(fld)} {text!r} is not a number")
            continue
        if value is not None and value < 0:
            problems.append(f"{label(fld)} {text!r} is negative")
            if not keep_negative:
                continue
        numbers[fld] = value
    return numbers, problems
