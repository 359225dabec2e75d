"""Every path that states the person's data is checked: a CHAT turn about their data, or a chat
reply that would state their numbers, answers through the query flow instead."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from engine.engine import Engine
from engine.outcomes import Answer
from engine.turns import Message
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


CONV = USER = "console:jung"
NOW = datetime(2026, 11, 22, 1, 0, tzinfo=timezone.utc)
TODAY = date(2026, 11, 22)


def say(text: str) -> Message:
    return Message(conversation=CONV, user=USER, text=text, at=NOW)


async def seed(engine: Engine) -> None:
    await engine.entries.add(
        USER, [scripts.bench_entry(TODAY - timedelta(days=d), w, source_key=f"s{d}") for d, w in ((7, 52.5), (0, 55))]
    )


def query_flow(fake: FakeOllama, heaviest: str) -> None:
    fake.script(scripts.planner("retrieve", "date_range", 14))
    fake.script(scripts.analyzer("sufficient"))
    fake.script("SynthesizerOutput", scripts.refer_claims(scripts.pick("record", heaviest)))


async def test_a_question_about_their_data_routed_as_chat_goes_through_the_query_flow(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    fake.script(scripts.router("CHAT"))
    query_flow(fake, "heaviest completed set of bench press, all time")
    async with open_engine() as engine:
        await seed(engine)
        (answer,) = await engine.handle(say("what's my heaviest bench press?"))
    assert isinstance(answer, Answer)
    assert answer.text == "Heaviest completed set of bench press, all time: 55 kg × 10 (2026-11-22)."
    assert fake.calls("ChatOutput") == []


async def test_a_chat_reply_stating_their_numbers_is_not_shown(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("CHAT"))
    fake.script(scripts.chat("You lifted 100 kg last week, great job!"))
    query_flow(fake, "heaviest set of bench press")
    async with open_engine() as engine:
        await seed(engine)
        (answer,) = await engine.handle(say("how did I do?"))
    assert isinstance(answer, Answer) and "100" not in answer.text
    assert answer.text == (
        "Heaviest set of bench press in the 2 entries found (2026-11-15 to 2026-11-22): 55 kg × 10 (2026-11-22)."
    )
    assert len(fake.calls("ChatOutput")) == 1 and len(fake.calls("PlannerOutput")) == 1


async def test_ordinary_chat_is_shown_as_written(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("CHAT"), scripts.router("CHAT"))
    fake.script(scripts.chat("Any time! Tell me what you trained today."), scripts.chat("Sets <5> & reps"))
    async with open_engine() as engine:
        (thanks,) = await engine.handle(say("thanks!"))
        (other,) = await engine.handle(say("hi"))
    assert isinstance(thanks, Answer) and thanks.text == "Any time! Tell me what you trained today."
    # A number that says nothing about the person (no exercise, no "you") is no data to check.
    assert isinstance(other, Answer) and other.text == "Sets <5> & reps"
    assert fake.calls("PlannerOutput") == []
