"""Nodes of the QUERY flow (ARCHITECTURE §3): BUILD_CONTEXT → PLAN → RETRIEVE → ANALYZE →
(EXPAND_DOMAIN | CLARIFY → WAIT_USER) → SYNTHESIZE → EVALUATE → FINISH.

Nodes change state; the routers in ``routes.py`` only read it. Numbers come
from code (``engine.facts``); the Evaluator's number check is deterministic
(``engine.grounding``) and only a grounded answer is shown to the model.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import structlog

from engine.agents.analyzer import analyze
from engine.agents.clarifier import clarify
from engine.agents.evaluator import evaluate
from engine.agents.planner import plan
from engine.agents.schemas import EvaluatorOutput, Gap, SynthesizerOutput
from engine.agents.synthesizer import synthesize
from engine.domains.registry import ActiveDomainContext
from engine.facts import Fact, compute_facts, facts_text
from engine.graph.deps import Deps
from engine import interrupts, texts
from engine.graph.routes import user_only_gaps
from engine.graph.state import State, analysis_of, draft_of, dump, emit, plan_of
from engine.interrupts import AskQuestion
from engine.query.grounding import check_numbers
from engine.outcomes import Answer, Citation, Notice
from engine.query.questions import QuestionShape, read_question
from engine.query.retrieval import RetrievalResult, Retriever, normalize_instructions
from engine.entries.model import Entry

log = structlog.get_logger("engine.query")

FALLBACK_DOMAIN = "general_fitness"
MAX_CITATIONS = 10


class QueryNodes:
    """Nodes of the query flow."""

    def __init__(self, deps: Deps) -> None:
        self.d = deps
        self.retriever = Retriever(deps.entries)

    def _ctx(self, state: State) -> ActiveDomainContext:
        return self.d.selector.build_active_context(state.get("domains") or [])

    async def _entries(self, state: State) -> list[Entry]:
        ids = (state.get("retrieval") or {}).get("entry_ids", [])
        return await self.d.entries.by_ids(state["user"], ids)

    @staticmethod
    def _facts(state: State) -> list[Fact]:
        return [Fact.model_validate(f) for f in state.get("facts", [])]

    async def build_context(self, state: State) -> dict[str, Any]:
        domains = list(state.get("domains") or [])
        if not domains and self.d.selector.registry.get(FALLBACK_DOMAIN):
            domains = [FALLBACK_DOMAIN]
        ctx = self.d.selector.build_active_context(domains)
        today = date.fromisoformat(state["today"])
        shape = read_question(state["text"], ctx, today)
        update: dict[str, Any] = {
            "domains": ctx.domains_loaded,
            "domain_expansion_history": list(ctx.domains_loaded),
            "shape": dump(shape),
        }
        if shape.date is not None and shape.date.status == "invalid":
            notice = Notice(text=texts.not_on_calendar(shape.date.phrase), code="bad_date")
            update.update(halt=True, **emit(state, notice))
        return update

    async def plan(self, state: State) -> dict[str, Any]:
        ctx = self._ctx(state)
        shape = QuestionShape.model_validate(state["shape"])
        attempts = [
            f"{a['strategy']} {a.get('start') or ''}..{a.get('end') or ''} found {a['found']}"
            for a in (state.get("retrieval") or {}).get("attempts", [])
        ]
        out = await plan(
            self.d.llm,
            ctx,
            self.d.selector.registry,
            state["text"],
            shape,
            date.fromisoformat(state["today"]),
            state.get("user_responses", {}),
            attempts,
            analysis.gaps if (analysis := analysis_of(state)) else [],
        )
        return {
            "plan": dump(out),
            "plan_rounds": state.get("plan_rounds", 0) + 1,
            "expansion_request": list(out.domain_expansion_request),
        }

    async def retrieve(self, state: State) -> dict[str, Any]:
        ctx = self._ctx(state)
        shape = QuestionShape.model_validate(state["shape"])
        planned_out = plan_of(state)
        planned = planned_out.retrieval_instructions if planned_out else []
        instructions = normalize_instructions(planned, shape)
        result, entries = await self.retriever.run(
            state["user"],
            instructions,
            date.fromisoformat(state["today"]),
            shape.terms,
            min_days=2 if shape.is_comparison else 1,
        )
        exercises = [t for t in shape.terms if t in ctx.vocabulary.canonicals] or None
        facts = compute_facts(entries, exercises=exercises, today=date.fromisoformat(state["today"]))
        log.info(
            "retrieval.done",
            attempts=[(a.strategy, a.expansion_tier, a.found) for a in result.attempts],
            entries=len(entries),
            facts=len(facts),
        )
        return {"retrieval": dump(result), "facts": [dump(f) for f in facts]}

    async def analyze(self, state: State) -> dict[str, Any]:
        ctx = self._ctx(state)
        entries = await self._entries(state)
        retrieval = RetrievalResult.model_validate(state.get("retrieval") or {})
        out = await analyze(
            self.d.llm,
            ctx,
            self.d.selector.registry,
            state["text"],
            facts_text(self._facts(state)),
            entries,
            state.get("user_responses", {}),
            retrieval.warnings,
        )
        requested = [g.suspected_domain for g in out.gaps if g.outside_current_expertise and g.suspected_domain]
        return {"analysis": dump(out), "expansion_request": requested}

    async def expand_domain(self, state: State) -> dict[str, Any]:
        history = list(state.get("domain_expansion_history") or [])
        current = list(state.get("domains") or [])
        new: list[str] = []
        for name in state.get("expansion_request") or []:
            if self.d.selector.registry.get(name) is None:
                log.warning("domain.expansion_unknown", domain=name)
                continue
            if name in history or name in new:
                continue
            new.append(name)
        if not new:
            # Nothing new to learn from: answer with what we have, marked partial.
            return {"is_partial": True, "expansion_request": []}
        ctx = self.d.selector.build_active_context([*current, *new])
        log.info("domain.expanded", added=new, active=ctx.domains_loaded)
        return {
            "domains": ctx.domains_loaded,
            "domain_expansion_history": [*history, *new],
            "expansion_request": [],
            "is_partial": False,
        }

    async def clarify_query(self, state: State) -> dict[str, Any]:
        gaps = user_only_gaps(state)
        if not gaps:
            planned = plan_of(state)
            if planned is None or planned.next_action != "clarify":
                return {"ask": None}
            gaps = [Gap(description=planned.reasoning or "what you mean", gap_type="clarification")]
        out = await clarify(self.d.llm, self._ctx(state), state["text"], [g.description for g in gaps[:3]])
        payload = interrupts.ask(
            [
                AskQuestion(text=q.question, options=q.options, gap=gaps[min(i, len(gaps) - 1)].description)
                for i, q in enumerate(out.questions)
            ],
            why=out.context_explanation,
            if_declined=out.fallback_action or texts.QUERY_DECLINE_FALLBACK,
            asked_by=state["user"],
        )
        return {"ask": dump(payload), "ask_origin": "query", "clarify_rounds": state.get("clarify_rounds", 0) + 1}

    async def synthesize(self, state: State) -> dict[str, Any]:
        entries = await self._entries(state)
        shape = QuestionShape.model_validate(state["shape"])
        if not entries:
            draft = SynthesizerOutput(answer=texts.no_entries_for(shape.terms), dates_used=[])
            return {"draft": dump(draft), "answered_by_code": True}
        notes = list(RetrievalResult.model_validate(state.get("retrieval") or {}).warnings)
        if state.get("declined") and state.get("fallback"):
            notes.append(f"The person skipped the question; {state['fallback']}")
        if state.get("is_partial"):
            notes.append("Some of the question is outside what I know; say so briefly.")
        out = await synthesize(
            self.d.llm,
            self._ctx(state),
            state["text"],
            facts_text(self._facts(state)),
            entries,
            state.get("user_responses", {}),
            notes,
            state.get("feedback", ""),
        )
        return {"draft": dump(out), "answered_by_code": False}

    async def evaluate(self, state: State) -> dict[str, Any]:
        draft = SynthesizerOutput.model_validate(state["draft"])
        entries = await self._entries(state)
        facts = self._facts(state)
        allowed = [state["text"], *state.get("user_responses", {}).values(), state["today"]]
        report = check_numbers(draft.answer, facts, entries, extra_allowed=allowed)
        retries = state.get("eval_retries", 0) + 1
        if not report.ok:
            # Deterministic failure: no need to ask the model why.
            feedback = (
                "These numbers are not in the facts or entries: "
                + ", ".join(report.ungrounded)
                + ". Use only the numbers given, written as given."
            )
            verdict = EvaluatorOutput(
                accuracy="fail", relevance="pass", safety="pass", completeness="pass", feedback=feedback, verdict="fail"
            )
        else:
            verdict = await evaluate(
                self.d.llm,
                self._ctx(state),
                state["text"],
                draft.answer,
                facts_text(facts),
                entries,
                state.get("user_responses", {}),
            )
            checks = (verdict.accuracy, verdict.relevance, verdict.safety, verdict.completeness)
            if verdict.verdict == "pass" and "fail" in checks:
                verdict = verdict.model_copy(update={"verdict": "fail"})
        log.info("evaluation", verdict=verdict.verdict, ungrounded=report.ungrounded, attempt=retries)
        return {"evaluation": dump(verdict), "feedback": verdict.feedback, "eval_retries": retries}

    async def finish(self, state: State) -> dict[str, Any]:
        draft = draft_of(state)
        evaluation = state.get("evaluation") or {}
        entries = await self._entries(state)
        used = set(draft.dates_used if draft else [])
        cited = [e for e in entries if e.occurred_on.isoformat() in used] or entries
        citations = [
            Citation(title=f"{e.occurred_on.isoformat()} · {e.summary}", ref=f"entry:{e.entry_id}", on=e.occurred_on)
            for e in cited[-MAX_CITATIONS:]
        ]
        failed = bool(evaluation) and evaluation.get("verdict") != "pass"
        answer = Answer(
            text=draft.answer if draft else "",
            citations=citations,
            partial=bool(state.get("is_partial")) or failed,
        )
        return emit(state, answer)
