"""Nothing lost: turns a crash cut off, answers that failed, messages that arrived while a decision was open.

Each test names the defect it guards against ("Before: …").
"""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from engine.boundary import Delivery
from engine.engine import Engine
from engine.outcomes import ApprovalRequest, Ask, Failure, Logged, Notice, Outcome
from engine.store.inbox import Inbox
from engine.turns import ApprovalDecision, Control, Message, Resume
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import Delay, FakeOllama
from tests.helpers import scripts
from tests.helpers.outcomes import after_closing

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


CONV = USER = "console:park"
NOW = datetime(2026, 11, 22, 1, 0, tzinfo=timezone.utc)
TODAY = date(2026, 11, 22)


def say(text: str, message_id: str | None = None, **kw: Any) -> Message:
    return Message(
        conversation=kw.pop("conversation", CONV),
        user=kw.pop("user", USER),
        text=text,
        at=NOW,
        message_id=message_id,
        **kw,
    )


def control(action: str, **kw: Any) -> Control:
    return Control(conversation=kw.pop("conversation", CONV), user=kw.pop("user", USER), action=action, **kw)  # type: ignore[arg-type]


async def cut_off(engine: Engine, turn: Message | Resume, fake: FakeOllama) -> None:
    """Run a turn and kill it mid-model-call, as a crash (or Ctrl-C) would."""
    calls = len(fake.requests)
    task = asyncio.create_task(engine.handle(turn))
    while len(fake.requests) == calls:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_turn_cut_off_runs_once_when_its_delivery_comes_again(
    sqlite_engine: OpenEngine, fake: FakeOllama
) -> None:
    """Before: a turn cut off by a crash stayed `pending` forever, and the redelivery was dropped as a duplicate."""
    fake.script("RouterOutput", Delay(5, scripts.router("LOG")), scripts.router("LOG"))
    fake.default(scripts.strength("bench press", 55, 10, 5))
    async with sqlite_engine() as engine:
        await cut_off(engine, say("bench 55kg 10x5", "m1"), fake)
    async with sqlite_engine() as engine:  # the restart
        (left,) = await engine.interrupted(CONV)
        assert isinstance(left, Message) and left.message_id == "m1"
        (logged,) = await engine.handle(left)
        assert isinstance(logged, Logged)
        assert await engine.handle(left) == [logged]  # a third delivery: answered again, not run again
        assert await engine.entries.count(USER) == 1
        assert await engine.interrupted(CONV) == []
    assert len(fake.calls("ParserOutput")) == 1


async def test_retry_covers_turns_a_crash_cut_off(sqlite_engine: OpenEngine, fake: FakeOllama) -> None:
    """Before: /retry read only `failed` rows and said "every message so far was handled"."""
    fake.script("RouterOutput", Delay(5, scripts.router("LOG")), scripts.router("LOG"))
    fake.default(scripts.strength("bench press", 55, 10, 5))
    async with sqlite_engine() as engine:
        await cut_off(engine, say("bench 55kg 10x5"), fake)
    async with sqlite_engine() as engine:
        (waiting,) = await engine.handle(control("status"))
        assert waiting.code == "retry" and "1 message did not complete" in waiting.text  # type: ignore[union-attr]
        (logged,) = await engine.handle(control("retry"))
        assert isinstance(logged, Logged)
        (nothing,) = await engine.handle(control("retry"))
        assert nothing.code == "nothing"  # type: ignore[union-attr]
        assert await engine.entries.count(USER) == 1


async def test_a_run_that_finished_before_the_crash_is_not_run_again(
    sqlite_engine: OpenEngine, fake: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The crash came after the turn's checkpoint was saved but before the inbox said so."""
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    original = Inbox.mark

    async def crash_before_done(self: Inbox, item: int, status: str, *args: Any, **kw: Any) -> None:
        if status == "done":
            raise asyncio.CancelledError
        await original(self, item, status, *args, **kw)  # type: ignore[arg-type]

    async with sqlite_engine() as engine:
        monkeypatch.setattr(Inbox, "mark", crash_before_done)
        with pytest.raises(asyncio.CancelledError):
            await engine.handle(say("bench 55kg 10x5", "m1"))
        monkeypatch.setattr(Inbox, "mark", original)
    async with sqlite_engine() as engine:
        (logged,) = await engine.handle(say("bench 55kg 10x5", "m1"))
        assert isinstance(logged, Logged) and await engine.entries.count(USER) == 1
    assert len(fake.calls("RouterOutput")) == 1  # its outcomes came from the saved checkpoint


async def test_failed_answer_keeps_its_question_open_and_status_says_so(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    """Before: the model failing while an answer ran left nothing open, and /status said "Nothing is waiting"."""
    fake.script(scripts.router("LOG"))
    fake.script(scripts.needs_exercise())
    fake.script(scripts.clarifier())
    async with open_engine() as engine:
        (ask,) = await engine.handle(say("did 5x5 today"))
        assert isinstance(ask, Ask)
        fake.stop()
        failed, again = await engine.handle(say("2", "m2"))
        assert isinstance(failed, Failure) and isinstance(again, Ask) and again.interrupt_id == ask.interrupt_id
        kept, still = await engine.handle(control("status"))
        # "2" picks the second choice, as on every platform (engine.conversation.typed).
        assert "“Squat”" in kept.text and isinstance(still, Ask)  # type: ignore[union-attr]
        # A new message now answers the question again (the person may just answer again)…
        fake.start()
        fake.script(scripts.strength("squat", 100, 5, 5))
        (logged,) = after_closing(await engine.handle(say("Squat", "m3")), ask)
        assert isinstance(logged, Logged) and "squat" in logged.entries[0].summary
        # …and the kept answer, overtaken, is not applied a second time.
        (late,) = await engine.handle(control("retry"))
        assert late.code == "stale"  # type: ignore[union-attr]
        assert await engine.entries.count(USER) == 1


def plan_request(fake: FakeOllama) -> None:
    fake.script(scripts.router("TASK", ["strength"]))
    fake.script(scripts.good_plan())


async def seed(engine: Engine) -> None:
    await engine.entries.add(
        USER, [scripts.bench_entry(TODAY - timedelta(days=7), 52.5), scripts.bench_entry(TODAY, 55)]
    )


def decide(req: Outcome, decision: str, **kw: Any) -> Resume:
    assert isinstance(req, ApprovalRequest)
    return Resume(
        conversation=kw.pop("conversation", CONV),
        user=kw.pop("user", USER),
        interrupt_id=req.interrupt_id,
        answer=ApprovalDecision(decision=decision),
        at=NOW,
    )  # type: ignore[arg-type]


async def test_message_during_an_open_plan_is_kept_and_runs_after_the_decision(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    """Before: a message that arrived while a plan awaited a decision was refused and thrown away."""
    plan_request(fake)
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 60, 5, 5))
    async with open_engine() as engine:
        await seed(engine)
        (req,) = await engine.handle(say("plan my next week of bench"))
        (held,) = await engine.handle(say("bench 60kg 5x5", "m9"))
        assert isinstance(held, Notice) and held.code == "held" and "after you decide" in held.text
        assert (await engine.handle(say("bench 60kg 5x5", "m9")))[0].code == "held"  # type: ignore[union-attr]
        status = await engine.handle(control("status"))
        assert "1 message waits" in status[0].text and isinstance(status[-1], ApprovalRequest)  # type: ignore[union-attr]
        out = await engine.handle(decide(req, "approve"))
        kinds = [o.kind for o in out]
        # The plan closed, its changes, Done, then the held message.
        assert kinds == ["closed", "logged", "notice", "logged"], kinds
        assert "60 kg × 5 reps × 5 sets" in out[-1].entries[0].summary  # type: ignore[union-attr]
        assert await engine.handle(control("status")) == [Notice(text="Nothing is waiting for you.", code="nothing")]


async def test_only_the_person_asked_can_cancel_a_plan(open_engine: OpenEngine, fake: FakeOllama) -> None:
    """Before: another member's typed /cancel cancelled your plan although the Cancel button refused them."""
    plan_request(fake)
    shared = "slack:T1:C1:1700000000.1"
    async with open_engine() as engine:
        await engine.entries.add("slack:T1:ann", [scripts.bench_entry(TODAY, 55)])
        (req,) = await engine.handle(say("plan my next week of bench", conversation=shared, user="slack:T1:ann"))
        assert isinstance(req, ApprovalRequest)
        (refused,) = await engine.handle(control("cancel", conversation=shared, user="slack:T1:bob"))
        assert refused.code == "not_yours"  # type: ignore[union-attr]
        (still,) = await engine.handle(control("status", conversation=shared, user="slack:T1:bob"))
        assert isinstance(still, ApprovalRequest) and still.interrupt_id == req.interrupt_id


async def test_planning_events_are_recorded_once_when_the_turn_is_retried(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    """Before: retrying a planning turn recorded its PLAN_PROGRESS events twice."""
    unsure = scripts.former(
        next_step="investigate",
        goal="Bench 140 kg",  # a number of its own, so that round 2 is told and asked again
        operations=[scripts.op_plan("2026-11-23")],
        assumptions=[scripts.assumption("they can recover from 3 sessions", status="unresolved", source="")],
    )
    fake.script(scripts.router("TASK", ["strength"]), scripts.router("TASK", ["strength"]))
    fake.script("TaskFormationOutput", unsure, "{broken", "{broken", "{broken")  # round 2 fails
    fake.default("TaskFormationOutput", unsure)
    async with open_engine() as engine:
        await seed(engine)
        (failed,) = await engine.handle(say("plan my next week of bench"))
        assert isinstance(failed, Failure)
        (ask,) = await engine.handle(control("retry"))
        assert isinstance(ask, Ask)
        events = await engine.patches.events(CONV)
    progress = [detail for _, kind, _, detail in events if kind == "PLAN_PROGRESS"]
    # The retry's round 2 repeats round 1's plan, which ends the loop (a third round would too).
    assert [d.split(":")[0] for d in progress] == ["round 1", "round 2"]


async def test_deliveries_are_recorded_on_disk_once_and_replayed_until_finished(open_engine: OpenEngine) -> None:
    async with open_engine() as engine:
        batch = [Delivery("1", '{"a": 1}', "tg:1"), Delivery("2", '{"a": 2}', "tg:2")]
        assert await engine.receive("telegram", batch) == ["1", "2"]
        assert await engine.receive("telegram", batch) == []  # a redelivery is recognised
        await engine.note("telegram", "2", "status line 7")
        await engine.finish("telegram", ["1"])
        assert await engine.unfinished("telegram") == [Delivery("2", '{"a": 2}', "tg:2", "status line 7")]
        assert await engine.unfinished("slack") == []


async def test_received_commits_are_synced_to_disk(open_engine: OpenEngine) -> None:
    """The inbox of deliveries commits with synchronous=FULL; everything else keeps NORMAL (README, durability)."""
    setting = "SHOW synchronous_commit" if open_engine.kind == "postgres" else "PRAGMA synchronous"
    async with open_engine() as engine:
        seen: list[object] = []
        async with engine.db.synced() as conn, conn.execute(setting) as cur:
            seen.append((await cur.fetchone())[0])  # type: ignore[index]
        async with engine.db.conn.execute(setting) as cur:
            seen.append((await cur.fetchone())[0])  # type: ignore[index]
    # FULL inside, NORMAL after; on Postgres "on" inside whatever the server's default (the test server's is off).
    assert seen == (["on", "off"] if open_engine.kind == "postgres" else [2, 1])


async def test_a_full_disk_is_one_clear_line(
    open_engine: OpenEngine, fake: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a storage error escaped the engine as a traceback."""

    async def full(*args: Any, **kw: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    async with open_engine() as engine:
        monkeypatch.setattr(Inbox, "record", full)
        (out,) = await engine.handle(say("bench 55kg 10x5"))
        assert isinstance(out, Failure) and out.code == "storage" and "disk" in out.text and "\n" not in out.text
    assert fake.requests == []


def test_old_databases_gain_the_new_columns(tmp_path: Path) -> None:
    """SQLite only: a file made by an older version (Postgres's schema comes from numbered migrations)."""
    from tests.conftest import engine_config

    db = tmp_path / "data" / "almanac.db"
    db.parent.mkdir()
    with sqlite3.connect(db) as conn:
        conn.execute(
            "CREATE TABLE inbox (id INTEGER PRIMARY KEY, conversation TEXT NOT NULL, user_key TEXT NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL, message_id TEXT, status TEXT NOT NULL, error TEXT, received_at TEXT NOT NULL)"
        )
        conn.execute(
            "CREATE TABLE events (id INTEGER PRIMARY KEY, conversation TEXT NOT NULL, user_key TEXT NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL, at TEXT NOT NULL)"
        )

    async def open_once() -> None:
        with FakeOllama() as fake:
            async with Engine.open(engine_config(tmp_path / "data", fake)):
                pass

    asyncio.run(open_once())
    with sqlite3.connect(db) as conn:
        assert "outcomes" in {r[1] for r in conn.execute("PRAGMA table_info(inbox)")}
        assert "turn_key" in {r[1] for r in conn.execute("PRAGMA table_info(events)")}
