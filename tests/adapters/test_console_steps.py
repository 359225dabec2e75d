"""Steps you can watch in the console (issue 25 item 5): on a terminal, one line rewritten in place while
a turn runs and erased before the answer; in a pipe nothing extra, or one line per step when asked.
Real engine, fake model."""

from __future__ import annotations

import io
import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from adapters.console import ConsoleChat
from adapters.console_line import ERASE
from engine.engine import Engine
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts

WRONG = "987.6"
"""A number only the scripted model writes."""
QUESTION = "how many times did I bench in the last two weeks?\n"


class Terminal(io.StringIO):
    """What a terminal would have been sent (``isatty`` true)."""

    def isatty(self) -> bool:
        return True


def today() -> date:
    """A console line is dated when typed (now), in the default zone (Seoul)."""
    return datetime.now(ZoneInfo("Asia/Seoul")).date()


async def seed(engine: Engine) -> None:
    days = [today() - timedelta(days=n) for n in (15, 11, 5)]  # 15 days ago falls outside the last two weeks
    await engine.entries.add("console:kim", [scripts.bench_entry(d, 60, 5, 5) for d in days])


def lying(fake: FakeOllama) -> None:
    fake.default(scripts.analyzer("sufficient"))
    fake.default(scripts.synthesizer(f"You benched {WRONG} kg twice."))


async def test_a_terminal_sees_the_steps_on_one_rewritten_line_then_the_answer(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    lying(fake)
    out = Terminal()
    async with open_engine() as engine:
        await seed(engine)
        await ConsoleChat(engine, "kim", stdin=io.StringIO(QUESTION), stdout=out).run()
    shown = out.getvalue()
    start = today() - timedelta(days=13)
    answer = f"Sessions of bench press, {start} to {today()}: 2 sessions."
    before, after = shown.split(answer)
    # Each step rewrites the line (back to its start, erased); the last erase comes right before the answer.
    steps = re.findall(re.escape(ERASE) + r"⏳ ([^\r\n]*)…", before)
    assert steps == [
        "Reading your message",
        "Working out what you asked",
        "Fetching your entries",
        f"Fetching your bench press entries for {start} – {today()}",
        "Looking over what I found",
        "Writing the answer",
        "Checking the answer",
    ]
    line = before.rsplit("> ", 1)[1]  # after the prompt: one line, rewritten, never a new one
    assert "\n" not in line and line.endswith(ERASE)
    assert ERASE not in after and WRONG not in shown


async def test_a_pipe_gets_no_steps_unless_asked(open_engine: OpenEngine, fake: FakeOllama) -> None:
    lying(fake)
    quiet, told = io.StringIO(), io.StringIO()
    async with open_engine() as engine:
        await seed(engine)
        await ConsoleChat(engine, "kim", stdin=io.StringIO(QUESTION), stdout=quiet).run()
        await ConsoleChat(engine, "kim", stdin=io.StringIO(QUESTION), stdout=told, steps=True).run()
    start = today() - timedelta(days=13)
    answer = f"Sessions of bench press, {start} to {today()}: 2 sessions."
    assert "⏳" not in quiet.getvalue() and "\x1b" not in quiet.getvalue() and "·" not in quiet.getvalue()
    assert answer in quiet.getvalue()
    lines = told.getvalue().splitlines()
    fetched = f"· Fetching your bench press entries for {start} – {today()}…"
    assert fetched in lines and "\x1b" not in told.getvalue()
    assert lines.index(fetched) < next(i for i, line in enumerate(lines) if answer in line)
    assert WRONG not in told.getvalue()
