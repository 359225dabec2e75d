"""Search terms are meaningful: generic words never become search terms; a generic-only question reads dates."""

from __future__ import annotations

from datetime import date

import pytest

from engine.agents.schemas import RetrievalInstruction
from engine.domains.registry import DomainRegistry, DomainSelector
from engine.query.questions import read_question, search_terms
from engine.query.retrieval import normalize_instructions

TODAY = date(2026, 11, 22)
SELECTOR = DomainSelector(DomainRegistry.load())
ALL = SELECTOR.build_active_context(["strength", "running", "swimming", "general_fitness", "nutrition"])


@pytest.mark.parametrize(
    "question",
    [
        "show me my workouts",
        "how were my training sessions?",
        "what exercise did I do?",
        "list my gym sessions",
        "운동 기록 보여줘",
        "이번 주 운동은?",
        "세션 몇 번 했어?",
        "훈련 일지 보여줘",
        "오운완 기록",
        "운동했다고 적은 날",
        "how many days in a row did I work out?",
        "my cardio lately",
    ],
)
def test_generic_only_questions_have_no_search_term(question: str) -> None:
    shape = read_question(question, ALL, TODAY)
    assert shape.terms == [] and shape.wanted == []
    assert shape.generic, "the generic words are still read (and shown by `bot search`)"
    # Without a term to search by, retrieval reads a date range, whatever the Planner proposed.
    planned = [RetrievalInstruction(strategy="keyword", terms=shape.generic)]
    for ctx in (ALL, None):
        instructions = normalize_instructions(planned, shape, ctx)
        assert [(i.strategy, i.terms) for i in instructions] == [("date_range", [])]
        if shape.period is not None:
            # A named period ("이번 주") is fetched as named, never widened.
            assert (instructions[0].start, instructions[0].end) == (shape.period.start, shape.period.end)
        else:
            assert instructions[0].days_back == shape.default_days


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("show me my push press workouts", ["push press"]),
        ("푸쉬프레스 운동 기록", ["push press"]),
        ("스쿼트 세션", ["squat"]),
        ("running sessions this month", ["run"]),
        ("수영 훈련", ["swim"]),
    ],
)
def test_generic_words_beside_a_real_term_leave_only_the_term(question: str, terms: list[str]) -> None:
    assert read_question(question, ALL, TODAY).terms == terms


def test_longer_real_terms_win_over_generic_words_inside_them() -> None:
    running = SELECTOR.build_active_context(["running"])
    assert read_question("운동장 트랙 훈련", running, TODAY).terms == ["track"]
    assert read_question("운동 후 식사", SELECTOR.build_active_context(["nutrition"]), TODAY).terms == [
        "post-workout meal"
    ]


def test_planner_terms_are_read_like_the_question() -> None:
    assert search_terms(["workouts", "운동", "sessions"], ALL) == []
    assert search_terms(["OHP"], ALL) == ["overhead press"]  # a lift's name is that lift
    widened = search_terms(["presses"], ALL)  # a family word is the family
    assert widened[0] == "overhead press" and "push press" in widened and "seated overhead press" in widened
    assert search_terms(["푸쉬프레스"], ALL) == ["push press"]
    # A word the vocabulary does not know may be the person's own exercise name: kept as written.
    assert search_terms(["jefferson curl"], ALL) == ["jefferson curl"]  # not every biceps curl
    assert search_terms(["푸쉬프레스를"], ALL) == ["push press"]  # a particle is not an unknown word


def test_planner_keyword_terms_are_cleaned_not_dropped() -> None:
    shape = read_question("how are my bench sessions going", ALL, TODAY)
    planned = [RetrievalInstruction(strategy="keyword", terms=["bench", "sessions"])]
    (inst,) = normalize_instructions(planned, shape, ALL)
    assert inst.strategy == "keyword" and inst.terms[0] == "bench press" and "sessions" not in inst.terms
    (plain,) = normalize_instructions(planned, shape)
    assert plain.terms == ["bench"]  # without the vocabulary only the generic word goes
