"""Typed answers and decisions in a Slack thread read as on every platform (`adapters.common.read_typed`):
issue 22 item 9 ("approve." approves) and item 2 (a log typed while a question is open is not its answer)."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from engine import ApprovalRequest, Ask, Handler, Outcome, Progress, Turn
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import FakeSlack
from tests.helpers import scripts
from tests.helpers.slack import ANN, CHANNEL, running

ME = f"slack:T0ALMANAC:{ANN}"
TODAY = datetime.now(ZoneInfo("Asia/Seoul")).date()  # the test engine's default zone
WEEK = [(TODAY + timedelta(days=d)).isoformat() for d in (1, 3, 5)]


async def test_approve_typed_with_punctuation_approves(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    """Before: "Approve." was held until the plan was decided, then ran as a chat message; the plan stayed open."""
    fake.script(scripts.router("TASK", ["strength"]))
    fake.script(scripts.former(
        operations=[scripts.op_plan(d, weight=w) for d, w in zip(WEEK, (57.5, 60, 62.5))],
        assumptions=[scripts.assumption("current working weight is 55 kg", source=TODAY.isoformat())],
    ))  # fmt: skip
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await engine.entries.add(ME, [scripts.bench_entry(TODAY, 55, source_key="seed")])
        ts = await ws.mention("plan my next week of bench")
        request = ws.thread(ts)[-1]
        assert request.shown().startswith("*Plan: "), request.shown()
        await ws.post("Approve.", thread_ts=ts)
        planned = await engine.entries.between(ME, TODAY, TODAY + timedelta(days=7), kinds=("planned",))
        assert sorted(e.occurred_on.isoformat() for e in planned) == WEEK
        shown = slack.message(CHANNEL, request.ts)
        assert shown.buttons() == [] and "✓ Approved" in shown.shown()


async def test_a_number_picks_and_a_log_is_not_the_answer(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    """Before: "5k in 25:30" typed in the thread answered the question (and closed it as "✓ 5k in 25:30"),
    and a typed "2" reached the Parser as the answer "2"."""
    fake.script(scripts.needs_exercise(), scripts.strength("squat", 100, 5, 5))
    fake.script(scripts.clarifier())
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("trained hard today")
        (question,) = ws.thread(ts)
        await ws.post("5k in 25:30", thread_ts=ts)
        assert "new log, not as your answer" in ws.thread(ts)[-1].shown()
        assert slack.message(CHANNEL, question.ts).buttons()  # still open
        await ws.post("2", thread_ts=ts)
        assert "✓ Squat" in slack.message(CHANNEL, question.ts).shown()
        assert await engine.entries.count(ME) == 2
    parses = fake.calls("ParserOutput")
    assert len(parses) == 2 and "-> Squat" in parses[-1]["messages"][-1]["content"]


class Counted:
    """The engine, with every call it gets written down (``handle`` by turn kind, ``pending``)."""

    def __init__(self, engine: Handler) -> None:
        self.engine = engine
        self.calls: list[str] = []

    async def handle(self, turn: Turn, progress: Progress | None = None) -> list[Outcome]:
        self.calls.append(f"handle:{turn.kind}")
        return await self.engine.handle(turn, progress)

    async def pending(self, conversation: str, user: str) -> Ask | ApprovalRequest | None:
        self.calls.append("pending")
        return await self.engine.pending(conversation, user)

    async def interrupted(self, conversation: str) -> list[Turn]:
        return await self.engine.interrupted(conversation)


async def test_a_typed_answer_closes_the_buttons_from_the_turns_closed_outcome(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    """Issue 23: after every turn Slack read ``engine.pending`` again to learn whether the question it showed
    was still open. The turn's `Closed` says so now: the buttons come off with the closing label, and the
    only read is the one before the turn (to read the typed line against the open question)."""
    fake.script("RouterOutput", scripts.router("LOG"))
    fake.script("ParserOutput", scripts.needs_exercise(), scripts.strength("squat", 100, 5, 5))
    fake.script("ClarifierOutput", scripts.clarifier())
    async with sqlite_engine() as real:
        engine = Counted(real)
        async with running(slack, engine, tmp_path / "data") as ws:
            ts = await ws.mention("finished my workout today")
            (question,) = ws.thread(ts)
            assert question.buttons() and engine.calls == ["handle:message"], engine.calls
            engine.calls.clear()
            await ws.post("Squat", thread_ts=ts)  # the person's own words: the engine reads them as the answer
            assert engine.calls == ["pending", "handle:message"], engine.calls  # before: a "pending" after it too
            _, logged = ws.thread(ts)
            assert "squat 100 kg × 5 reps × 5 sets" in logged.shown()
            closed = slack.message(CHANNEL, question.ts)
            assert closed.buttons() == [] and f"✓ Squat by <@{ANN}>" in closed.shown()
            assert len(slack.calls("chat.update")) == 1
            engine.calls.clear()
            await ws.post("bench 60kg 5x5", thread_ts=ts)  # nothing shows buttons now: no read at all
            assert engine.calls == ["handle:message"], engine.calls
            assert await real.entries.count(ME) == 2
