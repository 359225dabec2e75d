"""Reminders with a fake clock: sent once when due, once across restarts, late or missed after an outage.

Thursday 26 Nov 2026, 12:00 UTC is 21:00 in Seoul (UTC+9, no daylight saving); every expectation is
worked out by hand from that.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from datetime import timedelta

from engine.outcomes import Notice, Outcome, ReminderCard
from tests.engine.reminders.conftest import Worlds
from tests.engine.reminders.helpers import Clock, Pushed, utc


async def test_created_then_due_is_sent_once(worlds: Worlds) -> None:
    w = await worlds()
    proposal = await w.remind("in 1m stretch")
    assert proposal.text == "Remind you “stretch” — Thu 26 Nov 21:01 (Asia/Seoul)?"
    assert proposal.at == utc(2026, 11, 26, 12, 1)
    w.clock.advance(seconds=59)
    await w.scheduler.tick()
    assert w.pushed.sent == []
    w.clock.advance(seconds=1)
    result = await w.scheduler.tick()
    assert [o.due for o in result.sent] == [utc(2026, 11, 26, 12, 1)]
    assert w.pushed.texts == ["⏰ stretch"]
    conversation, card = w.pushed.sent[0]
    assert conversation == "tg:42" and card.actions == ["done", "snooze"] and card.labels == ["Done", "Snooze 1h"]
    w.clock.advance(minutes=5)
    await w.scheduler.tick()
    assert w.pushed.texts == ["⏰ stretch"]
    assert await w.store.of_user("tg:42") == []  # a once reminder is done once sent


async def test_an_unconfirmed_reminder_never_fires(worlds: Worlds) -> None:
    w = await worlds()
    (proposal,) = await w.say("remind", "in 1m stretch")
    w.clock.advance(minutes=2)
    await w.scheduler.tick()
    assert w.pushed.sent == []
    assert isinstance(proposal, ReminderCard)
    (cancelled,) = await w.say("reminders", proposal.command("cancel"))
    assert isinstance(cancelled, Notice) and cancelled.text == "Not set: “stretch”."
    (again,) = await w.say("reminders", proposal.command("confirm"))
    assert isinstance(again, Notice) and again.code == "stale"


async def test_a_crash_between_claim_and_send_sends_once_at_restart(worlds: Worlds) -> None:
    clock = Clock(utc(2026, 11, 26, 12, 0))
    w = await worlds(clock)
    await w.remind("in 1m stretch")
    clock.advance(minutes=1)
    # The scheduler claimed the occurrence, then the process died before pushing it.
    assert await w.store.claim_due(clock(), ["tg"], w.scheduler._grace, w.scheduler._late_after) == 1
    await w.db.close()
    clock.advance(seconds=20)  # restarted 20 s later
    pushed = Pushed()
    w2 = await worlds(clock, pushed)
    await w2.scheduler.tick()
    await w2.scheduler.tick()
    assert pushed.texts == ["⏰ stretch"]


async def test_a_restart_after_the_send_sends_nothing_again(worlds: Worlds) -> None:
    clock = Clock(utc(2026, 11, 26, 12, 0))
    w = await worlds(clock)
    await w.remind("in 1m stretch")
    clock.advance(minutes=1)
    await w.scheduler.tick()
    await w.db.close()
    pushed = Pushed()
    w2 = await worlds(clock, pushed)
    clock.advance(minutes=1)
    await w2.scheduler.tick()
    assert pushed.sent == [] and w.pushed.texts == ["⏰ stretch"]


async def test_due_while_down_within_grace_is_sent_marked_late(worlds: Worlds) -> None:
    clock = Clock(utc(2026, 11, 26, 12, 0))
    w = await worlds(clock)
    await w.remind("in 1m stretch")
    clock.advance(hours=1, minutes=30)  # down from 12:00 to 13:30: 89 minutes late, grace 2 h
    await w.scheduler.tick()
    assert w.pushed.texts == ["⏰ late: stretch (due Thu 26 Nov 21:01)"]


async def test_older_than_grace_is_listed_as_missed_once_never_sent(worlds: Worlds) -> None:
    clock = Clock(utc(2026, 11, 26, 12, 0))
    w = await worlds(clock)
    await w.remind("in 1m stretch")
    clock.advance(hours=2, minutes=2)  # 2 h 1 min after 21:01
    result = await w.scheduler.tick()
    assert w.pushed.sent == [] and len(result.sent) == 0
    (listed,) = await w.say("reminders")
    assert isinstance(listed, Notice) and listed.code == "missed"
    assert listed.text == "Missed while Almanac was offline:\n• “stretch” (Thu 26 Nov 21:01)"
    (again,) = await w.say("reminders")
    assert isinstance(again, Notice) and again.code == "nothing"


async def test_claimed_before_a_long_outage_is_missed_not_sent(worlds: Worlds) -> None:
    clock = Clock(utc(2026, 11, 26, 12, 0))
    w = await worlds(clock, grace=timedelta(minutes=30))
    await w.remind("in 1m stretch")
    clock.advance(minutes=1)
    await w.store.claim_due(clock(), ["tg"], w.scheduler._grace, w.scheduler._late_after)
    clock.advance(minutes=31)
    result = await w.scheduler.tick()
    assert w.pushed.sent == [] and [o.due for o in result.missed] == [utc(2026, 11, 26, 12, 1)]


async def test_a_failed_push_is_tried_again_and_sent_once(worlds: Worlds) -> None:
    clock = Clock(utc(2026, 11, 26, 12, 0))
    pushed = Pushed(fail=1)
    w = await worlds(clock, pushed)
    await w.remind("in 1m stretch")
    clock.advance(minutes=1)
    first = await w.scheduler.tick()
    assert len(first.failed) == 1 and await w.scheduler.sleep_for(first) == 10.0
    clock.advance(seconds=10)
    await w.scheduler.tick()
    await w.scheduler.tick()
    assert pushed.texts == ["⏰ stretch"]


async def test_weekly_down_three_weeks_sends_only_the_latest(worlds: Worlds) -> None:
    # Thursday 26 Nov 2026, 21:00 Seoul; "every Monday 7:00" is next due Mon 30 Nov 07:00 KST = Sun 29 Nov 22:00 UTC.
    clock = Clock(utc(2026, 11, 26, 12, 0))
    w = await worlds(clock)
    proposal = await w.remind("every Monday 7:00 leg day")
    assert proposal.at == utc(2026, 11, 29, 22, 0)
    # Down until Mon 14 Dec 07:30 KST (13 Dec 22:30 UTC): three Mondays passed, the last 30 min ago.
    clock.at = utc(2026, 12, 13, 22, 30)
    result = await w.scheduler.tick()
    assert [o.due for o in result.sent] == [utc(2026, 12, 13, 22, 0)]
    assert w.pushed.texts == ["⏰ late: leg day (due Mon 14 Dec 07:00)"]
    (listed,) = await w.say("reminders")
    assert isinstance(listed, ReminderCard) and listed.at == utc(2026, 12, 20, 22, 0)


async def test_weekly_keeps_its_hour_across_daylight_saving(worlds: Worlds) -> None:
    # Berlin springs forward on Sunday 28 Mar 2027: Monday 07:00 is 06:00 UTC before, 05:00 UTC after.
    clock = Clock(utc(2027, 3, 20, 12, 0))
    w = await worlds(clock, tz="Europe/Berlin")
    proposal = await w.remind("every Monday 7:00 squats")
    assert proposal.at == utc(2027, 3, 22, 6, 0)
    clock.at = utc(2027, 3, 22, 6, 0)
    await w.scheduler.tick()
    (listed,) = await w.say("reminders")
    assert isinstance(listed, ReminderCard) and listed.at == utc(2027, 3, 29, 5, 0)
    assert listed.text == "⏰ “squats” — every Monday at 07:00, next Mon 29 Mar 07:00 (Europe/Berlin)"
    clock.at = utc(2027, 3, 29, 4, 59)
    await w.scheduler.tick()
    clock.at = utc(2027, 3, 29, 5, 0)
    await w.scheduler.tick()
    assert w.pushed.texts == ["⏰ squats", "⏰ squats"]
    assert [c.at for _, c in w.pushed.sent] == [utc(2027, 3, 22, 6, 0), utc(2027, 3, 29, 5, 0)]


async def test_stopping_mid_push_lets_the_pass_mark_it_sent(worlds: Worlds) -> None:
    """SIGTERM cancels the scheduler; a push under way finishes and is marked, so the next start sends nothing."""
    release = asyncio.Event()
    pushing = asyncio.Event()
    pushed = Pushed()

    async def slow(conversation: str, outcomes: Sequence[Outcome]) -> None:
        pushing.set()
        await release.wait()
        await pushed(conversation, outcomes)

    w = await worlds()
    w.scheduler.register("tg", slow)
    await w.remind("in 1m stretch")
    w.clock.advance(minutes=1)
    loop = asyncio.create_task(w.scheduler.run())
    await pushing.wait()
    loop.cancel()
    release.set()
    with contextlib.suppress(asyncio.CancelledError):
        await loop
    assert pushed.texts == ["⏰ stretch"]
    w.scheduler.register("tg", pushed)
    await w.scheduler.tick()
    assert pushed.texts == ["⏰ stretch"]
