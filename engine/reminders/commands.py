"""``/remind <when> <what>`` and ``/reminders``: the reminder commands, and every reminder button.

``/remind`` keeps the reminder as *proposed* and answers with a card asking for a yes (Set it /
Cancel; the console types ``/reminders confirm 3``): a one-step confirmation like /forget's rather
than the plan flow's Approve / Revise / Cancel, because there is nothing to revise that retyping the
command would not say better, and a proposed reminder never fires, so an unanswered card costs
nothing. ``/reminders`` lists the person's reminders (each with Done / Snooze 1h / Delete) and,
once, those missed while the bot was down.

A button's argument names the reminder and the instant it was shown for (`ReminderCard.command`):
a press for an occurrence that was sent acts on that occurrence, once; a press for a listed one acts
only while the reminder is still due then. Anything else is stale and changes nothing, so a button
pressed twice, or after the reminder moved, is harmless.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone

from engine.outcomes import Notice, Outcome, ReminderAction, ReminderCard
from engine.query.render import language_of
from engine.reminders import texts
from engine.reminders.request import ReminderRequest, read_remind_args, read_reminder
from engine.reminders.store import Reminder, ReminderStore, Status, due_after
from engine.turns import Control

SNOOZE = timedelta(hours=1)
_ACT = re.compile(r"(confirm|cancel|done|snooze|delete)\s+(\d{1,12})(?:\s+(\d{1,12}))?\Z", re.IGNORECASE)
_LISTED: list[ReminderAction] = ["done", "snooze", "delete"]


def card(reminder: Reminder, text: str, at: datetime, actions: list[ReminderAction]) -> ReminderCard:
    language = texts.lang(reminder.language)
    return ReminderCard(
        text=text,
        reminder_id=reminder.id,
        at=at,
        actions=actions,
        labels=[texts.LABELS[language][a] for a in actions],
        asked_by=reminder.user,
    )


def _second(at: datetime) -> datetime:
    """Instants the buttons carry are whole seconds, so a press finds them again exactly."""
    return at.replace(microsecond=0)


class ReminderCommands:
    """The two reminder controls, over one `ReminderStore`."""

    def __init__(self, store: ReminderStore, timezone_of: Callable[[str], Awaitable[str]]) -> None:
        self.store = store
        self._timezone_of = timezone_of

    async def run(self, turn: Control) -> list[Outcome]:
        if turn.action == "remind":
            return await self.remind(turn)
        said = turn.argument.strip()
        if m := _ACT.match(said):
            at = datetime.fromtimestamp(int(m.group(3)), timezone.utc) if m.group(3) else None
            return [await self.act(turn, m.group(1).lower(), int(m.group(2)), at)]  # type: ignore[arg-type]
        return await self.listing(turn)

    async def remind(self, turn: Control) -> list[Outcome]:
        """Read ``<when> <what>`` (``/remind in 10m stretch``) or a plain request ("remind me to stretch at
        9pm", "매일 아침 7시에 운동 알려줘", handed over as the argument) and ask for a yes; nothing fires
        until then."""
        tz = await self._timezone_of(turn.user)
        request: ReminderRequest | None = read_reminder(turn.argument, turn.at, tz)
        if request is None:
            request = read_remind_args(turn.argument, turn.at, tz)
        language = texts.lang(language_of(turn.argument))
        if request.schedule is None:
            return [Notice(text=texts.unreadable(language), code="unreadable")]
        if not request.what.strip():
            return [Notice(text=texts.no_what(language), code="unreadable")]
        language = texts.lang(language_of(request.what))
        due = due_after(request.schedule, turn.at)
        if due is None:
            return [Notice(text=texts.passed(language), code="passed")]
        reminder = await self.store.propose(
            turn.user, turn.conversation, request.what, request.schedule, due, language, turn.at
        )
        text = texts.proposal(request.what, request.schedule, due, language)
        return [card(reminder, text, due, ["confirm", "cancel"])]

    async def listing(self, turn: Control) -> list[Outcome]:
        """The person's reminders, soonest first, after those missed (listed once)."""
        missed = await self.store.take_missed(turn.user)
        reminders = await self.store.of_user(turn.user)
        language = texts.lang(reminders[0].language if reminders else missed[0].language if missed else "en")
        out: list[Outcome] = []
        if missed:
            tz = await self._timezone_of(turn.user)
            items = [(m.what, m.due, tz) for m in missed]
            out.append(Notice(text=texts.missed(items, language), code="missed"))
        for r in reminders:
            if r.next_due is not None:
                out.append(
                    card(r, texts.listed(r.what, r.schedule, r.next_due, texts.lang(r.language)), r.next_due, _LISTED)
                )
        return out or [Notice(text=texts.none(language), code="nothing")]

    async def act(self, turn: Control, action: ReminderAction, reminder_id: int, at: datetime | None) -> Outcome:
        """One button (or its typed form): see the module docstring for what is stale."""
        reminder = await self.store.get(reminder_id)
        if reminder is None or reminder.user != turn.user or reminder.status == "deleted":
            return Notice(text=texts.no_such(texts.lang(language_of(turn.argument))), code="stale")
        language = texts.lang(reminder.language)
        stale = Notice(text=texts.stale(language), code="stale")
        if action in ("confirm", "cancel"):
            if reminder.status != "proposed":
                return stale
            status: Status = "active" if action == "confirm" else "deleted"
            if not await self.store.update(reminder.id, was=reminder, status=status, due=reminder.next_due):
                return stale
            if action == "cancel":
                return Notice(text=texts.cancelled(reminder.what, language), code="reminder_cancelled")
            assert reminder.next_due is not None
            text = texts.set_(reminder.what, reminder.schedule, reminder.next_due, language)
            return Notice(text=text, code="reminder_set")
        if action == "delete":
            changed = await self.store.update(reminder.id, was=reminder, status="deleted", due=reminder.next_due)
            return Notice(text=texts.deleted(reminder.what, language), code="reminder_deleted") if changed else stale
        sent = await (self.store.occurrence(reminder.id, at) if at else self.store.latest_sent(reminder.id))
        if sent is not None and sent.status == "sent":
            return await self._answer_sent(turn, reminder, sent.due, action, stale)
        if reminder.status != "active" or reminder.next_due is None:
            return stale
        if at is not None and int(reminder.next_due.timestamp()) != int(at.timestamp()):
            return stale
        return await self._act_upcoming(reminder, action, stale)

    async def _answer_sent(
        self, turn: Control, reminder: Reminder, due: datetime, action: ReminderAction, stale: Notice
    ) -> Outcome:
        """Done or Snooze on a reminder that was sent: answered once."""
        language = texts.lang(reminder.language)
        occurrence = await self.store.occurrence(reminder.id, due)
        assert occurrence is not None
        if not await self.store.answer(occurrence, "done" if action == "done" else "snoozed"):
            return stale
        if action == "done":
            return Notice(text=texts.done(reminder.what, language), code="reminder_done")
        again = _second(turn.at) + SNOOZE
        ahead = reminder.next_due if reminder.status == "active" and reminder.next_due is not None else None
        await self.store.update(reminder.id, was=reminder, status="active", due=min(again, ahead) if ahead else again)
        return Notice(text=texts.snoozed(reminder.what, again, reminder.schedule.tz, language), code="reminder_snoozed")

    async def _act_upcoming(self, reminder: Reminder, action: ReminderAction, stale: Notice) -> Outcome:
        """Done or Snooze on a listed reminder: done ends a once reminder and skips a repeating one's next time;
        snooze moves the next time an hour on."""
        language = texts.lang(reminder.language)
        assert reminder.next_due is not None
        if action == "snooze":
            later = reminder.next_due + SNOOZE
            if not await self.store.update(reminder.id, was=reminder, status="active", due=later):
                return stale
            return Notice(
                text=texts.snoozed(reminder.what, later, reminder.schedule.tz, language), code="reminder_snoozed"
            )
        if reminder.schedule.repeat == "once":
            if not await self.store.update(reminder.id, was=reminder, status="done", due=None):
                return stale
            return Notice(text=texts.done(reminder.what, language), code="reminder_done")
        following = due_after(reminder.schedule, reminder.next_due)
        if not await self.store.update(reminder.id, was=reminder, status="active", due=following):
            return stale
        return Notice(
            text=texts.skipped(reminder.what, reminder.schedule, following, language), code="reminder_skipped"
        )
