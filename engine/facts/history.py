"""Facts over a person's whole history (or a named period), from the indexed
aggregates of :mod:`engine.store.history` and :mod:`engine.store.bouts`.

Keys are ``<subject>.<scope>.<measure>`` with scope ``all_time`` or
``period``; every fact carries the period it covers in ``scope``. Per
exercise: the heaviest completed set, the best estimated 1RM (with the set
it came from), sessions, the first and latest
session and their top sets, the progression from the first to the latest
(changes), the most reps at a weight the question names, and the heaviest
failed attempt when it was at or above the record (shown as attempted,
never as a record). Session volume stays a fact of the retrieved window.
Units follow :mod:`engine.facts`: an exercise logged in
one unit stays in it; one logged in kg and lb is compared in kg.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from engine.domains.registry import DomainRegistry
from engine.facts.display import _fmt, _signed, _with_unit, clock, weeks_text
from engine.facts.lifts import _set_text
from engine.facts.model import LB_TO_KG, Fact
from engine.store.bouts import BoutHistory
from engine.store.history import EVER, LiftHistory, Sessions, SetRecord

Scope = tuple[date, date]


def scope_words(scope: Scope) -> str:
    return "all time" if scope == EVER else f"{scope[0].isoformat()} to {scope[1].isoformat()}"


def _unit(h: LiftHistory) -> str:
    return "kg" if len(h.units) > 1 else (h.units[0] if h.units else "")


def _in(kg: float, unit: str) -> float:
    return kg / LB_TO_KG if unit == "lb" else kg


def _weight(s: SetRecord, unit: str) -> float:
    """The set's weight in ``unit`` (as logged when it is that unit)."""
    if s.weight is not None and (s.unit == unit or s.weight_kg is None):
        return s.weight
    return _in(s.weight_kg or 0.0, unit)


def _set(s: SetRecord, unit: str) -> str:
    return _set_text(s.weight or 0.0, s.reps, s.unit or None, unit)


@dataclass(frozen=True, slots=True)
class _Maker:
    """Makes one exercise's facts: key ``<name>.<scope>.<key>``, label ``<what> of <name>, <scope>``."""

    name: str
    scope: Scope
    note: str

    def __call__(
        self, key: str, label: str, value: float, unit: str, display: str, s: SetRecord | None = None, **extra: object
    ) -> Fact:
        on = s.on if s is not None else None
        stem = f"{self.name}.{'all_time' if self.scope == EVER else 'period'}"
        return Fact.model_validate(
            {
                "key": f"{stem}.{key}",
                "label": f"{label} of {self.name}, {scope_words(self.scope)}{self.note}",
                "value": value,
                "unit": unit,
                "display": display,
                "on": on,
                "dates": [on] if on else [],
                "entry_ids": [s.entry_id] if s else [],
                "scope": self.scope,
                **extra,
            }
        )


def lift_facts(h: LiftHistory, scope: Scope, *, brief: bool = False) -> list[Fact]:
    """An exercise's records and history over ``scope``; ``brief`` keeps only the two records."""
    name, unit = h.exercise, _unit(h)
    fact = _Maker(name, scope, " (lb converted to kg)" if len(h.units) > 1 else "")
    out: list[Fact] = []
    if h.heaviest is not None:
        out.append(
            fact(
                "heaviest_set",
                "heaviest completed set",
                _weight(h.heaviest, unit),
                unit,
                _set(h.heaviest, unit),
                h.heaviest,
            )
        )
    if h.best_e1rm is not None and h.best_e1rm.e1rm_kg is not None:
        e1 = _in(h.best_e1rm.e1rm_kg, unit)
        out.append(
            fact(
                "best_e1rm",
                "best estimated 1RM (Epley)",
                e1,
                unit,
                f"{_with_unit(_fmt(e1), unit)} ({_set(h.best_e1rm, unit)})",
                h.best_e1rm,
            )
        )
    if h.most_reps is not None and h.heaviest is None:
        out.append(
            fact("most_reps", "most reps in one set", h.most_reps.reps, "reps", f"{h.most_reps.reps} reps", h.most_reps)
        )
    if brief:
        return out
    if (
        h.failed is not None
        and h.failed.weight_kg is not None
        and (h.heaviest is None or (h.heaviest.weight_kg or 0.0) <= h.failed.weight_kg)
    ):
        out.append(
            fact(
                "failed_attempt",
                "heaviest failed attempt (not completed, never a record)",
                _weight(h.failed, unit),
                unit,
                f"{_with_unit(_fmt(h.failed.weight or 0.0), h.failed.unit)} (attempted, not completed)",
                h.failed,
            )
        )
    for (weight, w_unit), s in h.reps_at.items():
        out.append(
            fact(
                f"reps_at.{_fmt(weight)}{w_unit}",
                f"most reps at {_with_unit(_fmt(weight), w_unit)}",
                s.reps,
                "reps",
                f"{s.reps} reps at {_with_unit(_fmt(weight), w_unit)}",
                s,
            )
        )
    ends = [d for d in (h.first_on, h.last_on) if d is not None]
    out.append(
        fact(
            "sessions",
            "sessions",
            h.sessions,
            "sessions",
            f"{h.sessions} session{'s' if h.sessions != 1 else ''}",
            None,
            dates=ends,
        )
    )
    for key, label, day in (("first", "first session", h.first_on), ("last", "latest session", h.last_on)):
        if day is not None:
            out.append(fact(key, label, day.toordinal(), "date", day.isoformat(), None, on=day, dates=[day]))
    out += _progress(h, unit, fact)
    return out


def _progress(h: LiftHistory, unit: str, make: _Maker) -> list[Fact]:
    """First session with a completed weighted set against the latest one."""
    first, last = h.first_top, h.last_top
    if first is None or last is None or first.on == last.on:
        return []
    out: list[Fact] = [
        make("first_top", "heaviest set of the first session", _weight(first, unit), unit, _set(first, unit), first),
        make("latest_top", "heaviest set of the latest session", _weight(last, unit), unit, _set(last, unit), last),
    ]
    pairs = [("heaviest", "heaviest set", _weight(last, unit) - _weight(first, unit), _weight(first, unit))]
    if h.first_e1rm is not None and h.last_e1rm is not None:
        a, b = _in(h.first_e1rm.e1rm_kg or 0.0, unit), _in(h.last_e1rm.e1rm_kg or 0.0, unit)
        pairs.append(("e1rm", "estimated 1RM", b - a, a))
    for key, noun, delta, base in pairs:
        span = f"first {first.on.isoformat()} to latest {last.on.isoformat()}"
        ids = [first.entry_id, last.entry_id]
        out.append(
            make(
                f"progress.{key}",
                f"change in {noun} ({span})",
                delta,
                unit,
                _with_unit(_signed(delta), unit),
                None,
                dates=[first.on, last.on],
                entry_ids=ids,
                change=True,
            )
        )
        if base:
            pct = delta / base * 100
            out.append(
                make(
                    f"progress.{key}_pct",
                    f"change in {noun} in percent ({span})",
                    pct,
                    "%",
                    _signed(pct) + "%",
                    None,
                    dates=[first.on, last.on],
                    entry_ids=ids,
                    change=True,
                )
            )
    return out


def session_facts(s: Sessions, scope: Scope, today: date) -> list[Fact]:
    """Training days in ``scope``: overall (days with any workout), per week, and per domain."""
    if not s.days or s.first_on is None:
        return []
    where, stem = scope_words(scope), "period" if scope != EVER else "all_time"
    start = s.first_on if scope == EVER else scope[0]
    end = min(today, scope[1])
    weeks = max(1.0, ((end - start).days + 1) / 7)
    out = [
        Fact(
            key=f"all.{stem}.sessions",
            label=f"days with a workout, {where}",
            value=s.days,
            unit="days",
            display=f"{s.days} day{'s' if s.days != 1 else ''}",
            dates=[s.first_on, s.last_on or s.first_on],
            entry_ids=s.recent_ids,
            scope=scope,
        ),
        Fact(
            key=f"all.{stem}.sessions_per_week",
            label=f"workout days per week, {where} ({weeks_text(weeks)})",
            value=s.days / weeks,
            unit="days/week",
            display=f"{_fmt(s.days / weeks)} per week",
            scope=scope,
        ),
    ]
    for domain, days in sorted(s.by_domain.items()):
        out.append(
            Fact(
                key=f"{domain}.{stem}.sessions",
                label=f"{domain} sessions (days), {where}",
                value=days,
                unit="sessions",
                display=f"{days} session{'s' if days != 1 else ''}",
                scope=scope,
            )
        )
    return out


def bout_facts(b: BoutHistory, scope: Scope, domains: DomainRegistry) -> list[Fact]:
    """How many runs or swims, how far in total, the longest and the fastest average pace.

    ``domains`` says which domains hold bouts and their measures.
    """
    sport = domains.bouts.get(b.sport)
    if not b.count or sport is None:
        return []
    where = scope_words(scope)
    stem = f"{b.sport}.{'all_time' if scope == EVER else 'period'}"
    noun, dist = sport.noun, sport.distance_unit
    out = [
        Fact(
            key=f"{stem}.count",
            label=f"{noun}s logged, {where}",
            value=b.count,
            unit=f"{noun}s",
            display=f"{b.count} {noun}{'s' if b.count != 1 else ''}",
            scope=scope,
        ),
        Fact(
            key=f"{stem}.total_distance",
            label=f"total {noun} distance, {where}",
            value=b.total_distance,
            unit=dist,
            display=f"{_fmt(b.total_distance)} {dist}",
            scope=scope,
        ),
    ]
    if b.longest is not None and b.longest.distance is not None:
        out.append(
            Fact(
                key=f"{stem}.longest",
                label=f"longest {noun}, {where}",
                value=b.longest.distance,
                unit=dist,
                display=f"{_fmt(b.longest.distance)} {dist}",
                on=b.longest.on,
                dates=[b.longest.on],
                entry_ids=[b.longest.entry_id],
                scope=scope,
            )
        )
    if b.fastest is not None and b.fastest.pace is not None:
        out.append(
            Fact(
                key=f"{stem}.best_pace",
                label=f"fastest average pace of a {noun}, {where}",
                value=b.fastest.pace / 60,
                unit=sport.pace_unit,
                display=clock(b.fastest.pace) + sport.pace_suffix,
                on=b.fastest.on,
                dates=[b.fastest.on],
                entry_ids=[b.fastest.entry_id],
                scope=scope,
                lower_is_better=True,
            )
        )
    return out
