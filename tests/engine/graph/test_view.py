"""TurnView: the state read typed, a missing field as its per-turn default."""

from __future__ import annotations

from datetime import date

import pytest

from engine.agents.schemas import PlannerOutput
from engine.graph.state import PER_TURN, State, dump
from engine.graph.view import TurnView
from engine.query.retrieval import RetrievalResult


def test_a_missing_field_reads_as_its_default() -> None:
    t = TurnView(State(text="bench", today="2026-11-26"))
    assert t.today == date(2026, 11, 26)
    assert (t.domains, t.clarify_rounds, t.declined, t.language) == ([], 0, False, PER_TURN["language"])
    assert t.outcomes == [] and t.history == []
    assert t.plan is None and t.draft is None and t.task_sheet is None and t.ask is None
    assert not t.retrieved and t.retrieval == RetrievalResult() and not t.refs.refs and t.articles == []
    with pytest.raises(KeyError):
        _ = t.shape


def test_models_come_back_typed() -> None:
    plan = PlannerOutput(reasoning="r", next_action="synthesize")
    t = TurnView(
        State(
            plan=dump(plan),
            retrieval=dump(RetrievalResult(entry_ids=["e1"])),
            domains=["strength"],
            domain_expansion_history=["strength", "nutrition"],
            evaluation={"verdict": "pass"},
        )
    )
    assert t.plan == plan and t.retrieved and t.retrieval.entry_ids == ["e1"]
    assert t.loaded_domains == ["strength", "nutrition"] and t.verdict == "pass"


def test_a_router_view_has_no_domain_context() -> None:
    with pytest.raises(RuntimeError):
        _ = TurnView(State(domains=["strength"])).ctx
