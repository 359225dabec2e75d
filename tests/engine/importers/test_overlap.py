"""Issue 22.1: two imports of the same workouts are one workout.

A Strong export and a Hevy export (in lb, warm-ups left out, its own start
times) of the same sessions must not double those days' sets and volume; a
different workout on the same day, or on a day the other app lacks, is still
imported. The rule itself (:func:`engine.importers.overlap.same_workout`) is
tested on small entries first.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from engine.domains.registry import DomainRegistry
from engine.importers import overlap, parse_export, store_imported
from engine.importers.common import decode
from engine.importers.overlap import has_lifts, same_workout
from engine.importers.strong import ExerciseNamer
from engine.store.db import Database
from engine.store.entries import EntryStore
from tests.conftest import OpenDb

DATA = Path(__file__).resolve().parents[2] / "data"
USER = "console:lee"

# The first sessions of strong_history.csv as Hevy (in lb) would export them: 2021-03-02 with its
# warm-up, 2021-03-07 without, other start times; 2021-03-12 a different deadlift (100 kg, Strong
# has 102.5); 2021-03-03 a day Strong does not have.
HEVY = """\
"title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_lbs","reps","distance_miles","duration_seconds","rpe"
"Push","2 Mar 2021, 18:34","2 Mar 2021, 19:40","","Bench Press (Barbell)",,"",0,"warmup",88.2,10,,,
"Push","2 Mar 2021, 18:34","2 Mar 2021, 19:40","","Bench Press (Barbell)",,"",1,"normal",132.3,5,,,
"Push","2 Mar 2021, 18:34","2 Mar 2021, 19:40","","Bench Press (Barbell)",,"",2,"normal",132.3,5,,,
"Push","2 Mar 2021, 18:34","2 Mar 2021, 19:40","","Bench Press (Barbell)",,"",3,"normal",132.3,4,,,
"Push","2 Mar 2021, 18:34","2 Mar 2021, 19:40","","Bench Press (Dumbbell)",,"",0,"normal",39.7,8,,,
"Push","2 Mar 2021, 18:34","2 Mar 2021, 19:40","","Bench Press (Dumbbell)",,"",1,"normal",39.7,8,,,
"Push","2 Mar 2021, 18:34","2 Mar 2021, 19:40","","Pull Up",,"",0,"normal",,5,,,
"Push","2 Mar 2021, 18:34","2 Mar 2021, 19:40","","Pull Up",,"",1,"normal",,4,,,
"Arms","3 Mar 2021, 19:00","3 Mar 2021, 19:30","","Bicep Curl (Dumbbell)",,"",0,"normal",26.5,10,,,
"Arms","3 Mar 2021, 19:00","3 Mar 2021, 19:30","","Bicep Curl (Dumbbell)",,"",1,"normal",26.5,10,,,
"Legs","7 Mar 2021, 18:31","7 Mar 2021, 19:20","","Squat (Barbell)",,"",0,"normal",176.4,5,,,
"Legs","7 Mar 2021, 18:31","7 Mar 2021, 19:20","","Squat (Barbell)",,"",1,"normal",176.4,5,,,
"Legs","7 Mar 2021, 18:31","7 Mar 2021, 19:20","","Squat (Barbell)",,"",2,"normal",176.4,5,,,
"Pull","12 Mar 2021, 18:30","12 Mar 2021, 19:25","","Deadlift (Barbell)",,"",0,"normal",220.5,3,,,
"Pull","12 Mar 2021, 18:30","12 Mar 2021, 19:25","","Deadlift (Barbell)",,"",1,"normal",220.5,3,,,
"""
DAYS = ("2021-03-02", "2021-03-03", "2021-03-07", "2021-03-12")


def lifts(*exercises: tuple[str, str | None, list[tuple[float | None, int | None, str]]]) -> dict[str, Any]:
    """An imported entry's data: (name, unit, [(weight, reps, kind)]) per exercise."""
    return {
        "exercises": [
            {
                "name": name,
                "sets": len(sets),
                "weight_unit": unit,
                "set_details": [
                    {"set_num": n, "weight": w, "reps": r, **({"kind": k} if k != "normal" else {})}
                    for n, (w, r, k) in enumerate(sets, 1)
                ],
            }
            for name, unit, sets in exercises
        ],
        "metrics": [],
    }


STRONG_PUSH = lifts(
    ("bench press", "kg", [(40, 10, "warmup"), (60, 5, "normal"), (60, 5, "normal"), (60, 4, "normal")]),
    ("pull-up", None, [(None, 5, "normal"), (None, 4, "normal")]),
)


@pytest.mark.parametrize(
    "data",
    [
        STRONG_PUSH,
        lifts(("bench press", "kg", [])),
        lifts(("  ", "kg", [(60, 5, "normal")])),
        {"exercises": [{"name": "squat", "set_details": "3x5"}, "squat"]},
        {"exercises": [{"name": "squat", "set_details": [None, {"weight": 100}]}]},
        {"exercises": "squat"},
        {"cardio": [{"name": "run", "distance_km": 5}]},
        {},
    ],
)
def test_has_lifts_says_what_lifts_finds(data: dict[str, Any]) -> None:
    """Storing asks it of every imported workout (which days to look up); it must agree with the rule's reading."""
    assert has_lifts(data) == any(overlap.lifts(data).values())


def test_same_sets_of_the_same_exercises_are_the_same_workout() -> None:
    note = lifts(
        ("Pull-Up", None, [(None, 5, "normal"), (None, 4, "normal")]),  # exercises in another order, other case
        ("bench press", "kg", [(60, 5, "normal"), (60, 5, "normal"), (60, 4, "normal")]),  # no warm-up
    )
    assert same_workout(note, STRONG_PUSH) and same_workout(STRONG_PUSH, note)


def test_a_warm_up_written_as_a_plain_set_still_pairs() -> None:
    note = lifts(
        ("bench press", "kg", [(40, 10, "normal"), (60, 5, "normal"), (60, 5, "normal"), (60, 4, "normal")]),
        ("pull-up", None, [(None, 5, "normal"), (None, 4, "normal")]),
    )
    assert same_workout(note, STRONG_PUSH)


def test_pounds_and_kilograms_agree_after_rounding() -> None:
    in_lb = lifts(
        ("bench press", "lb", [(135, 5, "normal"), (135, 5, "normal"), (135, 4, "normal")]),
        ("pull-up", None, [(None, 5, "normal"), (None, 4, "normal")]),
    )
    assert same_workout(in_lb, STRONG_PUSH)  # 135 lb is 61.2 kg
    heavier = lifts(
        ("bench press", "kg", [(62.5, 5, "normal"), (62.5, 5, "normal"), (62.5, 4, "normal")]),
        ("pull-up", None, [(None, 5, "normal"), (None, 4, "normal")]),
    )
    assert not same_workout(heavier, STRONG_PUSH)  # 2.5 kg more is another set


@pytest.mark.parametrize(
    "other",
    [
        lifts(("bench press", "kg", [(60, 5, "normal"), (60, 5, "normal"), (60, 4, "normal")])),  # pull-ups missing
        lifts(
            ("bench press", "kg", [(60, 5, "normal"), (60, 5, "normal"), (60, 5, "normal")]),  # 5 reps, not 4
            ("pull-up", None, [(None, 5, "normal"), (None, 4, "normal")]),
        ),
        lifts(
            ("bench press", "kg", [(60, 4, "normal"), (60, 5, "normal"), (60, 5, "normal")]),  # another order
            ("pull-up", None, [(None, 5, "normal"), (None, 4, "normal")]),
        ),
        lifts(
            ("bench press", "kg", [(60, 5, "normal"), (60, 5, "normal"), (60, 4, "normal"), (60, 3, "normal")]),
            ("pull-up", None, [(None, 5, "normal"), (None, 4, "normal")]),
        ),
        {"exercises": [], "metrics": []},  # a plain note: no sets, nothing to double
    ],
    ids=["an exercise less", "other reps", "other order", "a set more", "no sets"],
)
def test_other_sets_are_another_workout(other: dict[str, Any]) -> None:
    assert not same_workout(other, STRONG_PUSH)


def test_a_plain_note_is_never_a_workout_of_warm_ups() -> None:
    warm_ups = lifts(("bench press", "kg", [(40, 10, "warmup")]))
    assert not same_workout({"exercises": [], "metrics": []}, warm_ups)
    assert same_workout(warm_ups, lifts(("bench press", "kg", [(40, 10, "normal")])))


def test_a_run_the_stored_workout_lacks_is_not_skipped() -> None:
    with_run = {**STRONG_PUSH, "metrics": [{"name": "distance_km", "value": "5", "unit": "km"}]}
    assert not same_workout(with_run, STRONG_PUSH)  # skipping it would lose the run
    assert same_workout(STRONG_PUSH, with_run)


def run(km: float, duration: str, name: str = "running") -> dict[str, Any]:
    return {"name": name, "distance_km": km, "duration": duration, "set_details": []}


def test_cardio_is_the_same_within_a_rounded_mile_and_minute() -> None:
    three_miles = {"exercises": [], "metrics": [], "cardio": [run(4.828, "27:00")]}
    assert same_workout({"exercises": [], "cardio": [run(4.8, "27:30")]}, three_miles)  # written back rounded
    assert not same_workout({"exercises": [], "cardio": [run(5.0, "27:00")]}, three_miles)  # another run
    assert not same_workout({"exercises": [], "cardio": [run(4.828, "27:00"), run(2.0, "8:30", "rowing")]}, three_miles)
    assert not same_workout(three_miles, {"exercises": [], "cardio": [run(4.828, "27:00"), run(2.0, "8:30", "rowing")]})
    lifted = {**STRONG_PUSH, "cardio": [run(4.828, "27:00")]}
    assert same_workout({**STRONG_PUSH, "cardio": [run(4.8, "27:20")]}, lifted)
    assert not same_workout({**STRONG_PUSH, "cardio": [run(3.0, "18:00")]}, lifted)  # the lifts alike, the run not
    # A note gives a run as measures only: never compared with an app's cardio.
    note_run = {"exercises": [], "metrics": [{"name": "distance_km", "value": "4.8", "unit": "km"}]}
    assert not same_workout(note_run, three_miles)


@pytest.fixture(scope="module")
def namer() -> ExerciseNamer:
    return ExerciseNamer.from_registry(DomainRegistry.load())


@pytest.fixture
async def db(open_db: OpenDb) -> AsyncIterator[Database]:
    database = await open_db()
    try:
        yield database
    finally:
        await database.close()


async def day_totals(db: Database) -> dict[str, tuple[int, float]]:
    """Sets and volume (kg × reps) per day, as every whole-history question counts them."""
    marks = ",".join("?" * len(DAYS))
    async with db.conn.execute(
        "SELECT occurred_on, count(*), round(coalesce(sum(weight_kg * reps), 0), 1) FROM entry_sets "
        f"WHERE user_key = ? AND occurred_on IN ({marks}) GROUP BY occurred_on",
        (USER, *DAYS),
    ) as cur:
        return {str(day): (int(n), float(volume)) for day, n, volume in await cur.fetchall()}


async def test_a_second_app_export_of_the_same_sessions_adds_only_what_is_new(
    db: Database, namer: ExerciseNamer
) -> None:
    strong = parse_export("strong", decode((DATA / "strong_history.csv").read_bytes()), user_key=USER, namer=namer)
    await store_imported(db, USER, strong.entries)
    before = await day_totals(db)
    assert before == {"2021-03-02": (8, 1528.0), "2021-03-07": (4, 1800.0), "2021-03-12": (3, 1215.0)}

    hevy = parse_export("hevy", HEVY, user_key=USER, namer=namer)
    report = await store_imported(db, USER, hevy.entries)
    assert (report.added, report.updated, report.present) == (2, 0, 0)
    assert dict(report.duplicates) == {"strong": 2}
    after = await day_totals(db)
    # The two sessions Strong already holds count once; the curls and the other deadlift are new.
    assert after["2021-03-02"] == before["2021-03-02"] and after["2021-03-07"] == before["2021-03-07"]
    assert after["2021-03-03"][0] == 2
    assert after["2021-03-12"][0] == 3 + 2

    again = await store_imported(db, USER, parse_export("hevy", HEVY, user_key=USER, namer=namer).entries)
    assert (again.added, again.present, dict(again.duplicates)) == (0, 2, {"strong": 2})
    assert await day_totals(db) == after


async def test_whichever_app_came_first_keeps_the_workout(db: Database, namer: ExerciseNamer) -> None:
    await store_imported(db, USER, parse_export("hevy", HEVY, user_key=USER, namer=namer).entries)
    strong = parse_export("strong", decode((DATA / "strong_history.csv").read_bytes()), user_key=USER, namer=namer)
    report = await store_imported(db, USER, strong.entries)
    assert report.added == len(strong.entries) - 2
    assert dict(report.duplicates) == {"hevy": 2}
    totals = await day_totals(db)
    assert totals["2021-03-02"][0] == 8 and totals["2021-03-07"][0] == 3  # Hevy's, once


async def test_the_days_query_uses_an_index(tmp_path: Path) -> None:
    """SQLite's plan, read through its trace callback (on Postgres see tests/engine/store/test_pg_plans.py)."""
    db = await Database.open(tmp_path / "plan.db")
    queries: list[str] = []
    await db.conn.set_trace_callback(queries.append)  # type: ignore[attr-defined]
    await EntryStore(db).imported_on(USER, [date(2021, 3, 2), date(2021, 3, 7)])
    (sql,) = [q for q in queries if q.lstrip().upper().startswith("SELECT")]
    async with db.conn.execute("EXPLAIN QUERY PLAN " + sql) as cur:
        plan = " ".join(str(row[-1]) for row in await cur.fetchall())
    await db.close()
    assert "USING INDEX" in plan and "SCAN" not in plan
