"""Retrieval strategies (seed: "Improve Retrieval Strategy Ordering")."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, timedelta

import pytest
from structlog.testing import capture_logs

from engine.agents.schemas import RetrievalInstruction
from engine.domains.registry import DomainRegistry, DomainSelector
from engine.entries.model import NewEntry
from engine.query.questions import read_question
from engine.query.retrieval import EXHAUSTED_WARNING, Retriever, normalize_instructions
from engine.store.entries import EntryStore
from tests.conftest import OpenDb

TODAY = date(2026, 11, 22)  # a Sunday
USER = "tg:1"
CTX = DomainSelector(DomainRegistry.load()).build_active_context(["strength"])


@pytest.fixture
async def store(open_db: OpenDb) -> AsyncIterator[EntryStore]:
    db = await open_db()
    yield EntryStore(db)
    await db.close()


async def add(store: EntryStore, days_ago: int, text: str, user: str = USER) -> None:
    await store.add(
        user,
        [
            NewEntry(
                occurred_on=TODAY - timedelta(days=days_ago),
                domain="strength",
                activity_type="strength",
                summary=text,
                raw_text=text,
                terms=CTX.vocabulary.terms(text),
                source_key=f"{user}:{days_ago}:{text}",
            )
        ],
    )


def shape(text: str):  # type: ignore[no-untyped-def]
    return read_question(text, CTX, TODAY)


@pytest.mark.parametrize(
    "question",
    [
        "Is my bench better than last week?",
        "compare my squat sessions",
        "벤치프레스 지난주보다 나아졌어?",
        "am I getting stronger?",
    ],
)
def test_comparison_questions_use_a_date_range(question: str) -> None:
    planned = [RetrievalInstruction(strategy="keyword", terms=["bench press"])]
    out = normalize_instructions(planned, shape(question))
    assert out[0].strategy == "date_range" and not out[0].explicit_date


def test_default_range_is_7_days_and_30_for_trends() -> None:
    assert normalize_instructions([], shape("is my bench better than before?"))[0].days_back == 7
    assert normalize_instructions([], shape("what's my bench progress trend?"))[0].days_back == 30
    assert normalize_instructions([], shape("벤치 추이 보여줘"))[0].days_back == 30


def test_explicit_keyword_question_uses_keyword() -> None:
    planned = [RetrievalInstruction(strategy="keyword", terms=["bench press"])]
    out = normalize_instructions(planned, shape("show me my bench press workouts"))
    assert [i.strategy for i in out] == ["keyword"]


def test_explicit_date_sets_flag() -> None:
    out = normalize_instructions([], shape("what did I do last Monday?"))
    assert out[0].explicit_date and out[0].date == "last Monday"


def test_a_named_day_is_the_only_search() -> None:
    planned = [
        RetrievalInstruction(strategy="keyword", terms=["bench press"]),
        RetrievalInstruction(strategy="recent"),
        RetrievalInstruction(strategy="date_range", days_back=30),
    ]
    out = normalize_instructions(planned, shape("what did I do last Monday?"))
    assert [(i.strategy, i.explicit_date, i.date) for i in out] == [("date_range", True, "last Monday")]


async def test_empty_range_widens_progressively_and_stops_at_first_tier_with_entries(store: EntryStore) -> None:
    await add(store, 20, "bench 50kg 10x5")
    await add(store, 60, "bench 45kg 10x5")
    result, entries = await Retriever(store).run(
        USER, [RetrievalInstruction(strategy="date_range", days_back=7)], TODAY, []
    )
    assert [(a.expansion_tier, (a.end - a.start).days + 1, a.found) for a in result.attempts] == [  # type: ignore[operator]
        (0, 7, 0),
        (1, 14, 0),
        (2, 30, 1),
    ]
    assert [e.summary for e in entries] == ["bench 50kg 10x5"]
    assert not result.expansion_exhausted


async def test_explicit_date_never_widens(store: EntryStore) -> None:
    await add(store, 3, "squat 100kg 5x5")
    inst = RetrievalInstruction(strategy="date_range", explicit_date=True, date="last Monday")
    result, entries = await Retriever(store).run(USER, [inst], TODAY, [])
    assert entries == []
    assert [(a.strategy, a.start, a.found) for a in result.attempts] == [("explicit_date", date(2026, 11, 16), 0)]


async def test_exhausted_expansion_falls_back_to_terms(store: EntryStore) -> None:
    await add(store, 200, "벤치프레스 40키로 10x5")
    with capture_logs() as logs:
        result, entries = await Retriever(store).run(
            USER, [RetrievalInstruction(strategy="date_range", days_back=7)], TODAY, ["bench press"]
        )
    assert [a.expansion_tier for a in result.attempts if a.strategy == "date_range"] == [0, 1, 2, 3]
    assert result.expansion_exhausted and result.warnings == [EXHAUSTED_WARNING]
    assert result.attempts[-1].strategy == "keyword"
    assert [e.raw_text for e in entries] == ["벤치프레스 40키로 10x5"]
    assert any(e["event"] == "retrieval.exhausted" for e in logs)


async def test_english_keyword_finds_korean_entry_and_not_other_users(store: EntryStore) -> None:
    await add(store, 1, "벤치프레스 55kg 10x5")
    await add(store, 1, "bench 80kg 5x5", user="tg:2")
    terms = shape("show me my bench press workouts").terms
    assert terms == ["bench press"]
    _result, entries = await Retriever(store).run(USER, [RetrievalInstruction(strategy="keyword")], TODAY, terms)
    assert [e.raw_text for e in entries] == ["벤치프레스 55kg 10x5"]


async def test_comparison_widens_until_there_is_something_to_compare(store: EntryStore) -> None:
    await add(store, 0, "bench 55kg 10x5")
    await add(store, 10, "bench 50kg 10x5")
    result, entries = await Retriever(store).run(
        USER, [RetrievalInstruction(strategy="date_range", days_back=7)], TODAY, [], min_days=2
    )
    assert [a.found for a in result.attempts] == [1, 2]
    assert len(entries) == 2


async def test_crowded_window_keeps_the_newest_entries(store: EntryStore) -> None:
    for d in range(30):
        await add(store, d, f"bench {d}")
    got = await store.between(USER, TODAY - timedelta(days=29), TODAY, limit=5)
    assert [e.occurred_on for e in got] == [TODAY - timedelta(days=d) for d in (4, 3, 2, 1, 0)]


async def test_korean_question_finds_english_named_sets_and_not_other_users(store: EntryStore) -> None:
    """The vocabulary-normalized terms carry the match: FTS5 on SQLite, the tsvector index on Postgres."""
    await add(store, 1, "bench 80kg 5x5")
    await add(store, 2, "Bench Press 75kg 5x5")
    await add(store, 2, "squat 100kg 5x5")
    await add(store, 1, "bench 90kg 5x5", user="tg:2")
    terms = shape("내 벤치프레스 운동 보여줘").terms
    assert terms == ["bench press"]
    _result, entries = await Retriever(store).run(USER, [RetrievalInstruction(strategy="keyword")], TODAY, terms)
    assert sorted(e.raw_text for e in entries) == ["Bench Press 75kg 5x5", "bench 80kg 5x5"]
