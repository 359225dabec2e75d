"""A correction applied to an entry's sets, in code: which sets change, how, and what the entry then says.

``correct`` is used twice: when the plan is formed (to find the entry meant,
to show exactly which sets change, and to refuse a correction that would
change nothing) and when it is committed (to change the set details behind
the numbers, so the summary, volume and every fact computed from the sets
follow). Values may carry units (``55 kg``, ``60kg``, ``132 lbs``, ``4 sets``)
or be written as a change (``55 kg → 60 kg``: the part after the arrow).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.entries.summaries import summary_of

_NUMBER = re.compile(r"(\d+(?:[.,]\d+)?)\s*(kgs?|킬로|키로|lbs?|pounds?|파운드|reps?|회|sets?|세트)?", re.IGNORECASE)
_ARROW = re.compile(r"→|->|=>|\bto\b")
_UNITS = {"k": "kg", "킬": "kg", "키": "kg", "l": "lb", "p": "lb", "파": "lb"}
_LB_PER_KG = 2.2046226218


@dataclass(frozen=True, slots=True)
class Value:
    """A number as a person (or the model) wrote it, with its unit if it had one."""

    number: float
    unit: str | None = None
    """``kg`` or ``lb`` for a weight; None when no weight unit was written."""

    def __str__(self) -> str:
        return f"{self.number:g}" + (f" {self.unit}" if self.unit else "")


def read_value(text: str | None, *, before: bool = False) -> Value | None:
    """``55`` / ``55kg`` / ``60,5 kg`` / ``132 lbs`` / ``4 sets``; ``55 kg → 60 kg`` is 60 kg (55 kg with ``before``).

    Returns:
        None when the text holds no number.
    """
    if text is None:
        return None
    parts = _ARROW.split(text)
    m = _NUMBER.search(parts[0 if before else -1]) or _NUMBER.search(text)
    if m is None:
        return None
    word = (m[2] or "").casefold()
    return Value(float(m[1].replace(",", ".")), _UNITS.get(word[:1]))


@dataclass
class Correction:
    """What a correction does to one entry's data."""

    data: dict[str, Any]
    """The entry's data with the correction applied (a copy; the original is untouched)."""
    changed: list[tuple[str, list[int]]] = field(default_factory=list)
    """(exercise, set numbers changed or removed or added), in the entry's order."""
    summary: str = ""
    """The corrected entry's one-line summary."""

    @property
    def changes_anything(self) -> bool:
        return any(sets for _, sets in self.changed)

    def which_sets(self) -> str:
        """``bench press sets 1–5``, ``squat set 3``."""
        return "; ".join(f"{name} {_set_list(sets)}" for name, sets in self.changed if sets)


def _set_list(sets: Sequence[int]) -> str:
    nums = sorted(set(sets))
    if len(nums) == 1:
        return f"set {nums[0]}"
    if nums == list(range(nums[0], nums[-1] + 1)):
        return f"sets {nums[0]}–{nums[-1]}"
    return "sets " + ", ".join(map(str, nums))


def _same(current: Any, old: float) -> bool:
    return isinstance(current, (int, float)) and not isinstance(current, bool) and abs(float(current) - old) < 1e-9


def _in_unit(value: Value, unit: str | None) -> float:
    """``value`` in the exercise's unit (60 lb in a kg exercise is 27.2 kg)."""
    if value.unit is None or unit is None or value.unit == unit:
        return value.number
    return round(value.number / _LB_PER_KG if unit == "kg" else value.number * _LB_PER_KG, 2)


def correct(data: Mapping[str, Any], exercise: str | None, fld: str, old: str | None, new: str | None) -> Correction:
    """Apply "``fld`` of ``exercise`` was ``old``, is ``new``" to every set it concerns.

    Args:
        data: The entry's stored data (``exercises`` with ``set_details``).
        exercise: Canonical name; None for every exercise of the entry.
        fld: ``weight``, ``reps`` or ``sets``.
        old: The value as logged, if the person said it; without it every set changes.
        new: The right value.

    Returns:
        The corrected copy, with the sets changed (none when nothing matched:
        the caller says so instead of claiming a change).
    """
    out: dict[str, Any] = copy.deepcopy(dict(data))
    result = Correction(data=out)
    new_value, old_value = read_value(new), read_value(old, before=True)
    if new_value is None:
        result.summary = summary_of(out)
        return result
    for ex in out.get("exercises") or []:
        if not isinstance(ex, dict) or (exercise and ex.get("name") != exercise):
            continue
        details: list[dict[str, Any]] = [d for d in ex.get("set_details") or [] if isinstance(d, dict)]
        unit = ex.get("weight_unit")
        touched: list[int] = []
        if fld == "sets":
            touched = _resize(ex, details, int(new_value.number), old_value)
        else:
            for n, d in enumerate(details, 1):
                if old_value is not None and not _same(d.get(fld), _in_unit(old_value, unit)):
                    continue
                if fld == "weight":
                    target = _in_unit(new_value, unit)
                    if _same(d.get("weight"), target) and (new_value.unit in (None, unit)):
                        continue
                    d["weight"] = target
                else:
                    target_reps = int(new_value.number)
                    if _same(d.get("reps"), target_reps):
                        continue
                    if d.get("kind") == "failure" and d.get("reps") == 0 and target_reps > 0:
                        d.pop("kind")  # a lift counted as missed was made after all
                    d["reps"] = target_reps
                touched.append(int(d.get("set_num") or n))
            if fld == "weight" and touched and new_value.unit and unit is None:
                ex["weight_unit"] = new_value.unit  # a weight given to what was logged as bodyweight
        result.changed.append((str(ex.get("name", "")), touched))
    result.summary = summary_of(out)
    return result


def _resize(ex: dict[str, Any], details: list[dict[str, Any]], count: int, old: Value | None) -> list[int]:
    """Set the number of sets: drop the last ones, or repeat the last one; the set numbers touched."""
    current = len(details) if details else int(ex.get("sets") or 0)
    if (old is not None and int(old.number) != current) or count == current or not 0 <= count <= 100:
        return []
    ex["sets"] = count
    if not details:
        return list(range(min(count, current) + 1, max(count, current) + 1))
    if count < current:
        removed = [int(d.get("set_num") or i) for i, d in enumerate(details[count:], count + 1)]
        ex["set_details"] = details[:count]
        return removed
    last = details[-1]
    start = int(last.get("set_num") or current)
    added = [{**last, "set_num": start + i} for i in range(1, count - current + 1)]
    ex["set_details"] = details + added
    return [int(d["set_num"]) for d in added]
