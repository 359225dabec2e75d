"""Nudges that know the log, on the seeded history (:mod:`tests.engine.summary.seeded`, Sunday not logged):
planned 11-16 squat, 11-18 overhead press, 11-20 squat, 11-22 bench press; logged 11-16 and 11-18."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime, timezone

import pytest

from engine.entries.model import NewEntry
from engine.store.db import Database
from engine.store.entries import EntryStore
from engine.summary import Nudges, SummaryPrefs
from tests.conftest import OpenDb
from tests.engine.summary.seeded import USER, seed
from tests.helpers.domains import BUILTIN

SEOUL = "Asia/Seoul"


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=timezone.utc)


@pytest.fixture
async def db(open_db: OpenDb) -> AsyncIterator[Database]:
    opened = await open_db()
    await seed(opened, BUILTIN, sunday=False)
    yield opened
    await opened.close()


async def test_unlogged_planned_sessions_of_a_day(db: Database) -> None:
    nudges = Nudges(db, BUILTIN)
    assert await nudges.unlogged_planned(USER, date(2026, 11, 16)) == []
    (squat,) = await nudges.unlogged_planned(USER, date(2026, 11, 20))
    assert (squat.on, squat.summary) == (date(2026, 11, 20), "squat")
    assert await nudges.unlogged_planned("console:other", date(2026, 11, 20)) == []


async def test_behind_plan_counts_the_week_so_far(db: Database) -> None:
    nudges = Nudges(db, BUILTIN)
    assert await nudges.week_so_far(USER, date(2026, 11, 18)) == (2, 2)
    assert not await nudges.behind_plan(USER, date(2026, 11, 18))
    assert await nudges.week_so_far(USER, date(2026, 11, 20)) == (2, 3)
    assert await nudges.behind_plan(USER, date(2026, 11, 20))
    assert await nudges.week_so_far(USER, date(2026, 11, 22)) == (2, 4)
    # The week before had no plan: never behind.
    assert not await nudges.behind_plan(USER, date(2026, 11, 15))


async def test_one_nudge_on_the_evening_of_an_unlogged_day(db: Database) -> None:
    nudges = Nudges(db, BUILTIN, default_tz=SEOUL)
    await SummaryPrefs(db).set_nudges(USER, "console:kim", "on", "en", utc(2026, 11, 1))
    assert await nudges.due_nudges(utc(2026, 11, 20, 9, 59)) == []  # 18:59 in Seoul
    (due,) = await nudges.due_nudges(utc(2026, 11, 20, 10, 0))  # 19:00 in Seoul
    assert (due.user, due.conversation, due.day, due.due_at) == (
        USER, "console:kim", date(2026, 11, 20), utc(2026, 11, 20, 10, 0),
    )  # fmt: skip
    assert due.text == (
        "You planned squat for today (2026-11-20) and haven't logged it yet. "
        "If you trained, log it; if you rested, that's fine too."
    )
    assert await nudges.mark_nudged(due, utc(2026, 11, 20, 10, 0, 1))
    assert await nudges.mark_nudged(due, utc(2026, 11, 20, 10, 0, 2)) is False
    assert await nudges.due_nudges(utc(2026, 11, 20, 12, 0)) == []


async def test_quiet_means_none_and_behind_mode_says_the_week(db: Database) -> None:
    nudges = Nudges(db, BUILTIN, default_tz=SEOUL)
    prefs = SummaryPrefs(db)
    await prefs.set_nudges(USER, "console:kim", "off", "ko", utc(2026, 11, 1))
    assert await nudges.due_nudges(utc(2026, 11, 20, 10, 0)) == []
    await prefs.set_nudges(USER, "console:kim", "behind", "ko", utc(2026, 11, 1))
    (due,) = await nudges.due_nudges(utc(2026, 11, 20, 10, 0))
    assert due.language == "ko" and due.text.split("\n") == [
        "오늘(2026년 11월 20일) 계획한 squat을(를) 아직 기록하지 않았어요. 했다면 기록해 주세요; 쉬었다면 괜찮아요.",
        "이번 주는 지금까지 계획 3회 중 2회 기록했어요.",
    ]


async def test_without_a_place_to_send_there_is_no_nudge(db: Database) -> None:
    # Planned in the seed without a plan's conversation, and no /quiet or /summary said where: skipped.
    assert await Nudges(db, BUILTIN, default_tz=SEOUL).due_nudges(utc(2026, 11, 20, 10, 0)) == []


async def test_a_planned_entry_from_no_patch_is_passed_over_on_both_engines(db: Database) -> None:
    """A planned entry whose key names no patch (no ':'): no conversation to nudge in, and no SQL error
    (Postgres refuses ``substr(…, 1, -1)``, which SQLite reads as '')."""
    await EntryStore(db).add(
        "console:lee",
        [
            NewEntry(
                occurred_on=date(2026, 11, 20), domain="strength", activity_type="strength", kind="planned",
                summary="deadlift", raw_text="deadlift", source="plan", source_key="by-hand",
            )
        ],
    )  # fmt: skip
    assert await Nudges(db, BUILTIN, default_tz=SEOUL).due_nudges(utc(2026, 11, 20, 10, 0)) == []
