"""Unknown exercise names are kept, found by their raw text and listed; ``bot vocab`` and ``bot search``."""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import pytest

from bot.vocab_cli import add_commands, run
from engine.domains.registry import DomainRegistry, DomainSelector
from engine.entries.model import NewEntry
from engine.importers import store_imported
from engine.importers.strong import ExerciseNamer, parse_strong_csv
from engine.language.unknown import unknown_names
from engine.query.questions import read_question
from engine.store.db import Database
from engine.store.entries import EntryStore
from tests.conftest import OpenDb
from tests.helpers.database import settings_database

USER = "console:kim"
REGISTRY = DomainRegistry.load()
CTX = DomainSelector(REGISTRY).build_active_context(["strength", "running", "general_fitness"])
CSV = """Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
2024-02-04 10:00:00,"Odd day",40m,"Tire Flip (Other)",1,120,5,0,0,"","",
2024-02-04 10:00:00,"Odd day",40m,"Bench Press (Kettlebell)",1,16,12,0,0,"","",
2024-02-04 10:00:00,"Odd day",40m,"Push Press",1,50,5,0,0,"","",
2024-02-06 10:00:00,"Odd day",40m,"tire  flip (other)",1,130,4,0,0,"","",
2024-02-06 10:00:00,"Odd day",40m,"Squat (Barbell)",1,100,5,0,0,"","",
"""


async def import_csv(db: Database) -> None:
    result = parse_strong_csv(CSV, user_key=USER, namer=ExerciseNamer.from_registry(REGISTRY))
    await store_imported(db, USER, result.entries)


async def add_chat_entry(store: EntryStore) -> None:
    # What the LOG flow stores for a name the vocabulary lacks: the Parser's name, lower-cased.
    data = {"exercises": [{"name": "jefferson curl", "sets": 3, "weight_unit": "kg", "set_details": []}]}
    text = "Jefferson curl 20kg 3x8"
    new = NewEntry(
        occurred_on=date(2024, 2, 7),
        domain="strength",
        activity_type="strength",
        summary=text,
        data=data,
        raw_text=text,
        terms=CTX.vocabulary.terms(text),
        source_key="turn:1:0",
    )
    await store.add(USER, [new])


@pytest.fixture
async def store(open_db: OpenDb) -> AsyncIterator[EntryStore]:
    db = await open_db()
    await import_csv(db)
    entries = EntryStore(db)
    await add_chat_entry(entries)
    yield entries
    await db.close()


async def test_an_unknown_imported_name_is_its_own_canonical_and_searchable(store: EntryStore) -> None:
    odd = (await store.search(USER, ["push press"]))[0]
    names = [e["name"] for e in odd.data["exercises"]]
    assert names == ["tire flip (other)", "bench press (kettlebell)", "push press"]
    assert {"tire flip (other)", "bench press (kettlebell)", "push press"} <= set(odd.terms)
    # Found by its canonical term and by its raw text, whichever way it was spelled.
    assert len(await store.search(USER, ["tire flip (other)"])) == 2
    assert len(await store.search(USER, ["Tire Flip"])) == 2
    assert [e.raw_text for e in await store.search(USER, ["jefferson curl"])] == ["Jefferson curl 20kg 3x8"]


async def test_unknown_names_are_listed_most_used_first(store: EntryStore) -> None:
    entries = await store.between(USER, date.min, date.max)
    found = unknown_names(entries, CTX.vocabulary)
    assert [(u.name, u.entries, str(u.first), str(u.last)) for u in found] == [
        ("tire flip (other)", 2, "2024-02-04", "2024-02-06"),
        ("bench press (kettlebell)", 1, "2024-02-04", "2024-02-04"),
        ("jefferson curl", 1, "2024-02-07", "2024-02-07"),
    ]
    assert found[0].sources == ["Tire Flip (Other)", "tire flip (other)"]  # one name, two spellings
    assert found[1].contains == ["bench press"] and found[2].contains == ["biceps curl"]


def test_a_question_can_name_the_persons_own_exercise() -> None:
    shape = read_question("how are my tire flip (other) sets going?", CTX, date(2024, 2, 8), ["tire flip (other)"])
    assert shape.terms == ["tire flip (other)"] and shape.wanted == ["tire flip (other)"]
    assert read_question("how are my tire flips going?", CTX, date(2024, 2, 8)).terms == []


# --- the command line (in process; ``python -m bot`` wires the same two functions) ----------------------


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database_url: str | None) -> Path:
    monkeypatch.chdir(tmp_path)  # no stray .env
    if database_url:
        monkeypatch.setenv("DATABASE_URL", database_url)
    else:
        monkeypatch.delenv("DATABASE_URL", raising=False)  # SQLite files, whatever the shell says
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")  # closed: nothing here may call a model
    return tmp_path / "data"


def bot(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot")
    add_commands(parser.add_subparsers(dest="mode"))
    return run(parser.parse_args(list(argv)))


def seed(data_dir: Path) -> None:
    async def go() -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        db = await settings_database()
        try:
            await import_csv(db)
            await add_chat_entry(EntryStore(db))
        finally:
            await db.close()

    asyncio.run(go())


def test_cli_vocab_unknown(cli: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bot("vocab", "unknown", "--user", USER) == 0
    assert "every exercise name" in capsys.readouterr().out  # nothing stored yet
    seed(cli)
    assert bot("vocab", "unknown", "--user", USER) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"3 exercise names of {USER} not in the vocabulary:"
    assert lines[1].startswith("  tire flip (other)  (2 entries, 2024-02-04..2024-02-06)")
    assert "contains bench press" in lines[2] and lines[3].startswith("  jefferson curl  (1 entry, 2024-02-07)")
    assert bot("vocab", "unknown", "--user", USER, "--json") == 0
    assert [u["name"] for u in json.loads(capsys.readouterr().out)] == [
        "tire flip (other)",
        "bench press (kettlebell)",
        "jefferson curl",
    ]


def test_cli_search_shows_the_reading_and_the_entries(cli: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed(cli)
    # A lift's name is that lift: the push press logged that day is not an overhead press.
    assert bot("search", "show me my overhead press sessions", "--user", USER, "--today", "2024-02-08") == 0
    out = capsys.readouterr().out
    assert "  terms: overhead press\n" in out and "  family " not in out
    assert "keyword terms=overhead press: 0 found" in out and "0 entries:" in out
    # A family word is the family: "presses" finds the push press.
    assert bot("search", "show me my presses", "--user", USER, "--today", "2024-02-08") == 0
    out = capsys.readouterr().out
    assert "  family overhead press: overhead press, seated overhead press, push press," in out
    assert "keyword terms=overhead press, seated overhead press, push press" in out
    assert "1 entry:\n  2024-02-04  strength: " in out and "[push press]" in out

    assert bot("search", "show my workouts", "--user", USER, "--today", "2024-02-08", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["reading"]["terms"] == [] and report["reading"]["generic_words_ignored"] == ["workouts"]
    assert [(a["strategy"], a["start"], a["expansion_tier"]) for a in report["attempts"]] == [
        ("date_range", "2024-02-02", 0)
    ]
    assert [e["date"] for e in report["entries"]] == ["2024-02-04", "2024-02-06", "2024-02-07"]

    assert bot("search", "tire flip (other) 기록", "--user", USER, "--today", "2024-02-08", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["reading"]["terms"] == ["tire flip (other)"]
    assert [e["date"] for e in report["entries"]] == ["2024-02-04", "2024-02-06"]


def test_cli_search_before_anything_is_stored(
    cli: Path, capsys: pytest.CaptureFixture[str], database_url: str | None
) -> None:
    assert bot("search", "푸쉬프레스 기록", "--user", USER, "--today", "2024-02-08") == 0
    out = capsys.readouterr().out
    assert "  terms: push press\n" in out and "0 entries:" in out
    # A SQLite file not yet made is said so (and not made); a Postgres database is always there, and empty.
    assert ("warning: no entries are stored yet" in out) == (database_url is None)
    assert not cli.exists()  # reading a question creates no database file


def test_cli_rejects_a_bare_user_name(cli: Path) -> None:
    with pytest.raises(SystemExit) as stop:
        bot("search", "bench", "--user", "kim")
    assert stop.value.code == 2
