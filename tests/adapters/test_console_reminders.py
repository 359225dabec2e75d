"""Reminders in the console: /remind, the typed form of Set it, and the reminder printed when it falls due
while the console runs (the scheduler on a fake clock; each pass made by the test with ``tick()``)."""

from __future__ import annotations

import asyncio
import io
import queue
import re
from datetime import datetime, timezone
from typing import TextIO, cast

from adapters.console import ConsoleChat, render
from engine import ReminderCard
from engine.reminders.scheduler import Scheduler
from tests.conftest import OpenEngine
from tests.engine.reminders.helpers import Clock


class Lines:
    """A terminal the test types into while the console runs (``readline`` blocks until a line comes)."""

    def __init__(self) -> None:
        self._lines: queue.Queue[str] = queue.Queue()

    def type(self, line: str) -> None:
        self._lines.put(line + "\n")

    def readline(self) -> str:
        return self._lines.get()


async def _shown(out: io.StringIO, pattern: str) -> re.Match[str]:
    """Wait (a few seconds at most) until the console printed something matching ``pattern``."""
    for _ in range(500):
        if m := re.search(pattern, out.getvalue()):
            return m
        await asyncio.sleep(0.01)
    raise AssertionError(f"{pattern!r} never shown:\n{out.getvalue()}")


def test_a_card_shows_the_commands_its_buttons_stand_for() -> None:
    card = ReminderCard(
        text="⏰ stretch",
        reminder_id=3,
        at=datetime(2026, 11, 26, 12, 1, tzinfo=timezone.utc),
        actions=["done", "snooze"],
        labels=["Done", "Snooze 1h"],
    )
    # 2026-01-01 is 1767225600; 329 days and 12 h 1 min later: 1767225600 + 329 × 86400 + 43260.
    assert render(card) == (
        "⏰ stretch\n  Done: /reminders done 3 1795694460 · Snooze 1h: /reminders snooze 3 1795694460"
    )


async def test_remind_confirm_and_the_reminder_printed_when_due(sqlite_engine: OpenEngine) -> None:
    out, lines = io.StringIO(), Lines()
    async with sqlite_engine() as engine:
        clock = Clock(datetime.now(timezone.utc))
        engine.scheduler = Scheduler(engine.reminders, now=clock)
        console = asyncio.create_task(ConsoleChat(engine, "kim", stdin=cast(TextIO, lines), stdout=out).run())
        lines.type("/remind in 1m stretch")
        confirm = await _shown(out, r"Set it: (/reminders confirm \d+ \d+)")
        lines.type(confirm.group(1))
        await _shown(out, "Reminder set: “stretch”")
        clock.advance(seconds=61)
        await engine.scheduler.tick()
        await _shown(out, r"⏰ stretch\n  Done: /reminders done")
        lines.type("/quit")
        await console
    assert out.getvalue().count("⏰ stretch") == 1
