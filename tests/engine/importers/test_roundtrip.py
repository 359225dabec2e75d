"""Issue 11: imports keep every set row, exports give them back.

Three real-shaped files (tests/data/roundtrip_*.csv): a Strong export with
Korean headers, 12-hour times, warm-up / drop / failure set orders, failed
attempts (a weight with 0 reps) and rest-timer rows; a Hevy export in lbs
with warm-up, drop and failure sets; a FitNotes export with cardio. Each is
read here a second way, by the csv module alone, and compared with what the
CSV export of the imported entries says: every set row comes back with the
same exercise name, set order, kind, weight and reps.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from collections import defaultdict
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

import pytest

from engine.domains.registry import DomainRegistry
from engine.entries.export import all_entries, to_csv
from engine.entries.strong_format import to_strong
from engine.importers import detect, parse_export, store_imported
from engine.importers.common import decode
from engine.importers.strong import ExerciseNamer
from engine.store.db import Database
from engine.store.entries import EntryStore
from tests.conftest import OpenDb
from tests.helpers.domains import BUILTIN

DATA = Path(__file__).resolve().parents[2] / "data"
STRONG, HEVY, FITNOTES = (DATA / f"roundtrip_{n}.csv" for n in ("strong_ko", "hevy_lbs", "fitnotes_cardio"))
ROOT = Path(__file__).resolve().parents[3]
USER = "console:lee"
Row = tuple[str, str, str, str, str]
"""(exercise as written, set order, kind, weight, reps)"""


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


def num(text: str) -> str:
    """A number as the export writes it (``62,5`` -> ``62.5``, ``95.0`` -> ``95``); blank and 0 are blank."""
    text = text.strip().replace(",", ".")
    return "" if not text or float(text) == 0 else f"{float(text):g}"


def reps(text: str, weight: str) -> str:
    """Reps as stored: 0 under a weight is a failed attempt (kept), 0 without one is "not filled in"."""
    return "0" if num(text) == "" and weight and text.strip() == "0" else num(text)


def expected_strong() -> dict[tuple[str, str], list[Row]]:
    sets: dict[tuple[str, str], list[Row]] = defaultdict(list)
    letters = {"W": "warmup", "D": "drop", "F": "failure"}
    for r in csv.DictReader(io.StringIO(STRONG.read_text(encoding="utf-8"))):
        if r["세트 순서"] == "Rest Timer" or r["운동 이름"] == "Rest Timer":
            continue  # a rest timer is no set (reported by line)
        weight = num(r["체중"])
        kind = letters.get(r["세트 순서"], "failure" if weight and r["렙"] == "0" else "normal")
        day = datetime.strptime(r["날짜"], "%Y-%m-%d %I:%M:%S %p" if "M" in r["날짜"] else "%Y-%m-%d %H:%M:%S")
        sets[(day.date().isoformat(), r["운동 이름"])].append(
            (r["운동 이름"], r["세트 순서"], kind, weight, reps(r["렙"], weight))
        )
    return sets


def expected_hevy() -> dict[tuple[str, str], list[Row]]:
    sets: dict[tuple[str, str], list[Row]] = defaultdict(list)
    kinds = {"normal": "normal", "warmup": "warmup", "dropset": "drop", "failure": "failure"}
    for r in csv.DictReader(io.StringIO(HEVY.read_text(encoding="utf-8"))):
        day = datetime.strptime(r["start_time"].split(",")[0], "%d %b %Y").date().isoformat()
        weight = num(r["weight_lbs"])
        kind = "failure" if weight and r["reps"] == "0" else kinds[r["set_type"]]
        sets[(day, r["exercise_title"])].append(
            (r["exercise_title"], str(int(r["set_index"]) + 1), kind, weight, reps(r["reps"], weight))
        )
    return sets


def expected_fitnotes() -> dict[tuple[str, str], list[Row]]:
    sets: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for r in csv.DictReader(io.StringIO(FITNOTES.read_text(encoding="utf-8"))):
        key = (r["Date"], r["Exercise"])
        weight = num(r["Weight (kgs)"])
        kind = "failure" if weight and r["Reps"] == "0" else "normal"
        sets[key].append((r["Exercise"], str(len(sets[key]) + 1), kind, weight, reps(r["Reps"], weight)))
    return sets


def exported(text: str) -> dict[tuple[str, str], list[Row]]:
    sets: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for r in csv.DictReader(io.StringIO(text)):
        sets[(r["date"], r["exercise"])].append((r["exercise"], r["set_order"], r["kind"], r["weight"], r["reps"]))
    return sets


async def import_file(db: Database, namer: ExerciseNamer, path: Path, app: str) -> str:
    text = decode(path.read_bytes())
    assert detect(text) == app
    result = parse_export(app, text, user_key=USER, namer=namer)  # type: ignore[arg-type]
    assert result.problems == []
    first = await store_imported(db, USER, result.entries)
    again = await store_imported(db, USER, parse_export(app, text, user_key=USER, namer=namer).entries)  # type: ignore[arg-type]
    assert first.added == len(result.entries) and (again.added, again.updated) == (0, 0)  # re-import adds nothing
    return to_csv(await all_entries(EntryStore(db), USER))


@pytest.mark.parametrize(
    ("path", "app", "expected"),
    [(STRONG, "strong", expected_strong), (HEVY, "hevy", expected_hevy), (FITNOTES, "fitnotes", expected_fitnotes)],
    ids=["strong-korean", "hevy-lbs", "fitnotes-cardio"],
)
async def test_import_then_export_gives_back_every_set_row(
    db: Database, namer: ExerciseNamer, path: Path, app: str, expected: object
) -> None:
    text = await import_file(db, namer, path, app)
    want = expected()  # type: ignore[operator]
    got = exported(text)
    assert got == want
    assert sum(map(len, got.values())) == sum(map(len, want.values()))


async def test_the_strong_file_keeps_what_was_lost_before(db: Database, namer: ExerciseNamer) -> None:
    result = parse_export("strong", decode(STRONG.read_bytes()), user_key=USER, namer=namer)
    # Before: the failed attempts were dropped as "a weight without reps" and the rest timer was a timed set.
    assert [str(p) for p in result.ignored] == [
        "line 4: a rest timer (3:00), not a set",
        "line 29: a rest timer (1:30), not a set",
    ]
    assert result.sets == 30 and result.rows == 32
    await store_imported(db, USER, result.entries)
    rows = list(csv.DictReader(io.StringIO(to_csv(await all_entries(EntryStore(db), USER)))))
    squat = [(r["set_order"], r["kind"], r["weight"], r["reps"]) for r in rows if r["exercise"] == "Squat (Barbell)"]
    # Before: sets after a dropped one were renumbered (file sets 4, 5, 6 came back as 3, 4, 5).
    assert squat == [("W", "warmup", "60", "8"), ("1", "normal", "140", "5"), ("2", "normal", "145", "3"),
                     ("3", "failure", "150", "0"), ("4", "failure", "150", "0"), ("5", "normal", "130", "5"),
                     ("6", "normal", "130", "5")]  # fmt: skip
    first = rows[0]
    assert (first["date"], first["time"], first["workout"], first["duration"]) == (
        "2024-03-05",
        "18:30:00",
        "하체",
        "1h 12m",
    )
    # Before: the export wrote canonical names only, and equipment variants shared one name.
    names = {r["exercise"]: r["canonical"] for r in rows}
    assert names["Squat (Barbell)"] == names["스쿼트 (바벨)"] == "squat"
    for a, b in [("Bent Over Row (Barbell)", "Bent Over Row (Dumbbell)"), ("Bicep Curl (Barbell)", "Bicep Curl (Dumbbell)"),
                 ("Incline Bench Press (Barbell)", "Incline Bench Press (Dumbbell)"),
                 ("Lateral Raise (Dumbbell)", "Lateral Raise (Cable)")]:  # fmt: skip
        assert names[a] != names[b], (a, b)
    assert names["Bent Over Row (Dumbbell)"] == "dumbbell row"
    assert {r["status"] for r in rows} == {"done"}


async def test_failed_attempts_are_never_records(db: Database, namer: ExerciseNamer) -> None:
    from datetime import date

    from engine.facts import compute_facts, facts_text

    result = parse_export("strong", decode(STRONG.read_bytes()), user_key=USER, namer=namer)
    await store_imported(db, USER, result.entries)
    facts = facts_text(compute_facts(await all_entries(EntryStore(db), USER), today=date(2024, 3, 10), domains=BUILTIN))
    assert "heaviest set of squat in the 3 entries found (2024-03-05 to 2024-03-09): 145 kg × 3" in facts  # not 150
    assert "heaviest set of deadlift in the 3 entries found (2024-03-05 to 2024-03-09): 180 kg × 3" in facts  # not 200


async def test_strong_format_export_reads_back_as_the_same_workouts(db: Database, namer: ExerciseNamer) -> None:
    await store_imported(
        db, USER, parse_export("strong", decode(STRONG.read_bytes()), user_key=USER, namer=namer).entries
    )
    entries = await all_entries(EntryStore(db), USER)
    strong_text = to_strong(entries)
    assert detect(strong_text) == "strong"
    back = parse_export("strong", strong_text, user_key=USER, namer=namer)
    assert back.problems == [] and back.ignored == []
    # The same workouts, set for set: importing the export adds nothing.
    assert [e.source_key for e in back.entries] == [e.source_key for e in entries]
    again = await store_imported(db, USER, back.entries)
    assert (again.added, again.updated, again.present) == (0, 0, 3)


async def test_hevy_and_fitnotes_keep_units_kinds_and_cardio(namer: ExerciseNamer) -> None:
    hevy = parse_export("hevy", decode(HEVY.read_bytes()), user_key=USER, namer=namer)
    push, pull = hevy.entries
    assert push.data["import"]["duration"] == "1h 12m" and pull.data["import"]["started_at"] == "2024-03-07T07:30:00"
    bench = push.data["exercises"][0]
    assert bench["weight_unit"] == "lb" and [d.get("kind", "normal") for d in bench["set_details"]] == [
        "warmup",
        "warmup",
        "normal",
        "normal",
        "failure",
        "drop",
    ]
    dip = [e for e in push.data["exercises"] if e["source_name"] == "Dip"]
    assert len(dip) == 1 and [d["weight"] for d in dip[0]["set_details"]] == [None, 25.0]  # bodyweight, then loaded
    (run,) = pull.data["cardio"]
    assert run["set_details"][0] == {
        "set_num": 1,
        "distance_km": 2.414,
        "seconds": 720.0,
        "distance": 1.5,
        "distance_unit": "mi",
    }
    fitnotes = parse_export("fitnotes", decode(FITNOTES.read_bytes()), user_key=USER, namer=namer)
    assert [e.domain for e in fitnotes.entries] == ["strength", "strength", "running"]
    day2 = fitnotes.entries[1]
    assert [c["source_name"] for c in day2.data["cardio"]] == ["Running", "Rowing Machine"]
    assert day2.data["cardio"][1]["set_details"][0]["distance"] == 2000.0  # metres kept as written


def test_cli_imports_by_detection_and_exports_strong(tmp_path: Path, database_url: str | None) -> None:
    env = {"DATA_DIR": str(tmp_path / "data"), "OLLAMA_HOST": "http://127.0.0.1:9", "PYTHONPATH": str(ROOT),
           "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}  # fmt: skip
    if database_url:
        env["DATABASE_URL"] = database_url

    def bot(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot", *args], cwd=tmp_path, env=env, capture_output=True,
                              text=True, encoding="utf-8", timeout=60)  # fmt: skip

    strong = bot("import", str(STRONG), "--user", USER)
    assert strong.returncode == 0, strong.stderr
    assert strong.stdout.splitlines() == [
        "roundtrip_strong_ko.csv: 3 workouts imported for console:lee, 0 already present",
        "ignored 2 rows that record no set:",
        "  line 4: a rest timer (3:00), not a set",
        "  line 29: a rest timer (1:30), not a set",
    ]
    hevy = bot("import", "hevy", str(HEVY), "--user", USER)
    assert hevy.stdout == "roundtrip_hevy_lbs.csv: 2 workouts imported for console:lee, 0 already present\n"
    again = bot("import", str(FITNOTES), "--user", USER)
    assert again.returncode == 0 and "3 workouts imported" in again.stdout
    assert "0 workouts imported" in bot("import", "fitnotes", str(FITNOTES), "--user", USER).stdout
    wrong = bot("import", "hevy", str(STRONG), "--user", USER)
    assert (
        wrong.returncode == 2
        and "missing required column(s): title, start_time, exercise_title, set_index" in wrong.stderr
    )
    unknown = tmp_path / "x.csv"
    unknown.write_text("a,b\n1,2\n", encoding="utf-8")
    assert "not an export of Strong, Hevy or FitNotes" in bot("import", str(unknown), "--user", USER).stderr

    out = bot("export", "--user", USER, "--format", "strong")
    assert out.returncode == 0 and out.stdout.startswith("Date,Workout Name,Duration,Exercise Name,Set Order")
    back = tmp_path / "back.csv"
    back.write_text(out.stdout, encoding="utf-8")
    reread = bot("import", "strong", str(back), "--user", USER)
    # The Hevy and FitNotes workouts read back as Strong's are the same workouts: stored once (issue 22.1).
    assert reread.stdout.splitlines() == [
        "back.csv: 0 workouts imported for console:lee, 3 already present",
        "skipped 5 workouts already imported from Hevy and FitNotes",
    ]
    as_json = json.loads(bot("export", "--user", USER, "--format", "json").stdout)
    assert len(as_json) == 3 + 2 + 3
    # With DATABASE_URL the entries went to Postgres: no SQLite file of them was made.
    assert (tmp_path / "data" / "almanac.db").exists() == (database_url is None)
