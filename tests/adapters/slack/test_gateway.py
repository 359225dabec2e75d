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
import os
import signal
import socket
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from adapters.slack import GatewayExited, Http, serve
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import TOKEN, FakeSlack
from tests.fakes.slack_signing import SignedSender
from tests.helpers.crash import ROOT, SETTINGS_PREFIXES, script_logs, wait_until
from tests.helpers.slack_process import (
    SECRET,
    SlackBot,
    alive,
    envelope,
    free_port,
    logged,
)


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


@pytest.mark.parametrize("victim", ["bot", "gateway"])
async def test_kill_9_under_load_loses_nothing_and_every_acknowledged_post_is_answered_once(
    bot: SlackBot, fake: FakeOllama, slack: FakeSlack, tmp_path: Path, victim: str
) -> None:
    """Killing the bot takes the gateway along; killing the gateway stops the bot (exit 1). Either way,
    after a restart every acknowledged post is answered and stored once, in order."""
    threads, weights = list(range(8)), [50, 51, 52, 53]
    script_logs(fake, model_s=0.15)
    bot.start()
    sender = SignedSender(bot.endpoint, SECRET)

    def answered() -> int:
        return sum(map(len, logged(slack, threads).values()))

    try:
        # Every post, thread by thread in order, each acknowledged (recorded) before the next goes out.
        for i, weight in enumerate(weights):
            for t in threads:
                assert (await sender.event(envelope(t, i, weight))).status == 200
        gateway = bot.gateway_pid()
        # Some answered, most not: the kill falls in the middle of the work.
        assert await asyncio.to_thread(wait_until, lambda: answered() >= 3, 60)
        if victim == "bot":
            bot.kill()
            assert await asyncio.to_thread(wait_until, lambda: not alive(gateway), 10), "the gateway outlived the bot"
        else:
            assert await asyncio.to_thread(bot.kill_gateway) == 1, bot.tail()
            assert "almanac: the Slack gateway process exited" in bot.tail(), bot.tail()
        assert answered() < len(threads) * len(weights), "the kill came too late to test anything"
        bot.start()
        done = await asyncio.to_thread(
            wait_until, lambda: all(set(logged(slack, threads)[t]) == set(weights) for t in threads), 90
        )
        assert done, (logged(slack, threads), bot.tail())
        assert bot.stop() == 0, bot.tail()
    finally:
        await sender.close()
    replies = logged(slack, threads)
    for t in threads:
        assert list(dict.fromkeys(replies[t])) == weights, (t, replies[t])  # in order
    repeated = sum(len(r) - len(set(r)) for r in replies.values())
    # A turn finished just before the kill may show its reply again (the engine gives back what it
    # showed, and stores nothing twice); a few at most.
    assert repeated <= 2 * len(threads), replies
    with sqlite3.connect(f"file:{tmp_path / 'data' / 'almanac.db'}?mode=ro", uri=True) as db:
        stored = db.execute("SELECT user_key FROM entries WHERE status = 'active'").fetchall()
    per_user = Counter(user for (user,) in stored)
    assert sorted(per_user.values()) == [len(weights)] * len(threads), per_user  # each post stored exactly once
    with sqlite3.connect(f"file:{tmp_path / 'data' / 'slack.db'}?mode=ro", uri=True) as db:
        assert db.execute("SELECT count(*) FROM intake").fetchone() == (0,)  # nothing left to run


async def test_a_gateway_that_dies_stops_the_app_with_an_error(
    sqlite_engine: OpenEngine, slack: FakeSlack, tmp_path: Path
) -> None:
    port = free_port()
    http = Http(signing_secret=SECRET, host="127.0.0.1", port=port)
    stopped = asyncio.Event()
    async with sqlite_engine() as engine:
        task = asyncio.create_task(
            serve(engine, token=TOKEN, base_url=slack.api_url, data_dir=tmp_path, http=http, stopped=stopped)
        )
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
        env.update(
            SLACK_BOT_TOKEN=TOKEN,
            SLACK_MODE="http",
            SLACK_SIGNING_SECRET=SECRET,
            SLACK_HTTP_LISTEN="127.0.0.1",
            SLACK_HTTP_PORT=str(port),
            SLACK_API_BASE_URL=slack.api_url,
            DATA_DIR=str(tmp_path / "data"),
            KNOWLEDGE_ENABLED="false",
            PYTHONPATH=str(ROOT),
        )
        done = subprocess.run(
            [sys.executable, "-m", "bot", "slack"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith(f"almanac: cannot listen on 127.0.0.1:{port} (SLACK_HTTP_LISTEN, SLACK_HTTP_PORT)"), line
    assert SECRET not in done.stderr and TOKEN not in done.stderr
