"""Getting updates in and replies out: polling, webhook, start-up, retries, duplicates, ordering, errors."""

from __future__ import annotations

import asyncio
import logging
import re
import socket
import sqlite3
import urllib.error
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog
from pydantic import SecretStr
from structlog.testing import capture_logs

from adapters.telegram.retry import Retrying
from bot.config import Settings
from bot.run_telegram import main as run_telegram
from bot.run_telegram import serve
from engine import Outcome, Turn
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import Delay, FakeOllama, Reply
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers import scripts
from tests.helpers.telegram import CHAT, USER, running

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


SECRET = "webhook-secret-0123456789"


def settings(tmp_path: Path, fake: FakeOllama, tg: FakeTelegram, **more: Any) -> Settings:
    return Settings(
        data_dir=tmp_path / "data",
        ollama_host=fake.url,
        ollama_timeout_s=5,
        default_timezone="Asia/Seoul",
        telegram_bot_token=tg.token,
        telegram_api_base_url=tg.base_url,
        knowledge_enabled=False,  # transport tests; the knowledge base has its own
        read_in_code=False,  # the scenarios script the Router and Parser per message
        **more,
    )


async def wait_until(check: Callable[[], object], task: asyncio.Task[None] | None = None, timeout: float = 10) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if task is not None and task.done():
            task.result()  # raise what stopped it
            raise AssertionError("the bot stopped early")
        if loop.time() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.02)


async def test_long_polling_end_to_end(
    tmp_path: Path, fake: FakeOllama, tg: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    fake.script(scripts.router("LOG"), scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5), scripts.strength("squat", 100, 5, 5))
    first = tg.message(CHAT, USER, "bench 55kg 10x5")
    second = tg.message(CHAT, USER, "squat 100kg 5x5")
    tg.enqueue(first, second, second)  # sent while the bot was down; Telegram delivers one twice
    stopped = asyncio.Event()
    task = asyncio.create_task(serve(settings(tmp_path, fake, tg), stopped))
    await wait_until(lambda: len(tg.sent(CHAT)) >= 2, task)
    await asyncio.sleep(0.2)  # time for a (wrong) third reply to show up
    stopped.set()
    await task
    texts = [m.text for m in tg.sent(CHAT)]
    assert len(texts) == 2 and "bench press" in texts[0] and "squat" in texts[1]
    methods = tg.methods()
    assert methods.index("getMe") < methods.index("setMyCommands") < methods.index("getUpdates")
    assert "deleteWebhook" in methods  # polling makes sure no webhook is set
    assert len(fake.calls("RouterOutput")) == 2


async def test_webhook_rejects_requests_without_the_secret(
    tmp_path: Path, fake: FakeOllama, tg: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    fake.script("RouterOutput", Delay(1.0, scripts.router("LOG")))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = settings(
        tmp_path,
        fake,
        tg,
        telegram_webhook_url=f"http://127.0.0.1:{port}/telegram",
        telegram_webhook_secret=SECRET,
        telegram_webhook_listen="127.0.0.1",
        telegram_webhook_port=port,
    )
    stopped = asyncio.Event()
    task = asyncio.create_task(serve(config, stopped))
    await wait_until(lambda: tg.webhook is not None, task)
    assert tg.webhook == (f"http://127.0.0.1:{port}/telegram", SECRET)
    update = tg.message(CHAT, USER, "bench 55kg 10x5")

    async def post(secret: str | None) -> int:
        for _ in range(100):  # the server may still be binding
            try:
                return await asyncio.to_thread(tg.post_webhook, update, secret)
            except urllib.error.URLError:
                await asyncio.sleep(0.05)
        raise AssertionError("webhook server never answered")

    assert await post("wrong-secret") == 403
    assert await post(None) == 403
    assert await post(SECRET) == 200
    # The 200 told Telegram the update arrived: it is in the inbox already, while its turn still runs.
    assert received(tmp_path) == [(str(update["update_id"]), "new")]
    assert await post(SECRET) == 200  # Telegram retrying a delivery it thinks failed
    await wait_until(lambda: tg.sent(CHAT), task)
    await asyncio.sleep(0.2)
    stopped.set()
    await task
    (logged,) = tg.sent(CHAT)
    assert "bench press 55 kg" in logged.text
    assert len(fake.calls("RouterOutput")) == 1  # the rejected requests reached nothing
    assert received(tmp_path) == [(str(update["update_id"]), "done")]


def received(tmp_path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(f"file:{tmp_path / 'data' / 'almanac.db'}?mode=ro", uri=True) as db:
        return db.execute("SELECT delivery_id, status FROM received ORDER BY id").fetchall()


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """``main`` configures process-wide logging to stderr; put the test run's back afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    config = structlog.get_config()
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    structlog.configure(**config)


@pytest.mark.usefixtures("restore_logging")
def test_bad_token_stops_with_one_clear_line(
    tmp_path: Path,
    fake: FakeOllama,
    tg: FakeTelegram,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    bad = "987654321:AAWrongTokenWrongTokenWrongToken_0123"
    config = settings(tmp_path, fake, tg).model_copy(update={"telegram_bot_token": SecretStr(bad)})
    with pytest.raises(SystemExit) as exit_info:
        run_telegram(config)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "almanac: Telegram rejected TELEGRAM_BOT_TOKEN; copy it again from @BotFather\n" in err
    assert bad not in err and "Traceback" not in err


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
async def test_flood_control_waits_and_retries(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    fake.script(scripts.router("CHAT"))
    fake.script(scripts.chat("Rest well."))
    tg.fail("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1)
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (reply,) = await bot.say("hi")
    assert reply.text == "Rest well."
    attempts = tg.calls("sendMessage")
    assert len(attempts) == 2 and attempts[1].at - attempts[0].at >= 0.95


async def test_network_errors_are_retried_with_backoff(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    fake.script(scripts.router("CHAT"))
    fake.script(scripts.chat("Rest well."))
    tg.fail("sendMessage", 502, "Bad Gateway", times=2)
    async with sqlite_engine() as engine, running(tg, engine, retrying=Retrying(backoff=0.1)) as bot:
        (reply,) = await bot.say("hi")
    assert reply.text == "Rest well."
    attempts = [c.at for c in tg.calls("sendMessage")]
    assert len(attempts) == 3 and attempts[2] - attempts[1] > attempts[1] - attempts[0] > 0.05  # backing off


async def test_rejected_markup_is_resent_as_plain_text(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    fake.script(scripts.router("CHAT"))
    fake.script(scripts.chat("Sets <5> & reps"))
    tg.fail(
        "sendMessage",
        400,
        'Bad Request: can\'t parse entities: Unsupported start tag "5" at byte offset 5',
        when=lambda p: p.get("parse_mode") == "HTML",
    )
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (reply,) = await bot.say("hi")
    assert reply.text == "Sets <5> & reps" and reply.html is None
    assert [c.params.get("parse_mode") for c in tg.calls("sendMessage")] == ["HTML", None]


async def test_duplicate_update_ids_are_processed_once(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    fake.default(scripts.router("LOG"))
    fake.default(scripts.strength("bench press", 55, 10, 5))
    update = tg.message(CHAT, USER, "bench 55kg 10x5")
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await bot.feed(update, update)
        await bot.feed(update)
        assert len(tg.sent(CHAT)) == 1 and await engine.entries.count(f"tg:{USER}") == 1
        # A new update carrying an old message (a redelivery after a restart) is stored once too.
        again = dict(update, update_id=update["update_id"] + 1000)
        await bot.feed(again)
        assert await engine.entries.count(f"tg:{USER}") == 1
    assert len(fake.calls("RouterOutput")) == 1


def _marker(body: dict[str, Any]) -> str:
    return str(re.findall(r"#\w+", body["messages"][-1]["content"])[-1])


async def test_one_chat_in_order_while_other_chats_proceed(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    def route(body: dict[str, Any]) -> Reply:
        slow = "slow" in body["messages"][-1]["content"].split("Message:")[-1]
        return Delay(0.5, scripts.router("CHAT")) if slow else scripts.router("CHAT")

    fake.default("RouterOutput", route)
    fake.default("ChatOutput", lambda body: scripts.chat(f"echo {_marker(body)}"))
    a, b = 501, 502
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await bot.feed(
            tg.message(a, a, "slow #A1"),
            tg.message(a, a, "#A2"),
            tg.message(b, b, "#B1"),
            tg.message(a, a, "#A3"),
        )
    assert [m.text for m in tg.sent(a)] == ["echo #A1", "echo #A2", "echo #A3"]
    (b1,) = tg.sent(b)
    assert b1.sent_at < tg.sent(a)[0].sent_at  # chat B did not wait for chat A's slow turn


class Exploding:
    """An engine with a bug: every turn raises."""

    async def handle(self, turn: Turn, progress: Any = None) -> list[Outcome]:
        raise RuntimeError("boom: internal detail /srv/almanac/engine.py line 12")

    async def pending(self, conversation: str, user: str) -> None:
        return None

    async def interrupted(self, conversation: str) -> list[Turn]:
        return []


async def test_error_handler_logs_context_and_apologises(tg: FakeTelegram) -> None:
    with capture_logs() as logs:
        async with running(tg, Exploding()) as bot:
            (apology,) = await bot.say("hi")
    assert apology.text.startswith("Sorry, something went wrong on my side")
    assert "boom" not in apology.text and "Traceback" not in apology.text
    (event,) = [e for e in logs if e["event"] == "telegram.error"]
    assert event["chat_id"] == CHAT and event["user_id"] == USER and event["log_level"] == "error"
