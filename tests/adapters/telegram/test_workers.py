"""Past one machine: a receiver and workers on one Postgres, workers killed with SIGKILL at random.

Every message is stored once and answered once, each chat's replies come in
the order of its messages, whichever worker ran them; a killed worker's turn
runs again on another. The processes start together on an empty database and
migrate it together. The full-size run is ``bench/scale.py``.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import psycopg
import pytest

from engine.store.db import Database
from engine.store.schema_pg import MIGRATIONS
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers import scripts
from tests.helpers.crash import ROOT, BotProcess, count, script_logs, settle, text_of, wait_until
from tests.helpers.workers import Deployment, stream

CHAT = 4343


@pytest.fixture
def deployment(tmp_path: Path, fake: FakeOllama, tg: FakeTelegram, pg_url: str) -> Iterator[Deployment]:
    made = Deployment.make(tmp_path, tg, fake, pg_url, workers=2)
    try:
        yield made
    finally:
        made.kill_all()


@pytest.mark.parametrize("seed", [3, 11])
def test_workers_killed_mid_turn_lose_nothing_and_keep_each_chats_order(
    deployment: Deployment, fake: FakeOllama, tg: FakeTelegram, pg_url: str, seed: int
) -> None:
    script_logs(fake, model_s=0.03)
    deployment.start_all()
    sent = stream(tg, deployment, seed=seed, chats=6, messages=40, kills=4)
    assert deployment.stop_all() == [0, 0, 0]
    figures = count(tg, pg_url, sent)
    assert sum(w.kills for w in deployment.workers) == 4
    assert figures.ok(), figures.details
    assert (figures.sent, figures.lost, figures.duplicated, figures.out_of_order) == (40, 0, 0, 0)
    with psycopg.connect(pg_url) as conn:
        ran = conn.execute("SELECT count(*) FROM inbox WHERE status = 'done'").fetchone()
        open_deliveries = conn.execute("SELECT count(*) FROM received WHERE status = 'new'").fetchone()
    assert ran == (40,) and open_deliveries == (0,)


def test_four_workers_start_together_on_a_fresh_database_and_every_one_runs_turns(
    tmp_path: Path, fake: FakeOllama, tg: FakeTelegram, pg_url: str
) -> None:
    """A receiver and four workers start at once on an empty database (they migrate it together); the turns
    then spread over all of them: with a slow model one process alone could not keep up."""
    deployment = Deployment.make(tmp_path, tg, fake, pg_url, workers=4)
    try:
        script_logs(fake, model_s=0.2)
        deployment.start_all()
        sent = stream(tg, deployment, seed=5, chats=10, messages=30, kills=0)
        assert deployment.stop_all() == [0] * 5
    finally:
        deployment.kill_all()
    assert count(tg, pg_url, sent).ok()
    stored = [p.log.read_text().count('"node": "store"') for p in deployment.processes]  # a log line per turn stored
    # Each stored once, and not all by one process: a process runs at most 8 of the 10 chats at once. (How
    # they spread depends on the machine's load: on an idle one every process runs some.)
    assert sum(stored) == 30 and sum(1 for n in stored if n) >= 2, stored


def test_four_processes_migrate_a_fresh_database_at_once(pg_url: str, tmp_path: Path) -> None:
    env = {"DATABASE_URL": pg_url, "DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "bot", "migrate"],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        for _ in range(4)
    ]
    outs = [p.communicate(timeout=120)[0].decode() for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], outs
    assert sum("applied migrations" in o for o in outs) == 1, outs  # one applied them; three found them done
    with psycopg.connect(pg_url) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM almanac_migrations ORDER BY version")]
        checkpoints = conn.execute("SELECT count(*) FROM checkpoint_migrations").fetchone()
    assert versions == [m.version for m in MIGRATIONS]
    assert checkpoints is not None and checkpoints[0] > 0


async def test_many_engines_opening_a_fresh_database_at_once_all_succeed(pg_url: str) -> None:
    opened = await asyncio.gather(*(Database.open_postgres(pg_url) for _ in range(8)))
    for db in opened:
        await db.close()
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT count(*) FROM almanac_migrations").fetchone() == (len(MIGRATIONS),)


def test_an_approval_pressed_after_its_process_died_resumes_on_another(
    deployment: Deployment, fake: FakeOllama, tg: FakeTelegram, pg_url: str
) -> None:
    """The plan's thread lives in Postgres: a process that never saw the plan resumes it from the press."""
    today = datetime.now(ZoneInfo("Asia/Seoul")).date()
    week = [(today + timedelta(days=d)).isoformat() for d in (1, 3, 5)]
    plan = scripts.former(
        operations=[scripts.op_plan(d, weight=w) for d, w in zip(week, (57.5, 60, 62.5), strict=True)],
        assumptions=[scripts.assumption("current working weight is 55 kg", source=today.isoformat())],
    )
    fake.script(scripts.router("LOG"), scripts.router("TASK", ["strength"]))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    fake.script("TaskFormationOutput", plan)
    deployment.start_all()
    tg.enqueue(tg.message(CHAT, CHAT, "bench 55kg 10x5"))
    assert wait_until(lambda: any("✓ Logged" in m.text for m in tg.sent(CHAT)), 30)
    tg.enqueue(tg.message(CHAT, CHAT, "plan my next week of bench"))
    assert wait_until(lambda: any(m.text.startswith("Plan: ") and m.buttons() for m in tg.sent(CHAT)), 30)
    deployment.kill_all()  # every process that could remember the plan is gone
    deployment.restart(deployment.workers[0])  # a worker that never saw it…
    deployment.restart(deployment.receiver)  # …and a receiver to hear the press
    plan_message = [m for m in tg.sent(CHAT) if m.text.startswith("Plan: ")][-1]
    tg.enqueue(tg.press(CHAT, plan_message.message_id, CHAT, "Approve"))
    assert wait_until(lambda: any(m.text.startswith("Done.") for m in tg.sent(CHAT)), 30)
    assert deployment.stop_all()[0] == 0
    with psycopg.connect(pg_url) as conn:
        planned = conn.execute("SELECT occurred_on FROM entries WHERE kind = 'planned' ORDER BY occurred_on").fetchall()
    assert planned == [(d,) for d in week]


SECRET = "webhook-secret-0123456789"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(port: int, update: dict[str, object]) -> int:
    """What a load balancer does with Telegram's POST: hand it to one replica."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/telegram", data=json.dumps(update).encode(), method="POST"
    )
    request.add_header("Content-Type", "application/json")
    request.add_header("X-Telegram-Bot-Api-Secret-Token", SECRET)
    with urllib.request.urlopen(request, timeout=10) as response:
        return int(response.status)


def test_webhook_replicas_behind_a_balancer_keep_each_chats_order(
    tmp_path: Path, fake: FakeOllama, tg: FakeTelegram, pg_url: str
) -> None:
    """Two webhook receivers (each answers 200 only once the update is recorded) and a worker: whichever replica
    an update lands on, each chat's messages are stored once and answered in order."""
    script_logs(fake, model_s=0.05)
    ports = [free_port(), free_port()]
    processes = []
    for i, port in enumerate(ports):
        data = tmp_path / f"replica{i}" / "data"
        data.mkdir(parents=True)
        hook = {
            "TELEGRAM_WEBHOOK_URL": f"http://127.0.0.1:{ports[0]}/telegram",  # the balancer's address
            "TELEGRAM_WEBHOOK_SECRET": SECRET,
            "TELEGRAM_WEBHOOK_LISTEN": "127.0.0.1",
            "TELEGRAM_WEBHOOK_PORT": str(port),
        }
        processes.append(BotProcess(tg, fake, data, database_url=pg_url, log_name=f"replica{i}.log", env=hook))
    worker_data = tmp_path / "worker" / "data"
    worker_data.mkdir(parents=True)
    processes.append(BotProcess(tg, fake, worker_data, mode="worker", database_url=pg_url, log_name="worker.log"))
    deployment = Deployment(processes[0], processes[1:])
    try:
        deployment.start_all()
        rng = random.Random(9)
        sent: dict[int, list[int]] = {3000 + c: [] for c in range(5)}
        for _ in range(30):
            chat = rng.choice(list(sent))
            weight = 20 + len(sent[chat])
            sent[chat].append(weight)
            assert post(rng.choice(ports), tg.message(chat, chat, text_of(weight))) == 200
        settle(tg, sent, 60)
        assert deployment.stop_all() == [0, 0, 0]
    finally:
        deployment.kill_all()
    figures = count(tg, pg_url, sent)
    assert figures.ok(), figures.details
    assert (figures.sent, figures.duplicated, figures.out_of_order) == (30, 0, 0)
