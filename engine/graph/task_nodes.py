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
from datetime import date, datetime, timedelta, timezone
from typing import Any

import structlog
from langgraph.types import interrupt

from engine.agents.base import ask
from engine.agents.former import FORMER, FormerInput
from engine.tasks.model import Patch, TaskSheet, WorkPlan
from engine.agents.task_schemas import TaskFormationOutput
from engine.domains.model import Domain
from engine.domains.registry import ActiveDomainContext
from engine.entries.model import Entry
from engine.facts import Fact, compute_facts
from engine.graph.deps import Deps
from engine import interrupts, texts
from engine.graph.state import State, dump, emit
from engine.interrupts import ApprovalPayload, AskQuestion, Cancelled
from engine.outcomes import Answer, Logged, LoggedEntry, Notice
from engine.knowledge.model import Chunk
from engine.query import articles as kb
from engine.query.answering import names_for
from engine.query.articles import ArticleNote
from engine.query.lookup import articles_for
from engine.query.references import RefTable
from engine.query.render import language_of
from engine.tasks.amounts import Given, logged_amounts
from engine.tasks.evidence import add_rule_lines, check_evidence
from engine.tasks.logged import logged_values
from engine.tasks.formation import Round, check_ops, confidence, gate, patch_id_for, proposal_of, stagnated
from engine.tasks.said import Said, not_yet_asked
from engine.tasks.values import article_values_once, formation_table, subjects_of, window
from engine.tasks.wording import wording_problems, worded
from engine.tasks import texts as plan_texts

log = structlog.get_logger("engine.tasks")
MAX_TASK_QUESTIONS_ROUNDS = 2


# --------------------------------------------------------------------------- nodes


FORMATION_ARTICLE_CHARS = 1500
"""Article text in the planner's prompt (it also carries the expertise lines and the history's values;
issue 21 keeps the whole prompt within 2,500 tokens)."""


class TaskNodes:
    def __init__(self, deps: Deps) -> None:
        self.d = deps

    def _domain(self, state: State) -> Domain:
        for name in state.get("domains") or []:
            domain = self.d.selector.registry.get(name)
            if domain is not None:
                return domain
        fallback = self.d.selector.registry.get("general_fitness") or self.d.selector.registry.get(
            self.d.selector.registry.names[0]
        )
        assert fallback is not None
        return fallback

    async def _event(self, state: State, kind: str, detail: str) -> None:
        await self.d.patches.record_event(state["conversation"], state["user"], kind, detail)

    async def _articles(self, state: State, domain: Domain, ctx: ActiveDomainContext) -> list[Chunk]:
        """Knowledge-base sections for a plan (a correction needs none), when the domain lets formation read them."""
        if "knowledge" not in domain.investigation_tools or state.get("intent") == "CORRECTION":
            return []
        return await articles_for(self.d.library, ctx, state["text"], knowledge_query=state["text"])

    async def _investigate(
        self, state: State, domain: Domain, ctx: ActiveDomainContext, attempt: int, chunks: list[Chunk], said: Said
    ) -> tuple[list[Entry], list[Fact], RefTable, list[ArticleNote]]:
        """One round's reading, limited to the domain's ``investigation_tools``: entries over a widening
        window (or the past period the request names), facts computed from them, the expertise and rule
        lines; what is offered is sized to the request, with the person's own values."""
        tools = set(domain.investigation_tools)
        today = date.fromisoformat(state["today"])
        profile = domain.retrieval_profile
        first, last = window(state["text"], today, profile.days[min(attempt, len(profile.days) - 1)])
        # Entries are read even without the tool: a correction must find the entry it corrects.
        entries = await self.d.entries.between(state["user"], first, last, limit=profile.max_entries)
        facts = compute_facts(entries, today=today) if "facts" in tools else []
        exercises = {m for members in ctx.family_map.values() for m in members}
        subjects = subjects_of(ctx.vocabulary.terms(state["text"]), entries, exercises)
        shown = entries if "entries" in tools else []
        table = formation_table(facts, shown, subjects=subjects, domains=ctx.domains_loaded, said=said)
        if "expertise" in tools:
            add_rule_lines(table, ctx)
        notes = article_values_once(table, kb.offer(table, chunks, max_chars=FORMATION_ARTICLE_CHARS))
        return entries, facts, table, notes

    async def form_task(self, state: State) -> dict[str, Any]:
        domain = self._domain(state)
        ctx = self.d.selector.build_active_context(state.get("domains") or [domain.name])
        today = date.fromisoformat(state["today"])
        budget, policy, tools = domain.attempt_budget, domain.formation_policy, set(domain.investigation_tools)
        goals = "; ".join(f"{d}: {g}" for d, g in await self.d.patches.active_goals(state["user"]))
        said = Said.of(state["text"], today, state.get("answers", []))
        answers = "\n".join(f"{r.question} -> {r.answer}" for r in said.replies)
        previous_task = state.get("task") or {}
        previous = plan_texts.plan_text(TaskSheet.model_validate(previous_task)) if previous_task.get("kind") == "task_sheet" else ""
        request_terms = ctx.vocabulary.terms(state["text"])
        lang = language_of(state["text"])
        # max_time_ms bounds the whole loop: a model call still running at the budget is cancelled.
        deadline = time.monotonic() + budget.max_time_ms / 1000
        rounds: list[Round] = []
        problems = [plan_texts.denied(claim) for claim in said.denied]
        asked: FormerInput | None = None
        result: dict[str, Any] = {}
        chunks = await self._articles(state, domain, ctx)
        for attempt in range(budget.max_attempts):
            entries, facts, table, notes = await self._investigate(state, domain, ctx, attempt, chunks, said)
            messages = FormerInput(
                domains=ctx.domains_loaded,
                intent=state.get("intent", "TASK"),
                request=state["text"],
                today=today,
                allowed_ops=list(domain.tool_profile.allowed_ops),
                lines=table.prompt(["rule"]) if "expertise" in tools else "(not available for this domain)",
                values=table.prompt(["fact", "entry", "question", "source", "article"]),
                goals=goals,
                answers=answers,
                previous=previous,
                feedback=state.get("revision_feedback", ""),
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
                out = await asyncio.wait_for(ask(self.d.llm, FORMER, messages), timeout=max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                log.warning("task.out_of_time", attempt=attempt + 1, budget_ms=budget.max_time_ms)
                break
            if out.next_step == "no_task":
                reply = Answer(text=plan_texts.nothing_to_plan(out.reasoning))
                return {"task": None, "ask": None, **emit(state, reply)}
            given = Given(table, state["text"], logged_amounts(logged_values(entries, facts)), lang,
                          names_for(table, ctx, lang))
            check = check_ops(out.operations, domain, ctx, entries, today, now.isoformat(), given)
            subjects = [op.exercise for op in check.ops if op.exercise] or request_terms
            claims = check_evidence(
                out.assumptions, table=table, entries=entries if "entries" in tools else [], facts=facts, ctx=ctx,
                subjects=subjects, now=now, said=said,
            )
            evidence = [*check.evidence, *claims]
            conf = confidence(evidence) if not (check.problems or check.refused) else 0.0
            wording = wording_problems(out, table, state["text"])
            denied = [plan_texts.denied(e.claim) for e in claims if e.notes == plan_texts.YOU_DENIED]
            problems = [*check.problems, *check.refused, *check.needs_user, *wording, *denied]
            passed = gate(conf, evidence, check, policy.confidence_threshold)
            await self._event(
                state, "PLAN_PROGRESS", f"round {attempt + 1}: confidence {conf:.2f}, {len(check.ops)} changes, {len(problems)} problems"
            )
            log.info("task.round", attempt=attempt + 1, confidence=conf, passed=passed, problems=problems)
            result = {"out": out, "check": check, "evidence": evidence, "conf": conf, "passed": passed, "table": table,
                      "said": said}
            rounds.append(Round(conf, len(problems), proposal_of(out)))
            if (passed and not wording) or out.next_step == "ask_user" or check.refused or check.needs_user:
                break
            if time.monotonic() > deadline or stagnated(rounds, budget.delta_min):
                break
        if not result:
            reply = Answer(text=plan_texts.planning_out_of_time(budget.max_time_ms / 1000), partial=True)
            return {"task": None, "ask": None, **emit(state, reply)}
        return await self._decide(state, domain, result)

    async def _decide(self, state: State, domain: Domain, r: dict[str, Any]) -> dict[str, Any]:
        out: TaskFormationOutput = r["out"]
        check = r["check"]
        evidence = r["evidence"]
        conf: float = r["conf"]
        table: RefTable = r["table"]
        lang = language_of(state["text"])
        ctx = self.d.selector.build_active_context(state.get("domains") or [domain.name])
        shown = worded(out, table, lang, names_for(table, ctx, lang), state["text"])
        base = shown.fields
        stateful = any(op.op in domain.formation_policy.task_sheet_for for op in check.ops)
        if r["passed"] and stateful:
            patch = Patch(patch_id=patch_id_for(state["turn_id"], state.get("revisions", 0), check.ops), ops=check.ops)
            sheet = TaskSheet(
                **base, assumptions=[e.claim for e in evidence], evidence=evidence, patch=patch, confidence=conf,
                note=plan_texts.PLAN_WORDING_LEFT_OUT if shown.left_out else "",
            )
            await self._event(
                state, "PLAN_APPROVAL_REQUIRED", f"{len(patch.ops)} changes, confidence {conf:.2f}: {sheet.goal[:120]}"
            )
            return {"task": dump(sheet), "ask": None}
        # Not passed (or nothing to change): ask when only the person can unblock it, never the same twice…
        said: Said = r["said"]
        questions = [AskQuestion(text=q, gap=q) for q in not_yet_asked(said, [*out.questions_for_user])]
        questions = questions or [AskQuestion(text=q, gap=q) for q in not_yet_asked(said, check.needs_user)]
        if not questions and stateful:
            # Confirming a claim matters only when something would change; a yes or a no answers it.
            unsure = [plan_texts.is_it_right(e.claim) for e in evidence if e.critical and e.status != "validated"]
            options = list(plan_texts.CONFIRM_OPTIONS)
            questions = [AskQuestion(text=q, options=options, gap=q) for q in not_yet_asked(said, unsure)[:3]]
        can_ask = (
            "ask_user" in domain.interaction_tools
            and not state.get("declined")
            and state.get("clarify_rounds", 0) < MAX_TASK_QUESTIONS_ROUNDS
            and not check.refused
        )
        if not r["passed"] and questions and can_ask:
            payload = interrupts.ask(
                questions, why=plan_texts.TASK_ASK_WHY, if_declined=plan_texts.TASK_DECLINE_FALLBACK, asked_by=state["user"]
            )
            await self._event(state, "CLARIFY", "; ".join(q.text for q in questions[:3]))
            return {
                "task": None,
                "ask": dump(payload),
                "ask_origin": "task",
                "clarify_rounds": state.get("clarify_rounds", 0) + 1,
            }
        # …or show it as a WorkPlan: nothing is stored.
        note = ""
        if check.refused:
            note = plan_texts.not_done(check.refused)
        elif stateful or check.problems or check.needs_user:
            unsure = [e.claim for e in evidence if e.critical and e.status != "validated"] + check.problems + check.needs_user
            note = plan_texts.plan_only(unsure)
        if shown.left_out:
            note = f"{note} {plan_texts.PLAN_WORDING_LEFT_OUT}".strip()
        plan = WorkPlan(**base, note=note)
        citations = [s for e in evidence for s in e.sources][:10]
        answer = Answer(text=plan_texts.plan_text(plan), citations=citations, partial=bool(note))
        return {"task": dump(plan), "ask": None, **emit(state, answer)}

    async def approval(self, state: State) -> dict[str, Any]:
        sheet = TaskSheet.model_validate(state["task"])
        payload = ApprovalPayload(
            title=sheet.goal,
            plan=dump(sheet),
            summary=plan_texts.plan_text(sheet, with_goal=False),
            confidence=sheet.confidence,
            evidence=[s for e in sheet.evidence for s in e.sources][: interrupts.MAX_EVIDENCE],
            asked_by=state["user"],
        )
        reply = interrupts.read_decision(interrupt(dump(payload)))
        decision = "cancel" if isinstance(reply, Cancelled) else reply.decision
        update: dict[str, Any] = {"decision": decision}
        if decision == "revise" and not isinstance(reply, Cancelled):
            revisions = state.get("revisions", 0) + 1
            update.update(revision_feedback=reply.feedback.strip()[:1000], revisions=revisions)
            if revisions > self._domain(state).attempt_budget.max_attempts:
                notice = Notice(text=plan_texts.TOO_MANY_REVISIONS, code="revisions")
                update.update(decision="too_many", **emit(state, notice))
        elif decision == "cancel":
            update.update(emit(state, Notice(text=plan_texts.PLAN_CANCELLED, code="cancelled")))
        return update

    async def record_decision(self, state: State) -> dict[str, Any]:
        """Side effect after the interrupt: the decision goes into the conversation's history once."""
        detail = f"{state.get('decision')} by {state['user']}"
        if state.get("decision") == "revise" and state.get("revision_feedback"):
            detail += f": {state['revision_feedback'][:200]}"
        await self._event(state, "DECISION", detail)
        return {}

    async def execute(self, state: State) -> dict[str, Any]:
        sheet = TaskSheet.model_validate(state["task"])
        result = await self.d.patches.commit(state["user"], state["conversation"], sheet.patch)
        if not result.replay:
            await self._event(state, "COMMITTED", f"{sheet.patch.patch_id}: {len(result.lines)} changes")
        if not result.changed:
            # Said only when something changed: a correction that matched no set is reported as such.
            return emit(state, Notice(text=plan_texts.nothing_changed(result.unchanged), code="unchanged"))
        created = await self.d.entries.by_ids(state["user"], result.created)
        goal_lines = [line for line in result.lines if line.startswith("goal (")]
        done = Notice(text=plan_texts.committed(goal_lines), code="committed")
        if not created:
            return emit(state, done)
        corrects = any(op.op == "correct_entry" for op in sheet.patch.ops)
        logged = Logged(
            entries=[
                LoggedEntry(
                    entry_id=e.entry_id, on=e.occurred_on, domain=e.domain, summary=e.summary,
                    action="planned" if e.kind == "planned" else "corrected" if corrects else "logged",
                )
                for e in created
            ]
        )
        return emit(state, logged, done)
