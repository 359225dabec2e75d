"""Next-session targets: the sets, reps and weight of a lift's next session, computed from its last one.

The rules are the domain's data (``[progression]`` in its file, :class:`engine.domains.model.Progression`);
this module only applies them to the last session's work sets (warm-ups and drop sets left out, the sets
at its top weight):

* a missed set (a failure, 0 reps, or — a weighted lift progressing linearly — fewer reps than the
  session's best set at that weight): the same weight again, every set at the best set's reps (``repeat``);
* a lift with a rep range (double progression): every set at the top of the range, the smallest increment
  more and back to the bottom; otherwise a rep more on every set below the top (``double``);
* any other weighted lift (linear progression): every work set completed, the jump of its body region,
  as a multiple of the smallest increment (``linear``);
* a bodyweight lift: a rep more on every set (``reps``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.domains.model import Domain, Progression, RepRange
from engine.domains.registry import DomainRegistry
from engine.facts.model import Target
from engine.store.history import HistoryStore, WorkSet


def progression_of(registry: DomainRegistry, exercise: str) -> tuple[Domain, Progression] | None:
    """The domain holding ``exercise`` with its progression rules; None when no domain has rules for it."""
    for name in registry.by_precedence:
        domain = registry.get(name)
        if domain is not None and domain.progression is not None and exercise in domain.vocabulary:
            return domain, domain.progression
    return None


def is_lift(registry: DomainRegistry, term: str) -> bool:
    """Whether ``term`` is a lift the progression rules cover (an exercise of a family; "plateau", "deload"
    are words of the domain, not lifts)."""
    found = progression_of(registry, term)
    return found is not None and any(term in members for members in found[0].families.values())


def family_of(domain: Domain, exercise: str) -> str:
    """The movement family ``exercise`` belongs to (itself when it is in none)."""
    return next((family for family, members in domain.families.items() if exercise in members), exercise)


def _names(exercise: str, family: str, lifts: Sequence[str]) -> bool:
    return exercise in lifts or family in lifts


def rep_range(progression: Progression, exercise: str, family: str) -> RepRange | None:
    """The rep range ``exercise`` (or its family) is trained in, if the rules give it one."""
    return next((r for r in progression.rep_ranges if _names(exercise, family, r.lifts)), None)


def snap(base: float, added: float, increment: float) -> float:
    """``base + added`` down to a multiple of ``increment``, but always above ``base`` (61 + 2.5 → 62.5)."""
    target = math.floor((base + added) / increment + 1e-9) * increment
    if target <= base:
        target = math.floor(base / increment + 1e-9) * increment + increment
    return round(target, 3)


def target_from(exercise: str, sets: Sequence[WorkSet], progression: Progression, family: str = "") -> Target | None:
    """The next-session target from the last session's work sets (see the module docstring); None with no sets.

    Args:
        exercise: The canonical lift.
        sets: The last session's work sets, in the order logged (``HistoryStore.last_session``).
        progression: The domain's rules.
        family: The lift's movement family (the rules may name the family rather than the lift).
    """
    if not sets:
        return None
    family = family or exercise
    weighted = [s for s in sets if s.weight is not None]
    top = max((s.weight for s in weighted if s.weight is not None), default=None)
    work = [s for s in weighted if s.weight == top] if top is not None else list(sets)
    unit = next((s.unit for s in work if s.unit), "") or ("kg" if top is not None else "")
    reps = [s.reps if s.done else 0 for s in work]
    best = max(reps)
    failed = sum(1 for s in work if not s.done)
    base = {
        "exercise": exercise,
        "unit": unit,
        "last_on": work[0].on,
        "last_weight": top,
        "last_reps": reps,
        "entry_ids": list(dict.fromkeys(s.entry_id for s in sets)),
    }
    ranged = rep_range(progression, exercise, family)
    # Progressing linearly, every work set aims at the same reps: one short of the best set is a miss too. In a
    # rep range, or on a bodyweight lift, reps fall from set to set as they may; only a failed set is a miss.
    short = sum(1 for r in reps if r < best) if ranged is None and top is not None else failed
    if best == 0 or short:
        # Every set failed (best 0): none is short of the best, yet each was missed.
        return Target(rule="repeat", weight=top, reps=[max(best, 1)] * len(work), missed=max(short, failed), **base)
    if top is None:
        return Target(rule="reps", weight=None, reps=[r + 1 for r in reps], **base)
    increment = progression.increment.get(unit) or min(progression.increment.values())
    if ranged is not None:
        span = (ranged.low, ranged.high)
        if all(r >= ranged.high for r in reps):
            weight = snap(top, increment, increment)
            return Target(
                rule="double", weight=weight, reps=[ranged.low] * len(work), added=weight - top, rep_range=span, **base
            )
        return Target(rule="double", weight=top, reps=[min(ranged.high, r + 1) for r in reps], rep_range=span, **base)
    region = "lower" if _names(exercise, family, progression.lower_body) else "upper"
    jumps = progression.jump[region]
    weight = snap(top, jumps.get(unit) or increment, increment)
    return Target(rule="linear", weight=weight, reps=[best] * len(work), added=weight - top, region=region, **base)


async def next_target(history: HistoryStore, registry: DomainRegistry, user: str, exercise: str) -> Target | None:
    """The next-session target of ``exercise`` for ``user``; None when it was never trained or has no rules."""
    found = progression_of(registry, exercise)
    if found is None:
        return None
    domain, progression = found
    sets = await history.last_session(user, exercise)
    return target_from(exercise, sets, progression, family_of(domain, exercise))
