"""One pass over the entries, collecting the rows, sessions and bouts the facts need."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from engine.domains.bouts import ReadBout, metrics_of, read_bout
from engine.domains.registry import DomainRegistry
from engine.entries.model import Entry
from engine.facts.rows import _DAY, _Row

_NOT_WORK = frozenset({"warmup", "failure"})
"""Set kinds that are no working set: the same reading as ``engine.store.derived.WORK_SET`` (a failed attempt
is ``done = 0`` there), so an answer read from entries says what the records, charts and SQL history say."""


@dataclass(slots=True)
class _Scan:
    lifts: dict[str, list[_Row]] = field(default_factory=dict)
    unordered: set[str] = field(default_factory=set)
    """Exercises whose rows are not one per day in date order."""
    sessions: dict[str, dict[date, list[str]]] = field(default_factory=dict)
    bouts: dict[str, list[ReadBout]] = field(default_factory=dict)


def _scan(
    entries: Sequence[Entry],
    wanted: Collection[str] | None,
    *,
    factors: Mapping[str, Mapping[str, float]] | None = None,
    domains: DomainRegistry | None = None,
) -> _Scan:
    """One pass over the entries, collecting everything the facts need.

    Args:
        entries: As given to :func:`compute_facts`.
        wanted: Exercises to read (canonical, lower case); None for all.
        factors: Per exercise, the factor from each weight unit to its
            comparison unit (a unit left out is not counted). Without it
            weights are read as logged; :func:`_lifts` scans again, with
            factors, the rare exercise logged in more than one unit.
        domains: Which domains hold bouts and which no training (meals); None reads lifts only
            (no sessions, runs or swims), as a second pass for a few exercises does.
    """
    # Logged in these domains, an entry is not a workout (a meal is not a session).
    not_training, sports = (domains.not_training, domains.bouts) if domains is not None else (frozenset(), {})
    scan = _Scan()
    lifts, names = scan.lifts, dict[Any, str]()
    for at, e in enumerate(entries):
        if e.status != "active" or e.kind != "parsed":
            continue
        day, eid, data = e.occurred_on, e.entry_id, e.data
        if domains is not None and e.domain not in not_training and factors is None:
            scan.sessions.setdefault(e.domain, {}).setdefault(day, []).append(eid)
        for ex_at, ex in enumerate(data.get("exercises") or ()):
            raw = ex.get("name")
            name = names.get(raw)
            if name is None:
                name = names[raw] = str(raw or "").strip().lower()
            if not name or (wanted is not None and name not in wanted):
                continue
            unit = ex.get("weight_unit") or ""
            factor = factors[name].get(unit, 0.0) if factors is not None else 1.0
            # Hot loop, over every set of every session: inline, locals only, no calls.
            volume, top_w, top_r, e1, e1_w, e1_r = 0.0, -1.0, 0, -1.0, 0.0, 0
            reps, max_reps = 0, -1
            last_w, last_r, last_v = None, None, 0.0
            for st in ex.get("set_details") or ():
                if st.get("kind") in _NOT_WORK:
                    continue
                r = st.get("reps")
                w = st.get("weight")
                if w == last_w and r == last_r:  # straight sets: a repeat adds only volume
                    volume += last_v
                    continue
                if r is None:
                    continue
                if w is None:
                    reps += r
                    if r > max_reps:
                        max_reps = r
                    continue
                last_w, last_r, last_v = w, r, w * r
                volume += last_v
                if r > 0:  # a missed lift (0 reps) is no heaviest set and no 1RM
                    if w > top_w or (w == top_w and r > top_r):
                        top_w, top_r = w, r
                    est = w if r == 1 else w * (1 + r / 30)
                    if est > e1:
                        e1, e1_w, e1_r = est, w, r
            if max_reps < 0:
                reps = -1
            if top_w < 0 or not factor:
                row: _Row = (day, eid, at, ex_at, -1.0, -1.0, -1.0, 0, None, -1.0, 0.0, 0, None, reps, max_reps)
            elif factor == 1.0:
                row = (day, eid, at, ex_at, volume, top_w, top_w, top_r, unit, e1, e1_w, e1_r, unit, reps, max_reps)
            else:
                row = (
                    day,
                    eid,
                    at,
                    ex_at,
                    volume * factor,
                    top_w * factor,
                    top_w,
                    top_r,
                    unit,
                    e1 * factor if e1 >= 0 else -1.0,
                    e1_w,
                    e1_r,
                    unit,
                    reps,
                    max_reps,
                )
            rows = lifts.get(name)
            if rows is None:
                lifts[name] = [row]
            else:
                if rows[-1][_DAY] >= day:
                    scan.unordered.add(name)
                rows.append(row)
        if not sports:
            continue
        sport = e.domain if e.domain in sports else e.activity_type
        if sport in sports:
            scan.bouts.setdefault(sport, []).append(read_bout(sports[sport], day, eid, metrics_of(data)))
    return scan
