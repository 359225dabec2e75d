"""The Logbook: the engine's second front door, for work without a conversation (what ``bot/``'s
import, export, search and vocabulary commands run; their own tests check the printed reports)."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from pydantic import SecretStr

from engine import DataDirError, EngineConfig, Logbook
from engine.entries.model import NewEntry
from engine.store.db import Database
from engine.store.entries import EntryStore

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
USER = "console:kim"


@pytest.fixture
def logbook(tmp_path: Path, database_url: str | None) -> Logbook:
    url = SecretStr(database_url) if database_url else None
    return Logbook.open(EngineConfig(data_dir=tmp_path / "data", database_url=url))


async def open_database(logbook: Logbook) -> Database:
    """The database the logbook works on: Postgres when the test runs on it, else its SQLite file."""
    return await Database.open_either(logbook.config.database, logbook.config.entries_db)


async def test_an_import_stores_each_workout_once_and_exports_back(logbook: Logbook) -> None:
    first = await logbook.import_file(USER, DATA / "strong_en.csv")
    assert first is not None and first.title == "Strong"
    assert first.report.added > 0 and first.report.present == 0
    assert first.read.workouts == first.report.added and first.read.problems.count == 3  # the file's bad rows
    again = await logbook.import_file(USER, DATA / "strong_en.csv", "strong")
    assert again is not None and (again.report.added, again.report.present) == (0, first.report.added)

    entries = await logbook.entries(USER)
    assert len(entries) == first.report.added
    exported = await logbook.export(USER, "json")
    assert exported.entries == len(entries) and exported.left_out == 0
    assert [e["entry_id"] for e in json.loads(exported.text)] == [e.entry_id for e in entries]
    strong = await logbook.export(USER, "strong")
    assert strong.text.startswith("Date,") and strong.entries == len(entries)


async def test_a_file_no_app_wrote_is_told_apart(logbook: Logbook, tmp_path: Path) -> None:
    odd = tmp_path / "odd.csv"
    odd.write_text("a,b,c\n1,2,3\n", encoding="utf-8")
    assert await logbook.import_file(USER, odd) is None
    with pytest.raises(ValueError, match="no importer"):
        logbook.scan_export(Logbook.open_export(odd), "garmin")


async def test_nothing_stored_reads_as_no_entries_and_creates_no_database(logbook: Logbook) -> None:
    assert await logbook.entries(USER) == []
    assert (await logbook.export(USER)).entries == 0
    assert await logbook.unknown_names(USER) == ([], 0)
    report = await logbook.search("how is my bench press going?", USER, date(2024, 2, 1))
    # A SQLite file not made yet is said so; a Postgres database is always there, and empty.
    no_file = ["does not exist" in w for w in report["warnings"]]
    assert report["entries"] == [] and no_file == ([] if logbook.config.database else [True])
    assert "bench press" in report["reading"]["terms"]
    assert not logbook.config.entries_db.exists()


async def test_unknown_names_and_search_read_the_persons_entries(logbook: Logbook) -> None:
    await logbook.import_file(USER, DATA / "strong_en.csv")
    logged = NewEntry(
        occurred_on=date(2024, 1, 20), domain="strength", activity_type="strength",
        summary="glorp hoist 3x20m", raw_text="glorp hoist 3x20m", source_key="t1:0",
        data={"exercises": [{"name": "glorp hoist", "sets": 3}]},
    )  # fmt: skip
    db = await open_database(logbook)
    try:
        await EntryStore(db).add(USER, [logged])
    finally:
        await db.close()
    found, read = await logbook.unknown_names(USER)
    assert read == len(await logbook.entries(USER))
    assert "glorp hoist" in [u.name for u in found]
    report = await logbook.search("bench press in january 2024", USER, date(2024, 2, 1), ["strength"])
    assert report["domains"] == ["strength"] and report["entries"]
    assert all(e["date"].startswith("2024-01") for e in report["entries"])


async def test_notes_import_reads_by_code_and_leaves_a_note_read_before(logbook: Logbook, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "2024-02-01.md").write_text("squat 100kg 5x5\n", encoding="utf-8")
    scan = Logbook.scan_notes(notes)
    first = await logbook.import_notes(USER, scan, use_model=False)
    assert (first.report.added, first.by_code, first.by_model) == (1, 1, 0)
    again = await logbook.import_notes(USER, scan, use_model=False)
    assert (again.report.added, again.report.present, again.by_code) == (0, 1, 0)


async def test_a_data_folder_that_is_a_file_is_a_data_dir_error(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("not a folder", encoding="utf-8")
    logbook = Logbook(EngineConfig(data_dir=tmp_path / "data"))
    with pytest.raises(DataDirError):
        await logbook.import_file(USER, DATA / "strong_en.csv")


def test_the_engine_package_loads_the_logbook_only_when_asked() -> None:
    code = "import sys, engine; print('engine.logbook' in sys.modules, 'engine.importers' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


async def test_existing_source_keys_and_imported_workouts_are_the_stores(logbook: Logbook) -> None:
    await logbook.import_file(USER, DATA / "strong_en.csv")
    db = await open_database(logbook)
    try:
        store = EntryStore(db)
        entries = await logbook.entries(USER)
        keys = [e.source_key for e in entries]
        assert await store.existing_source_keys(USER, [*keys, "nope"]) == set(keys)
        assert await store.existing_source_keys("console:other", keys) == set()
        assert await store.existing_source_keys(USER, []) == set()
        workouts = await store.imported_workouts(USER)
        assert sorted(workouts.values()) == sorted(e.entry_id for e in entries)
        assert all(identity.startswith("strong:") for identity in workouts)
    finally:
        await db.close()
