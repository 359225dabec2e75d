"""Evidence that is checked: a claim the model marks ``validated`` must agree with its source, in code.

* A claim with a number about the person's data ("current working weight
  is 55 kg") must match a value in their entries or computed facts, of the
  same subject (the exercise it names, else the plan's) and the same unit,
  within the claim's rounding: then it is validated and cites what matched.
  When their data of that subject and unit says something else, it is
  ``conflicting`` (for weights, distances, paces and times) and the note says
  what the log shows; otherwise ``unresolved``.
* A claim resting on domain knowledge must name the expertise or rule line
  (``R4``) it rests on; that line is the evidence's source, shown as its
  title. Citing "domain" without a line leaves it ``unresolved``; numbers in
  it must be in that line.
* A claim resting on a knowledge-base article names it (``K2``, or one of
  its values ``A5``): validated when every number in the claim is among the
  article's values offered; its source is the article (title, URL or path,
  when it was read).
* A claim without numbers that cites an entry (``E3`` or its date) or a
  fact (``F2``) is validated when that source exists and names the exercise
  the claim names, if any.
* Only what the domain's ``investigation_tools`` let the loop read can
  validate anything. The model's own status is never raised, only lowered.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from engine import texts
from engine.domains.registry import ActiveDomainContext
from engine.entries.model import Entry
from engine.facts import Fact
from engine.outcomes import Citation
from engine.agents.task_schemas import ProposedAssumption
from engine.query.articles import source_of, values_of
from engine.query.references import REF, Ref, RefTable
from engine.query.render import render_text
from engine.tasks.model import Evidence, EvidenceStatus

_ORDER: dict[EvidenceStatus, int] = {"validated": 2, "unresolved": 1, "conflicting": 0}
_QUANTITY = re.compile(
    r"(?<![\w.])(\d+(?:[.,]\d+)?)\s*(kgs?|kilos?|키로|킬로|lbs?|pounds?|reps?|회|sets?|세트|km|m|meters?|times|sessions?|번|%)?"
    r"(?![A-Za-z])",
    re.IGNORECASE,
)
_KINDS = {
    "kg": "kg", "kgs": "kg", "kilo": "kg", "kilos": "kg", "키로": "kg", "킬로": "kg", "lb": "lb", "lbs": "lb",
    "pound": "lb", "pounds": "lb", "rep": "reps", "reps": "reps", "회": "reps", "set": "sets", "sets": "sets",
    "세트": "sets", "km": "km", "m": "m", "meter": "m", "meters": "m", "times": "sessions", "session": "sessions",
    "sessions": "sessions", "번": "sessions", "%": "%",
}  # fmt: skip
_FACT_KINDS = {"kg": "kg", "lb": "lb", "reps": "reps", "sets": "sets", "sessions": "sessions", "days": "sessions",
               "sessions/week": "sessions", "days/week": "sessions", "km": "km", "m": "m", "%": "%"}
_CONFLICT_KINDS = frozenset({"kg", "lb", "km", "m"})


@dataclass(frozen=True, slots=True)
class _Value:
    value: float
    kind: str
    """kg, lb, reps, sets, sessions, km, m, %, or "" (no unit written: any kind)."""
    where: str
    """What it is, for a note: ``bench press 52.5 kg on 2026-11-15``."""
    source: Citation


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def add_rule_lines(table: RefTable, ctx: ActiveDomainContext) -> None:
    """Offer each sentence of the domains' expertise and each rule as a line the model can cite (``R1``…)."""
    for domain in ctx.domains:
        lines = [*_SENTENCE.split(domain.expertise.strip()), *domain.response_rules]
        for line in lines:
            if line.strip():
                table.add("rule", line.strip(), key=domain.name)


def _quantities(claim: str) -> list[tuple[float, float, str]]:
    """Numbers in a claim, dates left out: (value, half a unit of its last digit, kind)."""
    out = []
    for m in _QUANTITY.finditer(_ISO_DAY.sub(" ", claim)):
        digits = m.group(1).replace(",", ".")
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        out.append((float(digits), 0.5 * 10.0**-decimals, _KINDS.get((m.group(2) or "").lower(), "")))
    return out


def entry_citation(e: Entry, now: datetime) -> Citation:
    return Citation(title=f"{e.occurred_on.isoformat()} · {e.summary}", ref=f"entry:{e.entry_id}",
                    retrieved_at=now, on=e.occurred_on)


def _entry_values(entries: Sequence[Entry], subjects: set[str], now: datetime) -> list[_Value]:
    out = []
    for e in entries:
        if e.status != "active" or e.kind != "parsed":
            continue
        for ex in e.data.get("exercises") or ():
            name = str(ex.get("name") or "").strip().lower()
            if subjects and name not in subjects:
                continue
            unit, cite = ex.get("weight_unit") or "", entry_citation(e, now)
            details = ex.get("set_details") or []
            out.append(_Value(float(ex.get("sets") or len(details)), "sets", f"{name} on {e.occurred_on}", cite))
            for s in details:
                if s.get("weight") is not None and unit:
                    where = f"{name} {s['weight']:g} {unit} on {e.occurred_on.isoformat()}"
                    out.append(_Value(float(s["weight"]), unit, where, cite))
                if s.get("reps") is not None:
                    out.append(_Value(float(s["reps"]), "reps", f"{name} on {e.occurred_on}", cite))
    return out


def _fact_values(facts: Sequence[Fact], subjects: set[str], now: datetime) -> list[_Value]:
    out = []
    for f in facts:
        subject = f.key.split(".", 1)[0]
        if subjects and subject not in subjects and subject != "all":
            continue
        kind = _FACT_KINDS.get(f.unit)
        if kind is None:
            continue
        cite = Citation(title=f"{f.label}: {f.display}", ref=f"fact:{f.key}", retrieved_at=now, on=f.on)
        out.append(_Value(abs(f.value), kind, f"{f.label}: {f.display}", cite))
    return out


def _matches(pool: Sequence[_Value], value: float, half: float, kind: str) -> list[_Value]:
    return [v for v in pool if (not kind or v.kind == kind) and value - half - 1e-9 <= v.value < value + half - 1e-9]


def _worst(a: EvidenceStatus, b: EvidenceStatus) -> EvidenceStatus:
    return a if _ORDER[a] <= _ORDER[b] else b


def _source_ref(source: str, table: RefTable) -> Ref | None:
    m = REF.fullmatch(source) or re.fullmatch(r"([A-Za-z])(\d{1,4})", source)
    return table.get(f"{m.group(1)}{int(m.group(2))}") if m else None


def check_evidence(
    proposed: Sequence[ProposedAssumption],
    *,
    table: RefTable,
    entries: Sequence[Entry],
    facts: Sequence[Fact],
    ctx: ActiveDomainContext,
    subjects: Sequence[str],
    now: datetime,
) -> list[Evidence]:
    """Evidence for each assumption, its status decided in code (see the module docstring).

    Args:
        table: The values and lines the model was offered (ids it may cite).
        entries: The entries the loop read (empty when it may not read entries).
        facts: The facts the loop computed (empty when it may not read facts).
        subjects: Exercises the plan is about, for claims that name none.
    """
    by_day: dict[str, list[Entry]] = {}
    for e in entries:
        by_day.setdefault(e.occurred_on.isoformat(), []).append(e)
    # Exercises their data holds: a term like "1rm" or "deload" names no subject.
    logged = {str(x.get("name") or "").lower() for e in entries for x in e.data.get("exercises") or ()}
    logged |= {f.key.split(".", 1)[0] for f in facts} | {s.strip().lower() for s in subjects}
    exercises = {m for members in ctx.family_map.values() for m in members}
    out: list[Evidence] = []
    for a in proposed:
        claim = render_text(a.claim, table, "en")
        named = {t for t in ctx.vocabulary.terms(claim) if t in logged or t in exercises}
        about = named or {s.strip().lower() for s in subjects}
        source = a.source.strip()
        ref = _source_ref(source, table)
        status, sources, notes = _judge(claim, named, about, source, ref, by_day, table, entries, facts, now)
        out.append(Evidence(claim=claim, status=_worst(status, a.status), critical=a.critical, sources=sources,
                            notes=notes))
    return out


def _judge(
    claim: str,
    named: set[str],
    about: set[str],
    source: str,
    ref: Ref | None,
    by_day: dict[str, list[Entry]],
    table: RefTable,
    entries: Sequence[Entry],
    facts: Sequence[Fact],
    now: datetime,
) -> tuple[EvidenceStatus, list[Citation], str]:
    quantities = _quantities(claim)
    if ref is not None and ref.kind in ("source", "article"):
        return _from_article(quantities, ref, table, now)
    if ref is not None and ref.kind == "rule":
        line = Citation(title=ref.text, ref=f"domain:{ref.key}#{ref.id}", retrieved_at=now)
        in_line = {q for q, _, _ in _quantities(ref.text)}
        if all(q in in_line for q, _, _ in quantities):
            return "validated", [line], ""
        return "unresolved", [line], texts.NOT_IN_LOG
    if quantities:
        from_log, computed = _entry_values(entries, about, now), _fact_values(facts, about, now)
        pool = [*from_log, *computed]
        found = [m for q, half, kind in quantities for m in _matches(pool, q, half, kind)]
        if found and all(_matches(pool, q, half, kind) for q, half, kind in quantities):
            return "validated", list({c.source.ref: c.source for c in found}.values())[:3], ""
        kinds = {kind for _, _, kind in quantities} & _CONFLICT_KINDS
        # What the log says instead: the latest logged value of that unit, else a computed one.
        against = [v for v in from_log if v.kind in kinds] or [v for v in computed if v.kind in kinds]
        if against:
            return "conflicting", [against[-1].source], texts.log_shows(against[-1].where)
        return "unresolved", [], texts.NOT_IN_LOG
    if source.lower() in ("domain", *{r.key for r in table.of("rule")}) or source.lower().startswith("domain"):
        return "unresolved", [], texts.NO_LINE_NAMED
    cited: list[Entry] = []
    if ref is not None and ref.kind == "entry":
        cited = [e for e in entries if e.entry_id == ref.key]
    elif source in by_day:
        cited = by_day[source]
    if cited:
        logged = {str(x.get("name") or "").lower() for e in cited for x in e.data.get("exercises") or ()}
        if not named or named & logged:
            return "validated", [entry_citation(e, now) for e in cited[:3]], ""
        return "unresolved", [entry_citation(e, now) for e in cited[:3]], texts.NOT_IN_LOG
    if ref is not None and ref.kind == "fact":
        fact = next((f for f in facts if f.key == ref.key), None)
        if fact is not None:
            return "validated", [Citation(title=f"{fact.label}: {fact.display}", ref=f"fact:{fact.key}",
                                          retrieved_at=now, on=fact.on)], ""
    return "unresolved", [], texts.NOT_IN_LOG


def _from_article(
    quantities: list[tuple[float, float, str]], ref: Ref, table: RefTable, now: datetime
) -> tuple[EvidenceStatus, list[Citation], str]:
    article = source_of(table, ref)
    if article is None:
        return "unresolved", [], texts.NOT_IN_LOG
    cite = Citation(title=article.text, ref=f"article:{article.key}", url=article.url, retrieved_at=now)
    stated = {q for value in values_of(table, article) for q, _, _ in _quantities(value.text)}
    if all(q in stated for q, _, _ in quantities):
        return "validated", [cite], ""
    return "unresolved", [cite], texts.NOT_IN_ARTICLE
