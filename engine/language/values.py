"""Numbers and durations read as people log them, and Epley's estimated 1RM."""

from __future__ import annotations

import re

_NUMBER = re.compile(r"\s*([+-]?)(\d{1,3}(?:,\d{3})+|\d+)(?:[.,](\d+))?")
# A trailing "/km" or "per 100m" is allowed: paces are sometimes stored with it.
_CLOCK = re.compile(r"\s*(\d+):(\d{1,2})(?::(\d{1,2}))?(?:[.,](\d+))?\s*(?:(?:/|per\b).*)?$")
_APOSTROPHE = re.compile(r"\s*(\d+)\s*['′]\s*(\d{1,2})\s*(?:\"|″|'')?\s*$")
_PART = re.compile(
    r"(\d+(?:[.,]\d+)?)\s*(hours?|hrs?|h|시간|minutes?|mins?|min|m|분|seconds?|secs?|sec|s|초)(?![a-z])",
    re.IGNORECASE,
)
_PART_SECONDS = {"h": 3600.0, "시": 3600.0, "m": 60.0, "분": 60.0, "s": 1.0, "초": 1.0}


def parse_number(text: str) -> float | None:
    """The leading number of a value as written: ``"5.2"``, ``"5,2"``, ``"1,500"``, ``"5km"``.

    A comma before exactly three digits is a thousands separator, otherwise a
    decimal comma.
    """
    m = _NUMBER.match(text)
    if m is None:
        return None
    whole = m.group(2).replace(",", "")
    value = float(f"{whole}.{m.group(3)}" if m.group(3) else whole)
    return -value if m.group(1) == "-" else value


def parse_duration(text: str, unit: str = "") -> float | None:
    """Seconds in a duration as written.

    ``"25:30"`` is 1530 (two groups are minutes:seconds), ``"1:52:40"`` is 6760,
    ``"52분"``/``"52 min"``/``"1h 5m"``/``"5'30\\""`` are read by their words. A
    bare number takes ``unit`` (h, min, s), and minutes when there is none, as
    the log schemas write "32 min = 32:00".

    Returns:
        Seconds, or None when the text holds no duration.
    """
    if m := _CLOCK.match(text):
        a, b, c = int(m.group(1)), int(m.group(2)), m.group(3)
        frac = float("0." + m.group(4)) if m.group(4) else 0.0
        return (a * 3600 + b * 60 + int(c) if c is not None else a * 60 + b) + frac
    if m := _APOSTROPHE.match(text):
        return int(m.group(1)) * 60.0 + int(m.group(2))
    parts = _PART.findall(text)
    if parts:
        return sum(float(n.replace(",", ".")) * _PART_SECONDS[word[0].lower()] for n, word in parts)
    number = parse_number(text)
    if number is None:
        return None
    scale = {"h": 3600.0, "hr": 3600.0, "s": 1.0, "sec": 1.0}.get(unit.strip().lower(), 60.0)
    return number * scale


def epley(weight: float, reps: int) -> float | None:
    """Estimated 1RM by Epley, ``w * (1 + reps/30)``; a single is its own weight; 0 reps: None."""
    if reps <= 0:
        return None
    return weight if reps == 1 else weight * (1 + reps / 30)
