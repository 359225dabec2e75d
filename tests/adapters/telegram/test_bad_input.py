"""One line, never a traceback: a user who blocked the bot, webhook bodies that are no Update (issue 22, item 8)."""

from __future__ import annotations

import asyncio
import io
import logging
import socket
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

from bot.config import Settings
from bot.logs import configure_logging
from bot.run_telegram import serve
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers.telegram import CHAT, USER, running

SECRET = "webhook-secret-0123456789"


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """The bot's log as people read it (console format), in a buffer; the test run's logging is put back after."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    config = structlog.get_config()
    buf = io.StringIO()
    configure_logging("console", "INFO", stream=buf)
    yield buf
    root.handlers[:] = handlers
    root.setLevel(level)
    structlog.configure(**config)


async def test_a_user_who_blocked_the_bot_is_one_log_line_per_reply(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram, log_lines: io.StringIO
) -> None:
    tg.fail("sendMessage", 403, "Forbidden: bot was blocked by the user", times=100)
    async with sqlite_engine(read_in_code=True) as engine, running(tg, engine) as bot:
        assert await bot.say("bench 55kg 10x5") == []  # code reads it: no model call
        assert await bot.say("squat 100kg 5x5") == []
    out = log_lines.getvalue()
    assert "Traceback" not in out, out
    blocked = [line for line in out.splitlines() if "blocked" in line]
    assert len(blocked) == 2, out  # one line per reply that could not go out
    assert all(f"chat_id={CHAT}" in line for line in blocked)


def _post(url: str, body: bytes) -> int:
    request = urllib.request.Request(url, data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("X-Telegram-Bot-Api-Secret-Token", SECRET)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


BAD_BODIES = [b'{"foo": 1}', b"[]", b"not json", b'{"update_id": "x"}', b'{"update_id": 7, "message": "hi"}', b"\xff"]


async def test_webhook_bodies_that_are_no_update_get_400_and_one_log_line_each(
    tmp_path: Path, fake: FakeOllama, tg: FakeTelegram, monkeypatch: pytest.MonkeyPatch, log_lines: io.StringIO
) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/telegram"
    config = Settings(
        data_dir=tmp_path / "data",
        ollama_host=fake.url,
        telegram_bot_token=tg.token,
        telegram_api_base_url=tg.base_url,
        knowledge_enabled=False,
        telegram_webhook_url=url,
        telegram_webhook_secret=SECRET,
        telegram_webhook_listen="127.0.0.1",
        telegram_webhook_port=port,
    )
    stopped = asyncio.Event()
    task = asyncio.create_task(serve(config, stopped))
    try:
        for _ in range(200):  # until the server listens
            try:
                await asyncio.to_thread(_post, url, b'{"foo": 1}')
                break
            except urllib.error.URLError:
                await asyncio.sleep(0.05)
        log_lines.truncate(0)
        log_lines.seek(0)
        statuses = [await asyncio.to_thread(_post, url, body) for body in BAD_BODIES]
        logged = log_lines.getvalue().splitlines()
        good = tg.message(CHAT, USER, "bench 55kg 10x5")
        assert await asyncio.to_thread(tg.post_webhook, good, SECRET) == 200  # a real update still goes through
    finally:
        stopped.set()
        await task
    assert statuses == [400] * len(BAD_BODIES)
    assert len(logged) == len(BAD_BODIES) and all("telegram.bad_update" in line for line in logged), logged
    assert "Traceback" not in log_lines.getvalue()
    with sqlite3.connect(f"file:{tmp_path / 'data' / 'almanac.db'}?mode=ro", uri=True) as db:
        received = db.execute("SELECT delivery_id FROM received").fetchall()
    assert received == [(str(good["update_id"]),)]  # nothing of the bad bodies was recorded
