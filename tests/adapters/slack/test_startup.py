"""Starting the Slack app: Socket Mode end to end, bad tokens stop start-up with one line (exit code 2)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.common import SetupError
from adapters.slack import serve
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import APP_TOKEN, TEAM, TOKEN, FakeSlack
from tests.fakes.slack_socket import FakeSocketMode
from tests.helpers import scripts


async def replied(slack: FakeSlack, channel: str, thread_ts: str) -> None:
    """Wait until the turn's reply reached the fake Web API (the bound above is a hang guard, not a timing test)."""
    while not slack.messages(channel, thread_ts):
        await asyncio.sleep(0.02)


async def test_socket_mode_receives_an_event_acks_it_and_answers_in_the_thread(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    socket = await FakeSocketMode().start()
    slack.socket_url = socket.url
    stopped = asyncio.Event()
    async with sqlite_engine() as engine:
        task = asyncio.create_task(
            serve(
                engine,
                token=TOKEN,
                base_url=slack.api_url,
                data_dir=tmp_path / "data",
                stopped=stopped,
                app_token=APP_TOKEN,
            )
        )
        try:
            envelope = await socket.send(
                "events_api",
                {
                    "team_id": TEAM,
                    "type": "event_callback",
                    "event_id": "Ev0SOCKET",
                    "event_time": 1,
                    "event": {
                        "type": "app_mention",
                        "channel": "C0GYM",
                        "user": "U0ANN",
                        "ts": "1800000000.000300",
                        "text": "<@U0BOT> bench 55kg 10x5",
                        "team": TEAM,
                    },
                },
            )
            assert (await socket.ack_of(envelope))["envelope_id"] == envelope
            await asyncio.wait_for(replied(slack, "C0GYM", "1800000000.000300"), 30)
        finally:
            stopped.set()
            await task
            await socket.stop()
    replies = slack.messages("C0GYM", "1800000000.000300")
    assert len(replies) == 1, [(m.text, m.ts) for m in replies]
    (reply,) = replies
    assert "bench press 55 kg" in reply.shown()


@pytest.mark.parametrize("app_token", ["xapp-wrong"])
async def test_a_rejected_app_token_stops_start_up(slack: FakeSlack, tmp_path: Path, app_token: str) -> None:
    with pytest.raises(SetupError, match="Slack rejected SLACK_APP_TOKEN"):
        await serve(
            None,
            token=TOKEN,
            base_url=slack.api_url,
            data_dir=tmp_path,  # type: ignore[arg-type]
            stopped=asyncio.Event(),
            app_token=app_token,
        )


def test_a_rejected_bot_token_exits_2_with_one_line_without_the_token(slack: FakeSlack, tmp_path: Path) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "TELEGRAM_"))},
        "SLACK_BOT_TOKEN": "xoxb-revoked-secret-123",
        "SLACK_MODE": "http",
        "SLACK_SIGNING_SECRET": "s3cret",
        "SLACK_API_BASE_URL": slack.api_url,
        "DATA_DIR": str(tmp_path / "data"),
        "KNOWLEDGE_ENABLED": "false",
    }
    code = "from bot.config import load_settings; from bot.run_slack import main; main(load_settings())"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("almanac: Slack rejected SLACK_BOT_TOKEN (invalid_auth)")
    assert "xoxb-revoked-secret-123" not in done.stderr


def test_a_bot_token_of_the_wrong_kind_is_refused_by_the_settings(tmp_path: Path) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "TELEGRAM_"))},
        "SLACK_BOT_TOKEN": "xapp-swapped",
        "DATA_DIR": str(tmp_path),
    }
    code = "from bot.config import load_settings; load_settings()"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    line = done.stderr.strip()
    assert line.startswith("almanac: bad setting SLACK_BOT_TOKEN: ") and line.endswith("must start with xoxb-")
    assert "\n" not in line and "xapp-swapped" not in line


def test_the_manifest_grants_what_the_adapter_uses() -> None:
    manifest = (Path(__file__).resolve().parents[3] / "slack" / "manifest.yml").read_text(encoding="utf-8")
    assert "- command: /almanac" in manifest  # SLACK_COMMAND's default
    for scope in (
        "app_mentions:read",
        "channels:history",
        "im:history",
        "im:write",
        "chat:write",
        "commands",
        "files:write",
        "reactions:write",
    ):
        assert f"- {scope}" in manifest, scope
    for event in ("app_mention", "message.channels", "message.im"):
        assert f"- {event}\n" in manifest, event
    assert "interactivity:\n    is_enabled: true" in manifest and "socket_mode_enabled: true" in manifest
