"""Checks around the task-formation model, all in code.

The model proposes; code decides: which evidence really has a source
(:mod:`engine.tasks.evidence`), what the confidence is, which operations the domain's tool profile allows and within
which limits, which entry a correction means, and whether the gate is met.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from engine.outcomes import Citation
from engine.tasks.model import Evidence, PatchOp
from engine.agents.task_schemas import ProposedOp
from engine.domains.model import Domain
from engine.domains.registry import ActiveDomainContext
from engine.entries.corrections import Correction, correct, read_value
from engine.entries.model import Entry

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


def stagnated(history: Sequence[float], delta_min: float) -> bool:
    """True when confidence gained less than ``delta_min`` in each of the last two rounds."""
    if len(history) < 3:
        return False
    return history[-1] - history[-2] < delta_min and history[-2] - history[-3] < delta_min


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
) -> OpCheck:
    """Validate proposed operations against the domain's tool profile and contract."""
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
            out.ops.append(
                PatchOp(
                    op=name, date=day.isoformat(), domain=domain.name, exercise=exercise, sets=p.sets,
                    reps=p.reps, weight=p.weight, unit=p.unit,
                )
            )
        elif name == "set_goal":
            out.ops.append(PatchOp(op=name, domain=domain.name, goal=(p.goal or "").strip()[:300], exercise=exercise))
        else:
            fld = (p.field or "").strip().lower()
            new = read_value(p.new_value)
            if fld not in ("weight", "reps", "sets") or new is None:
                out.problems.append(f"I can correct weight, reps or sets with a number, not “{p.field} = {p.new_value}”")
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
                    op=name, domain=target.domain, exercise=exercise, entry_id=target.entry_id, field=fld,
                    old_value=p.old_value, new_value=p.new_value, detail=where,
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
