"""Issue 23.6: every index on ``entry_sets`` is one a query uses, and no query reads the whole table.

Each imported set is a row of ``entry_sets`` and an entry in each of its
indexes, so an index no query uses only slows imports. The queries are the
ones :class:`HistoryStore` sends (captured as it runs, so a changed query is
checked as it is, not as this file remembers it) and the statements of the
triggers in :mod:`engine.store.derived` that keep the table in step.
``EXPLAIN QUERY PLAN`` names the index SQLite searches for each.

SQLite only: these are SQLite's plans and its index list; the same queries'
plans on Postgres are checked in tests/engine/store/test_pg_plans.py.

Found when this was written: all four are used. ``entry_sets_entry`` by the
triggers (without it each stored or superseded entry scans every set: a
100,000-set import took 57 s instead of 1.8 s of SQLite time);
``entry_sets_top`` by the heaviest set, the most reps and the heaviest
failed attempt; ``entry_sets_e1rm`` by the best estimated 1RM and "my
strongest lifts"; ``entry_sets_day`` by first and last sessions, session
counts, the top sets of a day, volumes and the most reps at a weight.
"""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
from datetime import date
from pathlib import Path

from engine.domains.registry import DomainRegistry
from engine.importers import parse_export, store_imported
from engine.importers.common import decode
from engine.importers.strong import ExerciseNamer
from engine.store import derived
from engine.store.db import Database
from engine.store.history import HistoryStore
from tests.helpers.domains import BUILTIN

DATA = Path(__file__).resolve().parents[2] / "data"
USER = "console:kim"
# The statements of the triggers that write entry_sets (``new.rowid`` / ``old.rowid`` bound as ``?``).
TRIGGER_STATEMENTS = (
    "DELETE FROM entry_sets WHERE entry_rowid = ?",
    derived._EXERCISES.split(" SELECT ", 1)[1].join(["SELECT ", ""]).replace("new.rowid", "?").rstrip(";"),
)


async def _history_queries(path: Path) -> list[str]:
    """Every statement HistoryStore sends while answering each kind of question it answers."""
    db = await Database.open(path)
    namer = ExerciseNamer.from_registry(DomainRegistry.load())
    result = parse_export("strong", decode((DATA / "strong_history.csv").read_bytes()), user_key=USER, namer=namer)
    await store_imported(db, USER, result.entries)
    sent: list[str] = []
    await db.conn.set_trace_callback(sent.append)
    history, year = HistoryStore(db, BUILTIN), (date(2021, 3, 1), date(2022, 2, 28))
    await history.lifts(USER, ["bench press", "squat", "pull-up"], weights=[(60.0, "kg"), (135.0, "lb")])
    await history.lifts(USER, ["deadlift"], *year, brief=True)
    await history.volumes(USER, ["bench press", "squat"], *year)
    await history.strongest(USER)
    await history.strongest(USER, *year)
    await history.sessions(USER)
    await db.close()
    return [sql for sql in dict.fromkeys(sent) if "entry_sets" in sql]


async def test_every_entry_sets_index_is_used_and_nothing_scans_the_table(tmp_path: Path) -> None:
    path = tmp_path / "almanac.db"
    queries = await _history_queries(path)
    assert len(queries) >= 5
    conn = sqlite3.connect(path)
    indexes = {
        name
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entry_sets'")
    }
    used: defaultdict[str, list[str]] = defaultdict(list)
    for sql in [*queries, *TRIGGER_STATEMENTS]:
        args = (1,) if "?" in sql else ()
        plan = [str(row[-1]) for row in conn.execute("EXPLAIN QUERY PLAN " + sql, args)]
        for step in plan:
            # A full scan of the per-set table ("SCAN s", "SCAN entry_sets") would grow with the history.
            assert not re.match(r"SCAN (s|entry_sets)\b", step), (sql, plan)
            if m := re.search(r"USING (?:COVERING )?INDEX (\w+)", step):
                used[m[1]].append(sql)
    conn.close()
    assert indexes == {"entry_sets_entry", "entry_sets_top", "entry_sets_e1rm", "entry_sets_day"}
    assert set(used) & indexes == indexes, f"unused: {indexes - set(used)}"
    assert all(sql in TRIGGER_STATEMENTS for sql in used["entry_sets_entry"])
