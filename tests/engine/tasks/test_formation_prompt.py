"""Issue 21: the task former's prompt is sized to the request on a realistic month (``bench/month.py``),
with the knowledge base on, as ``bench/model_cost.py`` measures it: every call at most 2,500 tokens,
only the exercises the request names, no value twice, the system prompt the same every round."""

from __future__ import annotations

import math
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from bench.month import month
from engine.config import EngineConfig, LLMConfig
from engine.engine import Engine
from engine.entries.model import Entry
from engine.facts import compute_facts
from engine.knowledge.config import KnowledgeConfig
from engine.outcomes import ApprovalRequest
from engine.tasks.said import Reply, Said
from engine.tasks.values import MAX_WHOLE_ENTRIES, formation_table, window
from engine.turns import Message
from tests.fakes.ollama_server import DEFAULT_MODEL, FakeOllama
from tests.helpers import scripts
from tests.helpers.domains import BUILTIN

TODAY = date(2026, 11, 25)
NOW = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
USER = "console:month"
BUDGET = 2500
"""Prompt tokens per TaskFormation call (``bench/model_cost.py`` flags calls above it)."""

_PIECES = re.compile(r"(?P<one>\d|[\uac00-\ud7a3])|[^\d\uac00-\ud7a3]+")


def tokens(text: str) -> int:
    """Estimated as ``bench/model_cost.py`` does: a digit or a Hangul syllable is one, other runs len / 4."""
    return sum(1 if m.group("one") else math.ceil(len(m.group()) / 4) for m in _PIECES.finditer(text))


@pytest.fixture
def fake() -> Any:
    with FakeOllama(models=[DEFAULT_MODEL, "bge-m3"]) as server:
        yield server


@pytest.fixture
def open_month(tmp_path: Path, fake: FakeOllama) -> Callable[[], Any]:
    """An engine with the built-in articles in its knowledge base and a realistic month of training."""

    @asynccontextmanager
    async def _open() -> AsyncIterator[Engine]:
        data = tmp_path / "data"
        config = EngineConfig(
            data_dir=data,
            default_timezone="Asia/Seoul",
            read_in_code=False,
            llm=LLMConfig(host=fake.url, timeout_s=5.0, max_retries=2),
            knowledge=KnowledgeConfig(
                data_dir=data,
                embedding_backend="ollama",
                embedding_model="bge-m3",
                ollama_host=fake.url,
                ollama_timeout_s=5,
            ),
        )
        async with Engine.open(config) as engine:
            assert engine.library is not None
            await engine.library.ready()
            await engine.entries.add(USER, month(TODAY))
            yield engine

    return _open


def plan(exercise: str, weight: float, goal: str) -> dict[str, Any]:
    ops = [
        scripts.op_plan(f"2026-12-{d:02d}", exercise=exercise, sets=4, reps=5, weight=weight + step)
        for d, step in ((1, 2.5), (4, 2.5), (8, 5))
    ]
    claim = scripts.assumption(f"current {exercise} working weight is {weight:g} kg", source="")
    return scripts.former(goal=goal, operations=ops, assumptions=[claim], steps=["Add a small jump each week"])


def values(body: dict[str, Any]) -> list[str]:
    """The value lines the prompt offers (``F3: …``, ``E2: …``, …)."""
    return list(scripts.value_ids(body).values())


GOAL = "plan my next 4 weeks of bench, aiming for 100kg by March"
REQUESTS = [
    (GOAL, "bench press", 60, ("squat", "barbell row", "deadlift", "running", "barbell curl")),
    (
        "다음 4주 데드리프트 계획 짜줘",
        "deadlift",
        115,
        ("squat", "bench press", "overhead press", "running", "leg press"),
    ),
]


@pytest.mark.parametrize(("request_text", "exercise", "weight", "not_named"), REQUESTS)
async def test_the_formation_prompt_is_sized_to_the_request(
    request_text: str,
    exercise: str,
    weight: float,
    not_named: tuple[str, ...],
    open_month: Callable[[], Any],
    fake: FakeOllama,
) -> None:
    fake.script(scripts.router("TASK", ["strength"]))
    # Round 1 writes a number of its own, so that a second round runs with the problem named.
    fake.script("TaskFormationOutput", plan(exercise, weight, "Lift 140 kg"))
    fake.default("TaskFormationOutput", plan(exercise, weight, "Lift heavier, step by step"))
    async with open_month() as engine:
        (req,) = await engine.handle(Message(conversation=USER, user=USER, text=request_text, at=NOW))
    assert isinstance(req, ApprovalRequest), req
    calls = fake.calls("TaskFormationOutput")
    assert len(calls) == 2
    sizes = [sum(tokens(str(m["content"])) for m in body["messages"]) for body in calls]
    # Before: about 5,000 tokens (every exercise's facts and whole entries, whatever the request named).
    assert max(sizes) <= BUDGET, sizes
    offered = values(calls[0])
    assert any(exercise in line for line in offered if line.startswith(("F", "E")))
    data = [line for line in offered if line.startswith(("F", "E"))]
    assert not [line for line in data for other in not_named if other in line]
    texts = [line.split(": ", 1)[1] for line in offered]
    assert len(texts) == len(set(texts)), "a value offered twice"
    # The stable part first: the system prompt is the same every round (Ollama reuses its cache).
    assert calls[0]["messages"][0] == calls[1]["messages"][0]
    first, second = (str(c["messages"][1]["content"]) for c in calls)
    head = first.split("Problems found by checks:")[0]
    assert second.startswith(head)


# ------------------------------------------------------------------ the table itself


def stored_month() -> list[Entry]:
    return [
        Entry(**e.model_dump(), entry_id=f"m{i}", user_key=USER, status="active", supersedes=None, created_at=NOW)
        for i, e in enumerate(month(TODAY))
    ]


def test_values_hold_only_the_exercises_named_and_the_persons_own() -> None:
    entries = stored_month()
    said = Said(GOAL, TODAY, (Reply("What is your bench 1RM?", "about 80kg"),))
    table = formation_table(
        compute_facts(entries, today=TODAY, domains=BUILTIN),
        entries,
        subjects=["bench press"],
        domains=["strength"],
        said=said,
    )
    lines = table.prompt().splitlines()
    assert all("bench press" in line for line in lines if line.startswith("E"))
    assert not [line for line in lines if line.startswith(("E", "F")) and "squat" in line]
    assert not [f for f in table.of("fact") if f.change or f.key.startswith("running")]
    assert [(q.text, q.key) for q in table.of("question")] == [
        ("4 weeks", "request"),
        ("100 kg", "request"),
        ("80 kg", "answer:1"),
    ]


def test_a_request_naming_no_exercise_gets_its_domains_latest_entries_whole() -> None:
    entries = stored_month()
    facts = compute_facts(entries, today=TODAY, domains=BUILTIN)
    said = Said("that was 60kg, not 55", TODAY)
    table = formation_table(facts, entries, subjects=[], domains=["strength"], said=said)
    shown = table.of("entry")
    assert len(shown) == MAX_WHOLE_ENTRIES and all("running" not in e.text for e in shown)
    assert shown[-1].text.startswith("2026-11-25 · squat 95 kg") and "barbell curl" in shown[-1].text


def test_a_past_period_the_request_names_is_the_window() -> None:
    assert window("based on the last 2 weeks, plan my bench", TODAY, 30) == (date(2026, 11, 12), TODAY)
    assert window("지난 2주 기준으로 벤치 계획", TODAY, 30) == (date(2026, 11, 12), TODAY)
    # The time a plan is for is no history to read: the domain's window stays.
    assert window("plan this week's bench", TODAY, 30) == (date(2026, 10, 27), TODAY)
    assert window(GOAL, TODAY, 90) == (date(2026, 8, 28), TODAY)
