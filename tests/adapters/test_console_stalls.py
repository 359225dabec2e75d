"""In the console, with the model down: a stall is shown under "✓ logged" with 📉, and the deload week it
proposes is planned by code and added on approve."""

from __future__ import annotations

import io
from datetime import date, timedelta

from adapters.console import ConsoleChat
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts


async def test_a_stall_is_shown_and_its_deload_planned_with_the_model_down(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    fake.stop()
    today = date.today()
    out = io.StringIO()
    async with open_engine() as engine:
        # 100 × 5 (e1RM 116.7) three times, then again today: the last three tie the first → a plateau.
        seeded = [scripts.bench_entry(today - timedelta(days=d), 100, reps=5, sets=3) for d in (9, 6, 3)]
        await engine.entries.add("console:kim", seeded)
        lines = "bench 100kg 5, 5, 5\nplan a deload week for bench\napprove\n"
        await ConsoleChat(engine, "kim", stdin=io.StringIO(lines), stdout=out).run()
        planned = await engine.entries.between("console:kim", today, today + timedelta(days=8), kinds=("planned",))
    shown = out.getvalue().splitlines()
    (stall,) = [line for line in shown if "📉" in line]
    assert stall.removeprefix("> ").startswith(
        "📉 Your bench press has stalled: no new best estimated 1RM or heavier work set in the last 3"
    )
    assert "Plan: Plan a deload week of bench press (confidence 100%)" in out.getvalue()
    assert "When: " + (today + timedelta(days=1)).isoformat() in out.getvalue()
    # 90 % of 100 kg = 90 kg; 4 sessions in the last 4 weeks → 1 a week, tomorrow (no weekday twice).
    assert [(e.occurred_on, e.summary) for e in planned] == [(today + timedelta(days=1), planned[0].summary)]
    assert "90" in planned[0].summary and "can't reach" not in out.getvalue()
