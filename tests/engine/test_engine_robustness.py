"""Bad input, ordering, idempotence, failures and bounded storage at the engine boundary."""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3
import threading
from typing import Any

import pytest
import structlog

from bot.logs import configure_logging
from engine.boundary import Step
from engine.graph.log_nodes import LogNodes
from engine.outcomes import Ask, Failure, Logged, Notice
from engine.turns import ClarificationAnswer, Control, Message, Resume
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import Delay, FakeOllama
from tests.helpers import scripts
from tests.helpers.outcomes import after_closing

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


CONV = "console:lee"
USER = "console:lee"


def msg(text: str, conversation: str = CONV, user: str = USER, **kw: Any) -> Message:
    return Message(conversation=conversation, user=user, text=text, **kw)


@pytest.mark.parametrize("text", ["", "   ", "\n\t\n", "\x00\x01\x02"])
async def test_empty_message_is_a_notice_without_model_calls(
    open_engine: OpenEngine, fake: FakeOllama, text: str
) -> None:
    async with open_engine() as engine:
        (out,) = await engine.handle(msg(text))
        assert isinstance(out, Notice) and out.code == "empty"
    assert fake.requests == []


async def test_huge_message_is_refused_whole(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        (out,) = await engine.handle(msg("bench 55kg 10x5 " * 3200))  # ~51,000 characters
        assert isinstance(out, Notice) and out.code == "too_long"
        assert "4,000" in out.text and "Nothing was stored" in out.text
        assert await engine.entries.count(USER) == 0
        assert await engine.inbox.failed(CONV) == []
    assert fake.requests == []


async def test_control_characters_and_invalid_utf8_are_cleaned(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("squat", 100, 5, 5))
    garbled = b"squat \xff\xfe 100kg\x1b[31m 5x5\x07".decode("utf-8", "surrogateescape")
    async with open_engine() as engine:
        (out,) = await engine.handle(msg(garbled))
        assert isinstance(out, Logged)
        (entry,) = await engine.entries.recent(USER)
        assert "\x1b" not in entry.raw_text and "\x07" not in entry.raw_text
        entry.raw_text.encode("utf-8")  # no lone surrogates reached the database
    sent = fake.calls("RouterOutput")[0]["messages"][1]["content"]
    assert "\x1b" not in sent


@pytest.mark.parametrize(
    ("setup", "code", "hint"),
    [
        ("down", "model_unreachable", "ollama serve"),
        ("missing", "model_missing", "ollama pull"),
        ("garbage", "model_invalid", "/retry"),
    ],
)
async def test_model_failures_become_failures(
    open_engine: OpenEngine, fake: FakeOllama, setup: str, code: str, hint: str
) -> None:
    if setup == "down":
        fake.stop()
    elif setup == "missing":
        fake.models.clear()
    else:
        fake.default("RouterOutput", "{not json")
    async with open_engine() as engine:
        (out,) = await engine.handle(msg("bench 55kg 10x5"))
        assert isinstance(out, Failure) and out.code == code and hint in out.text
        assert out.retryable
        assert [i.kind for i in await engine.inbox.failed(CONV)] == ["message"]


async def test_timeout_becomes_failure(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script("RouterOutput", Delay(2.0, scripts.router("LOG")))
    async with open_engine(timeout_s=0.3) as engine:
        (out,) = await engine.handle(msg("bench 55kg 10x5"))
        assert isinstance(out, Failure) and out.code == "model_timeout"


async def test_message_recorded_before_model_and_retried_once(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.stop()
    async with open_engine() as engine:
        await engine.handle(msg("bench 55kg 10x5"))
        await engine.handle(msg("squat 100kg 5x5"))
        fake.start()
        fake.script(scripts.router("LOG"), scripts.router("LOG"))
        fake.script(scripts.strength("bench press", 55, 10, 5), scripts.strength("squat", 100, 5, 5))
        out = await engine.handle(Control(conversation=CONV, user=USER, action="retry"))
        assert [type(o) for o in out] == [Logged, Logged]
        assert [e.summary.split()[0] for e in await engine.entries.recent(USER)] == ["squat", "bench"]
        (again,) = await engine.handle(Control(conversation=CONV, user=USER, action="retry"))
        assert isinstance(again, Notice) and again.code == "nothing"
        assert await engine.entries.count(USER) == 2


async def test_store_is_idempotent_when_the_turn_runs_again(
    open_engine: OpenEngine, fake: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn fails after STORE ran; /retry re-executes every node, STORE included."""
    fake.default(scripts.router("LOG"))
    fake.default(scripts.strength("bench press", 55, 10, 5))
    original = LogNodes.remember
    calls = {"n": 0}

    async def flaky(self: LogNodes, state: Any) -> dict[str, Any]:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("crash after storing")
        return await original(self, state)

    monkeypatch.setattr(LogNodes, "remember", flaky)
    async with open_engine() as engine:
        (crashed,) = await engine.handle(msg("bench 55kg 10x5"))
        assert isinstance(crashed, Failure) and crashed.code == "internal" and "Traceback" not in crashed.text
        assert await engine.entries.count(USER) == 1
        (retried,) = await engine.handle(Control(conversation=CONV, user=USER, action="retry"))
        assert isinstance(retried, Logged)
        assert await engine.entries.count(USER) == 1


async def test_resume_that_fails_is_kept_and_retried(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.needs_exercise())
    fake.script(scripts.clarifier())
    async with open_engine() as engine:
        (ask,) = await engine.handle(msg("did 5x5 today"))
        assert isinstance(ask, Ask)
        fake.stop()
        resume = Resume(
            conversation=CONV, user=USER, interrupt_id=ask.interrupt_id, answer=ClarificationAnswer(answers=["Squat"])
        )
        failed, again = await engine.handle(resume)
        # The answer is kept and its question stays open, with the same id (its buttons still work).
        assert isinstance(failed, Failure) and isinstance(again, Ask) and again.interrupt_id == ask.interrupt_id
        kept, still = await engine.handle(Control(conversation=CONV, user=USER, action="status"))
        assert isinstance(kept, Notice) and "Squat" in kept.text and "/retry" in kept.text
        assert isinstance(still, Ask) and still.interrupt_id == ask.interrupt_id
        fake.start()
        fake.script(scripts.strength("squat", 100, 5, 5))
        # Run again, the kept answer closes its question.
        out = after_closing(await engine.handle(Control(conversation=CONV, user=USER, action="retry")), ask, "Answered")
        assert isinstance(out[0], Logged), out
        assert await engine.entries.count(USER) == 1
        assert "-> Squat" in fake.calls("ParserOutput")[-1]["messages"][1]["content"]
        (nothing,) = await engine.handle(Control(conversation=CONV, user=USER, action="status"))
        assert nothing.code == "nothing"


async def test_duplicate_platform_message_is_handled_once(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.default(scripts.router("LOG"))
    fake.default(scripts.strength("bench press", 55, 10, 5))
    async with open_engine() as engine:
        first = await engine.handle(msg("bench 55kg 10x5", message_id="42"))
        second = await engine.handle(msg("bench 55kg 10x5", message_id="42"))
        # Not run twice, but answered: the first reply may never have reached the person.
        assert isinstance(first[0], Logged) and second == first
        assert await engine.entries.count(USER) == 1
    assert len(fake.calls("RouterOutput")) == 1


async def test_turns_of_one_conversation_run_in_order(open_engine: OpenEngine, fake: FakeOllama) -> None:
    in_flight: list[str] = []
    overlaps: list[str] = []
    lock = threading.Lock()

    def router(body: dict[str, Any]) -> dict[str, Any]:
        text = body["messages"][1]["content"].rsplit("\n", 1)[-1]
        with lock:
            if in_flight:
                overlaps.append(text)
            in_flight.append(text)
        threading.Event().wait(0.05)
        with lock:
            in_flight.remove(text)
        return scripts.router("CHAT")

    fake.default("RouterOutput", router)
    fake.default("ChatOutput", lambda body: scripts.chat(body["messages"][1]["content"]))
    async with open_engine() as engine:
        texts = [f"message {i}" for i in range(6)]
        results = await asyncio.gather(*(engine.handle(msg(t)) for t in texts))
    assert [r[0].text for r in results] == texts  # type: ignore[union-attr]
    assert [b["messages"][1]["content"] for b in fake.calls("ChatOutput")] == texts
    assert overlaps == []


async def test_different_conversations_run_concurrently(open_engine: OpenEngine, fake: FakeOllama) -> None:
    # Both router calls must be in flight at once for the barrier to open; if
    # the engine serialised conversations, the barrier would break.
    barrier = threading.Barrier(2, timeout=3)

    def router(body: dict[str, Any]) -> dict[str, Any]:
        barrier.wait()
        return scripts.router("CHAT")

    fake.default("RouterOutput", router)
    fake.default(scripts.chat("hi"))
    async with open_engine() as engine:
        a, b = await asyncio.gather(
            engine.handle(msg("hello", conversation="console:a", user="console:a")),
            engine.handle(msg("hello", conversation="console:b", user="console:b")),
        )
        assert a[0].kind == b[0].kind == "answer"
        assert len(engine._locks) == 0  # no lock outlives its turns


async def test_each_graph_step_logs_conversation_node_and_duration(open_engine: OpenEngine, fake: FakeOllama) -> None:
    buf = io.StringIO()
    configure_logging("json", "INFO", stream=buf)
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    try:
        async with open_engine() as engine:
            await engine.handle(msg("bench 55kg 10x5"))
    finally:
        structlog.reset_defaults()
    steps = [json.loads(line) for line in buf.getvalue().splitlines() if '"graph.step"' in line]
    assert [s["node"] for s in steps] == ["route", "parse", "store", "remember"]
    for s in steps:
        assert s["conversation"] == CONV and isinstance(s["duration_ms"], float)


async def test_checkpoints_stay_flat_over_many_turns(
    sqlite_engine: OpenEngine, fake: FakeOllama, tmp_path: Any
) -> None:
    fake.default(scripts.router("LOG"))
    fake.default(scripts.strength("bench press", 55, 10, 5))
    sizes = []
    async with sqlite_engine(history_turns=3) as engine:
        for i in range(30):
            await engine.handle(msg(f"bench 55kg 10x5 round {i}"))
            if i in (9, 29):
                db = sqlite3.connect(tmp_path / "data" / "checkpoints.db")
                count = db.execute("SELECT count(*) FROM checkpoints").fetchone()[0]
                latest = db.execute("SELECT length(checkpoint) FROM checkpoints ORDER BY checkpoint_id DESC").fetchone()
                writes = db.execute("SELECT count(*) FROM writes").fetchone()[0]
                db.close()
                sizes.append(latest[0])
                # The latest checkpoint and the one before it, which a failed turn rolls back to:
                # each save prunes the older ones (engine.runtime.threads).
                assert count == 2 and writes == 0
        state = await engine.graph.aget_state(
            {"configurable": {"thread_id": await engine.conversations.thread_id(CONV)}}
        )
        assert len(state.values["history"]) == 6
    # History is trimmed, so turn 30's checkpoint is no bigger than turn 10's, give or take
    # LangGraph's channel version strings, whose random suffix varies in length (~100 B).
    assert sizes[1] <= sizes[0] + 256


async def test_progress_receives_each_stage_in_order(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    steps: list[Step] = []

    async def progress(step: Step) -> None:
        steps.append(step)

    async with open_engine() as engine:
        await engine.handle(msg("bench 55kg 10x5"), progress=progress)
    assert [s.stage for s in steps] == ["routing", "parsing", "storing"]
    assert [s.text for s in steps] == ["Reading your message", "Reading your entry", "Saving your entry"]


async def test_forget_removes_the_persons_words_from_every_history(open_engine: OpenEngine, fake: FakeOllama) -> None:
    """Before: after /forget in a group, Ann's words stayed in the group's history and reached the model on Bob's turns."""
    fake.default(scripts.router("LOG"))
    fake.default(scripts.strength("bench press", 55, 10, 5))
    group, own = "tg:-100300", "tg:-100300:1"  # a thread shared by members (older versions), Ann's own in the group
    async with open_engine() as engine:
        await engine.handle(msg("bench 55kg 10x5 anns-words", conversation=group, user="tg:1"))
        await engine.handle(msg("bench 55kg 10x5 anns-own-words", conversation=own, user="tg:1"))
        await engine.handle(msg("bench 55kg 10x5", conversation=group, user="tg:2"))
        (done,) = await engine.handle(Control(conversation="tg:1", user="tg:1", action="forget"))
        assert isinstance(done, Notice) and done.code == "forgotten"
        await engine.handle(msg("bench 55kg 10x5 bobs-words", conversation=group, user="tg:2"))
        await engine.handle(msg("bench 55kg 10x5 later", conversation=own, user="tg:1"))
        assert await engine.entries.count("tg:1") == 1 and await engine.entries.count("tg:2") == 2
    seen_after = " ".join(json.dumps(c["messages"]) for c in fake.calls("RouterOutput")[-2:])
    assert "bobs-words" in seen_after and "anns" not in seen_after


async def test_forget_waits_for_the_persons_running_turn(open_engine: OpenEngine, fake: FakeOllama) -> None:
    """Before: a turn of the person still running in another chat stored its entry after "Nothing of yours is kept"."""
    fake.script("RouterOutput", Delay(0.5, scripts.router("LOG")))
    fake.default(scripts.strength("bench press", 55, 10, 5))
    async with open_engine() as engine:
        running = asyncio.create_task(engine.handle(msg("bench 55kg 10x5", conversation="tg:-5:1", user="tg:1")))
        while not fake.calls("RouterOutput"):
            await asyncio.sleep(0.01)
        (done,) = await engine.handle(Control(conversation="tg:1", user="tg:1", action="forget"))
        assert running.done() and isinstance((await running)[0], Logged)
        assert done.text.startswith("Done: deleted 1 ")
        assert await engine.entries.count("tg:1") == 0
