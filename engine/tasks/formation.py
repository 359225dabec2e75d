"""Checks around the task-formation model, all in code.

The model proposes; code decides: which evidence really has a source
(:mod:`engine.tasks.evidence`), what the confidence is, which operations the domain's tool profile allows and within
which limits, whose numbers an operation's text holds (:mod:`engine.tasks.amounts`), which entry a correction
means, whether the gate is met, and when the loop has stopped getting better.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from engine.agents.task_schemas import ProposedOp, TaskFormationOutput
from engine.domains.model import Domain
from engine.domains.registry import ActiveDomainContext
from engine.entries.corrections import Correction, correct, read_value
from engine.entries.model import Entry
from engine.outcomes import Citation
from engine.tasks import texts as plan_texts
from engine.tasks.amounts import Given
from engine.tasks.model import Evidence, PatchOp

STATUS_WEIGHT = {"validated": 1.0, "unresolved": 0.4, "conflicting": 0.0}


@dataclass
class OpCheck:
    """Operations that passed, the evidence code found for them, and what is wrong."""

    ops: list[PatchOp] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    """Operations the tool profile does not allow (refused before approval is asked)."""
    needs_user: list[str] = field(default_factory=list)
    """Problems only the person can resolve (which entry they meant)."""


def _entry_source(e: Entry, now: str) -> Citation:
    return Citation(
        title=f"{e.occurred_on.isoformat()} · {e.summary}",
        ref=f"entry:{e.entry_id}",
        retrieved_at=datetime.fromisoformat(now),
        on=e.occurred_on,
    )


def confidence(evidence: Sequence[Evidence]) -> float:
    """Weighted share of supported claims (critical ones count double); 0.5 with nothing to go on."""
    if not evidence:
        return 0.5
    total = sum(2.0 if e.critical else 1.0 for e in evidence)
    got = sum((2.0 if e.critical else 1.0) * STATUS_WEIGHT[e.status] for e in evidence)
    return round(got / total, 3)


def gate(conf: float, evidence: Sequence[Evidence], check: OpCheck, threshold: float) -> bool:
    """Pass only at or above the threshold, every critical claim validated, and no problems."""
    return (
        conf >= threshold
        and all(e.status == "validated" for e in evidence if e.critical)
        and not check.problems
        and not check.refused
        and not check.needs_user
    )


@dataclass(frozen=True, slots=True)
class Round:
    """What one round of the loop came to, for telling whether the loop still gets better."""

    confidence: float
    problems: int
    """Problems the checks found (named to the model in the next round)."""
    proposal: str
    """The proposal itself (:func:`proposal_of`): the same text is the same plan."""


def proposal_of(out: TaskFormationOutput) -> str:
    """A proposal as compared between rounds: everything but its reasoning."""
    return out.model_dump_json(exclude={"reasoning"})


def stagnated(rounds: Sequence[Round], delta_min: float) -> bool:
    """True when the last round brought nothing: a proposal made before, or confidence up by less than
    ``delta_min`` with no fewer problems.

    Two rounds are the span: with the model at temperature 0, a round that did not help is followed by
    more of the same, and a domain's ``max_attempts`` (three) would otherwise end the loop first.
    """
    if len(rounds) < 2:
        return False
    last, before = rounds[-1], rounds[-2]
    if any(r.proposal == last.proposal for r in rounds[:-1]):
        return True
    return last.confidence - before.confidence < delta_min and last.problems >= before.problems


def patch_id_for(turn_id: str, revision: int, ops: Sequence[PatchOp]) -> str:
    """The same plan in the same turn is the same patch (commit is idempotent by this id)."""
    blob = json.dumps([o.model_dump(mode="json") for o in ops], sort_keys=True)
    return "p" + hashlib.sha256(f"{turn_id}|{revision}|{blob}".encode()).hexdigest()[:20]


def find_correction_target(
    entries: Sequence[Entry], exercise: str | None, fld: str, old: str | None, new: str | None
) -> tuple[Entry, Correction] | None:
    """The entry a correction means and what it does there: the latest logged one it changes something in.

    Without an old value the latest entry with that exercise is meant, as long
    as the correction changes something there.
    """
    candidates = [e for e in entries if e.status == "active" and e.kind == "parsed"]
    for e in sorted(candidates, key=lambda e: (e.occurred_on, e.created_at), reverse=True):
        names = {ex.get("name") for ex in e.data.get("exercises", []) if isinstance(ex, dict)}
        if exercise and exercise not in names:
            continue
        fix = correct(e.data, exercise, fld, old, new)
        if fix.changes_anything:
            return e, fix
        if old is None:
            return None  # the latest entry with that exercise already says so: nothing to change
    return None


def check_ops(
    proposed: Sequence[ProposedOp],
    domain: Domain,
    ctx: ActiveDomainContext,
    entries: Sequence[Entry],
    today: date,
    now: str,
    given: Given | None = None,
) -> OpCheck:
    """Validate proposed operations against the domain's tool profile and contract.

    Args:
        given: What an operation's text may hold (the person's values and their log's); unchecked when None.
    """
    profile = domain.tool_profile
    out = OpCheck()
    if len(proposed) > profile.max_ops:
        out.problems.append(f"{len(proposed)} changes is more than the {profile.max_ops} allowed in one plan")
        return out
    for p in proposed:
        name = p.op.strip().lower()
        if name not in profile.allowed_ops:
            out.refused.append(f"“{p.op}” is not something I can do in {domain.name}")
            continue
        missing = [f for f in domain.schema_contract.get(name, []) if getattr(p, f, None) in (None, "")]
        if missing:
            out.problems.append(f"{name} is missing {', '.join(missing)}")
            continue
        exercise = (ctx.vocabulary.canonical(p.exercise) or p.exercise.strip().lower()) if p.exercise else None
        if p.weight is not None and p.weight > profile.max_weight:
            out.problems.append(f"{p.weight:g} is above the {profile.max_weight:g} limit for a weight")
            continue
        if name == "add_planned_session":
            try:
                day = date.fromisoformat(p.date or "")
            except ValueError:
                out.problems.append(f"“{p.date}” is not a date (YYYY-MM-DD)")
                continue
            if day < today or day > today + timedelta(days=profile.max_days_ahead):
                out.problems.append(f"{day.isoformat()} is outside today … {profile.max_days_ahead} days ahead")
                continue
            logged = unit_logged(entries, exercise)
            if given is not None and p.weight is not None and p.unit and logged and not same_unit(p.unit, logged):
                out.problems.append(plan_texts.unit_not_logged(exercise or "it", p.unit, logged))
                continue
            out.ops.append(
                PatchOp(
                    op=name,
                    date=day.isoformat(),
                    domain=domain.name,
                    exercise=exercise,
                    sets=p.sets,
                    reps=p.reps,
                    weight=p.weight,
                    unit=p.unit,
                )
            )
        elif name == "set_goal":
            goal = (p.goal or "").strip()
            if given is not None:
                wrong = given.text_problems("set_goal", goal)
                if wrong:
                    out.problems.extend(wrong)
                    continue
                goal = given.rendered(goal)
            out.ops.append(PatchOp(op=name, domain=domain.name, goal=goal[:300], exercise=exercise))
        else:
            fld = (p.field or "").strip().lower()
            new = read_value(p.new_value)
            if fld not in ("weight", "reps", "sets") or new is None:
                out.problems.append(
                    f"I can correct weight, reps or sets with a number, not “{p.field} = {p.new_value}”"
                )
                continue
            if given is not None and not given.value_given(p.new_value, fld):
                out.problems.append(plan_texts.not_given("correct_entry new_value", str(p.new_value).strip()))
                continue
            found = find_correction_target(entries, exercise, fld, p.old_value, p.new_value)
            if found is None:
                out.needs_user.append(
                    f"I can't find a logged {exercise or 'entry'} with {fld} {p.old_value or '?'} "
                    f"that would change to {new}"
                )
                continue
            target, fix = found
            where = f"{target.occurred_on.isoformat()} · {target.summary}: {fix.which_sets()}"
            out.ops.append(
                PatchOp(
                    op=name,
                    domain=target.domain,
                    exercise=exercise,
                    entry_id=target.entry_id,
                    field=fld,
                    old_value=p.old_value,
                    new_value=p.new_value,
                    detail=where,
                )
            )
            out.evidence.append(
                Evidence(
                    claim=f"The entry meant is {target.occurred_on.isoformat()}: {target.summary}",
                    status="validated",
                    sources=[_entry_source(target, now)],
                    notes=f"the latest matching entry; {fix.which_sets()} change, giving: {fix.summary}",
                )
            )
    return out


_UNIT_NAMES = {"kgs": "kg", "kilo": "kg", "kilos": "kg", "lbs": "lb", "pound": "lb", "pounds": "lb"}


def same_unit(a: str, b: str) -> bool:
    """Whether two weight units are one (``kg`` and ``kgs``, ``lb`` and ``pounds``)."""
    x, y = a.strip().lower(), b.strip().lower()
    return _UNIT_NAMES.get(x, x) == _UNIT_NAMES.get(y, y)


def unit_logged(entries: Sequence[Entry], exercise: str | None) -> str:
    """The weight unit of the latest logged set of ``exercise`` (``""`` when none is logged)."""
    for e in sorted(entries, key=lambda e: e.occurred_on, reverse=True):
        if e.status != "active" or e.kind != "parsed":
            continue
        for ex in e.data.get("exercises") or ():
            if isinstance(ex, dict) and ex.get("name") == exercise and ex.get("weight_unit"):
                return str(ex["weight_unit"])
    return ""
