"""The reminder store's SQL reads alike on SQLite and Postgres, for conversation keys of any shape."""

from __future__ import annotations

from datetime import date, datetime, time, timezone

from engine.reminders.schedule import Schedule
from engine.reminders.store import ReminderStore
from tests.conftest import OpenDb

NOW = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)
DUE = datetime(2026, 11, 21, 9, 0, tzinfo=timezone.utc)


async def test_a_conversation_key_without_a_platform_prefix_belongs_to_no_platform(open_db: OpenDb) -> None:
    """``substr(x, 1, instr(x, ':') - 1)`` is '' on SQLite when there is no ':', an error on Postgres."""
    db = await open_db()
    try:
        store = ReminderStore(db)
        once = Schedule(repeat="once", at=time(18), tz="UTC", on=date(2026, 11, 21))
        for conversation in ("tg:1", "local"):
            made = await store.propose("tg:1", conversation, "stretch", once, DUE, "en", NOW)
            assert await store.update(made.id, was=made, status="active", due=DUE)
        assert await store.earliest(["tg"]) == DUE
        assert await store.earliest(["slack"]) is None
    finally:
        await db.close()
