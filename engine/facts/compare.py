"""The latest session of an exercise against the previous one and the previous best."""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from engine.entries.model import Entry
from engine.facts.display import _signed, _with_unit
from engine.facts.found import _Found, _found
from engine.facts.lifts import _Lift, _lifts
from engine.facts.measures import _BODYWEIGHT, _WEIGHTED
from engine.facts.model import Fact
from engine.facts.rows import _DAY
from engine.facts.scan import _scan


def _pct(delta: float, base: float) -> float | None:
    return delta / base * 100 if base else None


def _compare(lift: _Lift, found: _Found) -> list[Fact]:
    """Latest session vs the previous one and vs the best before it, per measure.

    The previous best is the best of the entries found, and its facts say so:
    "a new best" over the last 30 days is no lifetime record.
    """
    name, note, unit = lift.name, lift.note, lift.unit
    *earlier, last = lift.days
    out: list[Fact] = []
    for m in _WEIGHTED if lift.weighted else _BODYWEIGHT:
        now = m.get(last)
        if now is None:
            continue
        fact_unit, delta_unit = m.unit(unit), m.short_unit(unit)
        out.append(
            Fact(
                key=f"{name}.latest.{m.key}",
                label=f"{m.noun} in the latest {name} session{note}",
                value=now,
                unit=fact_unit,
                display=m.show(last, unit),
                on=last[_DAY],
                dates=[last[_DAY]],
                entry_ids=lift.ids(last),
            )
        )
        previous = next((r for r in reversed(earlier) if m.get(r) is not None), None)
        for side, other in (("previous", previous), ("previous_best", m.best(earlier))):
            then = m.get(other) if other is not None else None
            if other is None or then is None:
                continue
            if side == "previous":
                what, where, verdict = "the previous session", "", ""
                then_label = f"{m.noun} in the previous {name} session{note}"
                count, span = None, None
            else:
                what, where = "the previous best", " " + found.words
                count, span = found.count, found.span
                # Ranked like the best itself, so 55 kg × 10 beats 55 kg × 5.
                rank = itemgetter(*m.order)
                verdict = (
                    ", a new best"
                    if rank(last) > rank(other)
                    else ", equal to the best"
                    if rank(last) == rank(other)
                    else ", below the best"
                )
                then_label = f"previous best {m.noun} of {name} (before the latest session){note}{where}"
            delta = now - then
            dates, ids = [other[_DAY], last[_DAY]], [*lift.ids(other), *lift.ids(last)]
            vs = f"latest {last[_DAY].isoformat()} vs {what} {other[_DAY].isoformat()}{where}"
            out.append(
                Fact(
                    key=f"{name}.{side}.{m.key}",
                    label=then_label,
                    value=then,
                    unit=fact_unit,
                    display=m.show(other, unit),
                    on=other[_DAY],
                    dates=[other[_DAY]],
                    entry_ids=lift.ids(other),
                    found=count,
                    found_span=span,
                )
            )
            out.append(
                Fact(
                    key=f"{name}.vs_{side}.{m.key}",
                    label=f"change in {m.noun} of {name}, {vs}{verdict}{note}",
                    value=delta,
                    unit=delta_unit,
                    display=_with_unit(_signed(delta), delta_unit),
                    dates=dates,
                    entry_ids=ids,
                    change=True,
                    found=count,
                    found_span=span,
                )
            )
            if (pct := _pct(delta, then)) is not None:
                out.append(
                    Fact(
                        key=f"{name}.vs_{side}.{m.key}_pct",
                        label=f"change in {m.noun} of {name} in percent, {vs}",
                        value=pct,
                        unit="%",
                        display=_signed(pct) + "%",
                        dates=dates,
                        entry_ids=ids,
                        change=True,
                        found=count,
                        found_span=span,
                    )
                )
    return out


def compare_latest(entries: Sequence[Entry], exercise: str) -> list[Fact]:
    """The latest session of ``exercise`` against the previous session and the previous best.

    For weighted exercises the measures are heaviest set, estimated 1RM and
    volume; for bodyweight ones most reps in a set and total reps. Each gives
    the latest value, the other side's value with its date, the change in the
    unit and in percent. With one session only the latest values are given.

    Args:
        entries: The person's entries (any order).
        exercise: Canonical exercise name, case-insensitive.

    Returns:
        Facts, or an empty list when the exercise was never logged.
    """
    name = exercise.strip().lower()
    found = _found(entries)
    if found is None:
        return []
    lifts = _lifts(entries, _scan(entries, {name}))
    return _compare(lifts[0], found) if lifts else []
