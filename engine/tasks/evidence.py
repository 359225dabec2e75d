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
* A claim resting on the person's own word (:mod:`engine.tasks.said`): one
  that cites a value they wrote (``Q2``, in its source or its text) or
  names their request or answer as its source, is validated by what they
  wrote, which is its source ("you, 2026-11-25: “…”"); a number in it they
  did not write is checked as any other (and conflicts with theirs). A yes
  to "Is it right that X?" validates X and a no makes it conflicting,
  whatever the model marks.
* Only what the domain's ``investigation_tools`` let the loop read can
  validate anything. The model's own status is never raised, only lowered
  (the person's yes is theirs, not the model's).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from engine.agents.task_schemas import ProposedAssumption
from engine.domains.registry import ActiveDomainContext
from engine.entries.model import Entry
from engine.facts import Fact
from engine.outcomes import Citation
from engine.query.articles import source_of, values_of
from engine.query.references import REF, Ref, RefTable, used
from engine.query.render import render_text
from engine.tasks import texts as plan_texts
from engine.tasks.logged import CONFLICT_KINDS, Quantity, entry_citation, entry_values, fact_values, matches, numbers_in
from engine.tasks.model import Evidence, EvidenceStatus
from engine.tasks.said import Said, person_cited

_ORDER: dict[EvidenceStatus, int] = {"validated": 2, "unresolved": 1, "conflicting": 0}
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def add_rule_lines(table: RefTable, ctx: ActiveDomainContext) -> None:
    """Offer each sentence of the domains' expertise and each rule as a line the model can cite (``R1``…)."""
    for domain in ctx.domains:
        lines = [*_SENTENCE.split(domain.expertise.strip()), *domain.response_rules]
        for line in lines:
            if line.strip():
                table.add("rule", line.strip(), key=domain.name)


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
    said: Said | None = None,
) -> list[Evidence]:
    """Evidence for each assumption, its status decided in code (see the module docstring).

    Args:
        table: The values and lines the model was offered (ids it may cite).
        entries: The entries the loop read (empty when it may not read entries).
        facts: The facts the loop computed (empty when it may not read facts).
        subjects: Exercises the plan is about, for claims that name none.
        said: The request and the person's answers this turn (their own word is evidence of itself).
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
        reply = said.confirmation(claim) if said is not None else None
        if said is not None and reply is not None:
            yes = reply.verdict == "yes"
            out.append(
                Evidence(
                    claim=claim,
                    status="validated" if yes else "conflicting",
                    critical=a.critical,
                    sources=[said.reply_source(reply, now)],
                    notes=plan_texts.YOU_CONFIRMED if yes else plan_texts.YOU_DENIED,
                )
            )
            continue
        named = {t for t in ctx.vocabulary.terms(claim) if t in logged or t in exercises}
        about = named or {s.strip().lower() for s in subjects}
        source = a.source.strip()
        ref = _source_ref(source, table)
        quantities = numbers_in(claim)
        theirs = _their_values(a, ref, table)
        if said is not None and (theirs or person_cited(source)):
            status, sources, notes = _from_their_word(
                claim, quantities, theirs, source, said, named, about, by_day, table, entries, facts, now
            )
        else:
            status, sources, notes = _judge(quantities, named, about, source, ref, by_day, table, entries, facts, now)
        out.append(
            Evidence(claim=claim, status=_worst(status, a.status), critical=a.critical, sources=sources, notes=notes)
        )
    return out


def _their_values(a: ProposedAssumption, ref: Ref | None, table: RefTable) -> list[Ref]:
    """The person's values (``Q``) a claim cites, in its source or its text."""
    cited = [table.get(i) for i in used(a.claim)] + [ref]
    return [r for r in cited if r is not None and r.kind == "question"]


def _from_their_word(
    claim: str,
    quantities: list[Quantity],
    theirs: list[Ref],
    source: str,
    said: Said,
    named: set[str],
    about: set[str],
    by_day: dict[str, list[Entry]],
    table: RefTable,
    entries: Sequence[Entry],
    facts: Sequence[Fact],
    now: datetime,
) -> tuple[EvidenceStatus, list[Citation], str]:
    """A claim resting on what the person wrote: their numbers are validated by it, any other is checked."""
    own = [(r, q) for r in table.of("question") for q in numbers_in(r.text)]
    cited = list({c.ref: c for c in (said.source_of(r, now) for r in theirs)}.values())
    if not cited:
        cited = said.sources_for(source, now)
    rest: list[Quantity] = []
    for q in quantities:
        mine = [r for r, (v, _, kind) in own if abs(v - q[0]) <= q[1] and (not q[2] or kind == q[2])]
        if mine:
            cited += [c for c in (said.source_of(r, now) for r in mine) if c not in cited]
        else:
            rest.append(q)
    if not rest:
        return "validated", cited[:3], ""
    # A number they did not write, in a claim about what they wrote: theirs says otherwise.
    written = [r.text for r, (_, _, kind) in own if kind and kind in {q[2] for q in rest}]
    if written:
        return "conflicting", cited[:3], plan_texts.you_wrote_otherwise(list(dict.fromkeys(written)))
    status, sources, notes = _judge(rest, named, about, "", None, by_day, table, entries, facts, now)
    return status, [*cited, *sources][:3], notes


def _judge(
    quantities: list[Quantity],
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
    if ref is not None and ref.kind in ("source", "article"):
        return _from_article(quantities, ref, table, now)
    if ref is not None and ref.kind == "rule":
        line = Citation(title=ref.text, ref=f"domain:{ref.key}#{ref.id}", retrieved_at=now)
        in_line = {q for q, _, _ in numbers_in(ref.text)}
        if all(q in in_line for q, _, _ in quantities):
            return "validated", [line], ""
        return "unresolved", [line], plan_texts.NOT_IN_LOG
    if quantities:
        from_log, computed = entry_values(entries, about, now), fact_values(facts, about, now)
        pool = [*from_log, *computed]
        found = [m for q, half, kind in quantities for m in matches(pool, q, half, kind)]
        if found and all(matches(pool, q, half, kind) for q, half, kind in quantities):
            return "validated", list({c.source.ref: c.source for c in found}.values())[:3], ""
        kinds = {kind for _, _, kind in quantities} & CONFLICT_KINDS
        # What the log says instead: the latest logged value of that unit, else a computed one.
        against = [v for v in from_log if v.kind in kinds] or [v for v in computed if v.kind in kinds]
        if against:
            return "conflicting", [against[-1].source], plan_texts.log_shows(against[-1].where)
        return "unresolved", [], plan_texts.NOT_IN_LOG
    if source.lower() in ("domain", *{r.key for r in table.of("rule")}) or source.lower().startswith("domain"):
        return "unresolved", [], plan_texts.NO_LINE_NAMED
    cited: list[Entry] = []
    if ref is not None and ref.kind == "entry":
        cited = [e for e in entries if e.entry_id == ref.key]
    elif source in by_day:
        cited = by_day[source]
    if cited:
        logged = {str(x.get("name") or "").lower() for e in cited for x in e.data.get("exercises") or ()}
        if not named or named & logged:
            return "validated", [entry_citation(e, now) for e in cited[:3]], ""
        return "unresolved", [entry_citation(e, now) for e in cited[:3]], plan_texts.NOT_IN_LOG
    if ref is not None and ref.kind == "fact":
        fact = next((f for f in facts if f.key == ref.key), None)
        if fact is not None:
            return (
                "validated",
                [Citation(title=f"{fact.label}: {fact.display}", ref=f"fact:{fact.key}", retrieved_at=now, on=fact.on)],
                "",
            )
    return "unresolved", [], plan_texts.NOT_IN_LOG


def _from_article(
    quantities: list[Quantity], ref: Ref, table: RefTable, now: datetime
) -> tuple[EvidenceStatus, list[Citation], str]:
    article = source_of(table, ref)
    if article is None:
        return "unresolved", [], plan_texts.NOT_IN_LOG
    cite = Citation(title=article.text, ref=f"article:{article.key}", url=article.url, retrieved_at=now)
    stated = {q for value in values_of(table, article) for q, _, _ in numbers_in(value.text)}
    if all(q in stated for q, _, _ in quantities):
        return "validated", [cite], ""
    return "unresolved", [cite], plan_texts.NOT_IN_ARTICLE
