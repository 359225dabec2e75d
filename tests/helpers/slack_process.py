"""The real Slack app as a child process (``python -m bot slack``, HTTP mode) against the fakes, for kills.

Both processes of the app run as in production: the bot, and the gateway it
starts. The Web API is a `FakeSlack` and the model a `FakeOllama`, both
served from the calling process on loopback; events go in as signed HTTP
requests (`SignedSender`). Used by ``tests/adapters/slack/test_gateway.py``
and ``bench/slack_crash.py``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import BOT_USER, TEAM, TOKEN, FakeSlack
from tests.helpers.crash import ROOT, SETTINGS_PREFIXES, wait_until

SECRET = "slack-process-secret"
CHANNEL = "C0KILL"
LOGGED = re.compile(r"✓ Logged .*bench press (\d+) kg")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class SlackBot:
    """``python -m bot slack`` in HTTP mode; the log lines of both its processes go to one file."""

    def __init__(
        self, slack: FakeSlack, fake: FakeOllama, data: Path, port: int | None = None, database_url: str | None = None
    ) -> None:
        self.port = port or free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS_PREFIXES)}
        env.update(
            SLACK_BOT_TOKEN=TOKEN,
            SLACK_MODE="http",
            SLACK_SIGNING_SECRET=SECRET,
            SLACK_HTTP_LISTEN="127.0.0.1",
            SLACK_HTTP_PORT=str(self.port),
            SLACK_API_BASE_URL=slack.api_url,
            OLLAMA_HOST=fake.url,
            OLLAMA_TIMEOUT_S="10",
            DATA_DIR=str(data),
            LOG_FORMAT="json",
            LOG_LEVEL="INFO",
            KNOWLEDGE_ENABLED="false",
            PYTHONPATH=str(ROOT),
            READ_IN_CODE="false",  # the scenarios script the Router and Parser per message
        )
        if database_url:  # a replica of several, on one Postgres; two conversations at once, so both work
            env.update(DATABASE_URL=database_url, WORKER_SLOTS="2")
        self._env, self._cwd, self.log = env, data.parent, data.parent / "bot.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.endpoint = f"http://127.0.0.1:{self.port}/slack/events"
        self.kills = 0

    def start(self, wait: bool = True) -> None:
        size = self.log.stat().st_size if self.log.exists() else 0
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bot", "slack"], env=self._env, cwd=self._cwd, stdout=out, stderr=out
            )
        if wait:
            started = wait_until(lambda: "slack.started" in self.log.read_text(errors="replace")[size:], 60)
            assert started, self.tail()

    def gateway_pid(self) -> int:
        """The gateway of the latest start (from the bot's ``slack.started`` line)."""
        started = [json.loads(line) for line in self.log.read_text().splitlines() if '"slack.started"' in line]
        return int(started[-1]["gateway"])

    def kill(self) -> None:
        """SIGKILL the bot, as a power switch or the OOM killer would."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.kills += 1
        if self.proc is not None:
            self.proc.wait(10)

    def kill_gateway(self) -> int:
        """SIGKILL the gateway; the bot then stops by itself. Its exit code."""
        os.kill(self.gateway_pid(), signal.SIGKILL)
        self.kills += 1
        assert self.proc is not None
        return self.proc.wait(60)

    def stop(self) -> int:
        """SIGTERM and wait: queued turns finish, both processes exit."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(60)

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:]) if self.log.exists() else ""


def top_ts(thread: int) -> str:
    return f"{1_800_000_000 + thread}.000000"


def envelope(thread: int, i: int, weight: int) -> dict[str, object]:
    """The ``i``-th post of a thread: an ``app_mention`` that starts it, then plain thread replies."""
    event: dict[str, object] = {
        "type": "app_mention" if i == 0 else "message",
        "channel": CHANNEL,
        "user": f"U{thread:04d}",
        "text": (f"<@{BOT_USER}> " if i == 0 else "") + f"bench {weight}kg 10x5",
        "ts": top_ts(thread) if i == 0 else f"{1_800_000_000 + thread}.{i:06d}",
        "team": TEAM,
        "channel_type": "channel",
    }
    if i:
        event["thread_ts"] = top_ts(thread)
    return {
        "team_id": TEAM,
        "type": "event_callback",
        "event": event,
        "event_id": f"Ev{thread:04d}{i:03d}",
        "event_time": int(time.time()),
    }


def logged(slack: FakeSlack, threads: list[int]) -> dict[int, list[int]]:
    """Per thread, the weights Almanac said it logged, in the order its replies were posted."""
    seen: dict[int, list[int]] = defaultdict(list)
    for t in threads:
        for m in slack.messages(CHANNEL, top_ts(t)):
            found = LOGGED.search(m.text)
            if found:
                seen[t].append(int(found.group(1)))
    return seen
