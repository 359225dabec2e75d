"""Stalls: a lift that stopped progressing, or whose estimated 1RM trends down, told by code.

Two rules, their sizes the domain's data (``[progression]``, :class:`engine.domains.model.Progression`):

* ``plateau``: none of the last ``stall_sessions`` sessions made progress, and at least one session came
  before them. A session made progress when its best estimated 1RM, or its heaviest work set, beat every
  session before it (by more than a gram: a tie is no progress). Since the first session of the window that
  beats everything before the window beats everything before it too, this is: the window's best estimated
  1RM is at most the best before it, and its heaviest work set at most the heaviest before it.
* ``decline``: the least-squares line through the best estimated 1RM of the last ``trend_sessions`` sessions
  (x: the session's place, 0, 1, 2, …) falls, over those sessions, by more than ``decline_tolerance`` of their
  mean (``fall = -slope × (K - 1)``). When both hold, ``decline`` is said: it is the more telling.

Only weighted lifts are judged (a bodyweight lift has no estimated 1RM). What a session is, and which sets
count, is :mod:`engine.store.lift_sessions`' one reading. A stall is known by ``since``: the day of the best
estimated 1RM it is measured against, which stays the same until a new best, so it is said once when logging.
"""

from __future__ import annotations

from engine.domains.model import Progression
from engine.domains.registry import DomainRegistry
from engine.facts.model import LB_TO_KG, Progress, SessionPoint, Stall
from engine.facts.targets import progression_of
from engine.store.lift_sessions import LiftSessions, SessionBest, SessionStore

_EPS = 1e-3
"""kg: closer than this is the same (a 100 kg set logged in lb and in kg)."""


def _value(kg: float, unit: str) -> float:
    return kg / LB_TO_KG if unit == "lb" else kg


def _point(s: SessionBest, unit: str) -> SessionPoint:
    return SessionPoint(on=s.on, e1rm=round(_value(s.e1rm_kg, unit), 3))


def slope_of(values: list[float]) -> float:
    """The least-squares slope of ``values`` against their places 0, 1, 2, … (0 for fewer than two)."""
    n = len(values)
    if n < 2:
        return 0.0
    mx, my = (n - 1) / 2, sum(values) / n
    return sum((i - mx) * (v - my) for i, v in enumerate(values)) / sum((i - mx) ** 2 for i in range(n))


def _best(sessions: list[SessionBest]) -> SessionBest | None:
    """The best estimated 1RM, the earliest of equals (when the record was set)."""
    return max(sessions, key=lambda s: (s.e1rm_kg, -s.on.toordinal()), default=None)


def stall_of(lift: LiftSessions, rules: Progression) -> Stall | None:
    """The lift's stall by the rules (see the module docstring), or None when it is progressing.

    Args:
        lift: Its latest sessions (at least ``max(stall_sessions, trend_sessions)`` of them when it has that many)
            and the bests before them.
        rules: The domain's progression rules.
    """
    recent = lift.recent
    if not recent:
        return None
    unit = recent[-1].unit or "kg"
    bests = [b for b in (lift.best_before, _best(recent)) if b is not None]
    overall = _best(bests)
    assert overall is not None
    k = rules.trend_sessions
    if len(recent) >= k:
        window = recent[-k:]
        values = [s.e1rm_kg for s in window]
        slope = slope_of(values)
        fall = -slope * (k - 1)
        if fall > rules.decline_tolerance * (sum(values) / k):
            return Stall(
                exercise=lift.exercise,
                rule="decline",
                unit=unit,
                sessions=[_point(s, unit) for s in window],
                best=_point(overall, unit),
                since=overall.on,
                slope=round(_value(slope, unit), 3),
                fall=round(_value(fall, unit), 3),
            )
    n = rules.stall_sessions
    before = recent[:-n] if len(recent) > n else []
    if len(recent) < n or lift.earlier + len(before) < 1:
        return None
    window = recent[-n:]
    bar = _best([b for b in (lift.best_before, _best(before)) if b is not None])
    tops = [t for t in (lift.top_before, max((s.top_kg for s in before), default=None)) if t is not None]
    assert bar is not None and tops
    if max(s.e1rm_kg for s in window) > bar.e1rm_kg + _EPS or max(s.top_kg for s in window) > max(tops) + _EPS:
        return None
    return Stall(
        exercise=lift.exercise,
        rule="plateau",
        unit=unit,
        sessions=[_point(s, unit) for s in window],
        best=_point(bar, unit),
        since=bar.on,
    )


def sessions_needed(rules: Progression) -> int:
    """How many latest sessions :func:`stall_of` reads."""
    return max(rules.stall_sessions, rules.trend_sessions)


def progress_of(lift: LiftSessions, rules: Progression) -> Progress:
    """The numbers of a lift :func:`stall_of` found no stall in."""
    recent = lift.recent[-rules.stall_sessions :]
    unit = (recent[-1].unit or "kg") if recent else "kg"
    before = [b for b in (lift.best_before, _best(lift.recent[: -len(recent)] if recent else [])) if b is not None]
    latest, earlier = _best(recent), _best(before)
    return Progress(
        exercise=lift.exercise,
        unit=unit,
        sessions=len(recent),
        latest_best=_point(latest, unit) if latest else None,
        before_best=_point(earlier, unit) if earlier else None,
    )


async def lift_stall(
    store: SessionStore, registry: DomainRegistry, user: str, exercise: str
) -> tuple[Stall | Progress, Progression] | None:
    """The stall of ``exercise`` (or why there is none) with the rules it was judged by; None when no domain
    has progression rules for it or it has no weighted session."""
    found = progression_of(registry, exercise)
    if found is None:
        return None
    rules = found[1]
    lift = await store.recent(user, exercise, sessions_needed(rules))
    if not lift.recent:
        return None
    return stall_of(lift, rules) or progress_of(lift, rules), rules
