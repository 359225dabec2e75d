"""Reminders in Telegram, end to end: /remind, its Set it button, the scheduler's message with Done /
Snooze 1h, /reminders with its buttons — the real application against the fake Bot API, on a fake clock.

The engine's scheduler runs as in production (started by ``app.start``); the test moves its clock and
makes a pass with ``tick()`` (passes never overlap), so nothing waits for real time.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

from engine import Engine
from engine.reminders.scheduler import Scheduler
from tests.conftest import OpenEngine
from tests.engine.reminders.helpers import Clock
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers.telegram import CHAT, running

GROUP, ANN, BOB = -100500, 1, 2


def fake_clock(engine: Engine) -> Clock:
    clock = Clock(datetime.now(timezone.utc))
    engine.scheduler = Scheduler(engine.reminders, now=clock, grace=engine.config.reminder_grace)
    return clock


async def test_remind_in_1m_stretch_arrives_once_with_its_buttons(sqlite_engine: OpenEngine, tg: FakeTelegram) -> None:
    async with sqlite_engine() as engine:
        clock = fake_clock(engine)
        async with running(tg, engine) as bot:
            (proposal,) = await bot.say("/remind in 1m stretch")
            assert proposal.text.startswith("Remind you “stretch” — ") and proposal.text.endswith("(Asia/Seoul)?")
            assert [b["text"] for b in proposal.buttons()] == ["Set it", "Cancel"]
            (set_,) = await bot.press(proposal, "Set it")
            assert set_.text.startswith("⏰ Reminder set: “stretch”")
            assert tg.get(CHAT, proposal.message_id).buttons() == []  # the keyboard went with the press
            clock.advance(seconds=30)
            await engine.scheduler.tick()
            before = len(tg.sent(CHAT))
            clock.advance(seconds=31)
            await engine.scheduler.tick()
            await engine.scheduler.tick()
            (due,) = bot.after(CHAT, set_.message_id)
            assert due.text == "⏰ stretch" and len(tg.sent(CHAT)) == before + 1
            assert [b["text"] for b in due.buttons()] == ["Done", "Snooze 1h"]
            (done,) = await bot.press(due, "Done")
            assert done.text == "✓ Done: “stretch”."


async def test_reminders_lists_with_buttons_and_snooze_moves_it(sqlite_engine: OpenEngine, tg: FakeTelegram) -> None:
    async with sqlite_engine() as engine:
        clock = fake_clock(engine)
        async with running(tg, engine) as bot:
            (proposal,) = await bot.say("/remind in 2h drink water")
            await bot.press(proposal, "Set it")
            (listed,) = await bot.say("/reminders")
            assert listed.text.startswith("⏰ “drink water” — ")
            assert [b["text"] for b in listed.buttons()] == ["Done", "Snooze 1h", "Delete"]
            (snoozed,) = await bot.press(listed, "Snooze 1h")
            assert snoozed.text.startswith("⏰ Snoozed “drink water” until ")
            clock.advance(hours=2, minutes=1)
            await engine.scheduler.tick()
            assert bot.after(CHAT, snoozed.message_id) == []  # moved an hour on
            clock.advance(minutes=59, seconds=30)  # 30 s after the snoozed time
            await engine.scheduler.tick()
            (due,) = bot.after(CHAT, snoozed.message_id)
            assert due.text == "⏰ drink water"


async def test_a_group_reminder_goes_to_the_group_and_only_its_owner_may_press(
    sqlite_engine: OpenEngine, tg: FakeTelegram
) -> None:
    tg.set_chat_type(GROUP, "supergroup")
    async with sqlite_engine() as engine:
        clock = fake_clock(engine)
        async with running(tg, engine) as bot:
            (proposal,) = await bot.say("/remind in 1m stretch", GROUP, ANN)
            await bot.press(proposal, "Set it", ANN)
            clock.advance(minutes=1, seconds=1)
            await engine.scheduler.tick()
            due = tg.sent(GROUP)[-1]
            assert due.text == "⏰ stretch"
            assert await bot.press(due, "Done", BOB) == []  # refused with an alert, nothing said in the group
            assert tg.answers()[-1].get("show_alert") is True


async def test_unconfirmed_and_unreadable(sqlite_engine: OpenEngine, tg: FakeTelegram) -> None:
    async with sqlite_engine() as engine:
        clock = fake_clock(engine)
        async with running(tg, engine) as bot:
            (usage,) = await bot.say("/remind")
            assert usage.text == "Usage: /remind in 10m stretch"
            (unread,) = await bot.say("/remind whenever stretch")
            assert unread.text.startswith("I couldn't read when.")
            await bot.say("/remind in 1m stretch")  # never confirmed
            clock.advance(minutes=5)
            await engine.scheduler.tick()
            assert tg.sent(CHAT)[-1].text.startswith("Remind you")
            assert clock() - datetime.now(timezone.utc) > timedelta(minutes=4)


async def test_a_reminder_claimed_before_a_crash_is_sent_once_after_the_restart(
    sqlite_engine: OpenEngine, tg: FakeTelegram
) -> None:
    async with sqlite_engine() as engine:
        clock = fake_clock(engine)
        async with running(tg, engine) as bot:
            (proposal,) = await bot.say("/remind in 1m stretch")
            await bot.press(proposal, "Set it")
        # Claimed (recorded before sent) by a process that died before sending it.
        clock.advance(seconds=61)
        assert await engine.reminders.claim_due(clock(), ["tg"], timedelta(hours=2), timedelta(minutes=1)) == 1
    before = len(tg.sent(CHAT))
    async with sqlite_engine() as engine:
        clock = fake_clock(engine)
        clock.advance(seconds=130)  # down for over a minute past the due time: late
        async with running(tg, engine):
            await asyncio.sleep(0)  # the scheduler task registers the adapter's push
            await engine.scheduler.tick()  # the start-up pass, or this one: passes never overlap
            await engine.scheduler.tick()
        assert [m.text for m in tg.sent(CHAT)[before:]] == ["⏰ late: stretch (due " + m_due(proposal.text)]


def m_due(proposal: str) -> str:
    """``Thu 26 Nov 13:32)`` from ``Remind you “stretch” — Thu 26 Nov 13:32 (Asia/Seoul)?``."""
    return proposal.split(" — ", 1)[1].split(" (", 1)[0] + ")"


async def test_forget_deletes_reminders(sqlite_engine: OpenEngine, tg: FakeTelegram) -> None:
    async with sqlite_engine() as engine:
        clock = fake_clock(engine)
        async with running(tg, engine) as bot:
            (proposal,) = await bot.say("/remind in 1m stretch")
            await bot.press(proposal, "Set it")
            (confirm,) = await bot.say("/forget")
            await bot.press(confirm, "Yes, delete everything")
            clock.advance(minutes=2)
            before = len(tg.sent(CHAT))
            await engine.scheduler.tick()
            assert len(tg.sent(CHAT)) == before
            assert await engine.reminders.of_user(f"tg:{CHAT}", ("proposed", "active", "done")) == []
