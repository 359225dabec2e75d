"""The two processes of the Slack app: the real ``python -m bot slack``, killed with SIGKILL under load.

The gateway (receiving, acks, Web API calls) is a child of the engine's
process. Killing the engine's process must take the gateway with it (no
orphan keeps acknowledging events nobody will run), and everything
acknowledged before the kill must be answered after the restart, stored once,
in order per thread. A gateway that dies on its own stops the app with an
error, so a supervisor starts it again, instead of leaving an app that hears
nothing.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from adapters.slack import GatewayExited, Http, serve
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import BOT_USER, TEAM, TOKEN, FakeSlack
from tests.fakes.slack_signing import SignedSender
from tests.helpers.crash import ROOT, SETTINGS_PREFIXES, script_logs, wait_until

SECRET = "gateway-test-secret"
CHANNEL = "C0KILL"
_LOGGED = re.compile(r"✓ Logged .*bench press (\d+) kg")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")  # a zombie is gone


class SlackBot:
    """``python -m bot slack`` in HTTP mode against the fakes; its log (stderr, both processes) in a file."""

    def __init__(self, slack: FakeSlack, fake: FakeOllama, data: Path) -> None:
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS_PREFIXES)}
        env.update(
            SLACK_BOT_TOKEN=TOKEN, SLACK_MODE="http", SLACK_SIGNING_SECRET=SECRET, SLACK_HTTP_LISTEN="127.0.0.1",
            SLACK_HTTP_PORT=str(self.port), SLACK_API_BASE_URL=slack.api_url, OLLAMA_HOST=fake.url,
            OLLAMA_TIMEOUT_S="10", DATA_DIR=str(data), LOG_FORMAT="json", LOG_LEVEL="INFO",
            KNOWLEDGE_ENABLED="false", PYTHONPATH=str(ROOT),
        )
        self._env, self._cwd, self.log = env, data.parent, data.parent / "bot.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        size = self.log.stat().st_size if self.log.exists() else 0
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "bot", "slack"], env=self._env, cwd=self._cwd,
                                         stdout=out, stderr=out)
        assert wait_until(lambda: "slack.started" in self.log.read_text(errors="replace")[size:], 60), self.tail()

    def gateway_pid(self) -> int:
        started = [json.loads(line) for line in self.log.read_text().splitlines() if '"slack.started"' in line]
        return int(started[-1]["gateway"])

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(60)

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:]) if self.log.exists() else ""


@pytest.fixture
def bot(tmp_path: Path, fake: FakeOllama, slack: FakeSlack) -> Iterator[SlackBot]:
    data = tmp_path / "data"
    data.mkdir()
    process = SlackBot(slack, fake, data)
    try:
        yield process
    finally:
        if process.proc is not None and process.proc.poll() is None:
            process.kill()


def envelope(thread: int, i: int) -> dict[str, object]:
    top = f"{1_800_000_000 + thread}.000000"
    event: dict[str, object] = {
        "type": "app_mention" if i == 0 else "message", "channel": CHANNEL, "user": f"U{thread:04d}",
        "text": (f"<@{BOT_USER}> " if i == 0 else "") + f"bench {50 + i}kg 10x5",
        "ts": top if i == 0 else f"{1_800_000_000 + thread}.{i:06d}", "team": TEAM, "channel_type": "channel",
    }
    if i:
        event["thread_ts"] = top
    return {"team_id": TEAM, "type": "event_callback", "event": event, "event_id": f"Ev{thread:04d}{i:02d}",
            "event_time": int(time.time())}


def logged(slack: FakeSlack, threads: int) -> dict[int, list[int]]:
    """Per thread, the weights Almanac said it logged, in the order its replies were posted."""
    seen: dict[int, list[int]] = defaultdict(list)
    for t in range(threads):
        for m in slack.messages(CHANNEL, f"{1_800_000_000 + t}.000000"):
            found = _LOGGED.search(m.text)
            if found:
                seen[t].append(int(found.group(1)) - 50)
    return seen


@pytest.mark.parametrize("victim", ["bot", "gateway"])
async def test_kill_9_under_load_loses_nothing_and_every_acknowledged_post_is_answered_once(
    bot: SlackBot, fake: FakeOllama, slack: FakeSlack, tmp_path: Path, victim: str
) -> None:
    """Killing the bot takes the gateway along; killing the gateway stops the bot (exit 1). Either way,
    after a restart every acknowledged post is answered and stored once, in order."""
    threads, messages = 8, 4
    script_logs(fake, model_s=0.15)
    bot.start()
    sender = SignedSender(f"http://127.0.0.1:{bot.port}/slack/events", SECRET)
    try:
        # Every post, thread by thread in order, each acknowledged (recorded) before the next goes out.
        for i in range(messages):
            for t in range(threads):
                assert (await sender.event(envelope(t, i))).status == 200
        gateway = bot.gateway_pid()
        # Some answered, most not: the kill falls in the middle of the work.
        assert await asyncio.to_thread(wait_until, lambda: sum(map(len, logged(slack, threads).values())) >= 3, 60)
        if victim == "bot":
            bot.kill()
            assert await asyncio.to_thread(wait_until, lambda: not alive(gateway), 10), "the gateway outlived the bot"
        else:
            os.kill(gateway, signal.SIGKILL)
            assert bot.proc is not None
            assert await asyncio.to_thread(bot.proc.wait, 60) == 1, bot.tail()
            assert "almanac: the Slack gateway process exited" in bot.tail(), bot.tail()
        before = sum(map(len, logged(slack, threads).values()))
        assert before < threads * messages, "the kill came too late to test anything"
        bot.start()
        done = await asyncio.to_thread(
            wait_until, lambda: all(set(logged(slack, threads)[t]) == set(range(messages)) for t in range(threads)), 90)
        assert done, (logged(slack, threads), bot.tail())
        assert bot.stop() == 0, bot.tail()
    finally:
        await sender.close()
    replies = logged(slack, threads)
    for t in range(threads):
        firsts = list(dict.fromkeys(replies[t]))
        assert firsts == list(range(messages)), (t, replies[t])  # in order
    repeated = sum(len(r) - len(set(r)) for r in replies.values())
    # A turn finished just before the kill may show its reply again (the engine gives back what it
    # showed, and stores nothing twice); a few at most.
    assert repeated <= 2 * threads, replies
    with sqlite3.connect(f"file:{tmp_path / 'data' / 'almanac.db'}?mode=ro", uri=True) as db:
        stored = db.execute("SELECT user_key, data FROM entries WHERE status = 'active'").fetchall()
    per_user = Counter(user for user, _ in stored)
    assert sorted(per_user.values()) == [messages] * threads, per_user  # each post stored exactly once
    with sqlite3.connect(f"file:{tmp_path / 'data' / 'slack.db'}?mode=ro", uri=True) as db:
        assert db.execute("SELECT count(*) FROM intake").fetchone() == (0,)  # nothing left to run


async def test_a_gateway_that_dies_stops_the_app_with_an_error(
    sqlite_engine: OpenEngine, slack: FakeSlack, tmp_path: Path
) -> None:
    port = free_port()
    http = Http(signing_secret=SECRET, host="127.0.0.1", port=port)
    stopped = asyncio.Event()
    async with sqlite_engine() as engine:
        task = asyncio.create_task(serve(engine, token=TOKEN, base_url=slack.api_url, data_dir=tmp_path, http=http,
                                         stopped=stopped))
        assert await asyncio.to_thread(wait_until, lambda: listening(port), 30), "the app never listened"
        pids = await asyncio.to_thread(children_of, os.getpid(), 30)
        assert pids, "no gateway process"
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(GatewayExited, match="gateway process exited"):
            await asyncio.wait_for(task, 30)


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def children_of(pid: int, timeout: float) -> list[int]:
    """The Python child processes of ``pid`` that run the gateway (once one is up)."""
    found: list[int] = []

    def look() -> bool:
        found.clear()
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
                cmdline = (stat.parent / "cmdline").read_bytes()
            except OSError:
                continue
            if int(fields[1]) == pid and b"bot.slack_gateway" in cmdline:
                found.append(int(stat.parent.name))
        return bool(found)

    wait_until(look, timeout)
    return found


def test_a_port_in_use_stops_start_up_with_one_line(slack: FakeSlack, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS_PREFIXES)}
        env.update(SLACK_BOT_TOKEN=TOKEN, SLACK_MODE="http", SLACK_SIGNING_SECRET=SECRET,
                   SLACK_HTTP_LISTEN="127.0.0.1", SLACK_HTTP_PORT=str(port), SLACK_API_BASE_URL=slack.api_url,
                   DATA_DIR=str(tmp_path / "data"), KNOWLEDGE_ENABLED="false", PYTHONPATH=str(ROOT))
        done = subprocess.run([sys.executable, "-m", "bot", "slack"], env=env, cwd=tmp_path, capture_output=True,
                              text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith(f"almanac: cannot listen on 127.0.0.1:{port} (SLACK_HTTP_LISTEN, SLACK_HTTP_PORT)"), line
    assert SECRET not in done.stderr and TOKEN not in done.stderr
