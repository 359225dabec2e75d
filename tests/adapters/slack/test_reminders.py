"""Reminders in Slack, end to end: ``/almanac remind`` in a DM, its confirmation typed as the command its
button stands for (answered privately, as every command is), and the reminder posted into the DM with
``chat.postMessage`` when it falls due (the scheduler on a fake clock). Pressing the buttons:
``test_reminder_buttons``."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from pathlib import Path

from engine.reminders.scheduler import Scheduler
from tests.conftest import OpenEngine
from tests.engine.reminders.helpers import Clock
from tests.fakes.slack_api import FakeSlack
from tests.helpers.slack import DM, running


async def test_remind_in_a_dm_is_posted_there_once_when_due(
    sqlite_engine: OpenEngine, slack: FakeSlack, tmp_path: Path
) -> None:
    async with sqlite_engine() as engine:
        clock = Clock(datetime.now(timezone.utc))
        engine.scheduler = Scheduler(engine.reminders, now=clock)
        async with running(slack, engine, tmp_path / "data") as ws:
            await ws.slash("remind in 1m stretch", channel=DM)
            proposal = slack.ephemeral[-1]  # a command's answer is the person's own
            assert "Remind you “stretch”" in proposal["text"]
            button = proposal["blocks"][-1]["elements"][0]
            assert button["text"]["text"] == "Set it"
            argument = button["value"].split("|")[0]  # what /almanac reminders takes: "confirm <id> <unix time>"
            assert argument.split(" ")[0] == "confirm", argument
            await ws.slash(f"reminders {argument}", channel=DM)
            assert "Reminder set: “stretch”" in ws.ephemeral_texts()[-1]
            before = len(slack.messages(DM))
            # The reminder is due a minute after the command arrived, to the second (rounded up), and the
            # command arrived a moment after the clock was read: 2 s more covers that moment.
            clock.advance(seconds=62)
            await asyncio.sleep(0)
            await engine.scheduler.tick()
            await engine.scheduler.tick()
            due = slack.messages(DM)[before:]
            assert len(due) == 1 and due[0].shown().startswith("⏰ stretch")
            assert [b["text"]["text"] for b in due[0].buttons()] == ["Done", "Snooze 1h"]
