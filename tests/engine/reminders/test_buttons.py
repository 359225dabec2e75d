"""Done, Snooze 1h and Delete: on a reminder that was sent, on one listed, pressed twice, pressed late.

The clock starts Thursday 26 Nov 2026, 12:00 UTC = 21:00 in Seoul.
"""

from __future__ import annotations

from engine.outcomes import Notice, ReminderCard
from tests.engine.reminders.conftest import Worlds
from tests.engine.reminders.helpers import Clock, utc


async def test_snooze_on_a_sent_reminder_sends_it_again_an_hour_later_once(worlds: Worlds) -> None:
    w = await worlds()
    await w.remind("in 1m stretch")
    w.clock.advance(minutes=1)
    await w.scheduler.tick()
    (_, card) = w.pushed.sent[0]
    w.clock.advance(minutes=2)  # pressed at 12:03 UTC = 21:03 KST
    (snoozed,) = await w.say("reminders", card.command("snooze"))
    assert isinstance(snoozed, Notice) and snoozed.text == "⏰ Snoozed “stretch” until Thu 26 Nov 22:03."
    (twice,) = await w.say("reminders", card.command("snooze"))
    assert isinstance(twice, Notice) and twice.code == "stale"
    w.clock.at = utc(2026, 11, 26, 13, 2, 59)
    await w.scheduler.tick()
    assert w.pushed.texts == ["⏰ stretch"]
    w.clock.at = utc(2026, 11, 26, 13, 3)
    await w.scheduler.tick()
    await w.scheduler.tick()
    assert w.pushed.texts == ["⏰ stretch", "⏰ stretch"]


async def test_done_on_a_sent_reminder_once_then_stale(worlds: Worlds) -> None:
    w = await worlds()
    await w.remind("in 1m stretch")
    w.clock.advance(minutes=1)
    await w.scheduler.tick()
    (_, card) = w.pushed.sent[0]
    (done,) = await w.say("reminders", card.command("done"))
    assert isinstance(done, Notice) and done.text == "✓ Done: “stretch”."
    (again,) = await w.say("reminders", card.command("done"))
    assert isinstance(again, Notice) and again.code == "stale"
    (snooze_after,) = await w.say("reminders", card.command("snooze"))
    assert isinstance(snooze_after, Notice) and snooze_after.code == "stale"


async def test_listed_reminder_buttons(worlds: Worlds) -> None:
    w = await worlds()
    await w.remind("at 22:30 protein shake")  # 22:30 KST = 13:30 UTC
    (listed,) = await w.say("reminders")
    assert isinstance(listed, ReminderCard)
    assert listed.text == "⏰ “protein shake” — Thu 26 Nov 22:30 (Asia/Seoul)"
    assert listed.actions == ["done", "snooze", "delete"] and listed.at == utc(2026, 11, 26, 13, 30)
    (snoozed,) = await w.say("reminders", listed.command("snooze"))
    assert isinstance(snoozed, Notice) and snoozed.text == "⏰ Snoozed “protein shake” until Thu 26 Nov 23:30."
    # The old card still says 22:30: its buttons are stale now.
    (stale,) = await w.say("reminders", listed.command("delete"))
    assert isinstance(stale, Notice) and stale.code == "reminder_deleted"  # delete needs no time: it is gone
    (gone,) = await w.say("reminders", listed.command("done"))
    assert isinstance(gone, Notice) and gone.code == "stale"
    w.clock.at = utc(2026, 11, 26, 15, 0)
    await w.scheduler.tick()
    assert w.pushed.sent == []


async def test_a_listed_card_after_the_reminder_moved_is_stale(worlds: Worlds) -> None:
    w = await worlds()
    await w.remind("at 22:30 protein shake")
    (listed,) = await w.say("reminders")
    assert isinstance(listed, ReminderCard)
    await w.say("reminders", listed.command("snooze"))
    (stale,) = await w.say("reminders", listed.command("done"))
    assert isinstance(stale, Notice) and stale.code == "stale"
    (fresh,) = await w.say("reminders")
    assert isinstance(fresh, ReminderCard) and fresh.at == utc(2026, 11, 26, 14, 30)
    (done,) = await w.say("reminders", fresh.command("done"))
    assert isinstance(done, Notice) and done.code == "reminder_done"
    w.clock.at = utc(2026, 11, 26, 15, 0)
    await w.scheduler.tick()
    assert w.pushed.sent == []


async def test_done_on_a_listed_weekly_reminder_skips_only_its_next_time(worlds: Worlds) -> None:
    w = await worlds()
    await w.remind("every Monday 7:00 leg day")  # Mon 30 Nov 07:00 KST = Sun 29 Nov 22:00 UTC
    (listed,) = await w.say("reminders")
    assert isinstance(listed, ReminderCard)
    (skipped,) = await w.say("reminders", listed.command("done"))
    assert isinstance(skipped, Notice)
    assert skipped.text == "✓ Skipping the next “leg day” — every Monday at 07:00, next Mon 7 Dec 07:00 (Asia/Seoul)."
    w.clock.at = utc(2026, 11, 29, 22, 5)
    await w.scheduler.tick()
    assert w.pushed.sent == []
    w.clock.at = utc(2026, 12, 6, 22, 0)
    await w.scheduler.tick()
    assert w.pushed.texts == ["⏰ leg day"]


async def test_typed_forms_and_someone_elses_reminder(worlds: Worlds) -> None:
    w = await worlds()
    proposal = await w.remind("in 1m stretch")
    (theirs,) = await w.say("reminders", f"delete {proposal.reminder_id}", user="tg:7")
    assert isinstance(theirs, Notice) and theirs.code == "stale"
    w.clock.advance(minutes=1)
    await w.scheduler.tick()
    (done,) = await w.say("reminders", f"done {proposal.reminder_id}")  # the console's typed Done
    assert isinstance(done, Notice) and done.code == "reminder_done"


async def test_unreadable_and_passed(worlds: Worlds) -> None:
    w = await worlds(clock=Clock(utc(2026, 11, 26, 12, 0)))
    (unread,) = await w.say("remind", "sometime stretch")
    assert isinstance(unread, Notice) and unread.code == "unreadable"
    (nothing,) = await w.say("reminders")
    assert isinstance(nothing, Notice) and nothing.code == "nothing"


async def test_forget_removes_reminders(worlds: Worlds) -> None:
    w = await worlds()
    await w.remind("in 1m stretch")
    await w.store.forget_user("tg:42")
    w.clock.advance(minutes=5)
    await w.scheduler.tick()
    assert w.pushed.sent == [] and await w.store.of_user("tg:42", ("proposed", "active", "done", "deleted")) == []
