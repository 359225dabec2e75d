"""The scheduler sends what Almanac says first besides reminders, once each: the morning message of a planned
day, the evening nudge of a planned day not logged, and the weekly summary; recorded before sent (the outbox),
so a claim cut off by a crash is sent at the next pass, and ``/quiet`` silences the first two.

The seeded history (:mod:`tests.engine.summary.seeded`, Sunday not logged): planned 11-16 squat, 11-18 overhead
press, 11-20 squat, 11-22 bench press; logged 11-16 and 11-18. Seoul is UTC+9.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time, timezone
from pathlib import Path

import pytest

from engine.outcomes import Answer, Chart, Notice, Outcome
from engine.reminders.scheduler import Scheduler
from engine.reminders.store import ReminderStore
from engine.store.db import Database
from engine.summary import SummaryPrefs
from engine.summary.chores import Chores
from tests.conftest import OpenDb
from tests.engine.summary.seeded import USER, seed
from tests.helpers.domains import BUILTIN

SEOUL = "Asia/Seoul"
CONV = "console:kim"


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=timezone.utc)


@dataclass
class Clock:
    at: datetime

    def __call__(self) -> datetime:
        return self.at


@dataclass
class Sent:
    got: list[tuple[str, list[Outcome]]] = field(default_factory=list)

    async def __call__(self, conversation: str, outcomes: Sequence[Outcome]) -> None:
        self.got.append((conversation, list(outcomes)))

    def texts(self) -> list[str]:
        return [o.text for _, outs in self.got for o in outs if isinstance(o, (Answer, Notice))]


@pytest.fixture
async def db(open_db: OpenDb) -> AsyncIterator[Database]:
    opened = await open_db()
    await seed(opened, BUILTIN, sunday=False)
    prefs = SummaryPrefs(opened)
    await prefs.set_nudges(USER, CONV, "on", "en", utc(2026, 11, 1))
    await prefs.weekly_on(USER, CONV, 0, time(8), SEOUL, "en", utc(2026, 11, 16))  # Mondays 08:00 in Seoul
    await opened.conn.execute("INSERT INTO users (user_key, timezone) VALUES (?, ?)", (USER, SEOUL))
    await opened.conn.commit()
    yield opened
    await opened.close()


def scheduler(db: Database, clock: Clock, tmp_path: Path, sent: Sent) -> Scheduler:
    chores = Chores(db, BUILTIN, tmp_path / "charts", SEOUL)
    s = Scheduler(ReminderStore(db), now=clock, claims=chores)
    s.register("console", sent)
    return s


async def test_a_planned_day_its_nudge_and_the_weekly_summary_each_once(db: Database, tmp_path: Path) -> None:
    clock, sent = Clock(utc(2026, 11, 19, 21, 59)), Sent()  # Friday 06:59 in Seoul
    s = scheduler(db, clock, tmp_path, sent)
    await s.tick()
    assert sent.got == []
    clock.at = utc(2026, 11, 19, 22, 0)  # 07:00: the morning of the planned squat
    await s.tick()
    await s.tick()
    assert sent.texts() == ["📅 Planned for today (2026-11-20): squat. Log it when it's done."]
    clock.at = utc(2026, 11, 20, 10, 0)  # 19:00, not logged: one gentle nudge
    await s.tick()
    await s.tick()
    assert sent.texts()[1] == (
        "You planned squat for today (2026-11-20) and haven't logged it yet. "
        "If you trained, log it; if you rested, that's fine too."
    )
    assert len(sent.got) == 2
    clock.at = utc(2026, 11, 22, 23, 0)  # Monday 08:00 in Seoul: last week's summary (and Sunday's nudge)
    await s.tick()
    await s.tick()
    kinds = [type(o).__name__ for _, outs in sent.got[2:] for o in outs]
    assert kinds.count("Answer") == 1 and kinds.count("Chart") <= 1
    (summary,) = [o for _, outs in sent.got[2:] for o in outs if isinstance(o, Answer)]
    assert "2026-11-16" in summary.text or "11-16" in summary.text
    assert all(conversation == CONV for conversation, _ in sent.got)
    charts = [o for _, outs in sent.got for o in outs if isinstance(o, Chart)]
    assert all(Path(c.path).exists() for c in charts)


async def test_a_claim_cut_off_by_a_crash_is_sent_once_at_the_next_pass(db: Database, tmp_path: Path) -> None:
    clock = Clock(utc(2026, 11, 19, 22, 0))
    chores = Chores(db, BUILTIN, tmp_path / "charts", SEOUL)
    assert await chores.claim(clock(), ["console"]) == 1  # claimed, then the process died before the push
    assert await chores.claim(clock(), ["console"]) == 0  # claimed once ever
    sent = Sent()
    s = scheduler(db, clock, tmp_path, sent)  # the next start
    await s.tick()
    await s.tick()
    assert sent.texts() == ["📅 Planned for today (2026-11-20): squat. Log it when it's done."]


async def test_quiet_means_no_planned_day_nor_nudge_but_the_summary_still_comes(db: Database, tmp_path: Path) -> None:
    await SummaryPrefs(db).set_nudges(USER, CONV, "off", "en", utc(2026, 11, 2))
    clock, sent = Clock(utc(2026, 11, 19, 22, 0)), Sent()
    s = scheduler(db, clock, tmp_path, sent)
    await s.tick()
    clock.at = utc(2026, 11, 20, 10, 0)
    await s.tick()
    assert sent.got == []
    clock.at = utc(2026, 11, 22, 23, 0)
    await s.tick()
    assert isinstance(sent.got[0][1][0], Answer)


async def test_a_push_that_fails_is_tried_again_and_one_too_old_is_missed(db: Database, tmp_path: Path) -> None:
    clock = Clock(utc(2026, 11, 19, 22, 0))
    failing: list[int] = [1]
    sent = Sent()

    async def flaky(conversation: str, outcomes: Sequence[Outcome]) -> None:
        if failing[0]:
            failing[0] -= 1
            raise ConnectionError("platform down")
        await sent(conversation, outcomes)

    chores = Chores(db, BUILTIN, tmp_path / "charts", SEOUL)
    s = Scheduler(ReminderStore(db), now=clock, claims=chores)
    s.register("console", flaky)
    result = await s.tick()
    assert result.others_failed == 1 and sent.got == []
    await s.tick()
    assert len(sent.got) == 1
    # A claim left while the bot was down longer than the grace (2 h) is missed, never sent late.
    await chores.outbox.claim("planned:x", USER, CONV, [Notice(text="old")], utc(2026, 11, 19, 12, 0))
    await s.tick()
    assert len(sent.got) == 1
