"""Every routing decision of the graph: pure functions of the state, ``Literal`` returns.

The limits a router needs live on ``Routes`` (not in ``functools.partial``,
which hides the ``Literal`` return from LangGraph and draws edges that don't
exist). ``build.py`` passes each router with its explicit target list.

Routers are ``async def`` though they never wait: LangGraph runs a plain
``def`` in its thread pool, a hop to another thread and back for every edge
taken, while a coroutine runs on the event loop.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Literal

from engine import interrupts
from engine.agents.schemas import Gap
from engine.graph.state import State
from engine.graph.view import TurnView

USER_ONLY = ("subjective", "clarification")
"""Gap types only the person can fill."""


@dataclass(frozen=True)
class Routes:
    """The graph's routers, with the limits they enforce."""

    max_retries: int = 2
    """Answer re-writes after a failed evaluation; at the limit the answer is marked partial."""
    max_plan_rounds: int = 3
    """Planner rounds per question (re-plans after thin retrieval, domain expansion)."""
    max_clarify_rounds: int = 2
    """Questions to the person per turn, in the LOG and QUERY flows."""

    # ------------------------------------------------------------------ LOG

    async def after_route(self, state: State) -> Literal["parse", "chat", "build_context"]:
        intent = TurnView(state).intent
        if intent == "LOG":
            return "parse"
        if intent in ("QUERY", "TASK", "CORRECTION"):
            return "build_context"
        return "chat"

    async def after_parse(self, state: State) -> Literal["store", "clarify", "store_note"]:
        t = TurnView(state)
        if t.parsed is None or t.parsed.status != "needs_clarification":
            return "store"
        if t.clarify_rounds < self.max_clarify_rounds:
            return "clarify"
        return "store_note"

    async def after_store(self, state: State) -> Literal["build_context", "remember"]:
        return "build_context" if TurnView(state).also_query else "remember"

    async def after_wait_user(
        self, state: State
    ) -> Literal["cancelled", "parse", "store_note", "analyze", "retrieve", "synthesize", "form_task"]:
        t = TurnView(state)
        if t.cancelled:
            return "cancelled"
        origin = t.ask_origin
        if origin == "task":
            # Answered or declined, task formation decides again (a decline downgrades to a WorkPlan).
            return "form_task"
        if origin == "query":
            if not t.declined:
                return "analyze" if t.retrieved else "retrieve"
            # Declined: answer with the fallback, from the entries (fetched first if the question came before).
            return "synthesize" if t.retrieved else "retrieve"
        return "store_note" if t.declined else "parse"

    async def after_chat(self, state: State) -> Literal["remember", "build_context"]:
        # CHAT found to be about the person's data answers through the query flow.
        return "build_context" if TurnView(state).intent == "QUERY" else "remember"

    # ------------------------------------------------------------------ QUERY

    async def after_build_context(self, state: State) -> Literal["plan", "form_task", "remember"]:
        t = TurnView(state)
        if t.halt:
            return "remember"
        return "form_task" if t.intent in ("TASK", "CORRECTION") else "plan"

    async def after_plan(self, state: State) -> Literal["retrieve", "expand_domain", "clarify_query", "synthesize"]:
        t = TurnView(state)
        action = t.plan.next_action if t.plan else "retrieve"
        if action == "expand_domain":
            return "expand_domain"
        if action == "clarify" and not t.declined and t.clarify_rounds < self.max_clarify_rounds:
            return "clarify_query"
        if action == "synthesize" and t.retrieved:
            return "synthesize"
        # "synthesize" before anything was fetched would answer from nothing: fetch first.
        return "retrieve"

    async def after_analyze(self, state: State) -> Literal["expand_domain", "synthesize", "clarify_query", "plan"]:
        t = TurnView(state)
        analysis = t.analysis
        if analysis is None:
            return "synthesize"
        if outside_gaps(analysis.gaps, t.loaded_domains):
            return "expand_domain"
        if analysis.verdict == "sufficient":
            return "synthesize"
        if self._may_ask(t):
            return "clarify_query"
        if analysis.verdict == "insufficient" and t.plan_rounds < self.max_plan_rounds:
            return "plan"
        return "synthesize"

    async def after_expand_domain(self, state: State) -> Literal["plan", "clarify_query", "retrieve", "synthesize"]:
        t = TurnView(state)
        if not t.is_partial:
            return "plan"
        if self._may_ask(t):
            return "clarify_query"
        if not t.retrieved:
            # Expansion came from the Planner before anything was fetched: fetch, don't answer from nothing.
            return "retrieve"
        return "synthesize"

    async def after_clarify_query(self, state: State) -> Literal["wait_user", "retrieve", "synthesize"]:
        t = TurnView(state)
        if t.ask is not None:
            return "wait_user"
        # Nothing to ask: answer from the entries, fetching them first if nothing was fetched yet.
        return "synthesize" if t.retrieved else "retrieve"

    async def after_synthesize(self, state: State) -> Literal["evaluate", "finish"]:
        # An answer written by code has nothing for the model to check.
        t = TurnView(state)
        return "evaluate" if t.draft is not None and not t.answered_by_code else "finish"

    async def after_evaluate(self, state: State) -> Literal["finish", "synthesize"]:
        # Code's check of the claims: ask the model again only while nothing of its answer was usable.
        t = TurnView(state)
        if t.verdict == "pass" or t.eval_retries > self.max_retries:
            return "finish"
        return "synthesize"

    # ------------------------------------------------------------------ TASK and CORRECTION

    async def after_form_task(self, state: State) -> Literal["approval", "wait_user", "remember"]:
        t = TurnView(state)
        if t.task_sheet is not None:
            return "approval"
        if t.ask is not None:
            return "wait_user"
        return "remember"

    async def after_approval(self, state: State) -> Literal["execute", "form_task", "remember"]:
        decision = TurnView(state).decision
        if decision == "approve":
            return "execute"
        if decision == "revise":
            return "form_task"
        return "remember"  # cancel, or revisions used up

    # ------------------------------------------------------------------ shared

    def _may_ask(self, t: TurnView) -> bool:
        """Ask only about user-only gaps, never after a decline, and at most ``max_clarify_rounds`` a turn."""
        return bool(user_only_gaps(t)) and not t.declined and t.clarify_rounds < self.max_clarify_rounds


def user_only_gaps(t: TurnView) -> list[Gap]:
    """Gaps only the person can fill that they have not answered yet."""
    analysis = t.analysis
    answered = t.user_responses
    gaps = analysis.gaps if analysis is not None else []
    # A gap is answered when any of its questions was.
    return [g for g in gaps if g.gap_type in USER_ONLY and not interrupts.answered(g.description, answered)]


def outside_gaps(gaps: Iterable[Gap], loaded: Collection[str]) -> list[Gap]:
    """Gaps that need another domain's knowledge than the loaded ones.

    A gap that names a loaded domain is not one: loading it again gives nothing new,
    and going to EXPAND_DOMAIN for it would mark a sufficient answer partial. A gap
    naming no domain, or one the registry lacks, still is (EXPAND_DOMAIN then finds
    nothing to load and the answer says it is partial).
    """
    return [g for g in gaps if g.outside_current_expertise and g.suspected_domain not in loaded]


def expansion_requests(gaps: Iterable[Gap], loaded: Collection[str], known: Collection[str]) -> list[str]:
    """The domains ANALYZE asks EXPAND_DOMAIN to load: named by an outside gap, known, not loaded; each once.

    Args:
        gaps: The Analyzer's gaps.
        loaded: The domains already loaded (``TurnView.loaded_domains``).
        known: The registry's domain names.
    """
    wanted = [d for g in outside_gaps(gaps, loaded) if (d := g.suspected_domain) is not None and d in known]
    return list(dict.fromkeys(wanted))
