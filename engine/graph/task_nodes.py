"""Nodes of task formation and the approval gate (ARCHITECTURE §3): FORM_TASK → (CLARIFY →
WAIT_USER)* → APPROVAL → EXECUTE. Nothing changes until the person approves.

FORM_TASK is a bounded loop (never recursive): it investigates what the
domain's ``investigation_tools`` allow (entries and facts over widening
windows, sized to the request: :mod:`engine.tasks.values`; the expertise and
rule lines) and re-forms until the gate passes, or it stops at
``max_attempts``, when a round brings nothing (the same proposal again, or
confidence not rising with no fewer problems), before a round that would
send the very prompt the last one sent, or at ``max_time_ms``, a deadline on
the whole loop that cancels a model call still running. Evidence is checked
in code (:mod:`engine.tasks.evidence`), the person's own word counting as
evidence of itself (:mod:`engine.tasks.said`); the plan's text refers to
values by id (:mod:`engine.tasks.wording`). Then it asks the person (never
the same question twice in a turn), or downgrades the TaskSheet to a
WorkPlan that is only shown.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import structlog
from langgraph.types import interrupt

from engine import interrupts
from engine.agents.base import ask
from engine.agents.former import FORMER, FormerInput
from engine.agents.task_schemas import TaskFormationOutput
from engine.domains.model import Domain
from engine.domains.registry import ActiveDomainContext
from engine.entries.model import Entry
from engine.facts import Fact, compute_facts
from engine.graph.deps import Deps
from engine.graph.state import State, dump, emit
from engine.graph.view import TurnView
from engine.interrupts import ApprovalPayload, AskQuestion, Cancelled
from engine.knowledge.model import Chunk
from engine.outcomes import Answer, Logged, LoggedEntry, Notice
from engine.query import articles as kb
from engine.query.answering import names_for
from engine.query.articles import ArticleNote
from engine.query.lookup import articles_for
from engine.query.references import RefTable
from engine.query.render import korean_names, language_of
from engine.store.history import HistoryStore
from engine.tasks import coded
from engine.tasks import texts as plan_texts
from engine.tasks.amounts import Given, logged_amounts
from engine.tasks.coded import offered, read_request
from engine.tasks.evidence import add_rule_lines, check_evidence
from engine.tasks.formation import OpCheck, Round, check_ops, confidence, gate, patch_id_for, proposal_of, stagnated
from engine.tasks.logged import logged_values
from engine.tasks.model import Evidence, Patch, TaskSheet, WorkPlan
from engine.tasks.said import Said, not_yet_asked
from engine.tasks.values import article_values_once, formation_table, subjects_of, window
from engine.tasks.wording import worded, wording_problems

log = structlog.get_logger("engine.tasks")
MAX_TASK_QUESTIONS_ROUNDS = 2


# --------------------------------------------------------------------------- nodes


FORMATION_ARTICLE_CHARS = 1500
"""Article text in the planner's prompt (it also carries the expertise lines and the history's values;
issue 21 keeps the whole prompt within 2,500 tokens)."""


@dataclass(frozen=True)
class LastRound:
    """The loop's last round, which FORM_TASK decides on (``Round`` is what the stagnation check keeps)."""

    out: TaskFormationOutput
    check: OpCheck
    evidence: list[Evidence]
    confidence: float
    passed: bool
    """The gate passed (``gate``)."""
    table: RefTable
    """The values the round offered, which the plan's text refers to."""
    said: Said


class TaskNodes:
    def __init__(self, deps: Deps) -> None:
        self.d = deps

    def _domain(self, t: TurnView) -> Domain:
        for name in t.domains:
            domain = self.d.selector.registry.get(name)
            if domain is not None:
                return domain
        registry = self.d.selector.registry
        fallback = registry.get(registry.fallback or registry.names[0])
        assert fallback is not None
        return fallback

    async def _event(self, t: TurnView, kind: str, detail: str) -> None:
        await self.d.patches.record_event(t.conversation, t.user, kind, detail)

    async def _articles(self, t: TurnView, domain: Domain, ctx: ActiveDomainContext) -> list[Chunk]:
        """Knowledge-base sections for a plan (a correction needs none), when the domain lets formation read them."""
        if "knowledge" not in domain.investigation_tools or t.intent == "CORRECTION":
            return []
        return await articles_for(self.d.library, ctx, t.text, knowledge_query=t.text)

    async def _investigate(
        self, t: TurnView, domain: Domain, ctx: ActiveDomainContext, attempt: int, chunks: list[Chunk], said: Said
    ) -> tuple[list[Entry], list[Fact], RefTable, list[ArticleNote]]:
        """One round's reading, limited to the domain's ``investigation_tools``: entries over a widening
        window (or the past period the request names), facts computed from them, the expertise and rule
        lines; what is offered is sized to the request, with the person's own values."""
        tools = set(domain.investigation_tools)
        today = t.today
        profile = domain.retrieval_profile
        first, last = window(t.text, today, profile.days[min(attempt, len(profile.days) - 1)])
        # Entries are read even without the tool: a correction must find the entry it corrects.
        entries = await self.d.entries.between(t.user, first, last, limit=profile.max_entries)
        facts = compute_facts(entries, today=today, domains=self.d.selector.registry) if "facts" in tools else []
        exercises = {m for members in ctx.family_map.values() for m in members}
        subjects = subjects_of(ctx.vocabulary.terms(t.text), entries, exercises)
        shown = entries if "entries" in tools else []
        table = formation_table(facts, shown, subjects=subjects, domains=ctx.domains_loaded, said=said)
        if "expertise" in tools:
            add_rule_lines(table, ctx)
        notes = article_values_once(table, kb.offer(table, chunks, max_chars=FORMATION_ARTICLE_CHARS))
        return entries, facts, table, notes

    async def _coded(self, t: TurnView, ctx: ActiveDomainContext) -> TaskSheet | None:
        """The plan code forms for a request it reads (a next-session target, a deload week), or None."""
        req = read_request(t.text, ctx, self.d.selector.registry)
        if req is None or t.intent != "TASK" or t.revision_feedback:
            # Revise with feedback is the model's, with the code's plan as the previous one.
            return None
        lang = language_of(t.text)
        offer = offered(await self.d.patches.events(t.conversation))
        lifts = [*req.lifts, *([offer[1]] if offer else [])]
        names = korean_names(lifts, ctx.vocabulary_map) if lang == "ko" else {}
        return await coded.form(
            req,
            history=HistoryStore(self.d.entries.db, self.d.selector.registry),
            ctx=ctx,
            user=t.user,
            today=t.today,
            lang=lang,
            names=names,
            last_offer=offer,
            turn_id=t.turn_id,
            revision=t.revisions,
        )

    async def form_task(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        domain = self._domain(t)
        ctx = t.context_of(t.domains or [domain.name])
        if (sheet := await self._coded(t, ctx)) is not None:
            await self._event(
                t, "PLAN_APPROVAL_REQUIRED", f"{len(sheet.patch.ops)} changes, by code: {sheet.goal[:120]}"
            )
            return {"task": dump(sheet), "ask": None}
        today = t.today
        budget, policy, tools = domain.attempt_budget, domain.formation_policy, set(domain.investigation_tools)
        goals = "; ".join(f"{d}: {g}" for d, g in await self.d.patches.active_goals(t.user))
        said = Said.of(t.text, today, t.answers)
        answers = "\n".join(f"{r.question} -> {r.answer}" for r in said.replies)
        previous = plan_texts.plan_text(t.task_sheet) if t.task_sheet is not None else ""
        request_terms = ctx.vocabulary.terms(t.text)
        lang = language_of(t.text)
        # max_time_ms bounds the whole loop: a model call still running at the budget is cancelled.
        deadline = time.monotonic() + budget.max_time_ms / 1000
        rounds: list[Round] = []
        problems = [plan_texts.denied(claim) for claim in said.denied]
        asked: FormerInput | None = None
        last: LastRound | None = None
        chunks = await self._articles(t, domain, ctx)
        for attempt in range(budget.max_attempts):
            entries, facts, table, notes = await self._investigate(t, domain, ctx, attempt, chunks, said)
            messages = FormerInput(
                domains=ctx.domains_loaded,
                intent=t.intent or "TASK",
                request=t.text,
                today=today,
                allowed_ops=list(domain.tool_profile.allowed_ops),
                lines=table.prompt(["rule"]) if "expertise" in tools else "(not available for this domain)",
                values=table.prompt(["fact", "entry", "question", "source", "article"]),
                goals=goals,
                answers=answers,
                previous=previous,
                feedback=t.revision_feedback,
                problems=problems,
                articles=kb.prompt(notes) if notes else "",
            )
            if messages == asked:
                # At temperature 0 the same prompt gets the same plan: a wider window found nothing new.
                log.info("task.nothing_new", attempt=attempt + 1)
                break
            asked = messages
            now = datetime.now(timezone.utc)
            try:
                out = await asyncio.wait_for(
                    ask(self.d.llm, FORMER, messages), timeout=max(0.0, deadline - time.monotonic())
                )
            except TimeoutError:
                log.warning("task.out_of_time", attempt=attempt + 1, budget_ms=budget.max_time_ms)
                break
            if out.next_step == "no_task":
                reply = Answer(text=plan_texts.nothing_to_plan(out.reasoning))
                return {"task": None, "ask": None, **emit(reply)}
            given = Given(
                table, t.text, logged_amounts(logged_values(entries, facts)), lang, names_for(table, ctx, lang)
            )
            check = check_ops(out.operations, domain, ctx, entries, today, now.isoformat(), given)
            subjects = [op.exercise for op in check.ops if op.exercise] or request_terms
            claims = check_evidence(
                out.assumptions,
                table=table,
                entries=entries if "entries" in tools else [],
                facts=facts,
                ctx=ctx,
                subjects=subjects,
                now=now,
                said=said,
            )
            evidence = [*check.evidence, *claims]
            conf = confidence(evidence) if not (check.problems or check.refused) else 0.0
            wording = wording_problems(out, table, t.text)
            denied = [plan_texts.denied(e.claim) for e in claims if e.notes == plan_texts.YOU_DENIED]
            problems = [*check.problems, *check.refused, *check.needs_user, *wording, *denied]
            passed = gate(conf, evidence, check, policy.confidence_threshold)
            await self._event(
                t,
                "PLAN_PROGRESS",
                f"round {attempt + 1}: confidence {conf:.2f}, {len(check.ops)} changes, {len(problems)} problems",
            )
            log.info("task.round", attempt=attempt + 1, confidence=conf, passed=passed, problems=problems)
            last = LastRound(out, check, evidence, conf, passed, table, said)
            rounds.append(Round(conf, len(problems), proposal_of(out)))
            if (passed and not wording) or out.next_step == "ask_user" or check.refused or check.needs_user:
                break
            if time.monotonic() > deadline or stagnated(rounds, budget.delta_min):
                break
        if last is None:
            reply = Answer(text=plan_texts.planning_out_of_time(budget.max_time_ms / 1000), partial=True)
            return {"task": None, "ask": None, **emit(reply)}
        return await self._decide(t, domain, last)

    async def _decide(self, t: TurnView, domain: Domain, r: LastRound) -> dict[str, Any]:
        out, check, evidence, conf, table = r.out, r.check, r.evidence, r.confidence, r.table
        lang = language_of(t.text)
        ctx = t.context_of(t.domains or [domain.name])
        shown = worded(out, table, lang, names_for(table, ctx, lang), t.text)
        base = shown.fields
        stateful = any(op.op in domain.formation_policy.task_sheet_for for op in check.ops)
        if r.passed and stateful:
            patch = Patch(patch_id=patch_id_for(t.turn_id, t.revisions, check.ops), ops=check.ops)
            sheet = TaskSheet(
                **base,
                assumptions=[e.claim for e in evidence],
                evidence=evidence,
                patch=patch,
                confidence=conf,
                note=plan_texts.PLAN_WORDING_LEFT_OUT if shown.left_out else "",
            )
            await self._event(
                t, "PLAN_APPROVAL_REQUIRED", f"{len(patch.ops)} changes, confidence {conf:.2f}: {sheet.goal[:120]}"
            )
            return {"task": dump(sheet), "ask": None}
        # Not passed (or nothing to change): ask when only the person can unblock it, never the same twice…
        said = r.said
        questions = [AskQuestion(text=q, gap=q) for q in not_yet_asked(said, [*out.questions_for_user])]
        questions = questions or [AskQuestion(text=q, gap=q) for q in not_yet_asked(said, check.needs_user)]
        if not questions and stateful:
            # Confirming a claim matters only when something would change; a yes or a no answers it.
            unsure = [plan_texts.is_it_right(e.claim) for e in evidence if e.critical and e.status != "validated"]
            options = list(plan_texts.CONFIRM_OPTIONS)
            questions = [AskQuestion(text=q, options=options, gap=q) for q in not_yet_asked(said, unsure)[:3]]
        can_ask = (
            "ask_user" in domain.interaction_tools
            and not t.declined
            and t.clarify_rounds < MAX_TASK_QUESTIONS_ROUNDS
            and not check.refused
        )
        if not r.passed and questions and can_ask:
            payload = interrupts.ask(
                questions, why=plan_texts.TASK_ASK_WHY, if_declined=plan_texts.TASK_DECLINE_FALLBACK, asked_by=t.user
            )
            await self._event(t, "CLARIFY", "; ".join(q.text for q in questions[:3]))
            return {"task": None, "ask": dump(payload), "ask_origin": "task", "clarify_rounds": t.clarify_rounds + 1}
        # …or show it as a WorkPlan: nothing is stored.
        note = ""
        if check.refused:
            note = plan_texts.not_done(check.refused)
        elif stateful or check.problems or check.needs_user:
            unsure = (
                [e.claim for e in evidence if e.critical and e.status != "validated"]
                + check.problems
                + check.needs_user
            )
            note = plan_texts.plan_only(unsure)
        if shown.left_out:
            note = f"{note} {plan_texts.PLAN_WORDING_LEFT_OUT}".strip()
        plan = WorkPlan(**base, note=note)
        citations = [s for e in evidence for s in e.sources][:10]
        answer = Answer(text=plan_texts.plan_text(plan), citations=citations, partial=bool(note))
        return {"task": dump(plan), "ask": None, **emit(answer)}

    async def approval(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        sheet = t.task_sheet
        assert sheet is not None, "APPROVAL follows a TaskSheet"
        payload = ApprovalPayload(
            title=sheet.goal,
            plan=dump(sheet),
            summary=plan_texts.plan_text(sheet, with_goal=False),
            confidence=sheet.confidence,
            evidence=[s for e in sheet.evidence for s in e.sources][: interrupts.MAX_EVIDENCE],
            asked_by=t.user,
        )
        reply = interrupts.read_decision(interrupt(dump(payload)))
        decision = "cancel" if isinstance(reply, Cancelled) else reply.decision
        update: dict[str, Any] = {"decision": decision}
        if decision == "revise" and not isinstance(reply, Cancelled):
            revisions = t.revisions + 1
            update.update(revision_feedback=reply.feedback.strip()[:1000], revisions=revisions)
            if revisions > self._domain(t).attempt_budget.max_attempts:
                notice = Notice(text=plan_texts.TOO_MANY_REVISIONS, code="revisions")
                update.update(decision="too_many", **emit(notice))
        elif decision == "cancel":
            update.update(emit(Notice(text=plan_texts.PLAN_CANCELLED, code="cancelled")))
        return update

    async def record_decision(self, state: State) -> dict[str, Any]:
        """Side effect after the interrupt: the decision goes into the conversation's history once."""
        t = TurnView(state)
        detail = f"{t.decision} by {t.user}"
        if t.decision == "revise" and t.revision_feedback:
            detail += f": {t.revision_feedback[:200]}"
        await self._event(t, "DECISION", detail)
        return {}

    async def execute(self, state: State) -> dict[str, Any]:
        t = TurnView(state)
        sheet = t.task_sheet
        assert sheet is not None, "EXECUTE follows an approved TaskSheet"
        result = await self.d.patches.commit(t.user, t.conversation, sheet.patch)
        if not result.replay:
            await self._event(t, "COMMITTED", f"{sheet.patch.patch_id}: {len(result.lines)} changes")
        if not result.changed:
            # Said only when something changed: a correction that matched no set is reported as such.
            return emit(Notice(text=plan_texts.nothing_changed(result.unchanged), code="unchanged"))
        created = await self.d.entries.by_ids(t.user, result.created)
        goal_lines = [line for line in result.lines if line.startswith("goal (")]
        done = Notice(text=plan_texts.committed(goal_lines), code="committed")
        if not created:
            return emit(done)
        corrects = any(op.op == "correct_entry" for op in sheet.patch.ops)
        logged = Logged(
            entries=[
                LoggedEntry(
                    entry_id=e.entry_id,
                    on=e.occurred_on,
                    domain=e.domain,
                    summary=e.summary,
                    action="planned" if e.kind == "planned" else "corrected" if corrects else "logged",
                )
                for e in created
            ]
        )
        return emit(logged, done)
