"""The real bot as a child process, killed with SIGKILL and started again: nothing lost, nothing twice, order kept.

Before: long polling confirmed each batch as soon as it arrived and turns
reached the inbox only when their chat's worker got to them, so a kill lost
everything queued in memory (22% of 200 messages over five kills); turns a
kill cut off stayed ``pending`` forever, and their "⏳" status lines stayed in
the chat. The full-size run is ``bench/crash.py``.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tests.fakes.ollama_server import FakeOllama
from tests.fakes.telegram_api import BotMessage, FakeTelegram
from tests.helpers import scripts
from tests.helpers.crash import BotProcess, count, script_logs, settle, stream, wait_until

CHAT = 4242
GROUP = -1004242
"""A group: a status line shows a turn's steps there (a private chat gets a draft, which is no message)."""
NOTED = "SELECT count(*) FROM received WHERE note != ''"
TODAY = datetime.now(ZoneInfo("Asia/Seoul")).date()  # the bot's DEFAULT_TIMEZONE


@pytest.fixture
def bot(tmp_path: Path, fake: FakeOllama, tg: FakeTelegram) -> Iterator[BotProcess]:
    data = tmp_path / "data"
    data.mkdir()
    process = BotProcess(tg, fake, data)
    try:
        yield process
    finally:
        process.kill()


def rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute(sql).fetchall()


def last_from_bot(tg: FakeTelegram, text: str, chat: int = CHAT) -> BotMessage:
    found = [m for m in tg.sent(chat) if text in m.text]
    assert found, [m.text for m in tg.sent(chat)]
    return found[-1]


def test_kills_while_messages_stream_in_lose_nothing(
    bot: BotProcess, fake: FakeOllama, tg: FakeTelegram, tmp_path: Path
) -> None:
    script_logs(fake, model_s=0.03)
    sent = stream(tg, bot, seed=7, chats=6, messages=36, kills=4)
    assert bot.stop() == 0
    figures = count(tg, tmp_path / "data" / "almanac.db", sent)
    assert bot.kills >= 4
    assert figures.ok(), figures.details
    assert figures.sent == 36


def test_kill_while_a_clarification_answer_runs(
    bot: BotProcess, fake: FakeOllama, tg: FakeTelegram, tmp_path: Path
) -> None:
    parses = {"n": 0}

    def parser(body: dict[str, Any]) -> dict[str, Any]:
        parses["n"] += 1
        if parses["n"] == 1:
            return scripts.needs_exercise()
        if parses["n"] == 2:  # the answer is being parsed: long enough for a status line, then pull the plug
            # (once the bot has noted the line: in the moment between Telegram taking it and the
            # note, a kill would leave it — the one window this cannot close)
            assert wait_until(lambda: rows(tmp_path / "data" / "almanac.db", NOTED) != [(0,)], 30)
            bot.kill()
        return scripts.strength("squat", 100, 5, 5)

    fake.default(scripts.router("LOG"))
    fake.default("ParserOutput", parser)
    fake.default(scripts.clarifier())
    bot.restart()
    tg.enqueue(tg.message(GROUP, CHAT, "did 5x5 today", mention=True))
    assert wait_until(lambda: any(m.buttons() for m in tg.sent(GROUP)), 30), bot.tail()
    question = last_from_bot(tg, "Which exercise", GROUP)
    tg.enqueue(tg.press(GROUP, question.message_id, CHAT, "Squat"))
    bot.wait_dead()
    bot.restart()
    assert wait_until(lambda: any("squat 100 kg" in m.text for m in tg.sent(GROUP)), 30), bot.tail()
    assert bot.stop() == 0
    db = tmp_path / "data" / "almanac.db"
    assert rows(db, "SELECT count(*) FROM entries WHERE summary LIKE 'squat%'") == [(1,)]
    assert rows(db, "SELECT count(*) FROM inbox WHERE status NOT IN ('done')") == [(0,)]
    assert parses["n"] == 3  # the answer ran again once after the restart, not twice
    # The status line the kill left behind was deleted at the restart.
    assert [m.text for m in tg.sent(GROUP, deleted=True) if m.text.startswith("⏳")] == ["⏳ Reading your entry…"]
    assert not [m for m in tg.sent(GROUP) if m.text.startswith("⏳")]


def test_kill_while_an_approval_commits(bot: BotProcess, fake: FakeOllama, tg: FakeTelegram, tmp_path: Path) -> None:
    week = [(TODAY + timedelta(days=d)).isoformat() for d in (1, 3, 5)]
    plan = scripts.former(
        operations=[scripts.op_plan(d, weight=w) for d, w in zip(week, (57.5, 60, 62.5))],
        assumptions=[scripts.assumption("current working weight is 55 kg", source=TODAY.isoformat())],
    )
    fake.script(scripts.router("LOG"), scripts.router("TASK", ["strength"]))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    fake.script("TaskFormationOutput", plan)

    def on_send(message: BotMessage) -> None:
        if "planned" in message.text:  # the patch is committed and its first reply is out: pull the plug
            tg.on_send = None
            bot.kill()

    bot.restart()
    tg.enqueue(tg.message(CHAT, CHAT, "bench 55kg 10x5"))
    assert wait_until(lambda: any("✓ Logged" in m.text for m in tg.sent(CHAT)), 30), bot.tail()
    tg.enqueue(tg.message(CHAT, CHAT, "plan my next week of bench"))
    assert wait_until(lambda: any(m.text.startswith("Plan: ") and m.buttons() for m in tg.sent(CHAT)), 30), bot.tail()
    tg.on_send = on_send
    tg.enqueue(tg.press(CHAT, last_from_bot(tg, "Plan: ").message_id, CHAT, "Approve"))
    bot.wait_dead()
    bot.restart()
    assert wait_until(lambda: any(m.text.startswith("Done.") for m in tg.sent(CHAT)), 30), bot.tail()
    assert bot.stop() == 0
    db = tmp_path / "data" / "almanac.db"
    assert rows(db, "SELECT occurred_on FROM entries WHERE kind = 'planned' ORDER BY occurred_on") == [
        (d,) for d in week
    ]
    assert rows(db, "SELECT count(*) FROM patches") == [(1,)]
    assert rows(db, "SELECT count(*) FROM events WHERE kind = 'DECISION'") == [(1,)]


class _Trickle:
    """A chat whose replies arrive one every ``gap`` seconds, as from a bot slowed by a loaded machine."""

    def __init__(self, weights: list[int], gap: float) -> None:
        self.weights, self.gap, self.start = weights, gap, time.monotonic()

    def sent(self, chat: int) -> list[BotMessage]:
        done = int((time.monotonic() - self.start) / self.gap)
        return [
            BotMessage(chat_id=chat, message_id=i, text=f"✓ logged bench press {w} kg")
            for i, w in enumerate(self.weights[:done])
        ]


def test_the_harness_counts_from_the_final_state_while_replies_keep_coming() -> None:
    """A slow bot is still working, not losing messages: the wait lasts as long as replies keep coming
    (here 1.5 s in all, against a stall limit of 0.6 s), so its figures are the final ones."""
    weights = [20, 21, 22, 23, 24]
    trickle = _Trickle(weights, gap=0.3)
    started = time.monotonic()
    assert settle(trickle, {1000: weights}, stall_s=0.6, poll=0.05)  # type: ignore[arg-type]
    assert time.monotonic() - started > 1.2


def test_a_bot_that_stops_answering_is_not_waited_for_forever() -> None:
    stuck = _Trickle([20, 21], gap=0.2)
    assert not settle(stuck, {1000: [20, 21, 22]}, stall_s=0.5, poll=0.05)  # type: ignore[arg-type]


def test_a_kill_during_start_up_is_counted_as_such(bot: BotProcess, fake: FakeOllama, tg: FakeTelegram) -> None:
    """A kill before the bot polls tests a restart, not a turn cut short: the figures say which it was."""
    bot.start()
    bot.kill()  # at once: still importing
    assert (bot.kills, bot.startup_kills) == (1, 1)
    bot.restart()  # waits until it polls
    bot.kill()
    assert (bot.kills, bot.startup_kills) == (2, 1)
