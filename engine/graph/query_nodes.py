"""Nodes of the QUERY flow (ARCHITECTURE §3): BUILD_CONTEXT → PLAN → RETRIEVE → ANALYZE →
(EXPAND_DOMAIN | CLARIFY → WAIT_USER) → SYNTHESIZE → EVALUATE → FINISH (CHAT: ``chat_node.py``).

Nodes change state; the routers in ``routes.py`` only read it. Numbers come
from code: RETRIEVE computes facts over the retrieved window, over the whole
history and over the periods the question names (indexed SQL), and offers
them with entries and the question's own values as a table of ids
(``F3``). The Synthesizer chooses claims citing those ids
(:mod:`engine.query.claims`); EVALUATE is code's check of them, no model
call; FINISH writes every claim as sentences in the person's language, with
code's own claims for what it read the question to ask, or the facts
themselves when nothing usable came.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import structlog

from engine import interrupts, texts
from engine.agents.analyzer import ANALYZER, AnalyzerInput
from engine.agents.base import ask
from engine.agents.briefing import entry_lines, other_domains
from engine.agents.budget import PROMPT_BUDGET, tokens
from engine.agents.clarifier import CLARIFIER, ClarifierInput, patterns
from engine.agents.planner import PLANNER, PlannerInput, shape_text
from engine.agents.schemas import AnalyzerOutput, Gap, PlannerOutput
from engine.agents.synthesizer import SYNTHESIZER, SynthesizerInput, synthesizer_input
from engine.charts import ChartAsk, ChartReads, asks_chart, chart, chart_of
from engine.domains.registry import ActiveDomainContext
from engine.errors import ModelFailed, ModelMissing, ModelTimeout, ModelUnreachable
from engine.facts import compute_facts, facts_text
from engine.graph.deps import Deps
from engine.graph.routes import expansion_requests, user_only_gaps
from engine.graph.state import State, dump, emit
from engine.graph.steps import report
from engine.graph.view import TurnView
from engine.interrupts import AskQuestion
from engine.outcomes import Answer, Notice
from engine.query import articles as kb
from engine.query.answering import answer_outcome, gaps_for, question_values, shown_to, table_for
from engine.query.asked import answering, asked_facts
from engine.query.asking import shows_list
from engine.query.claims import Kept, check_claims, schema_for
from engine.query.lookup import articles_for
from engine.query.offer import offer
from engine.query.questions import QuestionShape, read_question
from engine.query.records import history_facts, merge
from engine.query.references import RefTable
from engine.query.render import korean_names, language_of
from engine.query.retrieval import RetrievalAttempt, Retriever, normalize_instructions
from engine.query.stalls import stall_answer, stall_question
from engine.query.targets import NEXT, target_lifts, target_text
from engine.step_texts import attempt_text, bringing_in, looking_up
from engine.store.bouts import BoutStore
from engine.store.history import HistoryStore
from engine.tasks.coded import OFFERED

log = structlog.get_logger("engine.query")

REPLY_ROOM = 150
"""Prompt tokens kept free for the re-ask message a failed reply brings."""
MIN_VALUES = 300
"""The values never get less than this, whatever the rest of the prompt takes."""
CODE_PLAN = PlannerOutput(reasoning="planned in code from the question's reading", next_action="retrieve")
"""The plan of a question code read: retrieval comes from the reading (``normalize_instructions``)."""


class QueryNodes:
    """Nodes of the query flow."""

    def __init__(self, deps: Deps) -> None:
        self.d = deps
        self.retriever = Retriever(deps.entries)
        self._stores: tuple[HistoryStore, BoutStore] | None = None

    @property
    def _history(self) -> tuple[HistoryStore, BoutStore]:
        # Made on first use: the graph is also built without a store, only to be drawn.
        if self._stores is None:
            registry = self.d.selector.registry
            self._stores = (HistoryStore(self.d.entries.db, registry), BoutStore(self.d.entries.db, registry))
        return self._stores

    def _read(self, t: TurnView, ctx: ActiveDomainContext) -> dict[str, Any]:
        """The question read in code with the active vocabulary: terms, intents, the day and periods it names."""
        return {"shape": dump(read_question(t.text, ctx, t.today))}

    async def build_context(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        registry = self.d.selector.registry
        domains = t.domains
        if not domains and (fallback := registry.fallback):
            domains = [fallback]
        ctx = t.context_of(domains)
        update: dict[str, Any] = {
            "domains": ctx.domains_loaded,
            "domain_expansion_history": list(ctx.domains_loaded),
            "language": language_of(t.text),
            **self._read(t, ctx),
        }
        shape = QuestionShape.model_validate(update["shape"])
        if shape.date is not None and shape.date.status == "invalid":
            notice = Notice(text=texts.not_on_calendar(shape.date.phrase), code="bad_date")
            update.update(halt=True, **emit(notice))
        elif t.intent == "QUERY" and (ask := self._chart_asked(shape, t.text, t.today)) is not None:
            # "Show my bench progress this year", "지난 3개월 스쿼트 그래프": a picture drawn by code, no model call.
            reads = ChartReads(self.d.entries.db, registry)
            lang = update["language"]
            assert self.d.charts_dir is not None  # _chart_asked says None without a folder
            drawn = await chart(ask, reads, registry, t.user, self.d.charts_dir, lang, ctx.vocabulary_map)
            update.update(halt=True, **emit(drawn))
        elif t.intent == "QUERY" and NEXT in shape.intents and (lifts := target_lifts(shape.terms, registry)):
            # "What should I do on bench next time?": the rules are data and the numbers code's; no model call.
            text = await target_text(self._history[0], ctx, t.user, lifts, update["language"])
            await self.d.patches.record_event(t.conversation, t.user, OFFERED, f"next {lifts[0]}")
            update.update(halt=True, **emit(Answer(text=text, language=update["language"])))
        elif t.intent == "QUERY" and (lifts := stall_question(t.text, shape.terms, registry)):
            # "Is my bench stalling?", "벤치 정체야?": the stall rules are code's, the answer too.
            lang = update["language"]
            names = korean_names(lifts, ctx.vocabulary_map) if lang == "ko" else {}
            text = await stall_answer(self.d.entries.db, registry, t.user, lifts, names, lang)
            await self.d.patches.record_event(t.conversation, t.user, OFFERED, f"deload {lifts[0]}")
            update.update(halt=True, **emit(Answer(text=text, language=lang)))
        elif shape.unread and t.intent == "QUERY":
            # Never silently all time: say how the words were taken before the answer comes.
            update.update(emit(Notice(text=texts.period_not_read(shape.unread, update["language"]), code="period")))
        return update

    def _chart_asked(self, shape: QuestionShape, text: str, today: date) -> ChartAsk | None:
        """The chart a question asks for ("chart", "graph", "그래프", or "show" with a trend) and names."""
        if self.d.charts_dir is None or not asks_chart(shape, text):
            return None
        return chart_of(shape, text, self.d.selector.registry, today)

    async def plan(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        ctx = t.ctx
        shape = t.shape
        if t.code_plan and not t.plan_rounds:
            # Code read the question (terms, period, intent): the plan is code's reading, no Planner call.
            # A round after thin retrieval or a failed check asks the Planner.
            return {"plan": dump(CODE_PLAN), "plan_rounds": 1, "expansion_request": []}
        attempts = [f"{a.strategy} {a.start or ''}..{a.end or ''} found {a.found}" for a in t.retrieval.attempts]
        out = await ask(
            self.d.llm,
            PLANNER,
            PlannerInput(
                today=t.today,
                domains=ctx.domains_loaded,
                other_domains=other_domains(ctx, self.d.selector.registry),
                expertise=ctx.expertise,
                question=t.text,
                shape=shape_text(shape),
                responses=t.user_responses,
                attempts=attempts,
                gaps=[g.description for g in analysis.gaps] if (analysis := t.analysis) else [],
            ),
        )
        return {
            "plan": dump(out),
            "plan_rounds": t.plan_rounds + 1,
            "expansion_request": list(out.domain_expansion_request),
        }

    async def retrieve(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        ctx, today, shape = t.ctx, t.today, t.shape
        periods = shape.periods
        planned_out = t.plan
        planned = list(planned_out.retrieval_instructions) if planned_out else []
        instructions = normalize_instructions(planned, shape, ctx, lists=shows_list(t.text))
        lang = t.language
        names = korean_names(shape.terms, ctx.vocabulary_map) if lang == "ko" else {}
        shown = [names.get(term, term) for term in shape.terms]

        async def watch(a: RetrievalAttempt) -> None:
            # The question's own words for what is fetched (not every member of a family it widened to).
            terms = (shown or a.terms) if a.terms else []
            await report("retrieving", attempt_text(a.strategy, a.start, a.end, a.expansion_tier, terms, lang))

        result, entries = await self.retriever.run(
            t.user,
            instructions,
            today,
            shape.wanted,
            min_days=2 if shape.is_comparison else 1,
            canonical=ctx.vocabulary.canonicals,
            watch=watch,
        )
        exercises = [w for w in shape.wanted if w in ctx.vocabulary.canonicals] or None
        window = compute_facts(entries, exercises=exercises, today=today, domains=self.d.selector.registry)
        stated = question_values(t.text, shape, periods)
        history, bouts = self._history
        whole = await history_facts(
            history, bouts, t.user, t.text, shape, periods, stated, ctx.domains_loaded, today, self.d.selector.registry
        )
        asked = await asked_facts(history, t.user, shape, ctx.vocabulary.canonicals, today)
        facts = [*asked, *merge(whole, window)]
        table = table_for(facts, entries, stated, shape, periods)
        gaps_for(table, shape)
        chunks = await articles_for(self.d.library, ctx, t.text, planned_out.knowledge_query if planned_out else "")
        notes = kb.offer(table, chunks)
        if notes:
            await report("retrieving", looking_up([n.title for n in notes], lang))
        log.info(
            "retrieval.done",
            attempts=[(a.strategy, a.expansion_tier, a.found) for a in result.attempts],
            entries=len(entries),
            facts=len(facts),
            history_facts=len(whole),
            asked_facts=len(asked),
            articles=len(notes),
        )
        update: dict[str, Any] = {
            "retrieval": dump(result),
            "facts": [dump(f) for f in facts],
            "refs": dump(table),
            "articles": [dump(n) for n in notes],
        }
        if self.d.library is not None and (away := self.d.library.notice()) is not None:
            update.update(emit(away))  # once: this answer went without the knowledge base, and why
        return update

    async def analyze(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        if t.code_plan:
            return {"analysis": dump(self._judged_in_code(t)), "expansion_request": []}
        ctx = t.ctx
        entries = await self.d.entries.by_ids(t.user, t.retrieval.entry_ids)
        retrieval = t.retrieval
        out = await ask(
            self.d.llm,
            ANALYZER,
            AnalyzerInput(
                domains=ctx.domains_loaded,
                expertise=ctx.expertise,
                other_domains=other_domains(ctx, self.d.selector.registry),
                question=t.text,
                facts=facts_text(t.facts),
                entries=entry_lines(entries),
                responses=t.user_responses,
                notes=[*retrieval.warnings, *kb.found_note(t.articles)],
            ),
        )
        requested = expansion_requests(out.gaps, t.loaded_domains, self.d.selector.registry.names)
        return {"analysis": dump(out), "expansion_request": requested}

    def _judged_in_code(self, t: TurnView) -> AnalyzerOutput:
        """Sufficiency judged in code for a question code planned: retrieval already widened what it
        could, so the answer is written from what was found; a term nothing was found for is a gap
        (a ``G`` value the answer can state)."""
        gaps = [Gap(description=r.text, gap_type="data", severity="low") for r in t.refs.of("gap")]
        return AnalyzerOutput(findings=[], patterns=[], gaps=gaps, verdict="sufficient")

    async def expand_domain(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        history = t.domain_expansion_history
        current = t.domains
        new: list[str] = []
        for name in t.expansion_request:
            if self.d.selector.registry.get(name) is None:
                log.warning("domain.expansion_unknown", domain=name)
                continue
            if name in history or name in new:
                continue
            new.append(name)
        if not new:
            # Nothing new to learn from: answer with what we have, marked partial.
            return {"is_partial": True, "expansion_request": []}
        ctx = t.context_of([*current, *new])
        log.info("domain.expanded", added=new, active=ctx.domains_loaded)
        await report("expanding", bringing_in(new, t.language))
        return {
            "domains": ctx.domains_loaded,
            "domain_expansion_history": [*history, *new],
            "expansion_request": [],
            "is_partial": False,
            # The question's words are read again with the merged vocabulary (단백질 is protein now).
            **self._read(t, ctx),
        }

    async def clarify_query(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        gaps = user_only_gaps(t)
        if not gaps:
            planned = t.plan
            if planned is None or planned.next_action != "clarify" or t.declined:
                return {"ask": None}
            gaps = [Gap(description=planned.reasoning or "what you mean", gap_type="clarification")]
        out = await ask(
            self.d.llm,
            CLARIFIER,
            ClarifierInput(patterns=patterns(t.ctx), text=t.text, missing=[g.description for g in gaps[:3]]),
        )
        payload = interrupts.ask(
            [
                AskQuestion(text=q.question, options=q.options, gap=gaps[min(i, len(gaps) - 1)].description)
                for i, q in enumerate(out.questions)
            ],
            why=out.context_explanation,
            if_declined=out.fallback_action or texts.QUERY_DECLINE_FALLBACK,
            asked_by=t.user,
        )
        return {"ask": dump(payload), "ask_origin": "query", "clarify_rounds": t.clarify_rounds + 1}

    def _must(self, t: TurnView) -> list[Kept]:
        """The claims code makes for what it read the question to ask."""
        return answering(t.refs, t.shape, t.today, self.d.selector.registry.bouts, lists=shows_list(t.text))

    async def synthesize(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        table, shape, lang, articles = t.refs, t.shape, t.language, t.articles
        if not table.has_data and not articles:
            return {"draft": None, "by_code_text": texts.no_entries_for(shape.terms, lang), "answered_by_code": True}
        notes = list(t.retrieval.warnings)
        if t.declined and t.fallback:
            notes.append(f"The person skipped the question; {t.fallback}")
        if t.is_partial:
            notes.append("Some of the question is outside what I know; say so briefly.")
        ctx = t.ctx
        responses = t.user_responses
        feedback = t.feedback
        shown = kb.prompt(articles) if articles else ""

        # The values get what the budget leaves after the instructions and the rest of the prompt.
        def inputs(offered: RefTable) -> SynthesizerInput:
            return synthesizer_input(
                ctx,
                lang,
                question=t.text,
                offered=offered,
                responses=responses,
                notes=notes,
                feedback=feedback,
                articles=shown,
            )

        empty = SYNTHESIZER.messages(inputs(RefTable()))
        base = tokens(empty.system) + tokens(empty.user)
        lists = shows_list(t.text)
        offered = offer(table, self._must(t), shape, max(PROMPT_BUDGET - base - REPLY_ROOM, MIN_VALUES), lists=lists)
        try:
            out = await ask(self.d.llm, SYNTHESIZER, inputs(offered), schema=schema_for(offered))
        except (ModelUnreachable, ModelTimeout, ModelMissing, ModelFailed) as exc:
            if not self._must(t):
                raise
            # Code read what was asked and computed the answer: the person gets it without the model,
            # told why there is nothing more (FINISH states code's claims alone).
            log.warning("synthesize.model_down", error=type(exc).__name__)
            return {
                "draft": None,
                "answered_by_code": False,
                **emit(Notice(text=texts.answered_without_model(lang), code="model_down")),
            }
        out.offered = [r.id for r in offered.refs]
        return {"draft": dump(out), "answered_by_code": False}

    async def evaluate(self, state: State) -> dict[str, Any]:
        """Code's check of the claims (no model re-reads what code checked): a re-ask only when nothing
        the model sent is usable and code read no fact of its own that answers the question."""
        t = TurnView(state, self.d)
        draft = t.draft
        check = check_claims(draft.claims, draft.remark, draft.sources, shown_to(draft, t.refs)) if draft else None
        retries = t.eval_retries + 1
        usable = check is not None and (check.usable or bool(self._must(t)))
        feedback = "" if usable or check is None else check.feedback()
        log.info(
            "evaluation",
            verdict="pass" if usable else "fail",
            kept=len(check.kept) if check else 0,
            dropped=check.dropped if check else [],
            notes_dropped=len(check.notes_dropped) if check else 0,
            attempt=retries,
        )
        evaluation = {"verdict": "pass" if usable else "fail", "feedback": feedback}
        return {"evaluation": evaluation, "feedback": feedback, "eval_retries": retries}

    async def finish(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        if t.answered_by_code:
            lang = "ko" if t.language == "ko" else "en"
            return emit(Answer(text=t.by_code_text, partial=t.is_partial, language=lang))
        answer = await answer_outcome(
            self.d.entries,
            t.user,
            t.refs,
            t.ctx,
            t.language,
            t.draft,
            self._must(t),
            partial=t.is_partial,
            articles=t.articles,
            wanted=t.shape.wanted,
        )
        return emit(answer)
