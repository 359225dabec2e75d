"""The weekly opt-in kept durably, its next time across a daylight-saving change, and the scheduler's claim:
once ever per person and week, in one transaction with what the scheduler records."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime, time, timezone

import aiosqlite
import pytest

from engine.store.db import Database
from engine.summary import SummaryPrefs
from tests.conftest import OpenDb

NY = "America/New_York"
USER, CONV = "tg:1", "tg:1"


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=timezone.utc)


@pytest.fixture
async def db(open_db: OpenDb) -> AsyncIterator[Database]:
    opened = await open_db()
    await opened.conn.execute("CREATE TABLE claimed_here (user_key TEXT, week TEXT)")
    yield opened
    await opened.close()


async def _outbox(db: Database) -> list[tuple[str, str]]:
    async with db.conn.execute("SELECT user_key, week FROM claimed_here") as cur:
        return [(r[0], r[1]) for r in await cur.fetchall()]


async def test_monday_eight_in_new_york_keeps_its_hour_across_the_fall_back(db: Database) -> None:
    prefs = SummaryPrefs(db)
    # Monday 2026-10-26 20:00 in New York (EDT, UTC-4), past that Monday's 08:00: the next is a week on. Clocks fall back on Sunday 2026-11-01: Monday 08:00 EST is 13:00 UTC.
    due = await prefs.weekly_on(USER, CONV, 0, time(8), NY, "en", utc(2026, 10, 27, 0, 0))
    assert due == utc(2026, 11, 2, 13, 0)
    assert await prefs.due_summaries(utc(2026, 11, 2, 12, 59)) == []
    (found,) = await prefs.due_summaries(utc(2026, 11, 2, 13, 0))
    assert (found.user, found.conversation, found.week_start, found.due_at) == (
        USER, CONV, date(2026, 10, 26), utc(2026, 11, 2, 13, 0),
    )  # fmt: skip

    async def record(conn: aiosqlite.Connection) -> None:
        await conn.execute("INSERT INTO claimed_here VALUES (?, ?)", (found.user, found.week_start.isoformat()))

    assert await prefs.mark_sent(found, utc(2026, 11, 2, 13, 0, 5), also=record) is True
    assert await prefs.mark_sent(found, utc(2026, 11, 2, 13, 0, 6), also=record) is False
    assert await _outbox(db) == [(USER, "2026-10-26")]
    kept = await prefs.get(USER)
    assert kept is not None and kept.next_due == utc(2026, 11, 9, 13, 0)
    assert await prefs.due_summaries(utc(2026, 11, 2, 14, 0)) == []


async def test_spring_forward_moves_the_instant_not_the_hour(db: Database) -> None:
    prefs = SummaryPrefs(db)
    # Clocks spring forward on Sunday 2027-03-14: Monday 08:00 EDT is 12:00 UTC, the week before 13:00.
    due = await prefs.weekly_on(USER, CONV, 0, time(8), NY, "en", utc(2027, 3, 2, 0, 0))
    assert due == utc(2027, 3, 8, 13, 0)
    (first,) = await prefs.due_summaries(due)
    assert await prefs.mark_sent(first, due)
    kept = await prefs.get(USER)
    assert kept is not None and kept.next_due == utc(2027, 3, 15, 12, 0)


async def test_a_crash_inside_the_claim_leaves_it_due_and_unclaimed(db: Database) -> None:
    prefs = SummaryPrefs(db)
    await prefs.weekly_on(USER, CONV, 4, time(18, 30), "Asia/Seoul", "ko", utc(2026, 11, 16))
    (due,) = await prefs.due_summaries(utc(2026, 11, 20, 9, 30))  # Friday 18:30 in Seoul
    assert due.week_start == date(2026, 11, 9) and due.language == "ko"

    async def crash(conn: aiosqlite.Connection) -> None:
        await conn.execute("INSERT INTO claimed_here VALUES ('x', 'y')")
        raise RuntimeError("killed between claim and record")

    with pytest.raises(RuntimeError):
        await prefs.mark_sent(due, utc(2026, 11, 20, 9, 30), also=crash)
    assert await _outbox(db) == []
    assert await prefs.due_summaries(utc(2026, 11, 20, 9, 30)) == [due]
    assert await prefs.mark_sent(due, utc(2026, 11, 20, 9, 31))


async def test_late_after_downtime_is_sent_once_and_the_missed_weeks_are_skipped(db: Database) -> None:
    prefs = SummaryPrefs(db)
    await prefs.weekly_on(USER, CONV, 0, time(8), NY, "en", utc(2026, 10, 27))
    now = utc(2026, 11, 20, 15, 0)  # down for three Mondays
    (due,) = await prefs.due_summaries(now)
    assert due.due_at == utc(2026, 11, 2, 13, 0)  # the scheduler's grace rule reads how late it is
    assert await prefs.mark_sent(due, now)
    kept = await prefs.get(USER)
    assert kept is not None and kept.next_due == utc(2026, 11, 23, 13, 0)
    assert await prefs.due_summaries(now) == []


async def test_off_is_off_and_a_due_read_before_is_not_claimed(db: Database) -> None:
    prefs = SummaryPrefs(db)
    await prefs.weekly_on(USER, CONV, 0, time(8), NY, "en", utc(2026, 10, 27))
    (due,) = await prefs.due_summaries(utc(2026, 11, 2, 13, 0))
    await prefs.weekly_off(USER, utc(2026, 11, 2, 13, 0))
    assert await prefs.due_summaries(utc(2027, 1, 1)) == []
    assert await prefs.mark_sent(due, utc(2026, 11, 2, 13, 1)) is False
    kept = await prefs.get(USER)
    assert kept is not None and not kept.weekly and kept.next_due is None


async def test_the_opt_in_survives_a_reopened_database(open_db: OpenDb) -> None:
    first = await open_db()
    await SummaryPrefs(first).weekly_on(USER, CONV, 6, time(20), "Asia/Seoul", "en", utc(2026, 11, 16))
    await first.close()
    again = await open_db()
    try:
        (due,) = await SummaryPrefs(again).due_summaries(utc(2026, 11, 22, 11, 0))  # Sunday 20:00 in Seoul
        assert due.week_start == date(2026, 11, 9)
        await SummaryPrefs(again).forget_user(USER)
        assert await SummaryPrefs(again).get(USER) is None
    finally:
        await again.close()
