"""Issue 22 item 2 in the console: a log typed while a question or a Revise is open is held, not taken as
the answer or the change, and the question stays open for the next typed line ("Before: …")."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from adapters.console import ConsoleChat
from engine import Engine
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts

KEY = "console:kim"
TODAY = datetime.now(ZoneInfo("Asia/Seoul")).date()  # the test engine's default zone
WEEK = [(TODAY + timedelta(days=d)).isoformat() for d in (1, 3, 5)]


async def console(engine: Engine, lines: list[str]) -> str:
    out = io.StringIO()
    await ConsoleChat(engine, "kim", stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out).run()
    return out.getvalue()


async def test_a_log_while_a_question_is_open_then_a_number_still_picks(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    """Before: "5k in 25:30" was sent to the Parser as the exercise's name and never logged."""
    fake.script(scripts.needs_exercise(), scripts.strength("squat", 100, 5, 5))
    fake.script(scripts.clarifier())
    async with open_engine() as engine:
        text = await console(engine, ["trained hard today", "5k in 25:30", "2"])
        summaries = [e.summary for e in await engine.entries.recent(KEY)]
    assert "new log, not as your answer" in text
    assert len(summaries) == 2 and any("squat 100 kg" in s for s in summaries), summaries
    parses = fake.calls("ParserOutput")
    assert len(parses) == 2 and "-> Squat" in parses[-1]["messages"][-1]["content"]


async def test_a_log_after_a_bare_revise_is_held_and_approve_still_approves(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    """Before: the line after "revise" was the change whatever it said: the plan was formed again around a run."""
    fake.script(scripts.router("TASK", ["strength"]))
    fake.script(scripts.former(
        operations=[scripts.op_plan(d, weight=w) for d, w in zip(WEEK, (57.5, 60, 62.5))],
        assumptions=[scripts.assumption("current working weight is 55 kg", source=TODAY.isoformat())],
    ))  # fmt: skip
    async with open_engine() as engine:
        await engine.entries.add(KEY, [scripts.bench_entry(TODAY, 55, source_key="seed")])
        text = await console(engine, ["plan my next week of bench", "revise", "5k in 25:30", "approve."])
        done, planned = await engine.entries.count(KEY), await engine.entries.count(KEY, kinds=("planned",))
    assert "not as the change to the plan" in text and "Done." in text
    assert (done, planned) == (2, 3)  # the seed and the run; the plan's three sessions
    assert len(fake.calls("TaskFormationOutput")) == 1
