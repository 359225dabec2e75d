"""A clause as runs of quantities (number plus unit, reps or sets word) and joiners."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.language.notation.tokens import _HANGUL_WORD, _Token

_Label = Literal["W", "R", "S", "B"]

_JOINERS = frozenset({"x", "of", "at", "sep"})
_LABELS: dict[str, _Label] = {"unit": "W", "reps": "R", "sets": "S"}


@dataclass(frozen=True, slots=True)
class _Qty:
    """A number with what follows it: unit (W), reps (R), sets (S) or nothing (B)."""

    value: str
    label: _Label
    unit: str | None
    start: int
    end: int

    @property
    def count(self) -> int | None:
        return int(self.value) if self.value.isdecimal() else None


_Elem = _Qty | str


def _groups(clause: list[_Token]) -> list[list[_Elem]]:
    """Turn a clause into runs of quantities and joiners, ready for the rules."""
    groups: list[list[_Elem]] = [[]]
    index = 0
    while index < len(clause):
        token = clause[index]
        index += 1
        following = clause[index] if index < len(clause) else None
        if token.kind == "num":
            label: _Label = "B"
            unit, end = None, token.end
            if following and following.kind in _LABELS:
                label = _LABELS[following.kind]
                unit = following.value if following.kind == "unit" else None
                end = following.end
                index += 1
                after = clause[index] if index < len(clause) else None
                # A particle glued to the unit ("55키로에", "100키로로") is not a word break.
                glued = after is not None and after.kind == "other" and after.start == end
                if label == "W" and glued and _HANGUL_WORD.fullmatch(clause[index].value):
                    index += 1
            groups[-1].append(_Qty(token.value, label, unit, token.start, end))
        elif token.kind in _JOINERS:
            groups[-1].append(token.kind)
        elif token.kind == "ex" and following and following.kind == "at":
            continue
        else:
            groups.append([])
    return [_relabel(group) for group in groups if group]


def _relabel(group: list[_Elem]) -> list[_Elem]:
    """Give a bare number the label its neighbour implies.

    "3 sets of 10" and "3 sets x 10" make 10 reps; "3x10 reps" makes 3 sets.
    """
    other: dict[str, _Label] = {"R": "S", "S": "R"}
    out = list(group)
    for index, elem in enumerate(group):
        if not isinstance(elem, _Qty) or elem.label != "B" or elem.count is None:
            continue
        before = _qty(group, index - 2, "RS")
        after = _qty(group, index + 2, "RS")
        label: _Label | None = None
        sets_of = before is not None and before.label == "S" and _is(group, index - 1, "of")
        if before and (_is(group, index - 1, "x") or sets_of):
            label = other[before.label]
        elif after and _is(group, index + 1, "x"):
            label = other[after.label]
        if label is not None:
            out[index] = _Qty(elem.value, label, None, elem.start, elem.end)
    return out


def _qty(group: list[_Elem], index: int, labels: str, *, whole: bool = False) -> _Qty | None:
    elem = group[index] if 0 <= index < len(group) else None
    if isinstance(elem, _Qty) and elem.label in labels and (not whole or elem.count is not None):
        return elem
    return None


def _is(group: list[_Elem], index: int, joiner: str) -> bool:
    return 0 <= index < len(group) and group[index] == joiner
