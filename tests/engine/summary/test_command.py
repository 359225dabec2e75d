"""``/summary`` and ``/quiet`` through the engine, with no model call: the week is the person's (Asia/Seoul),
so a Sunday 23:00 log (14:00 UTC) counts to the week that ends then, a Monday 00:30 log (Sunday 15:30 UTC) to
the next, and 08:00 on Monday in Seoul (Sunday 23:00 UTC) summarises the week just ended."""

from __future__ import annotations

from datetime import datetime, time, timezone
from pathlib import Path

from engine.outcomes import Answer, Chart, Logged, Notice
from engine.summary import SummaryPrefs
from engine.turns import Control, Message
from tests.conftest import OpenEngine
from tests.engine.summary.seeded import USER, seed
from tests.engine.summary.test_weekly import EN
from tests.fakes.ollama_server import FakeOllama
from tests.helpers.domains import BUILTIN

CONV = USER


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=timezone.utc)


def control(action: str, argument: str, at: datetime) -> Control:
    return Control(conversation=CONV, user=USER, action=action, argument=argument, at=at)  # type: ignore[arg-type]


async def test_last_week_in_the_persons_zone(sqlite_engine: OpenEngine, fake: FakeOllama) -> None:
    async with sqlite_engine() as engine:
        await seed(engine.db, BUILTIN, sunday=False)
        await engine.handle(control("timezone", "Asia/Seoul", utc(2026, 11, 1)))
        sunday_night = await engine.handle(Message(conversation=CONV, user=USER, text="bench 80kg 5, 5, 5",
                                                   at=utc(2026, 11, 22, 14, 0)))  # fmt: skip
        monday = await engine.handle(Message(conversation=CONV, user=USER, text="deadlift 60kg 5, 5",
                                             at=utc(2026, 11, 22, 15, 30)))  # fmt: skip
        out = await engine.handle(control("summary", "", utc(2026, 11, 22, 23, 0)))
    assert [type(o) for o in sunday_night] == [Logged] and [type(o) for o in monday] == [Logged]
    assert isinstance(sunday_night[0], Logged) and sunday_night[0].entries[0].on.isoformat() == "2026-11-22"
    assert isinstance(monday[0], Logged) and monday[0].entries[0].on.isoformat() == "2026-11-23"
    answer, chart = out
    assert isinstance(answer, Answer) and answer.text == EN
    assert isinstance(chart, Chart) and Path(chart.path).is_file()
    assert fake.titles() == [] and not [r for r in fake.requests if r.path == "/api/chat"]


async def test_weekly_on_off_and_quiet(sqlite_engine: OpenEngine, fake: FakeOllama) -> None:
    async with sqlite_engine() as engine:
        await engine.handle(control("timezone", "America/New_York", utc(2026, 11, 1)))
        (on,) = await engine.handle(control("summary", "weekly on 월요일 8시", utc(2026, 10, 27)))
        kept = await SummaryPrefs(engine.db).get(USER)
        (moved,) = await engine.handle(control("summary", "weekly on friday 6:30pm", utc(2026, 10, 27)))
        moved_to = await SummaryPrefs(engine.db).get(USER)
        (off,) = await engine.handle(control("summary", "weekly off", utc(2026, 10, 28)))
        (bad,) = await engine.handle(control("summary", "sometimes", utc(2026, 10, 28)))
        (quiet,) = await engine.handle(control("quiet", "", utc(2026, 10, 28)))
        (behind,) = await engine.handle(control("quiet", "behind", utc(2026, 10, 28)))
        last = await SummaryPrefs(engine.db).get(USER)
    assert isinstance(on, Notice) and on.text == (
        "매주 월요일 08:00(America/New_York)에 지난주 요약을 보내 드릴게요. 끄려면: /summary weekly off"
    )
    assert kept is not None and kept.language == "ko" and kept.next_due == utc(2026, 11, 2, 13, 0)
    assert isinstance(moved, Notice) and moved.text.startswith("Weekly summary on: every Friday at 18:30")
    assert moved_to is not None and (moved_to.weekday, moved_to.at) == (4, time(18, 30))
    assert moved_to.next_due == utc(2026, 10, 30, 22, 30)  # Friday 18:30 EDT
    assert isinstance(off, Notice) and off.text == "Weekly summary off."
    assert isinstance(bad, Notice) and bad.code == "usage"
    assert isinstance(quiet, Notice) and quiet.text.startswith("Nudges off.")
    assert isinstance(behind, Notice) and behind.code == "quiet"
    assert last is not None and last.nudges == "behind" and not last.weekly and last.next_due is None
    assert fake.titles() == []


async def test_forget_takes_the_settings_too(sqlite_engine: OpenEngine) -> None:
    async with sqlite_engine() as engine:
        await engine.handle(control("summary", "weekly on", utc(2026, 10, 27)))
        await engine.handle(control("forget", "", utc(2026, 10, 28)))
        assert await SummaryPrefs(engine.db).get(USER) is None
