"""Whole conversations in Slack: real bolt app in HTTP mode, signed requests, fake Web API, real engine, fake model."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import FakeSlack
from tests.helpers import scripts
from tests.helpers.slack import ANN, CHANNEL, DM, running

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


ME = f"slack:T0ALMANAC:{ANN}"


async def test_logs_in_english_and_korean_by_mention_dm_and_slash_command(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    fake.script("RouterOutput", *[scripts.router("LOG")] * 3)
    fake.script(
        scripts.strength("bench press", 55, 10, 5),
        scripts.strength("벤치프레스", 60, 8, 3, date_text="어제"),
        scripts.strength("squat", 100, 5, 5),
    )
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("bench 55kg 10x5")
        (english,) = ws.thread(ts)
        assert english.shown().startswith("✓ Logged ") and "bench press 55 kg × 10 reps × 5 sets" in english.shown()
        await ws.post("어제 벤치프레스 60키로 8x3", channel=DM)
        (korean,) = ws.slack.messages(DM)
        assert korean.thread_ts is None and "bench press 60 kg × 8 reps × 3 sets" in korean.shown()
        ack = await ws.slash("log squat 100kg 5x5")
        assert ack.status == 200
        starter = ws.last(top=True)
        assert starter.thread_ts is None and starter.text == f"<@{ANN}>: squat 100kg 5x5"
        (squat,) = ws.thread(starter.ts)
        assert "squat 100 kg × 5 reps × 5 sets" in squat.shown()
        assert await engine.entries.count(ME) == 3
    assert ws.slack.errors == []
    # The model saw the text without the mention.
    assert "<@" not in str(fake.calls("RouterOutput")[0]["messages"][-1]["content"])


def clarify_script(fake: FakeOllama, *then: dict[str, object]) -> None:
    fake.script(scripts.router("LOG"))
    fake.script("ParserOutput", scripts.needs_exercise(), *then)
    fake.script(scripts.clarifier())


async def test_clarification_answered_by_button_shows_who_decided(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    clarify_script(fake, scripts.strength("squat", 100, 5, 5))
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("did 5x5 today at 100kg")
        (question,) = ws.thread(ts)
        assert question.shown().startswith("*Which exercise was that?*")
        assert [b["text"]["text"] for b in question.buttons()] == ["Bench press", "Squat", "Deadlift", "Skip"]
        start = len(slack.calls())
        ack = await ws.press(question, "Squat")
        assert ack.status == 200
        shown = slack.message(CHANNEL, question.ts)
        assert shown.buttons() == [] and f"✓ Squat by <@{ANN}>" in shown.shown()
        _, logged = ws.thread(ts)
        assert "squat 100 kg × 5 reps × 5 sets" in logged.shown()
        # The decision shows before the resumed turn's reply is posted.
        order = [c.method for c in slack.calls()[start:]]
        assert order.index("chat.update") < order.index("chat.postMessage")
        assert await engine.entries.count(ME) == 1


async def test_clarification_answered_by_typing_in_the_thread_without_a_mention(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    clarify_script(fake, scripts.strength("deadlift", 140, 5, 5))
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("did 5x5 today")
        (question,) = ws.thread(ts)
        await ws.post("데드리프트 140", thread_ts=ts)
        _, logged = ws.thread(ts)
        assert "deadlift 140 kg" in logged.shown()
        shown = slack.message(CHANNEL, question.ts)
        assert shown.buttons() == [] and "✓ 데드리프트 140" in shown.shown()
        assert await engine.entries.count(ME) == 1
    assert len(fake.calls("RouterOutput")) == 1  # the typed reply answered; it was not a new turn


async def test_restart_while_a_button_is_pending_continues_the_thread(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    clarify_script(fake, scripts.strength("bench press", 60, 5, 5), scripts.strength("squat", 80, 5, 5))
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("did 5x5 today")
        (question,) = ws.thread(ts)
    # App, adapter and engine are gone; all come back on the same DATA_DIR.
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await ws.press(question, "Bench press")
        assert "bench press 60 kg × 5 reps × 5 sets" in ws.thread(ts)[-1].shown()
        assert slack.message(CHANNEL, question.ts).buttons() == []
        # Ownership of the thread survived too: a follow-up there needs no mention.
        fake.script(scripts.router("LOG"))
        await ws.post("squat 80kg 5x5", thread_ts=ts)
        assert "squat 80 kg" in ws.thread(ts)[-1].shown()
        assert await engine.entries.count(ME) == 2


async def test_double_press_resumes_once_and_updates_once(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    clarify_script(fake, scripts.strength("squat", 100, 5, 5))
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("did 5x5 today")
        (question,) = ws.thread(ts)
        # Two presses before the first update reaches the client: both carry the buttons.
        first = await ws.press(question, "Squat", settle=False)
        second = await ws.press(question, "Bench press", settle=False)
        await ws.settle()
        assert (first.status, second.status) == (200, 200)
        assert await engine.entries.count(ME) == 1
        assert len(slack.calls("chat.update")) == 1 and len(fake.calls("ParserOutput")) == 2
        assert ws.ephemeral_texts() == ["That was already answered."]
        assert "squat 100 kg" in ws.thread(ts)[-1].shown()


async def test_foreign_press_is_refused_privately_and_changes_nothing(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    clarify_script(fake, scripts.strength("squat", 100, 5, 5))
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("did 5x5 today")
        (question,) = ws.thread(ts)
        await ws.press(question, "Squat", user="U0BOB")
        assert ws.ephemeral_texts("U0BOB") == ["Only the person who was asked can answer that."]
        assert slack.message(CHANNEL, question.ts).buttons() != [] and slack.calls("chat.update") == []
        await ws.press(question, "Squat")  # the asked person still can
        assert await engine.entries.count(ME) == 1


async def test_stale_press_after_cancel_gets_a_notice(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    clarify_script(fake)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("did 5x5 today")
        (question,) = ws.thread(ts)
        await ws.slash("cancel")
        closed = slack.message(CHANNEL, question.ts)
        assert closed.buttons() == [] and "✗ Cancelled" in closed.shown()
        updates = len(slack.calls("chat.update"))
        await ws.press(question, "Squat")  # an old copy of the message, still with its buttons
        assert ws.ephemeral_texts()[-1] == "That was already answered."
        assert await engine.entries.count(ME) == 0 and len(slack.calls("chat.update")) == updates


async def test_a_slow_turn_shows_eyes_then_a_check_mark(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    eyes = threading.Event()
    slack.on_call = lambda call: eyes.set() if call.method == "reactions.add" else None

    def parse_after_eyes(_: dict[str, object]) -> dict[str, object]:
        assert eyes.wait(10), "no 👀 while the model was working"
        return scripts.strength("bench press", 55, 10, 5)

    fake.script(scripts.router("LOG"))
    fake.script("ParserOutput", parse_after_eyes)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data", eyes_after=0.0) as ws:
        ts = await ws.mention("bench 55kg 10x5")
        assert "bench press 55 kg" in ws.thread(ts)[0].shown()
    assert [(c.method, c.params["name"]) for c in slack.calls() if c.method.startswith("reactions.")] == [
        ("reactions.add", "eyes"),
        ("reactions.remove", "eyes"),
        ("reactions.add", "white_check_mark"),
    ]
    assert slack.reactions == {(CHANNEL, ts, "white_check_mark")}
