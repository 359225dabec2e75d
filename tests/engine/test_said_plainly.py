"""What Almanac says reads as a person would write it (issue 22, "say what happened"): a run is
"distance 5 km, duration 25:30", not "distance km 5 km, duration 25:30 min"; one week is "1 week"."""

from __future__ import annotations

from datetime import date

from engine.agents.schemas import ParserOutput
from engine.entries.model import Metric
from engine.entries.summaries import summarize, summary_of
from engine.facts.history import session_facts
from engine.store.history import Sessions


def test_a_run_reads_plainly() -> None:
    parsed = ParserOutput(
        activity_type="running",
        domain="running",
        summary="",
        status="parsed",
        metrics=[
            Metric(name="distance_km", value="5", unit="km"),
            Metric(name="duration", value="25:30", unit="min"),
            Metric(name="pace", value="5:06", unit="min/km"),
        ],
    )
    assert summarize(parsed) == "running: distance 5 km, duration 25:30, pace 5:06 min/km"
    assert summary_of({"cardio": [{"name": "run", "distance_km": 5, "duration": "25:30"}]}) == (
        "run: distance 5 km, duration 25:30"
    )


def test_one_week_is_one_week() -> None:
    sessions = Sessions(
        days=3, by_domain={"strength": 3}, first_on=date(2026, 11, 16), last_on=date(2026, 11, 20), recent_ids=[]
    )
    labels = [f.label for f in session_facts(sessions, (date(2026, 11, 16), date(2026, 11, 22)), date(2026, 11, 25))]
    assert any("(1 week)" in label for label in labels), labels
    assert not any("1 weeks" in label for label in labels), labels
