"""``/export`` through the engine: CSV by default, ``json``, and ``strong`` — Strong's own CSV, which the
Strong importer reads back (the same file ``python -m bot export --format strong`` writes)."""

from __future__ import annotations

import csv
import io
import json
from datetime import date

import pytest

from engine.domains.registry import DomainRegistry
from engine.entries.model import NewEntry
from engine.entries.strong_format import STRONG_COLUMNS
from engine.importers import detect, parse_export
from engine.importers.strong import ExerciseNamer
from engine.outcomes import Document, Notice
from engine.turns import Control, Message
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


CONV = USER = "console:kim"


def export(argument: str = "") -> Control:
    return Control(conversation=CONV, user=USER, action="export", argument=argument)


async def test_export_strong_gives_strongs_csv_that_imports_back(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"), scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5), scripts.strength("squat", 100, 5, 3))
    async with open_engine() as engine:
        await engine.handle(Message(conversation=CONV, user=USER, text="bench 55kg 10x5"))
        await engine.handle(Message(conversation=CONV, user=USER, text="squat 100kg 5x3"))
        (document,) = await engine.handle(export(" Strong "))
    assert isinstance(document, Document)
    assert document.filename.startswith("almanac-strong-") and document.filename.endswith(".csv")
    assert document.mime == "text/csv" and document.caption == "2 entries"
    rows = list(csv.DictReader(io.StringIO(document.content)))
    assert tuple(rows[0]) == STRONG_COLUMNS
    assert [(r["Exercise Name"], r["Set Order"], r["Weight"], r["Weight Unit"], r["Reps"]) for r in rows] == [
        *[("bench press", str(i), "55", "kg", "10") for i in range(1, 6)],
        *[("squat", str(i), "100", "kg", "5") for i in range(1, 4)],
    ]
    assert detect(document.content) == "strong"
    back = parse_export(
        "strong", document.content, user_key=USER, namer=ExerciseNamer.from_registry(DomainRegistry.load())
    )
    assert back.problems == [] and sum(len(e.data["exercises"][0]["set_details"]) for e in back.entries) == 8


async def test_export_without_a_format_is_csv_json_is_json_and_an_unknown_one_writes_nothing(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    """Before: "/export xml" silently wrote CSV (over the previous export of the day, in the console)."""
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    async with open_engine() as engine:
        await engine.handle(Message(conversation=CONV, user=USER, text="bench 55kg 10x5"))
        (plain,) = await engine.handle(export())
        (unknown,) = await engine.handle(export("xml"))
        (as_json,) = await engine.handle(export("json"))
    assert isinstance(plain, Document) and plain.mime == "text/csv"
    assert plain.filename.startswith("almanac-entries-") and plain.content.startswith("date,time,")
    assert isinstance(unknown, Notice) and unknown.code == "bad_format"
    assert unknown.text == "I can export csv, json or strong, not “xml”. Nothing was written."
    assert isinstance(as_json, Document) and as_json.filename.endswith(".json")
    assert [e["summary"] for e in json.loads(as_json.content)] == ["bench press 55 kg × 10 reps × 5 sets"]


async def test_export_strong_says_what_its_format_cannot_hold(open_engine: OpenEngine, fake: FakeOllama) -> None:
    meal = NewEntry(
        occurred_on=date(2026, 11, 20),
        domain="nutrition",
        activity_type="meal",
        summary="chicken and rice",
        data={"activity_type": "meal", "domain": "nutrition", "notes": "chicken and rice"},
        raw_text="chicken and rice",
        terms=[],
        source_key="seed:meal",
    )
    async with open_engine() as engine:
        await engine.entries.add(USER, [scripts.bench_entry(date(2026, 11, 20), 55, 10, 5), meal])
        (document,) = await engine.handle(export("strong"))
        (everything,) = await engine.handle(export("csv"))
    assert isinstance(document, Document) and isinstance(everything, Document)
    assert document.caption == "1 entry (1 more — meals, notes or planned sessions — Strong's format cannot hold)"
    assert "chicken" not in document.content
    assert everything.caption == "2 entries" and "chicken and rice" in everything.content
