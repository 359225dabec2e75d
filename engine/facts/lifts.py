"""Each exercise as one session per day in one comparison unit, and how its sets read."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from operator import itemgetter
from typing import Any

from engine.entries.model import Entry
from engine.facts.display import _fmt, _with_unit
from engine.facts.model import LB_TO_KG
from engine.facts.rows import _AT, _BY_DAY, _BY_ID, _DAY, _ENTRY_ID, _EX_AT, _TOP_UNIT, _merge, _Row
from engine.facts.scan import _Scan, _scan


@dataclass(slots=True)
class _Lift:
    """One exercise: its sessions (one row per day, by date) in one comparison unit."""

    name: str
    unit: str
    converted: bool
    weighted: bool
    days: list[_Row]
    more: dict[date, list[_Row]]
    """The other rows of days logged in several entries (their ids and sets)."""
    entries: Sequence[Entry]

    @property
    def note(self) -> str:
        return " (lb converted to kg)" if self.converted else ""

    def ids(self, row: _Row) -> list[str]:
        return list(dict.fromkeys([row[_ENTRY_ID], *(r[_ENTRY_ID] for r in self.more.get(row[_DAY], ()))]))

    def logs(self, row: _Row) -> list[dict[str, Any]]:
        """The logged exercises (``data["exercises"]`` items) of the row's day."""
        rows = [row, *self.more.get(row[_DAY], ())]
        return [self.entries[r[_AT]].data["exercises"][r[_EX_AT]] for r in rows]

    def all_ids(self, rows: Iterable[_Row]) -> list[str]:
        if not self.more:
            return list(map(_BY_ID, rows))
        return [i for r in rows for i in self.ids(r)]


def _set_text(w: float, r: int, logged_unit: str | None, unit: str) -> str:
    """``55 kg × 10``, or ``135 lb (61.2 kg) × 5`` when converted to ``unit``.

    Built only for sets that are shown: formatting every session's sets would
    cost more than computing them.
    """
    if logged_unit == unit or logged_unit is None:
        return f"{_with_unit(_fmt(w), unit)} × {r}"
    return f"{_fmt(w)} {logged_unit} ({_fmt(w * LB_TO_KG)} {unit}) × {r}"


def _comparison_unit(units: set[str]) -> tuple[str, dict[str, float]]:
    """The unit an exercise logged in ``units`` is compared in, and the factor from each.

    Both kg and lb: kg. A known unit beside unit-less weights: the known one,
    the unit-less left out (no guessing).
    """
    known = sorted(units - {""})
    if len(known) > 1:
        return "kg", {"kg": 1.0, "lb": LB_TO_KG}
    unit = known[0] if known else next(iter(units), "")
    return unit, {unit: 1.0}


def _lifts(entries: Sequence[Entry], scan: _Scan) -> list[_Lift]:
    """Each scanned exercise as one session per day, by date, in one comparison unit."""
    # Units of the weighted rows (unweighted ones have None), read at C speed.
    units: dict[str, set[str]] = {
        name: set(map(itemgetter(_TOP_UNIT), rows)) - {None} for name, rows in scan.lifts.items()
    }
    plans = {name: _comparison_unit(u) for name, u in units.items()}
    mixed = {name: plan[1] for name, plan in plans.items() if len(units[name]) > 1}
    rows_of, unordered = scan.lifts, scan.unordered
    if mixed:
        again = _scan(entries, mixed.keys(), factors=mixed)
        rows_of, unordered = {**rows_of, **again.lifts}, unordered | again.unordered
    out = []
    for name in sorted(rows_of):
        rows, more = rows_of[name], dict[date, list[_Row]]()
        if name in unordered:
            rows.sort(key=_BY_DAY)  # stable: same-day rows stay in entry order
            days: list[_Row] = []
            for r in rows:
                if days and days[-1][_DAY] == r[_DAY]:
                    more.setdefault(r[_DAY], []).append(r)
                    days[-1] = _merge(days[-1], r)
                else:
                    days.append(r)
            rows = days
        unit = plans[name][0]
        out.append(_Lift(name, unit, unit == "kg" and "lb" in units[name], bool(units[name]), rows, more, entries))
    return out


def _summary(logs: Sequence[dict[str, Any]]) -> tuple[int, str]:
    """Set count and a short text of one session's sets: ``55 kg × 10 reps × 5 sets``."""
    count, parts = 0, []
    for ex in logs:
        details = ex.get("set_details") or []
        unit = ex.get("weight_unit") or ""
        if not details:
            n = int(ex.get("sets") or 0)
            count += n
            parts.append(f"{n} sets")
            continue
        count += len(details)
        pairs = [(s.get("weight"), s.get("reps")) for s in details]
        w, r = pairs[0]
        if all(p == pairs[0] for p in pairs):
            head = _with_unit(_fmt(w), unit) + " × " if w is not None else ""
            reps = f"{r} reps" if r is not None else "? reps"
            parts.append(f"{head}{reps} × {len(pairs)} set{'s' if len(pairs) != 1 else ''}")
        else:
            body = ", ".join(f"{_fmt(w) if w is not None else 'BW'}×{r if r is not None else '?'}" for w, r in pairs)
            parts.append(_with_unit(body, unit))
    return count, "; ".join(parts)
