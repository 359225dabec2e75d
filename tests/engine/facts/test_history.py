"""Whole-history facts by indexed SQL, on a real-shaped Strong export (tests/data/strong_history.csv).

The file: 117 workouts from 2021-03-02 to 2026-11-20, bench press (barbell,
dumbbell, incline), squat, deadlift (barbell and trap bar), pull-ups and five
runs, with warm-up sets (W), a bench press failed at 105 kg with 0 reps
(2025-07-01) and a deadlift set marked F (failure) at 185 kg (2024-09-15).
The expected values below were read off the file by hand.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import pytest

from engine.domains.registry import DomainRegistry
from engine.facts.history import bout_facts, lift_facts, session_facts
from engine.importers import store_imported
from engine.importers.strong import ExerciseNamer, decode, parse_strong_csv
from engine.store.bouts import BoutStore
from engine.store.db import Database
from engine.store.entries import EntryStore
from engine.store.history import EVER, HistoryStore
from tests.conftest import OpenDb
from tests.helpers import scripts
from tests.helpers.domains import BUILTIN

DATA = Path(__file__).resolve().parents[2] / "data" / "strong_history.csv"
USER = "tg:42"
TODAY = date(2026, 11, 22)
MARCH_2021 = (date(2021, 3, 1), date(2021, 3, 31))


async def import_history(db: Database, user: str = USER) -> None:
    parsed = parse_strong_csv(
        decode(DATA.read_bytes()), user_key=user, namer=ExerciseNamer.from_registry(DomainRegistry.load())
    )
    await store_imported(db, user, parsed.entries)


@pytest.fixture
async def db(open_db: OpenDb) -> AsyncIterator[Database]:
    database = await open_db()
    await import_history(database)
    yield database
    await database.close()


def displays(facts: list) -> dict[str, str]:  # type: ignore[type-arg]
    return {f.key: f.display for f in facts}


async def test_records_ignore_failed_attempts_and_keep_variations_apart(db: Database) -> None:
    names = ["bench press", "deadlift", "trap bar deadlift", "dumbbell bench press"]
    lifts = await HistoryStore(db, BUILTIN).lifts(USER, names)
    got = {k: v for h in lifts for k, v in displays(lift_facts(h, EVER)).items()}
    # 105 kg × 0 on 2025-07-01 was attempted, never a record; 100 kg × 3 on 2025-06-12 is.
    assert got["bench press.all_time.heaviest_set"] == "100 kg × 3"
    assert got["bench press.all_time.failed_attempt"] == "105 kg (attempted, not completed)"
    # A set of kind failure (Strong's F) at 185 kg is no record either.
    assert got["deadlift.all_time.heaviest_set"] == "175 kg × 2"
    assert got["deadlift.all_time.failed_attempt"] == "185 kg (attempted, not completed)"
    # The trap bar deadlift and the dumbbell bench press are their own exercises.
    assert got["trap bar deadlift.all_time.heaviest_set"] == "200 kg × 1"
    assert got["dumbbell bench press.all_time.heaviest_set"] == "35.5 kg × 8"
    bench = next(h for h in lifts if h.exercise == "bench press")
    assert (bench.first_on, bench.heaviest.on if bench.heaviest else None) == (date(2021, 3, 2), date(2025, 6, 12))
    assert got["bench press.all_time.first"] == "2021-03-02"
    # From the first session's top set (60 kg × 5) to the latest one.
    assert got["bench press.all_time.first_top"] == "60 kg × 5"
    assert got["bench press.all_time.progress.heaviest"].startswith("+")


async def test_a_named_period_scopes_the_records(db: Database) -> None:
    (bench,) = await HistoryStore(db, BUILTIN).lifts(USER, ["bench press"], *MARCH_2021)
    got = displays(lift_facts(bench, MARCH_2021))
    assert got["bench press.period.heaviest_set"] == "60 kg × 5"  # 2021-03-02 and 2021-03-17
    assert got["bench press.period.sessions"] == "2 sessions"


async def test_training_days_in_a_period_and_over_all_time(db: Database) -> None:
    history = HistoryStore(db, BUILTIN)
    march = displays(session_facts(await history.sessions(USER, *MARCH_2021), MARCH_2021, TODAY))
    assert march["all.period.sessions"] == "6 days" and march["strength.period.sessions"] == "6 sessions"
    year = (date(2025, 1, 1), date(2025, 12, 31))
    assert displays(session_facts(await history.sessions(USER, *year), year, TODAY))["all.period.sessions"] == "17 days"
    ever = displays(session_facts(await history.sessions(USER), EVER, TODAY))
    assert ever["all.all_time.sessions"] == "116 days"  # the file's distinct workout dates


async def test_runs_longest_and_fastest(db: Database) -> None:
    got = bout_facts(await BoutStore(db, BUILTIN).history(USER, "running"), EVER, domains=BUILTIN)
    shown = {f.key: (f.display, f.on) for f in got}
    assert shown["running.all_time.longest"] == ("21.1 km", date(2023, 10, 8))
    assert shown["running.all_time.best_pace"] == ("4:48/km", date(2024, 6, 2))  # 10 km in 48:00
    assert shown["running.all_time.count"][0] == "5 runs"


async def test_strongest_lifts_by_estimated_1rm(db: Database) -> None:
    assert (await HistoryStore(db, BUILTIN).strongest(USER, limit=3)) == ["trap bar deadlift", "deadlift", "squat"]


async def test_sets_follow_corrections_undo_and_forget(open_db: OpenDb) -> None:
    database = await open_db()
    store, history = EntryStore(database), HistoryStore(database, BUILTIN)
    (old,) = await store.add("u", [scripts.bench_entry(date(2026, 1, 1), 80)])
    fixed = await store.supersede("u", old.entry_id, scripts.bench_entry(date(2026, 1, 1), 60, source_key="fix"))
    (bench,) = await history.lifts("u", ["bench press"])
    assert bench.heaviest is not None and bench.heaviest.weight == 60  # the superseded 80 kg no longer counts
    await database.conn.execute("UPDATE entries SET status = 'active' WHERE entry_id = ?", (old.entry_id,))
    await database.conn.execute("UPDATE entries SET status = 'deleted' WHERE entry_id = ?", (fixed.entry_id,))
    (bench,) = await history.lifts("u", ["bench press"])
    assert bench.heaviest is not None and bench.heaviest.weight == 80  # undone: the original is back
    await store.delete_all("u")
    async with database.conn.execute(
        "SELECT (SELECT count(*) FROM entry_sets), (SELECT count(*) FROM user_exercises)"
    ) as cur:
        assert tuple(await cur.fetchone()) == (0, 0)  # type: ignore[arg-type]
    await database.close()


async def test_a_database_from_before_is_filled_once(tmp_path: Path) -> None:
    """SQLite only: a file made before the per-set tables existed (Postgres starts from its migrations)."""
    path = tmp_path / "c.db"
    database = await Database.open(path)
    await EntryStore(database).add("u", [scripts.bench_entry(date(2026, 1, 1), 70)])
    await database.conn.executescript(
        "DROP TRIGGER entry_sets_ai; DROP TRIGGER entry_sets_au; DROP TABLE entry_sets; DROP TABLE user_exercises;"
    )
    await database.close()
    reopened = await Database.open(path)
    (bench,) = await HistoryStore(reopened, BUILTIN).lifts("u", ["bench press"])
    assert bench.heaviest is not None and bench.heaviest.weight == 70
    await reopened.close()


def test_record_queries_use_indexes(tmp_path: Path) -> None:
    """Records are index searches over the per-set table, never a scan of entries.

    SQLite only: its EXPLAIN QUERY PLAN (Postgres's plans: tests/engine/store/test_pg_plans.py).
    """
    conn = sqlite3.connect(":memory:")
    from engine.store import derived
    from engine.store.db import SCHEMA

    conn.executescript(SCHEMA)
    conn.executescript(derived.SCHEMA)
    plan = " ".join(
        str(row[-1])
        for row in conn.execute(
            "EXPLAIN QUERY PLAN SELECT id FROM entry_sets s WHERE s.user_key = 'u' AND s.exercise = 'bench press' "
            "AND s.occurred_on BETWEEN '0001-01-01' AND '9999-12-31' AND s.done = 1 AND s.weight_kg IS NOT NULL "
            "ORDER BY s.weight_kg DESC, s.reps DESC, s.occurred_on LIMIT 1"
        )
    )
    assert "INDEX entry_sets_top" in plan and "TEMP B-TREE" not in plan


async def test_whole_history_and_period_facts_name_what_they_cover(db: Database) -> None:
    """Unlike facts over fetched entries (``found``), these carry ``scope`` and say "all time" or the period."""
    history, bouts = HistoryStore(db, BUILTIN), BoutStore(db, BUILTIN)
    for scope, words in ((EVER, ", all time"), (MARCH_2021, ", 2021-03-01 to 2021-03-31")):
        facts = [
            *(f for h in await history.lifts(USER, ["bench press", "deadlift"], *scope) for f in lift_facts(h, scope)),
            *session_facts(await history.sessions(USER, *scope), scope, TODAY),
            *bout_facts(await bouts.history(USER, "running", *scope), scope, domains=BUILTIN),
        ]
        assert {f.key.split(".")[1] for f in facts} == {"all_time" if scope == EVER else "period"}
        for f in facts:
            assert words in f.label and "found" not in f.label, f.label
            assert (f.scope, f.found, f.found_span) == (scope, None, None), f.key
    (bench,) = await history.lifts(USER, ["bench press"])
    got = {f.key: f.label for f in lift_facts(bench, EVER)}
    assert got["bench press.all_time.heaviest_set"] == "heaviest completed set of bench press, all time"
    assert got["bench press.all_time.sessions"] == "sessions of bench press, all time"
    assert got["bench press.all_time.last"] == "latest session of bench press, all time"


async def test_a_warm_up_heavier_than_the_work_sets_is_no_record_nor_volume(open_db: OpenDb) -> None:
    """One reading of a working set (engine.store.derived.WORK_SET): the history's answers count what the
    records said when logging and the charts count, never a warm-up."""
    database = await open_db()
    try:
        entry = scripts.bench_entry(date(2026, 11, 20), 60, 5, 2)
        details = [
            {"set_num": 1, "weight": 70, "reps": 3, "kind": "warmup"},
            *entry.data["exercises"][0]["set_details"],
        ]
        exercise = {**entry.data["exercises"][0], "sets": 3, "set_details": details}
        await EntryStore(database).add(
            USER, [entry.model_copy(update={"data": {**entry.data, "exercises": [exercise]}})]
        )
        history = HistoryStore(database, BUILTIN)
        (bench,) = await history.lifts(USER, ["bench press"])
        (volume,) = await history.volumes(USER, ["bench press"], date(2026, 11, 1), date(2026, 11, 30))
        strongest = await history.strongest(USER)
    finally:
        await database.close()
    # By hand: the work sets are 60 × 5 twice; the 70 × 3 warm-up (estimate 77) counts for nothing.
    assert bench.heaviest is not None and (bench.heaviest.weight, bench.heaviest.reps) == (60, 5)
    assert bench.best_e1rm is not None and (bench.best_e1rm.weight, bench.best_e1rm.reps) == (60, 5)
    assert volume.volume == 600
    assert strongest == ["bench press"]
