"""Socket Mode redelivery: Slack sends an envelope again on a new connection after a reconnect.

Slack redelivers an event whose ack it did not get, and may do so after the
connection it went out on ended. Whether the first delivery was acknowledged
or its ack was lost with the connection, the person gets one answer and one
entry is stored.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from adapters.slack.worker.app import running
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import APP_TOKEN, TEAM, TOKEN, FakeSlack
from tests.fakes.slack_socket import FakeSocketMode
from tests.helpers import scripts

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


CHANNEL, ANN, TS = "C0GYM", "U0ANN", "1800000000.000400"


def mention(event_id: str) -> dict[str, Any]:
    return {
        "team_id": TEAM,
        "type": "event_callback",
        "event_id": event_id,
        "event_time": 1,
        "event": {
            "type": "app_mention",
            "channel": CHANNEL,
            "user": ANN,
            "ts": TS,
            "team": TEAM,
            "text": "<@U0BOT> bench 55kg 10x5",
        },
    }


async def replied(slack: FakeSlack) -> None:
    """Wait until a reply reached the fake Web API (callers bound it: a hang guard, not a timing test)."""
    while not slack.messages(CHANNEL, TS):
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("first_acked", [True, False], ids=["first-acked", "ack-lost-with-the-connection"])
async def test_an_envelope_redelivered_after_a_reconnect_is_answered_once(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path, first_acked: bool
) -> None:
    fake.script("RouterOutput", *[scripts.router("LOG")] * 2)
    fake.script("ParserOutput", *[scripts.strength("bench press", 55, 10, 5)] * 2)
    socket = await FakeSocketMode().start()
    slack.socket_url = socket.url
    try:
        async with sqlite_engine() as engine:
            async with running(
                engine,
                token=TOKEN,
                base_url=slack.api_url,
                data_dir=tmp_path / "data",
                app_token=APP_TOKEN,
                eyes_after=3600.0,
            ) as app:
                first = await socket.send("events_api", mention("Ev0AGAIN"), drop_after=not first_acked)
                if first_acked:
                    assert (await socket.ack_of(first))["envelope_id"] == first
                    await socket.drop()
                # The app reconnects (a new URL from apps.connections.open); Slack sends the same event again.
                again = await socket.send("events_api", mention("Ev0AGAIN"), retry_attempt=1)
                assert (await socket.ack_of(again))["envelope_id"] == again
                await asyncio.wait_for(replied(slack), 30)
                await app.adapter.drain()
            entries = await engine.entries.count(f"slack:{TEAM}:{ANN}")
    finally:
        await socket.stop()
    assert socket.connections == 2 and len(slack.calls("apps.connections.open")) >= 2
    assert first_acked == (first in socket.acks)
    (reply,) = slack.messages(CHANNEL, TS)
    assert "bench press 55 kg × 10 reps × 5 sets" in reply.shown()
    assert entries == 1
    assert len(fake.calls("RouterOutput")) == 1 and len(fake.calls("ParserOutput")) == 1
