"""Postgres's plans for the hot queries, on tables of a realistic size: each reads through an index.

The statements checked are the ones the stores send (captured as they run, so
a changed query is checked as it is, not as this file remembers it), plus the
workers' claim (`engine.runtime.shared._HEADS`). ``EXPLAIN (FORMAT JSON)``
with the same parameters gives the plan the server would run; a plan passes
when no big table is read by a sequential scan and each is reached by an
Index Scan, Index Only Scan or Bitmap Index Scan. Nothing is forced
(``enable_seqscan`` stays on): the tables are seeded large enough that a
sequential scan would be the planner's honest choice only if no index fit.

Postgres only (SQLite's plans: tests/engine/importers/test_entry_sets_indexes.py,
test_overlap.py and tests/engine/facts/test_history.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from engine.domains.registry import DomainRegistry
from engine.importers import parse_export, store_imported
from engine.importers.common import decode
from engine.importers.strong import ExerciseNamer
from engine.runtime.shared import _HEADS
from engine.store.db import Database
from engine.store.entries import EntryStore
from engine.store.history import HistoryStore
from engine.store.inbox import Inbox
from engine.store.records import RecordStore
from engine.summary.nudges import Nudges
from tests.helpers import pg_template, postgres
from tests.helpers.domains import BUILTIN
from tests.helpers.scripts import bench_entry

DATA = Path(__file__).resolve().parents[2] / "data"
USER = "console:kim"
PEOPLE = 80
"""Copies of strong_history.csv's person (five years, 600 sets): about 12,000 entries with the planned days and
50,000 sets in all, beside 100,000 deliveries, 60,000 turns and 250,000 rows of patches, nudges and records."""
CONVERSATIONS = 400
BIG = ("entries", "entry_sets", "entry_volumes", "received", "inbox", "patches", "nudge_sent", "announced_records")
"""The tables that grow with use; the per-person ones (users, summary_prefs) are small and may be scanned."""

# Everyone's history, then planned days, deliveries and turns: what a server with a few hundred people holds.
_SEED = f"""
INSERT INTO entries (entry_id, user_key, occurred_on, domain, activity_type, kind, status, summary, data, raw_text,
                     terms, source, source_key, supersedes, created_at)
SELECT e.entry_id || ':' || g, 'tg:' || g, e.occurred_on, e.domain, e.activity_type, e.kind, e.status, e.summary,
       e.data, e.raw_text, e.terms, e.source, e.source_key, e.supersedes, e.created_at
FROM entries e, generate_series(1, {PEOPLE}) AS g WHERE e.user_key = '{USER}';

INSERT INTO entries (entry_id, user_key, occurred_on, domain, activity_type, kind, status, summary, data, raw_text,
                     terms, source, source_key, supersedes, created_at)
SELECT 'plan:' || g || ':' || d, 'tg:' || g, to_char(date '2026-11-01' + d, 'YYYY-MM-DD'), 'strength', 'strength',
       'planned', CASE WHEN d < 20 THEN 'completed' ELSE 'active' END, 'bench press 5x5', '{{}}',
       'bench press 5x5', '["bench press"]', 'plan', 'p' || g || ':' || d, NULL, '2026-11-01T00:00:00+00:00'
FROM generate_series(1, {PEOPLE}) AS g, generate_series(0, 29) AS d;

INSERT INTO received (source, delivery_id, user_key, payload, status, note, received_at, conversation)
SELECT 'telegram', g::text, 'tg:' || g % {CONVERSATIONS}, '{{}}',
       CASE WHEN g > 99900 THEN 'new' ELSE 'done' END, '', '2026-11-20T00:00:00+00:00', 'c' || g % {CONVERSATIONS}
FROM generate_series(1, 100000) AS g;

INSERT INTO inbox (conversation, user_key, kind, payload, message_id, status, received_at, outcomes, words)
SELECT 'c' || g % {CONVERSATIONS}, 'tg:' || g % {CONVERSATIONS}, 'message', '{{}}', g::text,
       CASE WHEN g > 59990 THEN 'pending' ELSE 'done' END, '2026-11-20T00:00:00+00:00', '[]', 'words ' || g
FROM generate_series(1, 60000) AS g;

-- What grows beside them: approved plans, nudges and records said.
INSERT INTO patches (patch_id, user_key, conversation, ops, undo, status, committed_at)
SELECT 'p' || g, 'tg:' || g % {PEOPLE}, 'c' || g % {CONVERSATIONS}, '[]', '{{}}', 'committed',
       '2026-11-01T00:00:00+00:00'
FROM generate_series(1, 50000) AS g;

INSERT INTO nudge_sent (user_key, entry_id, claimed_at)
SELECT 'tg:' || g % {PEOPLE}, 'old:' || g, '2026-01-01T00:00:00+00:00' FROM generate_series(1, 100000) AS g;

INSERT INTO announced_records (user_key, subject, kind, at, score, entry_id, occurred_on, announced_at)
SELECT 'tg:' || g % {PEOPLE}, (ARRAY['bench press', 'squat', 'deadlift', 'overhead press'])[1 + g % 4],
       'heaviest', '', g % 200, 'said:' || g, '2025-01-01', '2025-01-01T00:00:00+00:00'
FROM generate_series(1, 100000) AS g;

ANALYZE;
"""


async def _seed(url: str) -> None:
    db = await Database.open_postgres(url)
    try:
        namer = ExerciseNamer.from_registry(DomainRegistry.load())
        text = decode((DATA / "strong_history.csv").read_bytes())
        await store_imported(db, USER, parse_export("strong", text, user_key=USER, namer=namer).entries)
        await db.conn.executescript(_SEED)
    finally:
        await db.close()


@pytest.fixture(scope="module")
def seeded(postgres_template: str) -> Iterator[str]:
    """One database for the module: seeding takes seconds, and the checks only read."""
    url = postgres.create_database(postgres_template, template=pg_template.TEMPLATE)
    try:
        asyncio.run(_seed(url))
        yield url
    finally:
        postgres.drop_database(url)


Sent = list[tuple[str, Any]]


async def _capture(db: Database, monkeypatch: pytest.MonkeyPatch) -> Sent:
    """Every statement the stores send on ``db`` from now on, with its parameters."""
    sent: Sent = []
    run = db.conn._run  # type: ignore[union-attr]

    async def spy(statement: str, params: Sequence[Any] | Mapping[str, Any] | None) -> Any:
        sent.append((statement, params))
        return await run(statement, params)

    monkeypatch.setattr(db.conn, "_run", spy)
    return sent


def _nodes(plan: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


async def _index_tables(db: Database) -> dict[str, str]:
    rows = await db.conn.execute_fetchall("SELECT indexname, tablename FROM pg_indexes WHERE schemaname = 'public'")
    return {str(r[0]): str(r[1]) for r in rows}


async def _reads(db: Database, statement: str, params: Any) -> tuple[dict[str, set[str]], list[str]]:
    """How the plan reads each table: the scan types (an index's scan named by the index), and the indexes."""
    (row,) = await db.conn.execute_fetchall("EXPLAIN (FORMAT JSON) " + statement, params)
    tables = await _index_tables(db)
    scans: dict[str, set[str]] = {}
    indexes: list[str] = []
    for node in _nodes(row[0][0]["Plan"]):
        kind = str(node["Node Type"])
        index = node.get("Index Name")
        table = node.get("Relation Name") or (tables.get(str(index)) if index else None)
        if table is None or kind == "Bitmap Heap Scan":
            continue
        scans.setdefault(str(table), set()).add(kind)
        if index:
            indexes.append(str(index))
    return scans, indexes


async def check(db: Database, statement: str, params: Any, *tables: str) -> list[str]:
    """Assert the statement reads each of ``tables`` by an index and no big table by a sequential scan;
    returns the indexes it uses."""
    scans, indexes = await _reads(db, statement, params)
    for table in BIG:
        assert "Seq Scan" not in scans.get(table, set()), (table, statement, scans)
    for table in tables:
        assert scans.get(table, set()) & {"Index Scan", "Index Only Scan", "Bitmap Index Scan"}, (table, scans)
    return indexes


def _selects(sent: Sent, text: str) -> list[tuple[str, Any]]:
    """The distinct reads sent that contain ``text`` (a table's name, a predicate), each with its first parameters."""
    seen: dict[str, Any] = {}
    for statement, params in sent:
        if statement.lstrip().upper().startswith(("SELECT", "WITH")) and text in statement:
            seen.setdefault(statement, params)
    return list(seen.items())


@pytest.fixture
async def db(seeded: str) -> AsyncIterator[Database]:
    database = await Database.open_postgres(seeded)
    try:
        yield database
    finally:
        await database.close()


async def test_the_tables_are_seeded_at_a_realistic_size(db: Database) -> None:
    rows = await db.conn.execute_fetchall(
        "SELECT (SELECT count(*) FROM entries), (SELECT count(*) FROM entry_sets), (SELECT count(*) FROM received), "
        "(SELECT count(*) FROM inbox)"
    )
    entries, sets, received, inbox = rows[0]
    assert entries > 10_000 and sets > 40_000 and received == 100_000 and inbox == 60_000


async def test_the_check_tells_a_scan_from_an_index(db: Database) -> None:
    """The check itself: a filter no index holds reads the whole table, and is caught."""
    with pytest.raises(AssertionError):
        await check(db, "SELECT entry_id FROM entries WHERE summary = ?", ("bench press 5x5",), "entries")
    await check(db, "SELECT entry_id FROM entries WHERE user_key = ? AND status = 'active'", ("tg:7",), "entries")


async def test_full_text_search_of_a_persons_entries_uses_an_index(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = await _capture(db, monkeypatch)
    found = await EntryStore(db).search("tg:7", ["bench press", "squat"])
    assert found and all(e.user_key == "tg:7" for e in found)
    ((statement, params),) = _selects(sent, "to_tsvector")
    await check(db, statement, params, "entries")


async def test_the_days_an_import_overlaps_are_read_by_an_index(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The import's overlap check (SQLite's plan: tests/engine/importers/test_overlap.py)."""
    sent = await _capture(db, monkeypatch)
    found = await EntryStore(db).imported_on("tg:7", [date(2021, 3, 2), date(2021, 3, 7)])
    assert {e.occurred_on for e in found} == {date(2021, 3, 2), date(2021, 3, 7)}
    ((statement, params),) = _selects(sent, "entries")
    await check(db, statement, params, "entries")


async def test_history_and_records_per_exercise_use_the_per_set_indexes(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = await _capture(db, monkeypatch)
    history, year = HistoryStore(db, BUILTIN), (date(2021, 3, 1), date(2022, 2, 28))
    lifts = await history.lifts("tg:7", ["bench press", "squat", "pull-up"], weights=[(60.0, "kg"), (135.0, "lb")])
    assert any(h.heaviest is not None for h in lifts)
    await history.lifts("tg:7", ["deadlift"], *year, brief=True)
    await history.volumes("tg:7", ["bench press", "squat"], *year)
    await history.strongest("tg:7")
    await history.sessions("tg:7")
    await RecordStore(db, BUILTIN).log("tg:7", bench_entry(date(2026, 11, 25), 200, source_key="plans:1"), "en")
    queries = _selects(sent, "entry_sets") + _selects(sent, "entry_volumes")
    assert len(queries) >= 5
    used: set[str] = set()
    for statement, params in queries:
        used.update(await check(db, statement, params))
    # The record indexes of schema_pg's migration 3 are what these reads walk.
    assert {"entry_sets_top", "entry_sets_e1rm", "entry_sets_day", "entry_volumes_best"} <= used, used


async def test_the_workers_claim_reads_open_deliveries_by_their_index(db: Database) -> None:
    indexes = await check(db, _HEADS, ("telegram", 32), "received")
    assert "received_claim" in indexes, indexes
    heads = await db.conn.execute_fetchall(_HEADS, ("telegram", 1000))
    assert len(heads) == 100  # every open delivery is some conversation's oldest (each its own here)


async def test_the_schedulers_planned_days_read_uses_the_planned_index(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = await _capture(db, monkeypatch)
    await Nudges(db, BUILTIN).due_nudges(datetime(2026, 11, 25, 23, 0, tzinfo=timezone.utc))
    ((statement, params),) = _selects(sent, "kind = 'planned'")
    indexes = await check(db, statement, params, "entries")
    assert "entries_planned_day" in indexes, indexes


async def test_a_conversations_inbox_is_read_by_its_index(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    sent = await _capture(db, monkeypatch)
    inbox = Inbox(db)
    (pending,) = await inbox.items("c391", ["pending"])  # delivery 59991, the only open turn there
    assert pending.message_id == "59991"
    since = datetime(2026, 11, 19, tzinfo=timezone.utc)
    assert len(await inbox.recent_messages("c7", "tg:7", since, "words 7")) == 1
    assert len(await inbox.recent_messages("c7", "tg:7", since)) == 60_000 // CONVERSATIONS
    queries = _selects(sent, "inbox")
    assert len(queries) == 3
    for statement, params in queries:
        await check(db, statement, params, "inbox")
