"""Transport promises: signatures, acks before the model, exactly-once delivery, rate limits, long answers."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from adapters.slack.text import esc
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import FakeSlack
from tests.helpers import scripts
from tests.helpers.slack import ANN, CHANNEL, running

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


ME = f"slack:T0ALMANAC:{ANN}"


def log_script(fake: FakeOllama, n: int = 1) -> None:
    fake.script("RouterOutput", *[scripts.router("LOG")] * n)
    fake.script("ParserOutput", *[scripts.strength("bench press", 55, 10, 5)] * n)


async def test_unsigned_badly_signed_and_stale_requests_get_401(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        event = {"type": "app_mention", "channel": CHANNEL, "user": ANN, "text": "<@U0BOT> hi", "ts": ws.new_ts()}
        assert (await ws.event(event, signed=False)).status == 401
        assert (await ws.event(event, timestamp=int(time.time()) - 10 * 60)).status == 401  # replayed later
        ws.sender.secret = "not-the-secret"
        assert (await ws.slash("log bench 55kg 10x5")).status == 401
    assert fake.requests == [] and slack.calls("chat.postMessage") == []


async def test_slash_command_is_acknowledged_before_the_model_answers(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    released, answered = threading.Event(), threading.Event()

    def slow_router(_: dict[str, Any]) -> dict[str, Any]:
        # The model holds its reply until the test has seen the ack. Were the ack to wait for the
        # model, it would come back only after this reply (3 s later, under the engine's 5 s timeout).
        released.wait(3)
        answered.set()
        return scripts.router("LOG")

    fake.script("RouterOutput", slow_router)
    fake.script(scripts.strength("bench press", 55, 10, 5))
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ack = await ws.slash("log bench 55kg 10x5", settle=False)
        assert ack.status == 200 and ack.body == ""  # acknowledged (nothing ephemeral to show) …
        assert not answered.is_set()  # … before the model answered
        released.set()
        await ws.settle()
        starter = ws.last(top=True)
        assert "bench press 55 kg" in ws.thread(starter.ts)[0].shown()


async def test_event_delivered_three_times_with_retry_headers_is_answered_once(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    log_script(fake, 3)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = ws.new_ts()
        for retry in (None, 1, 2):
            await ws.mention("bench 55kg 10x5", ts=ts, event_id="Ev0RETRIED", retry_num=retry)
        assert len(ws.thread(ts)) == 1 and await engine.entries.count(ME) == 1
        # A retry whose original never arrived is the only copy: it is processed.
        lost = ws.new_ts()
        await ws.mention("bench 55kg 10x5", ts=lost, event_id="Ev0ORIGINAL_LOST", retry_num=1)
        assert len(ws.thread(lost)) == 1 and await engine.entries.count(ME) == 2


async def test_app_mention_and_message_twins_get_one_answer(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    log_script(fake, 3)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("bench 55kg 10x5")
        # In a thread Almanac owns, a post that mentions it arrives as app_mention and as message.
        reply_ts = ws.new_ts()
        # Not the same words as the first: those, so soon, would be taken as sent again (engine/runtime/repeats.py).
        await ws.mention("bench 55kg 10x5 again", thread_ts=ts, ts=reply_ts)
        await ws.post("<@U0BOT> bench 55kg 10x5 again", thread_ts=ts, ts=reply_ts)
        assert len(ws.thread(ts)) == 2 and await engine.entries.count(ME) == 2


async def test_bot_messages_edits_and_joins_are_ignored(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    log_script(fake)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("bench 55kg 10x5")
        base = {"type": "message", "channel": CHANNEL, "thread_ts": ts, "channel_type": "channel"}
        await ws.event({**base, "user": "U0BOT", "text": "my own reply", "ts": ws.new_ts()})
        await ws.event({**base, "bot_id": "B0OTHER", "text": "another bot", "ts": ws.new_ts()})
        await ws.event({**base, "subtype": "message_changed", "ts": ws.new_ts(), "message": {"text": "x"}})
        await ws.event({**base, "subtype": "channel_join", "user": "U0BOB", "text": "joined", "ts": ws.new_ts()})
        await ws.post("top-level chatter without a mention")
        assert len(ws.thread(ts)) == 1 and len(fake.calls("RouterOutput")) == 1


async def test_rate_limited_posts_are_retried_after_retry_after(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    log_script(fake)
    slack.rate_limit("chat.postMessage", times=2, retry_after=0)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("bench 55kg 10x5")
        (logged,) = ws.thread(ts)
        assert "bench press 55 kg" in logged.shown()
    assert len(slack.calls("chat.postMessage")) == 3


async def test_a_13000_character_answer_is_split_without_errors(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    paragraph = "Bench <progress> & notes 💪 — " + "steady work, " * 30
    long_text = "\n\n".join(f"{i}. {paragraph}" for i in range(32))
    assert len(long_text) > 13_000
    fake.script(scripts.router("CHAT"))
    fake.script(scripts.chat(long_text))
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("tell me everything")
        parts = ws.thread(ts)
    assert len(parts) == 2 and slack.errors == []
    assert "\n\n".join(p.blocks[0]["text"] for p in parts) == esc(long_text)  # the model's < and & are not markup
