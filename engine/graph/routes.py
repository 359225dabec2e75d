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
from engine.graph.state import State, analysis_of, pending_ask

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
        intent = state.get("intent")
        if intent == "LOG":
            return "parse"
        if intent in ("QUERY", "TASK", "CORRECTION"):
            return "build_context"
        return "chat"

    async def after_parse(self, state: State) -> Literal["store", "clarify", "store_note"]:
        parsed = state.get("parsed") or {}
        if parsed.get("status") != "needs_clarification":
            return "store"
        if state.get("clarify_rounds", 0) < self.max_clarify_rounds:
            return "clarify"
        return "store_note"

    async def after_store(self, state: State) -> Literal["build_context", "remember"]:
        return "build_context" if state.get("also_query") else "remember"

    async def after_wait_user(
        self, state: State
    ) -> Literal["cancelled", "parse", "store_note", "analyze", "retrieve", "synthesize", "form_task"]:
        if state.get("cancelled"):
            return "cancelled"
        origin = state.get("ask_origin")
        if origin == "task":
            # Answered or declined, task formation decides again (a decline downgrades to a WorkPlan).
            return "form_task"
        if origin == "query":
            if not state.get("declined"):
                return "analyze" if state.get("retrieval") is not None else "retrieve"
            # Declined: answer with the fallback, from the entries (fetched first if the question came before).
            return "synthesize" if state.get("retrieval") is not None else "retrieve"
        return "store_note" if state.get("declined") else "parse"

    async def after_chat(self, state: State) -> Literal["remember", "build_context"]:
        # CHAT found to be about the person's data answers through the query flow.
        return "build_context" if state.get("intent") == "QUERY" else "remember"

    # ------------------------------------------------------------------ QUERY

    async def after_build_context(self, state: State) -> Literal["plan", "form_task", "remember"]:
        if state.get("halt"):
            return "remember"
        return "form_task" if state.get("intent") in ("TASK", "CORRECTION") else "plan"

    async def after_plan(self, state: State) -> Literal["retrieve", "expand_domain", "clarify_query", "synthesize"]:
        action = (state.get("plan") or {}).get("next_action", "retrieve")
        if action == "expand_domain":
            return "expand_domain"
        if action == "clarify" and not state.get("declined") and state.get("clarify_rounds", 0) < self.max_clarify_rounds:
            return "clarify_query"
        if action == "synthesize" and state.get("retrieval") is not None:
            return "synthesize"
        # "synthesize" before anything was fetched would answer from nothing: fetch first.
        return "retrieve"

    async def after_analyze(self, state: State) -> Literal["expand_domain", "synthesize", "clarify_query", "plan"]:
        analysis = analysis_of(state)
        if analysis is None:
            return "synthesize"
        if outside_gaps(analysis.gaps, loaded_domains(state)):
            return "expand_domain"
        if analysis.verdict == "sufficient":
            return "synthesize"
        if self._may_ask(state):
            return "clarify_query"
        if analysis.verdict == "insufficient" and state.get("plan_rounds", 0) < self.max_plan_rounds:
            return "plan"
        return "synthesize"

    async def after_expand_domain(self, state: State) -> Literal["plan", "clarify_query", "retrieve", "synthesize"]:
        if not state.get("is_partial"):
            return "plan"
        if self._may_ask(state):
            return "clarify_query"
        if state.get("retrieval") is None:
            # Expansion came from the Planner before anything was fetched: fetch, don't answer from nothing.
            return "retrieve"
        return "synthesize"

    async def after_clarify_query(self, state: State) -> Literal["wait_user", "retrieve", "synthesize"]:
        if pending_ask(state) is not None:
            return "wait_user"
        # Nothing to ask: answer from the entries, fetching them first if nothing was fetched yet.
        return "synthesize" if state.get("retrieval") is not None else "retrieve"

    async def after_synthesize(self, state: State) -> Literal["evaluate", "finish"]:
        # An answer written by code has nothing for the model to check.
        return "evaluate" if state.get("draft") and not state.get("answered_by_code") else "finish"

    async def after_evaluate(self, state: State) -> Literal["finish", "synthesize"]:
        # Code's check of the claims: ask the model again only while nothing of its answer was usable.
        evaluation = state.get("evaluation") or {}
        if evaluation.get("verdict") == "pass" or state.get("eval_retries", 0) > self.max_retries:
            return "finish"
        return "synthesize"

    # ------------------------------------------------------------------ TASK and CORRECTION

    async def after_form_task(self, state: State) -> Literal["approval", "wait_user", "remember"]:
        if (state.get("task") or {}).get("kind") == "task_sheet":
            return "approval"
        if pending_ask(state) is not None:
            return "wait_user"
        return "remember"

    async def after_approval(self, state: State) -> Literal["execute", "form_task", "remember"]:
        decision = state.get("decision")
        if decision == "approve":
            return "execute"
        if decision == "revise":
            return "form_task"
        return "remember"  # cancel, or revisions used up

    # ------------------------------------------------------------------ shared

    def _may_ask(self, state: State) -> bool:
        """Ask only about user-only gaps, never after a decline, and at most ``max_clarify_rounds`` a turn."""
        return (
            bool(user_only_gaps(state))
            and not state.get("declined")
            and state.get("clarify_rounds", 0) < self.max_clarify_rounds
        )


def user_only_gaps(state: State) -> list[Gap]:
    """Gaps only the person can fill that they have not answered yet."""
    analysis = analysis_of(state)
    answered = state.get("user_responses", {})
    gaps = analysis.gaps if analysis is not None else []
    # A gap is answered when any of its questions was.
    return [g for g in gaps if g.gap_type in USER_ONLY and not interrupts.answered(g.description, answered)]


def loaded_domains(state: State) -> list[str]:
    """The domains this turn has loaded: the active ones and every one an expansion added."""
    return list(dict.fromkeys([*(state.get("domains") or []), *(state.get("domain_expansion_history") or [])]))


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
        loaded: The domains already loaded (``loaded_domains``).
        known: The registry's domain names.
    """
    wanted = [d for g in outside_gaps(gaps, loaded) if (d := g.suspected_domain) is not None and d in known]
    return list(dict.fromkeys(wanted))
