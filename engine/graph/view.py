"""The turn as nodes and routers read it: typed, parsed once per node call.

The state holds plain JSON so checkpoints stay portable (``state.py``); a
``TurnView`` gives it back typed: ``today`` as a date, the plan, the draft,
the reference table as models, the active domain context built once. A field
missing from the state (a node called with a partial one, in tests) reads as
its ``PER_TURN`` default. Nodes still return plain updates (``dump``, ``emit``).

    t = TurnView(state, self.d)
    shape = read_question(t.text, t.ctx, t.today)
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from functools import cached_property
from typing import Any

from engine.agents.context import ClarificationItem, HistoryItem
from engine.agents.schemas import AnalyzerOutput, ParserOutput, PlannerOutput, SynthesizerOutput
from engine.domains.registry import ActiveDomainContext, DomainSelector
from engine.facts import Fact
from engine.graph.deps import Deps
from engine.graph.state import PER_TURN, State
from engine.interrupts import AskPayload
from engine.query.articles import ArticleNote
from engine.query.questions import QuestionShape
from engine.query.references import RefTable
from engine.query.retrieval import RetrievalResult
from engine.tasks.model import TaskSheet

_DEFAULTS: State = {**PER_TURN, "outcomes": []}
"""What a field the state lacks reads as (the outcomes without ``fresh_turn``'s reset marker)."""


class TurnView:
    """One node call's typed reading of the state (``deps`` gives the domain contexts; routers need none)."""

    def __init__(self, state: State, deps: Deps | None = None) -> None:
        self._s: State = {**_DEFAULTS, **state}
        self._deps = deps
        self._contexts: dict[tuple[str, ...], ActiveDomainContext] = {}

    # ------------------------------------------------------------------ the message

    @property
    def turn_id(self) -> str:
        return self._s["turn_id"]

    @property
    def conversation(self) -> str:
        return self._s["conversation"]

    @property
    def user(self) -> str:
        return self._s["user"]

    @property
    def text(self) -> str:
        return self._s["text"]

    @cached_property
    def today(self) -> date:
        """The person's local date when the turn started."""
        return date.fromisoformat(self._s["today"])

    @property
    def history(self) -> list[HistoryItem]:
        return self._s.get("history", [])

    # ------------------------------------------------------------------ routing and domains

    @property
    def intent(self) -> str:
        return self._s["intent"]

    @property
    def also_query(self) -> bool:
        return self._s["also_query"]

    @property
    def small_talk(self) -> str:
        return self._s["small_talk"]

    @property
    def code_plan(self) -> bool:
        return self._s["code_plan"]

    @property
    def domains(self) -> list[str]:
        return list(self._s["domains"] or [])

    @property
    def domain_expansion_history(self) -> list[str]:
        return list(self._s["domain_expansion_history"] or [])

    @property
    def loaded_domains(self) -> list[str]:
        """The domains this turn has loaded: the active ones and every one an expansion added."""
        return list(dict.fromkeys([*self.domains, *self.domain_expansion_history]))

    @property
    def expansion_request(self) -> list[str]:
        return list(self._s["expansion_request"] or [])

    def context_of(self, names: Sequence[str]) -> ActiveDomainContext:
        """The named domains merged (once per view and names)."""
        key = tuple(names)
        if key not in self._contexts:
            self._contexts[key] = self._selector.build_active_context(key)
        return self._contexts[key]

    @property
    def ctx(self) -> ActiveDomainContext:
        """The active domains' context."""
        return self.context_of(self.domains)

    @property
    def everything(self) -> ActiveDomainContext:
        """Every known domain's context (reading a message before its domains are known)."""
        return self.context_of(self._selector.registry.names)

    @property
    def _selector(self) -> DomainSelector:
        if self._deps is None:
            raise RuntimeError("a TurnView without deps (a router's) has no domain context")
        return self._deps.selector

    # ------------------------------------------------------------------ questions to the person

    @property
    def ask(self) -> AskPayload | None:
        """The question this turn is about to ask or is waiting on."""
        ask = self._s["ask"]
        return AskPayload.model_validate(ask) if ask else None

    @property
    def ask_origin(self) -> str:
        return self._s["ask_origin"]

    @property
    def answers(self) -> list[ClarificationItem]:
        return self._s["answers"]

    @property
    def user_responses(self) -> dict[str, str]:
        return self._s["user_responses"]

    @property
    def clarify_rounds(self) -> int:
        return self._s["clarify_rounds"]

    @property
    def declined(self) -> bool:
        return self._s["declined"]

    @property
    def fallback(self) -> str:
        return self._s["fallback"]

    @property
    def cancelled(self) -> bool:
        return self._s["cancelled"]

    @property
    def outcomes(self) -> list[dict[str, Any]]:
        return self._s["outcomes"]

    @property
    def halt(self) -> bool:
        return self._s["halt"]

    # ------------------------------------------------------------------ LOG

    @property
    def read(self) -> dict[str, Any]:
        """What code read of a log before any model (empty when it read none)."""
        return self._s["read"] or {}

    @cached_property
    def parsed(self) -> ParserOutput | None:
        parsed = self._s["parsed"]
        return ParserOutput.model_validate(parsed) if parsed else None

    # ------------------------------------------------------------------ QUERY

    @cached_property
    def shape(self) -> QuestionShape:
        """What code read from the question (set by BUILD_CONTEXT)."""
        shape = self._s["shape"]
        if shape is None:
            raise KeyError("shape")
        return QuestionShape.model_validate(shape)

    @property
    def language(self) -> str:
        return self._s["language"]

    @cached_property
    def plan(self) -> PlannerOutput | None:
        plan = self._s["plan"]
        return PlannerOutput.model_validate(plan) if plan else None

    @property
    def plan_rounds(self) -> int:
        return self._s["plan_rounds"]

    @property
    def retrieved(self) -> bool:
        """RETRIEVE ran this turn."""
        return self._s["retrieval"] is not None

    @cached_property
    def retrieval(self) -> RetrievalResult:
        """What RETRIEVE found (empty before it ran)."""
        return RetrievalResult.model_validate(self._s["retrieval"] or {})

    @cached_property
    def facts(self) -> list[Fact]:
        return [Fact.model_validate(f) for f in self._s["facts"] or []]

    @cached_property
    def refs(self) -> RefTable:
        """The values this turn's answer may refer to (empty before RETRIEVE)."""
        refs = self._s["refs"]
        return RefTable.model_validate(refs) if refs else RefTable()

    @cached_property
    def articles(self) -> list[ArticleNote]:
        """The knowledge-base sections this turn's answer was offered (empty without a knowledge base)."""
        return [ArticleNote.model_validate(a) for a in self._s["articles"] or []]

    @cached_property
    def analysis(self) -> AnalyzerOutput | None:
        analysis = self._s["analysis"]
        return AnalyzerOutput.model_validate(analysis) if analysis else None

    @property
    def is_partial(self) -> bool:
        return self._s["is_partial"]

    @cached_property
    def draft(self) -> SynthesizerOutput | None:
        draft = self._s["draft"]
        return SynthesizerOutput.model_validate(draft) if draft else None

    @property
    def answered_by_code(self) -> bool:
        return self._s["answered_by_code"]

    @property
    def by_code_text(self) -> str:
        return self._s["by_code_text"]

    @property
    def verdict(self) -> str:
        """EVALUATE's verdict on the draft: ``pass``, ``fail``, or empty before it ran."""
        return str((self._s["evaluation"] or {}).get("verdict", ""))

    @property
    def feedback(self) -> str:
        return self._s["feedback"]

    @property
    def eval_retries(self) -> int:
        return self._s["eval_retries"]

    # ------------------------------------------------------------------ TASK and CORRECTION

    @cached_property
    def task_sheet(self) -> TaskSheet | None:
        """The TaskSheet awaiting approval (None when none is, or a WorkPlan was shown)."""
        task = self._s["task"]
        return TaskSheet.model_validate(task) if task and task.get("kind") == "task_sheet" else None

    @property
    def decision(self) -> str:
        return self._s["decision"]

    @property
    def revision_feedback(self) -> str:
        return self._s["revision_feedback"]

    @property
    def revisions(self) -> int:
        return self._s["revisions"]
