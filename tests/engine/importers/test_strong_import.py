"""Strong CSV import and entry export: parsing by hand-checked numbers, the store, and the CLI."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from bot.progress import Progress
from engine.agents.schemas import ParserOutput
from engine.domains.registry import DomainRegistry
from engine.entries.export import CSV_COLUMNS, all_entries, to_csv, to_json
from engine.entries.model import Entry, NewEntry
from engine.entries.summaries import summarize
from engine.importers import store_imported
from engine.importers.strong import ExerciseNamer, MissingColumnsError, StrongImport, decode, parse_strong_csv
from engine.store.db import Database
from engine.store.entries import EntryStore
from tests.conftest import OpenDb
from tests.fakes.ollama_server import FakeOllama

DATA = Path(__file__).resolve().parents[2] / "data"
EN = DATA / "strong_en.csv"
KO = DATA / "strong_ko.csv"
ROOT = Path(__file__).resolve().parents[3]
USER = "console:kim"
CLOSED_OLLAMA = "http://127.0.0.1:9"  # discard port: nothing listens, a model call would fail


@pytest.fixture(scope="module")
def namer() -> ExerciseNamer:
    return ExerciseNamer.from_registry(DomainRegistry.load())


def parse(source: Path | str, namer: ExerciseNamer, **kw: Any) -> StrongImport:
    text = decode(source.read_bytes()) if isinstance(source, Path) else source
    return parse_strong_csv(text, user_key=kw.pop("user_key", USER), namer=namer, **kw)


def sets(exercise: dict[str, Any]) -> list[tuple[float | None, int | None]]:
    return [(d["weight"], d["reps"]) for d in exercise["set_details"]]


def by_name(entry: NewEntry) -> dict[str, dict[str, Any]]:
    return {e["source_name"]: e for e in entry.data["exercises"]}


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    """A fake model server that records every request (none are expected)."""
    with FakeOllama() as server:
        yield server


@pytest.fixture
async def db(open_db: OpenDb, tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_db(tmp_path / "data" / "almanac.db")
    try:
        yield database
    finally:
        await database.close()


# --- parsing -----------------------------------------------------------------


def test_english_export_gives_one_entry_per_workout(namer: ExerciseNamer) -> None:
    result = parse(EN, namer)
    assert result.rows == 15 and result.delimiter == ","
    assert "Tempo" not in result.columns.values()  # an unknown column is ignored
    assert [(e.occurred_on.isoformat(), e.domain) for e in result.entries] == [
        ("2024-01-15", "strength"),
        ("2024-01-17", "strength"),
        ("2024-01-19", "running"),
    ]
    assert result.rows_per_entry == [6, 4, 1]
    push, legs, run = result.entries

    ex = by_name(push)
    assert [(e["name"], e["source_name"]) for e in push.data["exercises"]] == [
        ("bench press", "Bench Press (Barbell)"),
        ("dumbbell bench press", "Bench Press (Dumbbell)"),
        ("pull-up", "Pull Up"),
    ]
    assert sets(ex["Bench Press (Barbell)"]) == [(60.0, 10), (60.0, 8), (62.5, 6)]
    assert ex["Bench Press (Barbell)"]["weight_unit"] == "kg" and ex["Bench Press (Barbell)"]["sets"] == 3
    assert ex["Bench Press (Barbell)"]["set_details"][2]["rpe"] == 8.5
    assert sets(ex["Bench Press (Dumbbell)"]) == [(22.5, 12)]
    # Weight 0 is Strong's bodyweight: no weight, no unit, like a chat-logged pull-up.
    assert sets(ex["Pull Up"]) == [(None, 10), (None, 8)] and ex["Pull Up"]["weight_unit"] is None
    assert push.data["notes"] == "Felt strong"
    assert push.data["import"] == {
        "app": "strong",
        "workout_id": "2024-01-15T18:30:00|Push Day",
        "started_at": "2024-01-15T18:30:00",
        "workout_name": "Push Day",
        "duration": "1h 5m",
        "workout_notes": "Felt strong",
    }
    assert push.summary == (
        "bench press 60×10, 60×8, 62.5×6 kg; dumbbell bench press 22.5 kg × 12 reps × 1 set; pull-up BW×10, BW×8"
    )
    # The same summary a chat-logged entry with these exercises would get.
    assert push.summary == summarize(ParserOutput.model_validate({**push.data, "summary": "", "status": "parsed"}))
    assert push.terms == ["bench press", "dumbbell bench press", "pull-up"]
    assert push.source == "import" and push.kind == "parsed" and push.activity_type == "strength"
    assert push.source_key.startswith("strong:") and len(push.source_key) == len("strong:") + 64
    assert push.raw_text.splitlines() == [
        "Strong · 2024-01-15 18:30 · Push Day",
        "Bench Press (Barbell): 60kg×10, 60kg×8, 62.5kg×6",
        "Bench Press (Dumbbell): 22.5kg×12",
        "Pull Up: BW×10, BW×8",
        "notes: Felt strong",
    ]

    # Sets come in Strong's set order (the file lists squat set 2 first), keeping
    # their numbers; the bad-weight squat set and the empty set-0 deadlift row are left out.
    ex = by_name(legs)
    assert sets(ex["Squat (Barbell)"]) == [(100.0, 5), (105.0, 5)]
    assert sets(ex["Deadlift (Barbell)"]) == [(140.0, 3)]
    assert legs.data["cardio"] == [
        {
            "name": "run",
            "source_name": "Running (Treadmill)",
            "distance_km": 1.5,
            "duration": "9:00",
            "set_details": [{"set_num": 1, "distance_km": 1.5, "seconds": 540.0, "notes": "warm-up"}],
        }
    ]
    assert legs.summary == (
        "squat 100×5, 105×5 kg; deadlift 140 kg × 3 reps × 1 set; run: distance 1.5 km, duration 9:00"
    )
    assert legs.terms[:3] == ["run", "squat", "deadlift"]

    # A cardio-only workout is a running entry with the running log schema's metrics.
    assert run.data["exercises"] == []
    assert run.data["metrics"] == [
        {"name": "distance_km", "value": "5", "unit": "km"},
        {"name": "duration", "value": "25:30", "unit": ""},
        {"name": "pace", "value": "5:06", "unit": "min/km"},
    ]
    assert run.summary == "running: distance 5 km, duration 25:30, pace 5:06 min/km"
    assert run.activity_type == "running" and run.terms == ["run"]


def test_malformed_rows_are_reported_with_line_numbers(namer: ExerciseNamer) -> None:
    result = parse(EN, namer)
    assert [str(p) for p in result.problems] == [
        "line 11: weight 'ten' is not a number",
        "line 14: bad date '2024-13-40 07:05:00'",
        "line 16: missing exercise name",
    ]
    assert [str(p) for p in result.ignored] == ["line 13: no weight, reps, distance or time (an empty set)"]


def test_korean_headers(namer: ExerciseNamer) -> None:
    result = parse(KO, namer)
    assert result.problems == [] and result.ignored == []
    assert result.columns["weight"] == "체중" and result.columns["reps"] == "렙"
    evening, weekend = result.entries
    assert evening.occurred_on.isoformat() == "2024-02-01" and evening.data["import"]["workout_name"] == "저녁 운동"
    ex = by_name(evening)
    assert ex["벤치프레스 (바벨)"]["name"] == "bench press"
    assert sets(ex["벤치프레스 (바벨)"]) == [(60.0, 10), (62.5, 8)]  # "62,5": a decimal comma
    assert ex["벤치프레스 (바벨)"]["set_details"][1]["rpe"] == 8.0
    assert sets(ex["스쿼트 (바벨)"]) == [(100.0, 5), (100.0, 5)]
    assert evening.data["notes"] == "스쿼트 (바벨): 무릎 괜찮음"
    assert evening.summary == "bench press 60×10, 62.5×8 kg; squat 100 kg × 5 reps × 2 sets"
    assert [(e["name"], sets(e)) for e in weekend.data["exercises"]] == [
        ("deadlift", [(120.0, 5)]),
        ("pull-up", [(None, 12)]),
    ]
    assert weekend.terms == ["deadlift", "pull-up"]


def test_semicolons_decimal_commas_units_and_odd_rows(namer: ExerciseNamer) -> None:
    text = (
        "\ufeffDate;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;"
        "Distance;Distance Unit;Seconds;Notes;Workout Notes\n"
        '2024-03-02 8:05:00 AM;"Home";"Bench Press (Barbell)";1;"135";lbs;5;;;;0;"first line\nsecond line";""\n'
        '2024-03-02 8:05:00 AM;"Home";"Bench Press (Barbell)";2;"137,5";lbs;5;9,5;;;0;"";""\n'
        '2024-03-02 8:05:00 AM;"Home";"Plank";1;;;;;;;45;"";""\n'
        '2024-03-02 8:05:00 AM;"Home";"Squat (Barbell)";1;100;stones;5;;;;0;"";""\n'
        '2024-03-03 07:00:00;"Ride";"Cycling (Indoor)";1;;;;;10;km;1200;"";""\n'
        '2024-03-04 07:00:00;"Run";"Running";1;;;;;2;mi;960;"";""\n'
        '2024-03-04 07:00:00;"Run";"Running";2;;;;;1;mi;500;"";"";"extra"\n'
    )
    result = parse(text, namer)
    assert result.delimiter == ";"
    # The quoted note spans lines 2-3, so the rows after it start on line 4
    assert [str(p) for p in result.problems] == [
        "line 6: unknown weight unit 'stones'",
        "line 9: 14 fields but the header has 13 (a stray ';'?)",
    ]
    home, ride, run = result.entries
    bench, plank = home.data["exercises"]
    assert bench["weight_unit"] == "lb" and sets(bench) == [(135.0, 5), (137.5, 5)]
    assert bench["set_details"][1]["rpe"] == 9.5
    assert home.data["import"]["started_at"] == "2024-03-02T08:05:00"
    # A timed hold stays a strength exercise, with its time per set.
    assert plank["name"] == "plank" and plank["set_details"] == [
        {"set_num": 1, "weight": None, "reps": None, "seconds": 45.0}
    ]
    assert home.data["notes"] == "Bench Press (Barbell): first line second line"
    # Cardio that is not running goes to general fitness.
    assert ride.domain == "general_fitness" and ride.data["metrics"] == [
        {"name": "activity", "value": "indoor cycling", "unit": ""},
        {"name": "distance_km", "value": "10", "unit": "km"},
        {"name": "duration", "value": "20:00", "unit": ""},
    ]
    # Miles are converted for distance_km; the original is kept per set.
    assert run.domain == "running" and run.data["metrics"][0] == {"name": "distance_km", "value": "3.219", "unit": "km"}
    assert run.data["cardio"][0]["set_details"] == [
        {"set_num": 1, "distance_km": 3.219, "seconds": 960.0, "distance": 2.0, "distance_unit": "mi"}
    ]


def test_excel_separator_line(namer: ExerciseNamer) -> None:
    text = "sep=;\nDate;Exercise Name;Reps;Weight\n2024-01-01 10:00:00;Squat;5;100,5\n2024-01-01 10:00:00;Squat;x;100\n"
    result = parse(text, namer)
    assert result.delimiter == ";" and [str(p) for p in result.problems] == ["line 4: reps 'x' is not a number"]
    assert result.entries[0].summary == "squat 100.5 kg × 5 reps × 1 set"


def test_unit_option_applies_without_a_weight_unit_column(namer: ExerciseNamer) -> None:
    kg = parse(EN, namer)
    lb = parse(EN, namer, default_unit="lb")
    assert by_name(lb.entries[0])["Bench Press (Barbell)"]["weight_unit"] == "lb"
    assert lb.entries[0].summary.startswith("bench press 60×10, 60×8, 62.5×6 lb")
    # Different data, different key: the kg import is not mistaken for it.
    assert kg.entries[0].source_key != lb.entries[0].source_key


def test_source_key_is_per_workout_content_not_per_file(namer: ExerciseNamer) -> None:
    base = EN.read_text(encoding="utf-8-sig")
    header, *rows = base.splitlines()
    # A newer export: rows in another order, numbers written differently, a workout more.
    newer = "\n".join(
        [header, *reversed(rows), '2024-01-21 18:00:00,"Push Day",1h,"Bench Press (Barbell)",1,65,5,0,0,"","","",']
    ).replace(",60,10,", ",60.0,10.0,")
    old_keys = [e.source_key for e in parse(base, namer).entries]
    new_keys = [e.source_key for e in parse(newer, namer).entries]
    assert new_keys[:3] == old_keys and len(new_keys) == 4
    # Another person importing the same file gets their own entries.
    assert parse(base, namer, user_key="console:lee").entries[0].source_key not in old_keys


def test_missing_required_columns(namer: ExerciseNamer) -> None:
    with pytest.raises(MissingColumnsError) as info:
        parse("Date,Workout Name,Weight,Notes\n2024-01-15 18:30:00,A,60,\n", namer)
    assert info.value.missing == ["Exercise Name (운동 이름)", "Reps (렙) or Seconds (초)"]
    assert "the header has: Date, Workout Name, Weight, Notes" in str(info.value)
    # Seconds alone is enough (a cardio-only export), RPE/Distance may be missing.
    ok = parse("Date,Exercise Name,Seconds\n2024-01-15 18:30:00,Plank,60\n", namer)
    assert ok.problems == [] and len(ok.entries) == 1


# --- storing -----------------------------------------------------------------


async def test_reimport_adds_nothing_and_an_edit_replaces_the_old_entry(db: Database, namer: ExerciseNamer) -> None:
    store = EntryStore(db)
    first = await store_imported(db, USER, parse(EN, namer).entries)
    assert (first.added, first.updated, first.present) == (3, 0, 0)
    again = await store_imported(db, USER, parse(EN, namer).entries, batch_size=2)
    assert (again.added, again.updated, again.present) == (0, 0, 3)
    assert await store.count(USER) == 3

    # A newer export: Push Day edited in Strong (a weight fixed), one new workout.
    text = EN.read_text(encoding="utf-8-sig").replace(",62.5,6,", ",65,6,")
    text += '2024-01-21 18:00:00,"Push Day",1h,"Bench Press (Barbell)",1,65,5,0,0,"","","",\n'
    newer = await store_imported(db, USER, parse(text, namer).entries)
    assert (newer.added, newer.updated, newer.present) == (1, 1, 2)
    entries = await all_entries(store, USER)
    assert [e.occurred_on.isoformat() for e in entries] == ["2024-01-15", "2024-01-17", "2024-01-19", "2024-01-21"]
    push = entries[0]
    assert sets(by_name(push)["Bench Press (Barbell)"])[2] == (65.0, 6) and push.supersedes is not None
    old = await store.get(USER, push.supersedes)
    assert old is not None and old.status == "superseded"
    # And the older file again changes nothing now.
    older = await store_imported(db, USER, parse(EN, namer).entries)
    assert (older.added, older.updated, older.present) == (0, 0, 3) and await store.count(USER) == 4


async def test_users_are_kept_apart_and_search_finds_imports(db: Database, namer: ExerciseNamer) -> None:
    store = EntryStore(db)
    await store_imported(db, USER, parse(EN, namer).entries + parse(KO, namer).entries)
    lee = await store_imported(db, "console:lee", parse(EN, namer, user_key="console:lee").entries)
    assert lee.added == 3 and await store.count(USER) == 5 and await store.count("console:lee") == 3
    bench = await store.search(USER, ["bench press"])
    assert [e.occurred_on.isoformat() for e in bench] == ["2024-02-01", "2024-01-15"]
    assert [e.occurred_on.isoformat() for e in await store.search(USER, ["벤치프레스"])] == ["2024-02-01"]
    assert [e.domain for e in await store.search(USER, ["treadmill"])] == ["running", "strength"]


async def test_export_csv_one_row_per_set_and_json_round_trip(db: Database, namer: ExerciseNamer) -> None:
    store = EntryStore(db)
    await store_imported(db, USER, parse(EN, namer).entries)
    entries = await all_entries(store, USER)
    rows = list(csv.DictReader(io.StringIO(to_csv(entries))))
    assert tuple(rows[0]) == CSV_COLUMNS
    columns = ("date", "time", "workout", "exercise", "canonical", "set_order", "kind", "weight", "unit", "reps",
               "distance", "distance_unit", "seconds", "rpe", "notes", "status")  # fmt: skip
    body = [[r[c] for c in columns] for r in rows]
    push = ["2024-01-15", "18:30:00", "Push Day"]
    legs = ["2024-01-17", "07:05:00", "Leg Day"]
    assert body == [
        [*push, "Bench Press (Barbell)", "bench press", "1", "normal", "60", "kg", "10", "", "", "", "", "", "done"],
        [*push, "Bench Press (Barbell)", "bench press", "2", "normal", "60", "kg", "8", "", "", "", "", "", "done"],
        [*push, "Bench Press (Barbell)", "bench press", "3", "normal", "62.5", "kg", "6", "", "", "", "8.5", "", "done"],
        [*push, "Bench Press (Dumbbell)", "dumbbell bench press", "1", "normal", "22.5", "kg", "12", "", "", "", "", "",
         "done"],
        [*push, "Pull Up", "pull-up", "1", "normal", "", "", "10", "", "", "", "", "", "done"],
        [*push, "Pull Up", "pull-up", "2", "normal", "", "", "8", "", "", "", "", "", "done"],
        [*legs, "Squat (Barbell)", "squat", "1", "normal", "100", "kg", "5", "", "", "", "", "belt on", "done"],
        [*legs, "Squat (Barbell)", "squat", "2", "normal", "105", "kg", "5", "", "", "", "", "", "done"],
        [*legs, "Deadlift (Barbell)", "deadlift", "1", "normal", "140", "kg", "3", "", "", "", "", "", "done"],
        [*legs, "Running (Treadmill)", "run", "1", "normal", "", "", "", "1.5", "km", "540", "", "warm-up", "done"],
        ["2024-01-19", "06:40:00", "Morning Run", "Running (Treadmill)", "run", "1", "normal", "", "", "", "5", "km",
         "1530", "", "", "done"],
    ]  # fmt: skip
    assert {r["entry_id"] for r in rows[:6]} == {entries[0].entry_id} and rows[0]["summary"] == entries[0].summary
    assert rows[0]["duration"] == "1h 5m" and rows[0]["domain"] == "strength"
    back = [Entry.model_validate(item) for item in json.loads(to_json(entries))]
    assert back == entries


async def test_export_handles_chat_entries(db: Database) -> None:
    store = EntryStore(db)
    chat = {
        "activity_type": "strength",
        "domain": "strength",
        "exercises": [
            {"name": "bench press", "sets": 2, "weight_unit": "kg", "set_details": [
                {"set_num": 1, "weight": 55.0, "reps": 10}, {"set_num": 2, "weight": 55.0, "reps": 10}]},
        ],
        "metrics": [],
        "notes": "",
    }  # fmt: skip
    await store.add(
        USER,
        [
            NewEntry(occurred_on=date(2024, 5, 2), domain="strength", activity_type="strength",
                     summary="bench press 55 kg × 10 reps × 2 sets", data=chat, raw_text="bench 55kg 10x2",
                     source_key="turn:1:0"),
            NewEntry(occurred_on=date(2024, 5, 1), domain="general_fitness", activity_type="note", kind="note",
                     summary="note: felt tired", data={}, raw_text="felt tired", source_key="turn:2:0"),
            NewEntry(occurred_on=date(2024, 5, 9), domain="strength", activity_type="strength", kind="planned",
                     summary="planned: bench press 60 kg × 5 reps × 1 set", data={**chat, "exercises": [
                         {"name": "bench press", "sets": 1, "weight_unit": "kg",
                          "set_details": [{"set_num": 1, "weight": 60.0, "reps": 5}]}]},
                     raw_text="planned", source="plan", source_key="plan:1:0"),
        ],
    )  # fmt: skip
    rows = list(csv.DictReader(io.StringIO(to_csv(await all_entries(store, USER)))))
    columns = ("date", "domain", "exercise", "canonical", "set_order", "weight", "unit", "reps", "notes", "status")
    assert [[r[c] for c in columns] for r in rows] == [
        ["2024-05-01", "general_fitness", "", "", "", "", "", "", "felt tired", "done"],
        ["2024-05-02", "strength", "bench press", "bench press", "1", "55", "kg", "10", "", "done"],
        ["2024-05-02", "strength", "bench press", "bench press", "2", "55", "kg", "10", "", "done"],
        ["2024-05-09", "strength", "bench press", "bench press", "1", "60", "kg", "5", "", "planned"],
    ]
    # Planned is not done: the store's reads leave it out unless asked.
    assert [e.kind for e in await store.recent(USER)] == ["parsed", "note"]
    assert await store.count(USER) == 2 and len(await all_entries(store, USER)) == 3


# --- the command line ----------------------------------------------------------


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("OLLAMA_HOST", CLOSED_OLLAMA)
    return tmp_path


def bot(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8", timeout=60
    )


def test_cli_import_twice_and_export_without_a_model(cli_env: Path) -> None:
    first = bot(cli_env, "import", "strong", str(EN), "--user", USER)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines() == [
        "strong_en.csv: 3 workouts imported for console:kim, 0 already present",
        "ignored 1 row that records no set:",
        "  line 13: no weight, reps, distance or time (an empty set)",
        "skipped 3 rows:",
        "  line 11: weight 'ten' is not a number",
        "  line 14: bad date '2024-13-40 07:05:00'",
        "  line 16: missing exercise name",
    ]
    assert "\r" not in first.stderr  # no progress bar when stderr is not a terminal
    again = bot(cli_env, "import", "strong", str(EN), "--user", USER)
    assert again.returncode == 0
    assert again.stdout.startswith("strong_en.csv: 0 workouts imported for console:kim, 3 already present")
    ko = bot(cli_env, "import", "strong", str(KO), "--user", USER)
    assert ko.returncode == 0 and ko.stdout == "strong_ko.csv: 2 workouts imported for console:kim, 0 already present\n"

    out = bot(cli_env, "export", "--user", USER)
    assert out.returncode == 0, out.stderr
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert len(rows) == 11 + 6  # English sets and cardio rows, then the Korean file's six sets
    assert [(r["exercise"], r["canonical"], r["weight"], r["reps"]) for r in rows if r["date"] == "2024-02-01"] == [
        ("벤치프레스 (바벨)", "bench press", "60", "10"),
        ("벤치프레스 (바벨)", "bench press", "62.5", "8"),
        ("스쿼트 (바벨)", "squat", "100", "5"),
        ("스쿼트 (바벨)", "squat", "100", "5"),
    ]
    target = cli_env / "me.json"
    saved = bot(cli_env, "export", "--user", USER, "--output", str(target))
    assert saved.returncode == 0 and "wrote 5 entries of console:kim" in saved.stderr
    entries = [Entry.model_validate(item) for item in json.loads(target.read_text(encoding="utf-8"))]
    dates = ["2024-01-15", "2024-01-17", "2024-01-19", "2024-02-01", "2024-02-03"]
    assert [e.occurred_on.isoformat() for e in entries] == dates
    assert entries[3].data["exercises"][0]["source_name"] == "벤치프레스 (바벨)"
    nobody = bot(cli_env, "export", "--user", "console:nobody", "--format", "json")
    assert nobody.returncode == 0 and json.loads(nobody.stdout) == [] and "no entries" in nobody.stderr


def test_cli_missing_columns_exit_2(cli_env: Path) -> None:
    bad = cli_env / "bad.csv"
    bad.write_text("날짜,워크아웃 이름,체중\n2024-01-15 18:30:00,A,60\n", encoding="utf-8")
    result = bot(cli_env, "import", "strong", str(bad), "--user", USER)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == (
        "almanac: bad.csv: missing required column(s): Exercise Name (운동 이름), Reps (렙) or Seconds (초); "
        "the header has: 날짜, 워크아웃 이름, 체중"
    ).replace("bad.csv", str(bad))
    gone = bot(cli_env, "import", "strong", str(cli_env / "nope.csv"), "--user", USER)
    assert gone.returncode == 2 and "cannot read" in gone.stderr
    bare = bot(cli_env, "import", "strong", str(EN), "--user", "kim")
    assert bare.returncode == 2 and "console:kim" in bare.stderr
    assert not (cli_env / "data" / "almanac.db").exists()  # nothing was stored anywhere


def test_cli_lists_at_most_20_skipped_rows(cli_env: Path) -> None:
    lines = ["Date,Workout Name,Exercise Name,Set Order,Weight,Reps"]
    lines += [f"2024-01-15 18:30:00,A,Squat (Barbell),{n},100,x{n}" for n in range(1, 26)]
    lines.append("2024-01-15 18:30:00,A,Squat (Barbell),26,100,5")
    bad = cli_env / "many.csv"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = bot(cli_env, "import", "strong", str(bad), "--user", USER)
    out = result.stdout.splitlines()
    assert result.returncode == 0 and out[0].startswith("many.csv: 1 workout imported")
    assert out[1] == "skipped 25 rows:"
    assert out[2] == "  line 2: reps 'x1' is not a number" and out[21] == "  line 21: reps 'x20' is not a number"
    assert out[22:] == ["  … and 5 more"]


def test_cli_never_calls_the_model(cli_env: Path, ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", ollama.url)
    result = bot(cli_env, "import", "strong", str(KO), "--user", USER)
    assert result.returncode == 0 and "2 workouts imported" in result.stdout
    assert ollama.requests == []


def test_progress_line() -> None:
    out = io.StringIO()
    bar = Progress(out, enabled=True)
    bar.show("importing", 120, 480)
    bar.show("importing", 130, 480)  # throttled: too soon after the last one
    bar.show("importing", 480, 480)  # the last one always shows
    bar.clear()
    assert out.getvalue().startswith("\rimporting 120/480 rows\rimporting 480/480 rows\r")
    assert out.getvalue().endswith("\r")
    quiet = io.StringIO()
    Progress(quiet).show("importing", 1, 2)  # a StringIO is not a terminal
    assert quiet.getvalue() == ""


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_progress_bar_shows_on_a_terminal(cli_env: Path) -> None:
    leader, follower = os.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "bot", "import", "strong", str(EN), "--user", USER],
            cwd=cli_env,
            stdout=subprocess.PIPE,
            stderr=follower,
            timeout=60,
        )
        os.close(follower)
        follower = -1
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO once the terminal has no writer
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(leader)
        if follower != -1:
            os.close(follower)
    assert proc.returncode == 0
    assert b"\rreading 15/15 rows" in seen and b"\rimporting 15/15 rows" in seen


@pytest.mark.parametrize("user", ["kim", "tg:abc", "slack:T1:nobody", "tg:", "console:"])
def test_a_user_key_no_chat_uses_is_refused(cli_env: Path, user: str) -> None:
    """Before: "--user tg:abc" and "--user slack:T1:nobody" were accepted, storing entries under a key no
    chat reaches. One line says what a key looks like; nothing is stored."""
    for args in (("import", "strong", str(EN), "--user", user), ("export", "--user", user)):
        run = bot(cli_env, *args)
        assert run.returncode == 2, run.stderr
        assert "--user takes a user key" in run.stderr and "Traceback" not in run.stderr
        assert len(run.stderr.strip().splitlines()) == 1, run.stderr


@pytest.mark.parametrize("user", ["console:kim", "tg:12345", "slack:T0123ABC:U0456DEF"])
def test_the_user_keys_chats_use_are_accepted(cli_env: Path, user: str) -> None:
    assert bot(cli_env, "export", "--user", user).returncode == 0
