"""The labelled corpus of log lines people write (tests/data/reading/logs.jsonl): code never stores a
reading that differs from the label, and never stores a line the label says it must not read alone.
(How much it reads is a figure: bench/reading.py.)"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from engine.domains.registry import DomainRegistry, DomainSelector
from engine.reading import read_message
from tests.helpers.reading import entries_of, expected_entries

TODAY = date(2026, 11, 25)
REGISTRY = DomainRegistry.load()
EVERYTHING = DomainSelector(REGISTRY).build_active_context(REGISTRY.names)
LINES = [json.loads(line) for line in (Path(__file__).parents[2] / "data" / "reading" / "logs.jsonl").read_text().splitlines()]


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
        1 for c in LINES
        if c["expect"] and (r := read_message(c["text"], REGISTRY, EVERYTHING, TODAY)).log is not None
        and r.kind == "log" and r.log.complete
    )
    assert read >= 0.8 * sum(1 for c in LINES if c["expect"])
