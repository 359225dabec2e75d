"""Claims on a shared Postgres: per conversation, in order, one worker at a time; a dead worker's work is taken over.

Two `SharedWork` on one database stand for two worker processes (each has its own lock session, as a
process does); closing one's lock connection is that process dying.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta, timezone
from typing import TypeVar

import pytest

from engine.boundary import Delivery
from engine.reminders.schedule import Schedule
from engine.reminders.store import ReminderStore
from engine.runtime.shared import REMINDERS, SharedWork
from engine.store.db import Database
from engine.store.inbox import Deliveries, Inbox

SOURCE = "telegram"
T = TypeVar("T")


@pytest.fixture
async def db(pg_database: str) -> AsyncIterator[Database]:
    opened = await Database.open_postgres(pg_database)
    yield opened
    await opened.close()


async def worker(url: str, db: Database) -> SharedWork:
    return await SharedWork.open(url, db)


async def eventually(check: Callable[[], Awaitable[T]], timeout: float = 5.0) -> T:
    """The server ends a closed session's locks a moment after the client goes: try until it has."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not (result := await check()) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)
    return result


async def record(db: Database, *items: tuple[str, str]) -> None:
    """Deliveries (id, conversation) recorded by a receiver, in this order."""
    await Deliveries(db).receive(SOURCE, [Delivery(i, "{}", "u", conversation=c) for i, c in items])


async def test_each_conversation_gives_its_oldest_delivery_to_one_worker(pg_database: str, db: Database) -> None:
    await record(db, ("1", "a"), ("2", "a"), ("3", "b"), ("4", "a"), ("5", "c"))
    one, two = await worker(pg_database, db), await worker(pg_database, db)
    try:
        first = await one.claim(SOURCE, 10)
        assert [(d.id, d.conversation) for d in first] == [("1", "a"), ("3", "b"), ("5", "c")]
        assert await two.claim(SOURCE, 10) == []  # every conversation with work is running on `one`
        await Deliveries(db).finish(SOURCE, ["1"])
        await one.release(first[0])
        (next_a,) = await two.claim(SOURCE, 10)
        assert (next_a.id, next_a.conversation) == ("2", "a")  # in order, on the other worker
    finally:
        await one.close()
        await two.close()


async def test_a_dead_workers_conversation_is_taken_over_and_its_cut_off_turn_interrupted(
    pg_database: str, db: Database
) -> None:
    await record(db, ("1", "a"))
    inbox = Inbox(db)
    one, two = await worker(pg_database, db), await worker(pg_database, db)
    try:
        (d,) = await one.claim(SOURCE, 1)
        turn = await inbox.record("a", "u", "message", "{}", message_id="m1")  # its turn started, then…
        assert turn is not None
        assert await two.claim(SOURCE, 1) == []
        await one.close()  # …SIGKILL: Postgres ends the session, and its locks with it
        (again,) = await eventually(lambda: two.claim(SOURCE, 1))
        assert again.id == d.id
        item = await inbox.get(turn)
        assert item is not None and item.status == "interrupted"  # the redelivery runs it once
    finally:
        await two.close()


async def test_start_up_interrupts_only_the_turns_no_live_worker_runs(pg_database: str, db: Database) -> None:
    await record(db, ("1", "live"))
    inbox = Inbox(db)
    live = await worker(pg_database, db)
    starting = await worker(pg_database, db)
    try:
        assert [d.conversation for d in await live.claim(SOURCE, 1)] == ["live"]
        running = await inbox.record("live", "u", "message", "{}", message_id="m1")
        orphan = await inbox.record("dead", "u", "message", "{}", message_id="m2")
        assert await starting.interrupt_unowned() == 1
        statuses = [(await inbox.get(i)).status for i in (running, orphan) if i is not None]  # type: ignore[union-attr]
        assert statuses == ["pending", "interrupted"]
    finally:
        await live.close()
        await starting.close()


async def test_one_leader_per_role_until_it_dies(pg_database: str, db: Database) -> None:
    one, two = await worker(pg_database, db), await worker(pg_database, db)
    try:
        assert await one.lead("telegram-poll") and await one.lead("telegram-poll")
        assert not await two.lead("telegram-poll")
        assert await two.lead("scheduler")  # another role is free
        await one.close()
        assert await eventually(lambda: two.lead("telegram-poll"))
    finally:
        await two.close()


async def test_a_reminder_set_on_one_worker_wakes_the_scheduler_of_another(pg_database: str, db: Database) -> None:
    """Without it the elected scheduler would see a reminder made elsewhere only at its next pass (up to a minute)."""
    elsewhere = await Database.open_postgres(pg_database)
    here = await worker(pg_database, db)
    try:
        store_here, store_elsewhere = ReminderStore(db), ReminderStore(elsewhere)
        await here.watch(store_here.changed.set, REMINDERS)
        await asyncio.sleep(0.2)  # listening
        store_here.changed.clear()
        now = datetime.now(timezone.utc)
        due = now + timedelta(minutes=1)
        schedule = Schedule(repeat="once", at=due.time().replace(tzinfo=None), tz="UTC", on=due.date())
        made = await store_elsewhere.propose("u", "tg:1", "stretch", schedule, due, "en", now)
        assert not store_here.changed.is_set()  # proposing is no change the scheduler needs
        assert await store_elsewhere.update(made.id, was=made, status="active", due=made.next_due)
        await asyncio.wait_for(store_here.changed.wait(), 5)
    finally:
        await here.close()
        await elsewhere.close()


async def test_a_worker_whose_lock_session_is_lost_stops(pg_database: str, db: Database) -> None:
    """Its conversations are free for others the moment the session ends; going on would run them twice."""
    lost = asyncio.Event()
    one = await SharedWork.open(pg_database, db, on_lost=lost.set, check_every_s=0.05)
    try:
        await record(db, ("1", "a"))
        assert len(await one.claim(SOURCE, 1)) == 1
        rows = await db.conn.execute_fetchall(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()"
        )
        (pid,) = {int(r[0]) for r in rows}
        await db.conn.execute_fetchall("SELECT pg_terminate_backend(?)", (pid,))  # a proxy or the network drops it
        await asyncio.wait_for(lost.wait(), 5)
    finally:
        await one.close()


async def test_a_lost_session_that_held_nothing_is_opened_again(pg_database: str, db: Database) -> None:
    lost = asyncio.Event()
    idle = await SharedWork.open(pg_database, db, on_lost=lost.set, check_every_s=0.05)
    try:
        pid = idle._locks.info.backend_pid
        await db.conn.execute_fetchall("SELECT pg_terminate_backend(?)", (pid,))
        await record(db, ("1", "a"))
        claimed = await eventually(lambda: idle.claim(SOURCE, 1))
        assert [d.id for d in claimed] == ["1"] and not lost.is_set()
    finally:
        await idle.close()
