"""Steps a running turn reports (issue 25 item 5): in order, in the person's language, with the terms,
periods and windows code read and ran, never a number the model wrote. Real engine, fake model over HTTP."""

from __future__ import annotations

from datetime import date, datetime, timezone

from engine.boundary import Step
from engine.engine import Engine
from engine.outcomes import Answer
from engine.turns import Message
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts

CONV = USER = "console:kim"
NOW = datetime(2026, 11, 25, 3, 0, tzinfo=timezone.utc)  # Wednesday 2026-11-25, noon in Seoul
WRONG = "987.6"
"""A number only the scripted model writes: no step may show it."""


def msg(text: str, at: datetime = NOW) -> Message:
    return Message(conversation=CONV, user=USER, text=text, at=at)


async def seed_squats(engine: Engine, *days: date) -> None:
    for day in days:
        await engine.handle(msg("squat 100kg 5x5", at=datetime(day.year, day.month, day.day, 3, tzinfo=timezone.utc)))


async def steps_of(engine: Engine, text: str) -> tuple[list[Step], list[object]]:
    steps: list[Step] = []

    async def progress(step: Step) -> None:
        steps.append(step)

    out = await engine.handle(msg(text), progress=progress)
    return steps, list(out)


async def test_a_question_shows_the_period_and_terms_code_read(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.default(scripts.analyzer("sufficient"))
    fake.default(scripts.synthesizer(f"You squatted {WRONG} kg."))
    async with open_engine(read_in_code=True) as engine:
        await seed_squats(engine, date(2026, 11, 10), date(2026, 11, 20))
        steps, out = await steps_of(engine, "how many times did I squat in the last two weeks?")
    assert any(isinstance(o, Answer) for o in out)
    # The last two weeks up to Wednesday 2026-11-25: 14 days, from Thursday 2026-11-12.
    assert [(s.stage, s.text) for s in steps] == [
        ("routing", "Reading your message"),
        ("planning", "Working out what you asked"),
        ("planning", "Working out what you asked"),
        ("retrieving", "Fetching your entries"),
        ("retrieving", "Fetching your squat entries for 2026-11-12 – 2026-11-25"),
        ("analyzing", "Looking over what I found"),
        ("writing", "Writing the answer"),
        ("checking", "Checking the answer"),
    ]
    assert not any(WRONG in s.text or "987" in s.text for s in steps)


async def test_steps_are_in_korean_for_a_korean_question(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.default(scripts.analyzer("sufficient"))
    fake.default(scripts.synthesizer(f"{WRONG}kg 스쿼트를 했어요."))
    async with open_engine(read_in_code=True) as engine:
        await seed_squats(engine, date(2026, 11, 20))
        steps, _ = await steps_of(engine, "지난 2주 동안 스쿼트 몇 번 했어?")
    texts = [s.text for s in steps]
    assert texts[0] == "메시지를 읽는 중"
    assert "2026년 11월 12일 – 2026년 11월 25일 스쿼트 기록을 가져오는 중" in texts
    assert texts[-2:] == ["답을 쓰는 중", "답을 확인하는 중"]
    assert not any("987" in t for t in texts)


async def test_an_empty_week_shows_each_widening(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine(read_in_code=True) as engine:
        await seed_squats(engine, date(2026, 11, 1))  # 25 days ago: in the 30-day window, not the 14-day one
        # A question code cannot read goes to the model; the Planner asks for the last week.
        fake.script(scripts.router("QUERY", ["strength"]))
        fake.script(scripts.planner("retrieve", "date_range", 7, []))
        fake.script(scripts.analyzer("sufficient"))
        fake.script(scripts.synthesizer(f"Your squat went up {WRONG}%."))
        steps, _ = await steps_of(engine, "anything worth knowing lately?")
    fetched = [s.text for s in steps if s.stage == "retrieving"][1:]
    assert fetched == [
        "Fetching your entries for 2026-11-19 – 2026-11-25",
        "Widening to the last 14 days",
        "Widening to the last 30 days",
    ]
    assert not any("987" in s.text for s in steps)


async def test_a_listener_that_fails_does_not_fail_the_turn(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async def broken(step: Step) -> None:
        raise RuntimeError("the screen is gone")

    async with open_engine(read_in_code=True) as engine:
        out = await engine.handle(msg("squat 100kg 5x5"), progress=broken)
    assert [o.kind for o in out] == ["logged"]
