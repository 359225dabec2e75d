"""A family word finds every variation and the facts name each; a lift's own name finds that lift only."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, timedelta
from typing import Any

import pytest

from engine.domains.registry import DomainRegistry, DomainSelector
from engine.entries.model import Entry, NewEntry
from engine.facts import compute_facts
from engine.query.asking import shows_list
from engine.query.questions import QuestionShape, read_question
from engine.query.retrieval import Retriever, normalize_instructions
from engine.store.entries import EntryStore
from tests.conftest import OpenDb
from tests.helpers.domains import BUILTIN
from tests.helpers.entries import lift

TODAY = date(2026, 11, 22)
USER = "console:kim"
CTX = DomainSelector(DomainRegistry.load()).build_active_context(["strength"])

# A year of Korean notes, one exercise a day, as the Parser would store them.
NOTES = [
    (40, "오버헤드프레스 50키로 5x5", "overhead press", 50),
    (33, "푸쉬프레스 60키로 5x3", "push press", 60),
    (26, "시티드 프레스 40키로 10x3", "seated overhead press", 40),
    (19, "덤벨 숄더프레스 20키로 10x3", "dumbbell shoulder press", 20),
    (12, "아놀드프레스 16키로 12x3", "arnold press", 16),
    (5, "벤치프레스 80키로 5x5", "bench press", 80),
    (3, "푸시프레스 65키로 3x3", "push press", 65),
]


@pytest.fixture
async def store(open_db: OpenDb) -> AsyncIterator[EntryStore]:
    db = await open_db()
    entries = EntryStore(db)
    for days_ago, text, name, weight in NOTES:
        reps, sets = (int(x) for x in text.split()[-1].split("x"))
        data: dict[str, Any] = {
            "activity_type": "strength",
            "domain": "strength",
            "exercises": [lift(name, "kg", [(weight, reps)] * sets)],
        }
        new = NewEntry(
            occurred_on=TODAY - timedelta(days=days_ago),
            domain="strength",
            activity_type="strength",
            summary=text,
            data=data,
            raw_text=text,
            terms=CTX.vocabulary.terms(text),
            source_key=f"note:{days_ago}",
        )
        await entries.add(USER, [new])
    yield entries
    await db.close()


async def answer(store: EntryStore, question: str) -> tuple[QuestionShape, list[Entry], set[str]]:
    """What the query flow does: read, plan in code, retrieve, compute facts for the wanted terms."""
    shape = read_question(question, CTX, TODAY)
    instructions = normalize_instructions([], shape, CTX, lists=shows_list(question))
    _, entries = await Retriever(store).run(
        USER, instructions, TODAY, shape.wanted, canonical=CTX.vocabulary.canonicals
    )
    facts = compute_facts(entries, exercises=shape.wanted, today=TODAY, domains=BUILTIN)
    return shape, entries, {f.key.split(".")[0] for f in facts if "." in f.key}


@pytest.mark.parametrize(
    "question",
    [
        "show me all my press variations",
        "프레스 종류 기록 보여줘",
        "how are my presses going?",
        "overhead press variations PR",
    ],
)
async def test_a_family_word_finds_every_variation(store: EntryStore, question: str) -> None:
    shape, entries, fact_subjects = await answer(store, question)
    assert shape.terms == ["overhead press"]
    assert set(shape.families["overhead press"]) >= {"push press", "seated overhead press", "arnold press"}
    assert sorted(e.raw_text for e in entries) == sorted(t for _, t, n, _ in NOTES if n != "bench press")
    # Records stay per variation: each variation gets its own facts, named after it.
    assert {"overhead press", "push press", "seated overhead press", "dumbbell shoulder press", "arnold press"} <= (
        fact_subjects
    )
    assert "bench press" not in fact_subjects


@pytest.mark.parametrize(
    "question", ["show me my overhead press sessions", "오버헤드프레스 기록 보여줘", "how is my OHP going?"]
)
async def test_a_lift_name_finds_that_lift_only(store: EntryStore, question: str) -> None:
    # The lifter who writes "overhead press" means that lift: not the push presses and seated presses too.
    shape, entries, fact_subjects = await answer(store, question)
    assert shape.terms == ["overhead press"] and shape.families == {}
    assert [e.raw_text for e in entries] == ["오버헤드프레스 50키로 5x5"]
    variations = {"push press", "seated overhead press", "dumbbell shoulder press", "arnold press", "bench press"}
    assert "overhead press" in fact_subjects and not variations & fact_subjects


@pytest.mark.parametrize("question", ["show me my push press sessions", "푸쉬프레스는 어때?", "푸시 프레스 기록"])
async def test_a_variation_question_finds_only_that_variation(store: EntryStore, question: str) -> None:
    shape, entries, fact_subjects = await answer(store, question)
    assert shape.terms == ["push press"] and shape.families == {}
    assert [e.raw_text for e in entries] == ["푸쉬프레스 60키로 5x3", "푸시프레스 65키로 3x3"]
    assert "push press" in fact_subjects and "overhead press" not in fact_subjects


async def test_the_best_of_a_family_is_not_merged_across_variations(store: EntryStore) -> None:
    question = "all my overhead press variations: PRs?"
    _, entries, _ = await answer(store, question)
    facts = compute_facts(entries, exercises=read_question(question, CTX, TODAY).wanted, today=TODAY, domains=BUILTIN)
    heaviest = {f.key: f.value for f in facts if f.key.endswith(".heaviest_set")}
    # The push press's 65 kg is the push press's record, not the overhead press's.
    assert heaviest["push press.heaviest_set"] == 65
    assert heaviest["overhead press.heaviest_set"] == 50
    assert heaviest["seated overhead press.heaviest_set"] == 40
