"""Rate limits never cost a message or double one (issue 22, item 3), in Slack.

Slack answers ``429`` with ``Retry-After`` when an app posts too fast.
slack_sdk's handler waits and retries three times; a reply that is still
refused after that is kept and sent when Slack allows it, within the
adapter's bound (``keep_replies_s``). When a reply cannot be shown at all
after the engine handled the turn, the person hears that their entry is
saved, never "please try again" (which would store it twice). Real app
(gateway process, bolt), fake Web API, real engine; code reads these logs,
so the fake model is not called.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from adapters.common import Budget
from adapters.slack.api import LocalApi, RateLimited
from adapters.slack.place import Place
from adapters.slack.render import SlackMessage
from adapters.slack.send import Outbox
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import TEAM, TOKEN, FakeSlack
from tests.helpers.slack import ANN, CHANNEL, Workspace, running

ME = f"slack:T0ALMANAC:{ANN}"
LOG = "bench 55kg 10x5"


def _told(ws: Workspace) -> list[str]:
    """Everything Almanac said: the thread's messages and the person's ephemeral notes."""
    return [m.shown() for m in ws.slack.messages(CHANNEL)] + ws.ephemeral_texts()


async def test_four_rate_limits_then_the_reply_arrives_in_order_and_a_resend_is_not_stored_twice(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    """Before: the fourth 429 ended in "please try again", and the reply was never posted."""
    slack.rate_limit("chat.postMessage", times=4, retry_after=0)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention(LOG, settle=False)
        await ws.post(LOG, thread_ts=ts)  # sent again while the first reply is held back
        logged, again = ws.thread(ts)  # in the order the messages came
        assert logged.shown().startswith("✓ Logged") and "bench press 55 kg × 10 reps × 5 sets" in logged.shown()
        assert again.shown().startswith("Already logged: bench press 55 kg × 10 reps × 5 sets")
        assert not any("try again" in text for text in _told(ws))
        assert await engine.entries.count(ME) == 1
    assert len(slack.calls("chat.postMessage")) == 6  # four refused, then both replies
    assert slack.errors == [] and fake.titles() == []


async def test_a_reply_refused_past_the_bound_says_the_entry_is_saved(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    """Slack keeps refusing for longer than a reply is kept: the entry is saved, and the person hears so."""
    slack.rate_limit("chat.postMessage", times=1_000, retry_after=0)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data", keep_replies_s=0.5) as ws:
        ts = await ws.mention(LOG)
        assert ws.thread(ts) == []
        (told,) = ws.ephemeral_texts()
        assert "saved" in told and "no need to send it again" in told
        assert not any("try again" in text for text in _told(ws))
        assert await engine.entries.count(ME) == 1


async def test_a_post_that_keeps_failing_after_the_log_says_the_entry_is_saved_and_a_resend_is_kept_once(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    """``chat.postMessage`` fails (500 twice: the first try and slack_sdk's retry) after the engine stored the log."""
    slack.rate_limit("chat.postMessage", times=2, status=500)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention(LOG)
        assert ws.thread(ts) == []
        (told,) = ws.ephemeral_texts()
        assert told.startswith("Your entry is saved, so there is no need to send it again")
        assert "try again" not in told
        # The person sends it anyway: it is not stored a second time.
        await ws.post(LOG, thread_ts=ts)
        (again,) = ws.thread(ts)
        assert again.shown().startswith("Already logged")
        assert await engine.entries.count(ME) == 1


def _outbox(slack: FakeSlack, keep_s: float) -> Outbox:
    """An outbox on a real client without slack_sdk's own 429 retries, so each refusal reaches the outbox."""
    client = AsyncWebClient(token=TOKEN, base_url=slack.api_url, retry_handlers=[])
    return Outbox(LocalApi(client), Budget(per_second=1.0, burst=1), keep_s=keep_s)


async def test_a_kept_reply_waits_as_long_as_retry_after_says_and_is_posted_once(slack: FakeSlack) -> None:
    slack.rate_limit("chat.postMessage", times=2, retry_after=1)
    place = Place(TEAM, CHANNEL, "1.0", ANN)
    assert await _outbox(slack, keep_s=10.0).post(place, SlackMessage("after the waits")) is not None
    first, second, third = slack.calls("chat.postMessage")
    assert second.at - first.at >= 1.0 and third.at - second.at >= 1.0
    assert [m.text for m in slack.messages(CHANNEL)] == ["after the waits"]


async def test_a_wait_past_the_bound_is_not_waited_for(slack: FakeSlack) -> None:
    slack.rate_limit("chat.postMessage", times=1, retry_after=30)
    place = Place(TEAM, CHANNEL, "1.0", ANN)
    with pytest.raises(RateLimited) as refused:
        await _outbox(slack, keep_s=10.0).post(place, SlackMessage("too late"))
    assert refused.value.retry_after == 30 and len(slack.calls("chat.postMessage")) == 1
