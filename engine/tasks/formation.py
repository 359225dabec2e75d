"""Checks around the task-formation model, all in code.

The model proposes; code decides: which evidence really has a source, what the
confidence is, which operations the domain's tool profile allows and within
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
from engine.agents.task_schemas import ProposedAssumption, ProposedOp
from engine.domains.model import Domain
from engine.domains.registry import ActiveDomainContext
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


def check_evidence(
    proposed: Sequence[ProposedAssumption], entries: Sequence[Entry], ctx: ActiveDomainContext, now: str
) -> list[Evidence]:
    """Keep a ``validated`` claim only when its source exists: an entry on that date, or the domain."""
    by_day: dict[str, list[Entry]] = {}
    for e in entries:
        by_day.setdefault(e.occurred_on.isoformat(), []).append(e)
    out: list[Evidence] = []
    for a in proposed:
        source = a.source.strip()
        sources: list[Citation] = []
        status = a.status
        notes = ""
        if source in by_day:
            sources = [_entry_source(e, now) for e in by_day[source][:3]]
        elif source.lower() in ("domain", *ctx.domains_loaded):
            name = ctx.domains_loaded[0] if source.lower() == "domain" and ctx.domains_loaded else source.lower()
            sources = [
                Citation(title=f"{name} expertise and rules", ref=f"domain:{name}", retrieved_at=datetime.fromisoformat(now))
            ]
        if status == "validated" and not sources:
            status, notes = "unresolved", f"no entry or domain source for “{source or 'nothing cited'}”"
        out.append(Evidence(claim=a.claim, status=status, critical=a.critical, sources=sources, notes=notes))
    return out


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


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    cleaned = "".join(ch for ch in text.replace(",", ".") if ch.isdigit() or ch == ".")
    try:
        return float(cleaned)
    except ValueError:
        return None


def find_correction_target(entries: Sequence[Entry], exercise: str | None, fld: str, old: str | None) -> Entry | None:
    """The entry a correction means: the latest logged one with that exercise (and that old value)."""
    old_n = _number(old)
    candidates = [e for e in entries if e.status == "active" and e.kind == "parsed"]
    for e in sorted(candidates, key=lambda e: (e.occurred_on, e.created_at), reverse=True):
        for ex in e.data.get("exercises", []):
            if exercise and ex.get("name") != exercise:
                continue
            if old_n is None:
                return e
            if fld == "sets" and ex.get("sets") == old_n:
                return e
            if any(s.get(fld) is not None and abs(float(s[fld]) - old_n) < 1e-9 for s in ex.get("set_details", [])):
                return e
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
            if fld not in ("weight", "reps", "sets") or _number(p.new_value) is None:
                out.problems.append(f"I can correct weight, reps or sets with a number, not “{p.field} = {p.new_value}”")
                continue
            target = find_correction_target(entries, exercise, fld, p.old_value)
            if target is None:
                out.needs_user.append(
                    f"I can't find a logged {exercise or 'entry'} with {fld} {p.old_value or '?'} to correct"
                )
                continue
            out.ops.append(
                PatchOp(
                    op=name, domain=target.domain, exercise=exercise, entry_id=target.entry_id, field=fld,
                    old_value=p.old_value, new_value=p.new_value,
                )
            )
            out.evidence.append(
                Evidence(
                    claim=f"The entry meant is {target.occurred_on.isoformat()}: {target.summary}",
                    status="validated",
                    sources=[_entry_source(target, now)],
                    notes="the latest matching entry",
                )
            )
    return out
