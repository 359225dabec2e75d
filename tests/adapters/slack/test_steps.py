"""Steps you can watch in Slack (issue 25 item 5): a question's steps as the thread's assistant status,
cleared once the answer is posted; where the app may not set one, one status message updated and
deleted, the workspace remembered. The real worker and gateway processes, the fake Web API, the real
engine and the fake model (its reply delayed, so steps show)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from engine.config import EngineConfig, LLMConfig
from engine.engine import Engine
from engine.knowledge.config import KnowledgeConfig
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import DEFAULT_MODEL, EMBED_TITLE, Delay, FakeOllama
from tests.fakes.slack_api import FakeSlack
from tests.helpers import scripts
from tests.helpers.slack import ANN, CHANNEL, DM, running

WRONG = "987.6"
"""A number only the scripted model writes: no step (and no answer) may show it."""
QUESTION = "how many times did I bench in the last two weeks?"
SIGNS: dict[str, Any] = {"status_after": 0.1, "status_every": 0.2}


@pytest.fixture
def fake() -> Iterator[FakeOllama]:
    with FakeOllama(models=[DEFAULT_MODEL, "bge-m3"]) as server:
        yield server


@pytest.fixture
def kb_engine(tmp_path: Path, fake: FakeOllama) -> Callable[[], AbstractAsyncContextManager[Engine]]:
    """An engine whose knowledge base holds the built-in articles (their search embeds the question)."""

    @asynccontextmanager
    async def _open() -> AsyncIterator[Engine]:
        data = tmp_path / "engine"
        knowledge = KnowledgeConfig(
            data_dir=data,
            embedding_backend="ollama",
            embedding_model="bge-m3",
            ollama_host=fake.url,
            ollama_timeout_s=5,
        )
        config = EngineConfig(
            data_dir=data,
            default_timezone="Asia/Seoul",
            llm=LLMConfig(host=fake.url, timeout_s=5.0, max_retries=2),
            knowledge=knowledge,
        )
        async with Engine.open(config) as engine:
            assert engine.library is not None
            await engine.library.ready()
            yield engine

    return _open


def today() -> date:
    """A Slack turn is dated when it arrives (now), in the member's zone (Seoul, as the fake's users.info says)."""
    return datetime.now(ZoneInfo("Asia/Seoul")).date()


def answer_text() -> str:
    # The last two weeks: 14 days up to today. 5 and 11 days ago fall inside; 15 days ago does not.
    return f"Sessions of bench press, {today() - timedelta(days=13)} to {today()}: 2 sessions."


async def seed(engine: Engine) -> None:
    days = [today() - timedelta(days=n) for n in (15, 11, 5)]
    await engine.entries.add(f"slack:T0ALMANAC:{ANN}", [scripts.bench_entry(d, 60, 5, 5) for d in days])


def script_slow_model(fake: FakeOllama, times: int = 1) -> None:
    fake.default(scripts.analyzer("sufficient"))
    for _ in range(times):
        fake.script("SynthesizerOutput", Delay(1.0, scripts.synthesizer(f"You benched {WRONG} kg twice.")))


async def test_a_question_shows_its_steps_as_the_thread_status_then_clears_it(
    kb_engine: Callable[[], AbstractAsyncContextManager[Engine]], fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    script_slow_model(fake)
    async with kb_engine() as engine, running(slack, engine, tmp_path / "data", **SIGNS) as ws:
        await seed(engine)
        # The article search embeds the question: slow, so the window fetched before it is on screen a while.
        fake.script(EMBED_TITLE, Delay(0.6, None))
        ts = await ws.mention(QUESTION + " And what is a deload?")
    (answer,) = ws.thread(ts)
    assert answer.shown() == answer_text()
    calls = slack.calls("assistant.threads.setStatus")
    posted = next(c.at for c in slack.calls("chat.postMessage") if c.params.get("thread_ts") == ts)
    assert all(s["channel_id"] == CHANNEL and s["thread_ts"] == ts for s in slack.statuses)
    shown = [s["status"] for s in slack.statuses]
    assert shown[-1] == "" and all(shown[:-1])  # cleared once, at the end
    assert all(c.at < posted for c in calls[:-1]) and calls[-1].at > posted  # every step before the answer
    # The window code fetched (the 14 days up to today, the question's terms), on screen while the
    # articles were searched; then the articles it picked, by title.
    window = f"Fetching your bench press, deload entries for {today() - timedelta(days=13)} – {today()}…"
    assert window in shown
    assert any(s.startswith("Looking up ") and "“Deload”" in s for s in shown)
    # In the order the turn ran (a step that passed between two updates may be skipped, none repeated).
    order = [
        "Reading your message…",
        "Working out what you asked…",
        "Fetching your entries…",
        window,
        next(s for s in shown if s.startswith("Looking up ")),
        "Looking over what I found…",
        "Writing the answer…",
        "Checking the answer…",
    ]
    assert [s for s in order if s in shown] == shown[:-1]
    assert shown[-2] in ("Writing the answer…", "Checking the answer…")
    assert not any("987" in s for s in shown) and "987" not in answer.shown()
    assert slack.status_shown(CHANNEL, ts) == ""
    assert slack.errors == []


async def test_an_app_without_assistant_status_gets_one_status_message_and_is_remembered(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    slack.refuse_status = "not_allowed"
    script_slow_model(fake, times=2)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data", **SIGNS) as ws:
        await seed(engine)
        first = await ws.mention(QUESTION)
        second = await ws.mention(QUESTION)
    for ts in (first, second):
        (answer,) = ws.thread(ts)  # the status message is gone, the answer stays
        assert answer.shown() == answer_text()
        posts = [c for c in slack.calls("chat.postMessage") if c.params.get("thread_ts") == ts]
        status, reply = posts  # the status message, then the answer
        assert str(status.params["text"]).startswith("⏳ _") and "987" not in str(status.params["text"])
        deleted = [c for c in slack.calls("chat.delete") if c.params.get("channel") == CHANNEL]
        assert any(c.at > reply.at for c in deleted)  # deleted after the answer was posted
        updates = [str(c.params["text"]) for c in slack.calls("chat.update")]
        assert not any("987" in u for u in updates)
    # Refused once; the workspace is remembered, so the second turn went straight to the message.
    assert len(slack.calls("assistant.threads.setStatus")) == 1
    assert slack.errors == ["assistant.threads.setStatus: not_allowed"]


async def test_a_dm_without_a_thread_gets_a_status_message(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    script_slow_model(fake)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data", **SIGNS) as ws:
        await seed(engine)
        await ws.post(QUESTION, channel=DM)
    (answer,) = slack.messages(DM)  # the status message is gone
    assert answer.shown() == answer_text()
    status, reply = [c for c in slack.calls("chat.postMessage") if c.params.get("channel") == DM]
    assert str(status.params["text"]).startswith("⏳ _") and status.params.get("thread_ts") is None
    (deleted,) = slack.calls("chat.delete")
    assert deleted.at > reply.at
    assert slack.calls("assistant.threads.setStatus") == []  # no thread to set a status on
