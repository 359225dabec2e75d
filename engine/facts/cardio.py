"""Facts about runs and swims: distance, the longest, the fastest pace, the latest ones."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from engine.domains.bouts import ReadBout
from engine.domains.model import Bout
from engine.facts.display import _fmt, clock
from engine.facts.found import _Found
from engine.facts.model import RECENT_SESSIONS, Fact


def _bout_facts(domain: str, sport: Bout, bouts: list[ReadBout], found: _Found) -> list[Fact]:
    """Total distance, the longest and the fastest (these name the entries found), then the latest few."""
    where = found.words
    dist_unit = sport.distance_unit
    bouts = sorted(bouts, key=lambda b: b.day)
    out: list[Fact] = []
    measured = [b for b in bouts if b.distance is not None]
    if measured:
        total = sum(b.distance or 0.0 for b in measured)
        out.append(
            Fact(
                key=f"{domain}.total_distance",
                label=f"total {sport.noun} distance {where}",
                value=total,
                unit=dist_unit,
                display=f"{_fmt(total)} {dist_unit}",
                dates=[b.day for b in measured],
                entry_ids=[b.entry_id for b in measured],
                found=found.count,
                found_span=found.span,
            )
        )
        far = _best_bout(measured, lambda b: b.distance)
        out.append(
            _bout_fact(
                f"{domain}.longest",
                f"longest {sport.noun} {where}",
                far.distance or 0.0,
                dist_unit,
                f"{_fmt(far.distance or 0.0)} {dist_unit}",
                far,
                found,
            )
        )
    # Swims are compared per stroke (freestyle is faster than breaststroke); runs all together.
    groups: dict[str, list[ReadBout]] = {}
    for b in bouts:
        if b.pace is not None:
            groups.setdefault(b.kind if sport.pace_by_kind else "", []).append(b)
    for kind in sorted(groups):
        fast = _best_bout(groups[kind], lambda b: -(b.pace or 0.0))
        pace = fast.pace or 0.0
        out.append(
            _bout_fact(
                f"{domain}.best_pace" + (f".{kind}" if kind else ""),
                f"fastest average pace of a {kind + ' ' if kind else ''}{sport.noun} {where}",
                pace / 60,
                sport.pace_unit,
                clock(pace) + sport.pace_suffix,
                fast,
                found,
            )
        )
    seen: dict[date, int] = {}
    for b in bouts[-RECENT_SESSIONS:]:
        seen[b.day] = seen.get(b.day, 0) + 1
        stem = f"{domain}.{b.day.isoformat()}" + (f"#{seen[b.day]}" if seen[b.day] > 1 else "")
        what = f"the {sport.noun} on {b.day.isoformat()}" + (f" ({b.kind})" if b.kind else "")
        if b.distance is not None:
            out.append(
                _bout_fact(
                    f"{stem}.distance",
                    f"distance of {what}",
                    b.distance,
                    dist_unit,
                    f"{_fmt(b.distance)} {dist_unit}",
                    b,
                )
            )
        if b.seconds is not None:
            out.append(_bout_fact(f"{stem}.duration", f"time of {what}", b.seconds, "s", clock(b.seconds), b))
        if b.pace is not None:
            out.append(
                _bout_fact(
                    f"{stem}.pace",
                    f"average pace of {what}",
                    b.pace / 60,
                    sport.pace_unit,
                    clock(b.pace) + sport.pace_suffix,
                    b,
                )
            )
    return out


def _best_bout(bouts: list[ReadBout], get: Callable[[ReadBout], float | None]) -> ReadBout:
    """The bout with the highest value, earliest on ties (callers pass bouts that have one)."""
    best = bouts[0]
    for b in bouts[1:]:
        if (get(b) or 0.0) > (get(best) or 0.0):
            best = b
    return best


def _bout_fact(
    key: str, label: str, value: float, unit: str, display: str, b: ReadBout, found: _Found | None = None
) -> Fact:
    """A fact from one bout; with ``found``, a best of the entries found (its label says so)."""
    return Fact(
        key=key,
        label=label,
        value=value,
        unit=unit,
        display=display,
        on=b.day,
        dates=[b.day],
        entry_ids=[b.entry_id],
        lower_is_better=unit.startswith("min/"),
        found=found.count if found is not None else None,
        found_span=found.span if found is not None else None,
    )
