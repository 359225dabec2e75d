"""Plans code forms with no model call: a lift's next-session target, or a deload week, as planned sessions
that wait for Approve like any plan (ARCHITECTURE §3: "a message it reads completely is planned with no
model call").

Read in code (:func:`read_request`), with no number of the person's own (those are the model's to weigh):

* the next session: "plan my next bench session", "다음 벤치 세션 계획해줘", or "add that to my plan" /
  "그거 계획에 넣어줘" after a target was shown (``/next``, "what should I do on bench next time?");
* a deload week: "plan a deload week for bench", "디로드 주 계획해줘" (the lift named, or the one a stall or a
  target was last said about in the conversation: an ``OFFERED`` event).

Dates: the next training day by the person's habit (a weekday the lift was trained on at least twice in the
last 8 weeks), else tomorrow, and the plan says which. A deload week has as many sessions as the lift's weekly
frequency over the last 4 weeks (at least 1), on its usual days in the coming week or spread over it, at the
domain's ``deload_percent`` of the last session's work weight, snapped down to the plate increment
(:func:`engine.facts.targets.snap`), with its sets and reps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from engine.domains.model import Progression
from engine.domains.registry import ActiveDomainContext, DomainRegistry
from engine.facts.targets import is_lift, next_target, progression_of, snap
from engine.outcomes import Citation
from engine.query.stalls import OPEN
from engine.store.history import HistoryStore
from engine.store.lift_sessions import SessionStore
from engine.tasks import coded_texts
from engine.tasks.formation import patch_id_for
from engine.tasks.model import Evidence, Patch, PatchOp, TaskSheet

OFFERED = "OFFERED"
"""The event kind of a plan offered in words (detail ``next <lift>`` or ``deload <lift>``)."""
HABIT_WEEKS = 8
"""Weeks of sessions a usual training day is read from."""
FREQUENCY_WEEKS = 4
"""Weeks of sessions a lift's weekly frequency is read from."""

_PLAN = re.compile(r"\b(?:plan|schedule|add|put)\b|계획|짜\s?줘|짜\s?주|넣어", re.I)
_NEXT = re.compile(r"\bnext\b.*\b(?:session|workout)\b|다음.*(?:세션|운동)", re.I)
_PLAN_NOUN = re.compile(r"\b(?:plan|schedule)\b|계획", re.I)
"""Said with "that" ("add that to my plan"): "add that to my log" is not a plan."""
_THAT = re.compile(r"\b(?:that|it|this)\b|그거|그걸|그것|이거|이걸", re.I)
_DIGIT = re.compile(r"\d")

PlanKind = Literal["next", "deload"]


def deload_weight(last: float, unit: str, rules: Progression) -> float:
    """``deload_percent`` of the last work weight, down to a multiple of the plate increment (95 kg → 85)."""
    increment = rules.increment.get(unit) or min(rules.increment.values())
    return snap(0.0, last * rules.deload_percent, increment)


@dataclass(frozen=True)
class Request:
    """A request code read: which plan, of which lifts (empty: the one last offered)."""

    kind: PlanKind | None
    """None: "add that to my plan", the kind of what was offered."""
    lifts: list[str]


def read_request(text: str, ctx: ActiveDomainContext, registry: DomainRegistry) -> Request | None:
    """The plan request code reads completely, or None (the model forms it)."""
    if not _PLAN.search(text) or _DIGIT.search(text) or OPEN.search(text):
        return None
    terms = ctx.vocabulary.terms(text)
    lifts = [t for t in dict.fromkeys(terms) if is_lift(registry, t)]
    if "deload" in terms:
        return Request("deload", lifts[:1])
    if _NEXT.search(text) and lifts:
        return Request("next", lifts[:1])
    if _THAT.search(text) and _PLAN_NOUN.search(text) and not lifts:
        return Request(None, [])
    return None


def offered(events: list[tuple[str, str, str, str]]) -> tuple[PlanKind, str] | None:
    """The plan last offered in the conversation (newest event last), as (kind, lift)."""
    for _at, kind, _user, detail in reversed(events):
        if kind == OFFERED and " " in detail:
            what, lift = detail.split(" ", 1)
            if what in ("next", "deload"):
                return ("next" if what == "next" else "deload"), lift
    return None


def usual_days(days: list[date], today: date, count: int) -> tuple[list[date], bool]:
    """The first ``count`` days after ``today`` (within a week) on the weekdays trained at least twice in
    ``days``, and True; else ``count`` days spread over the coming week from tomorrow, and False."""
    weekdays = {d.weekday() for d in days if sum(1 for e in days if e.weekday() == d.weekday()) >= 2}
    ahead = [today + timedelta(days=i) for i in range(1, 8) if (today + timedelta(days=i)).weekday() in weekdays]
    if len(ahead) >= count:
        return ahead[:count], True
    return [today + timedelta(days=1 + (i * 7) // count) for i in range(count)], False


async def form(
    req: Request,
    *,
    history: HistoryStore,
    ctx: ActiveDomainContext,
    user: str,
    today: date,
    lang: str,
    names: dict[str, str],
    last_offer: tuple[PlanKind, str] | None,
    turn_id: str,
    revision: int,
) -> TaskSheet | None:
    """The TaskSheet of ``req``, or None when code cannot form it (no lift, no session, a bodyweight deload,
    a domain that allows no planned sessions): the model forms it then."""
    kind, lifts = req.kind, req.lifts
    if not lifts and last_offer is not None:
        kind, lifts = kind or last_offer[0], [last_offer[1]]
    if kind is None or not lifts:
        return None
    lift = lifts[0]
    found = progression_of(ctx.registry, lift)
    if found is None or "add_planned_session" not in found[0].tool_profile.allowed_ops:
        return None
    domain, rules = found
    target = await next_target(history, ctx.registry, user, lift)
    if target is None:
        return None
    sessions = SessionStore(history.db)
    name = names.get(lift, lift)
    habit = await sessions.days(user, lift, today - timedelta(weeks=HABIT_WEEKS), today)
    if kind == "next":
        (on,), usual = usual_days(habit, today, 1)
        op = PatchOp(
            op="add_planned_session",
            date=on.isoformat(),
            domain=domain.name,
            exercise=lift,
            sets=len(target.reps),
            reps=target.reps[0],
            weight=target.weight,
            unit=target.unit or None,
        )
        ops = [op]
        steps = coded_texts.next_steps(target, name, on, usual, lang)
        goal = coded_texts.next_goal(name, lang)
    else:
        if target.last_weight is None:
            return None
        recent = [d for d in habit if d > today - timedelta(weeks=FREQUENCY_WEEKS)]
        per_week = min(7, max(1, round(len(recent) / FREQUENCY_WEEKS)))
        days, usual = usual_days(habit, today, per_week)
        weight = deload_weight(target.last_weight, target.unit, rules)
        reps = max(target.last_reps) or 1
        ops = [
            PatchOp(
                op="add_planned_session",
                date=d.isoformat(),
                domain=domain.name,
                exercise=lift,
                sets=len(target.last_reps),
                reps=reps,
                weight=weight,
                unit=target.unit or None,
                purpose="deload",
            )
            for d in days
        ]
        steps = coded_texts.deload_steps(target, name, rules.deload_percent, weight, per_week, days, usual, lang)
        goal = coded_texts.deload_goal(name, lang)
    claim = coded_texts.last_session(target, name, lang)
    sources = [Citation(title=claim, ref=f"entry:{i}", on=target.last_on) for i in target.entry_ids]
    return TaskSheet(
        goal=goal,
        steps=steps,
        inputs=[claim],
        tools_required=["add_planned_session"],
        expected_output=coded_texts.expected(len(ops), lang),
        assumptions=[claim],
        evidence=[Evidence(claim=claim, status="validated", sources=sources)],
        patch=Patch(patch_id=patch_id_for(turn_id, revision, ops), ops=ops),
        confidence=1.0,
    )
