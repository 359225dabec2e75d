"""A reminder's buttons in Slack, pressed through the real app: ``/almanac remind`` offers Set it / Cancel (in
its private answer), the reminder posted when due offers Done / Snooze 1h; a press is the ``reminders`` control
as the member who pressed, takes the card's buttons off, and only the reminder's owner may press."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from adapters.slack.actions import Press
from engine.reminders.scheduler import Scheduler
from tests.conftest import OpenEngine
from tests.engine.reminders.helpers import Clock
from tests.fakes.slack_api import TEAM, FakeSlack
from tests.helpers.slack import ANN, BOB, DM, running

STALE = "That button is out of date; /almanac reminders shows your reminders as they are now."


def labels(blocks: list[dict[str, Any]]) -> list[str]:
    return [e["text"]["text"] for b in blocks if b["type"] == "actions" for e in b["elements"]]


async def test_set_it_then_done_when_due_by_pressing_the_buttons(
    sqlite_engine: OpenEngine, slack: FakeSlack, tmp_path: Path
) -> None:
    async with sqlite_engine() as engine:
        clock = Clock(datetime.now(timezone.utc))
        engine.scheduler = Scheduler(engine.reminders, now=clock)
        async with running(slack, engine, tmp_path / "data") as ws:
            await ws.slash("remind in 1m stretch", channel=DM)
            proposal = slack.ephemeral[-1]  # in a DM: chat.postEphemeral
            assert proposal["text"].startswith("Remind you “stretch”")
            assert labels(proposal["blocks"]) == ["Set it", "Cancel"]
            assert "/almanac reminders" not in str(proposal["blocks"])  # buttons, not commands to type
            await ws.press_ephemeral(proposal["blocks"], "Set it", channel=DM)
            replaced, answer = slack.responses[-1], slack.ephemeral[-1]
            assert replaced["replace_original"] is True and labels(replaced["blocks"]) == []
            assert f"✓ Set it by <@{ANN}>" in str(replaced["blocks"])
            assert answer["text"].startswith("⏰ Reminder set: “stretch”")
            assert slack.messages(DM) == []  # a slash command's answers stay private

            # The same proposal pressed again (a second tap before the first was replaced): the engine's refusal.
            await ws.press_ephemeral(proposal["blocks"], "Set it", channel=DM)
            assert slack.ephemeral[-1]["text"] == STALE
            assert len(await engine.reminders.of_user(f"slack:{TEAM}:{ANN}")) == 1

            clock.advance(seconds=62)  # due a minute (rounded up) after the command; 2 s for the moment between
            await asyncio.sleep(0)
            await engine.scheduler.tick()
            (due,) = slack.messages(DM)
            assert due.text == "⏰ stretch" and labels(due.blocks) == ["Done", "Snooze 1h"]

            await ws.press(due, "Done")
            updated, done = slack.messages(DM)
            assert updated.ts == due.ts and updated.buttons() == [] and updated.edits == 1
            assert "⏰ stretch" in updated.shown() and f"✓ Done by <@{ANN}>" in updated.shown()
            assert done.text == "✓ Done: “stretch”."

            await ws.press(due, "Snooze 1h")  # the copy from before the update: its buttons are taken
            assert slack.ephemeral[-1]["text"] == "That was already answered."
            assert len(slack.messages(DM)) == 2 and slack.messages(DM)[0].edits == 1
    assert slack.errors == []


async def test_someone_elses_reminder_buttons_are_refused(
    sqlite_engine: OpenEngine, slack: FakeSlack, tmp_path: Path
) -> None:
    async with sqlite_engine() as engine:
        clock = Clock(datetime.now(timezone.utc))
        engine.scheduler = Scheduler(engine.reminders, now=clock)
        async with running(slack, engine, tmp_path / "data") as ws:
            await ws.slash("remind in 1m stretch", channel=DM)
            proposal = slack.ephemeral[-1]  # in a DM: chat.postEphemeral
            await ws.press_ephemeral(proposal["blocks"], "Set it", user=BOB, channel=DM)
            assert (
                slack.ephemeral[-1]["user"] == BOB
                and slack.ephemeral[-1]["text"] == "Only the person who was asked can answer that."
            )
            assert await engine.reminders.of_user(f"slack:{TEAM}:{ANN}") == []  # not set by Bob's press
            await ws.press_ephemeral(proposal["blocks"], "Set it", channel=DM)

            clock.advance(seconds=62)
            await asyncio.sleep(0)
            await engine.scheduler.tick()
            (due,) = slack.messages(DM)
            await ws.press(due, "Done", user=BOB)
            assert (
                slack.ephemeral[-1]["user"] == BOB
                and slack.ephemeral[-1]["text"] == "Only the person who was asked can answer that."
            )
            assert slack.messages(DM)[0].edits == 0 and len(slack.messages(DM)) == 1
            await ws.press(due, "Done")  # Bob's press took nothing: Ann's still works
            assert slack.messages(DM)[-1].text == "✓ Done: “stretch”."
    assert slack.errors == []


def test_a_reminder_button_reads_back_only_when_its_action_and_argument_agree() -> None:
    conversation = f"slack:{TEAM}:{DM}"
    press = Press("reminder", "snooze 3 1764129600", ANN, conversation)
    assert press.action_id == "almanac:reminder:snooze"
    assert Press.parse(press.action_id, press.value) == press
    for action_id, value in [
        ("almanac:reminder:done", press.value),  # the id says done, the argument snooze
        ("almanac:reminder:explode", f"explode 3 1764129600|{ANN}|{conversation}"),
        ("almanac:reminder", press.value),
        ("almanac:reminder:snooze", f"snooze 3 1764129600|{ANN}|not-slack"),
    ]:
        assert Press.parse(action_id, value) is None, action_id
