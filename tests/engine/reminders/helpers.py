"""A fake clock, a recording push and a reminder world on a real SQLite file, for the reminder tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Literal

from engine.outcomes import Notice, Outcome, ReminderCard
from engine.reminders.commands import ReminderCommands
from engine.reminders.scheduler import Scheduler
from engine.reminders.store import ReminderStore
from engine.store.db import Database
from engine.turns import Control

USER = "tg:42"
CONV = "tg:42"
SEOUL = "Asia/Seoul"


@dataclass
class Clock:
    """The time the scheduler and the commands read; tests move it by hand."""

    at: datetime

    def __call__(self) -> datetime:
        return self.at

    def advance(self, **delta: float) -> None:
        self.at += timedelta(**delta)


@dataclass
class Pushed:
    """What the scheduler handed to the adapter."""

    sent: list[tuple[str, ReminderCard]] = field(default_factory=list)
    fail: int = 0
    """Raise on the next ``fail`` pushes (the platform down)."""

    async def __call__(self, conversation: str, outcomes: Sequence[Outcome]) -> None:
        if self.fail:
            self.fail -= 1
            raise ConnectionError("platform down")
        for o in outcomes:
            assert isinstance(o, ReminderCard)
            self.sent.append((conversation, o))

    @property
    def texts(self) -> list[str]:
        return [card.text for _, card in self.sent]


@dataclass
class World:
    """One bot process: a database, the store, the commands and the scheduler on a fake clock."""

    db: Database
    store: ReminderStore
    commands: ReminderCommands
    scheduler: Scheduler
    clock: Clock
    pushed: Pushed

    async def say(self, action: Literal["remind", "reminders"], argument: str = "", user: str = USER) -> list[Outcome]:
        turn = Control(conversation=CONV, user=user, action=action, argument=argument, at=self.clock())
        return await self.commands.run(turn)

    async def remind(self, argument: str) -> ReminderCard:
        """``/remind …`` and its Set it button."""
        (proposal,) = await self.say("remind", argument)
        assert isinstance(proposal, ReminderCard), proposal
        (done,) = await self.say("reminders", proposal.command("confirm"))
        assert isinstance(done, Notice) and done.code == "reminder_set", done
        return proposal


async def open_world(db: Database, clock: Clock, pushed: Pushed, tz: str = SEOUL, **scheduler: object) -> World:
    store = ReminderStore(db)

    async def zone(_user: str) -> str:
        return tz

    sched = Scheduler(store, now=clock, **scheduler)  # type: ignore[arg-type]
    sched.register("tg", pushed)
    return World(db, store, ReminderCommands(store, zone), sched, clock, pushed)


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=timezone.utc)
