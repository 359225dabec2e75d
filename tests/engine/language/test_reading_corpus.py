"""The labelled corpus of log lines people write (tests/data/reading/logs.jsonl): code never stores a
reading that differs from the label, and never stores a line the label says it must not read alone.
(How much it reads is a figure: bench/reading.py.)"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from engine.domains.registry import DomainRegistry, DomainSelector
from engine.query.questions import read_question
from engine.reading import read_message
from tests.helpers.reading import entries_of, expected_entries

TODAY = date(2026, 11, 25)
REGISTRY = DomainRegistry.load()
EVERYTHING = DomainSelector(REGISTRY).build_active_context(REGISTRY.names)
LINES = [
    json.loads(line)
    for line in (Path(__file__).parents[2] / "data" / "reading" / "logs.jsonl").read_text().splitlines()
]


@pytest.mark.parametrize("case", LINES, ids=[c["text"][:40] for c in LINES])
def test_a_line_code_reads_is_read_as_labelled(case: dict[str, object]) -> None:
    reading = read_message(str(case["text"]), REGISTRY, EVERYTHING, TODAY)
    if reading.kind != "log" or reading.log is None or not reading.log.complete or reading.also_query:
        return  # left to the model: never wrong, only slower (counted by bench/reading.py)
    expect = case["expect"]
    assert expect is not None, f"stored {entries_of(reading)} from a line that needs the model"
    assert isinstance(expect, dict)
    assert entries_of(reading) == expected_entries(expect)
    day = reading.log.day.on if reading.log.day is not None and reading.log.day.on != TODAY else None
    assert (day.isoformat() if day else None) == expect.get("date")


def test_most_labelled_lines_are_read() -> None:
    # Not a target (bench/reading.py reports it): a floor that catches a reader that stopped reading.
    read = sum(
        1
        for c in LINES
        if c["expect"]
        and (r := read_message(c["text"], REGISTRY, EVERYTHING, TODAY)).log is not None
        and r.kind == "log"
        and r.log.complete
    )
    assert read >= 0.8 * sum(1 for c in LINES if c["expect"])


QUESTIONS = [
    json.loads(line)
    for line in (Path(__file__).parents[2] / "data" / "reading" / "questions.jsonl").read_text().splitlines()
]
WITH_PERIOD = [q for q in QUESTIONS if q["expect"].get("code_plannable")]


@pytest.mark.parametrize("case", WITH_PERIOD, ids=[c["text"][:40] for c in WITH_PERIOD])
def test_a_question_reads_the_period_it_names(case: dict[str, Any]) -> None:
    """Named months and weeks, "between", "the last N weeks", "since", 올해 9월: the span the label gives."""
    shape = read_question(case["text"], EVERYTHING, TODAY)
    want = case["expect"].get("period")
    if want == "all":
        assert any(p.ever for p in shape.periods) and shape.period is None
    elif want:
        day = shape.date.on.isoformat() if shape.date is not None and shape.date.on else None
        got = (shape.period.start.isoformat(), shape.period.end.isoformat()) if shape.period else (day, day)
        assert got == (want["start"], want["end"]), [p.phrase for p in shape.periods]
    else:
        assert shape.period is None and shape.date is None and not shape.unread


@pytest.mark.parametrize(
    ("question", "family", "lift"),
    [
        ("how is my overhead press going?", None, "overhead press"),
        ("how are my presses?", "overhead press", None),
        ("overhead press variations last month", "overhead press", None),
        ("all my squats in 2019", "squat", None),
        ("스쿼트 종류 기록", "squat", None),
        ("my squats", None, "squat"),
        ("푸쉬프레스 기록", None, "push press"),
    ],
)
def test_a_lift_name_is_that_lift_and_a_family_word_the_family(
    question: str, family: str | None, lift: str | None
) -> None:
    shape = read_question(question, EVERYTHING, TODAY)
    if family:
        assert list(shape.families) == [family] and len(shape.wanted) > 1
    else:
        assert shape.families == {} and shape.wanted == [lift]
