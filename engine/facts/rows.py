"""The row: one logged exercise of one entry (or one day), as the scan leaves it."""

from __future__ import annotations

from operator import itemgetter
from typing import Any

# A row: one logged exercise in one entry (or one day, once merged), read by
# the scan. Weights are in the exercise's comparison unit except the ``*_W``
# fields, which are as logged in ``*_UNIT`` (None when no weighted set);
# -1 marks a number its sets do not give (no weighted set, no bodyweight set).
# A row is built for every logged exercise, so it is a plain tuple of atomic
# values and not a NamedTuple: the garbage collector untracks such tuples at
# its first pass, where it would traverse 10,000 NamedTuples (or rows holding
# the logged dict) again and again, which cost more than all the sums. The
# logged exercise is found again by position (AT, EX_AT).
_Row = tuple[Any, ...]
(
    _DAY,
    _ENTRY_ID,
    _AT,
    _EX_AT,
    _VOLUME,
    _TOP,
    _TOP_W,
    _TOP_R,
    _TOP_UNIT,
    _E1,
    _E1_W,
    _E1_R,
    _E1_UNIT,
    _REPS,
    _MAX_REPS,
) = range(15)
"""Row fields. AT: index of the entry in the entries given; EX_AT: of the
exercise in its ``data["exercises"]``; REPS and MAX_REPS: total and most reps
of bodyweight (no weight) sets."""


def _sum(a: float, b: float) -> float:
    return a + b if a >= 0 and b >= 0 else max(a, b)


def _merge(a: _Row, b: _Row) -> _Row:
    """Two rows of one exercise on one day as one session (a workout logged in two messages)."""
    top = a if (a[_TOP], a[_TOP_R]) >= (b[_TOP], b[_TOP_R]) else b
    e1 = a if a[_E1] >= b[_E1] else b
    return (
        a[_DAY],
        a[_ENTRY_ID],
        a[_AT],
        a[_EX_AT],
        _sum(a[_VOLUME], b[_VOLUME]),
        *top[_TOP : _TOP_UNIT + 1],
        *e1[_E1 : _E1_UNIT + 1],
        _sum(a[_REPS], b[_REPS]),
        max(a[_MAX_REPS], b[_MAX_REPS]),
    )


_BY_DAY = itemgetter(_DAY)
_BY_ID = itemgetter(_ENTRY_ID)
