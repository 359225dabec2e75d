"""The LOG flow end to end: real engine, real ollama client, fake model over HTTP,
on both the in-memory and the SQLite checkpointer."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from engine.outcomes import Answer, Ask, Logged, Notice
from engine.turns import ClarificationAnswer, Control, Message, Resume
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts
from tests.helpers.outcomes import after_closing

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


CONV = "console:kim"
USER = "console:kim"
# 2026-11-21 23:30 UTC is already Sunday 2026-11-22 in Seoul (UTC+9).
LATE_SATURDAY_UTC = datetime(2026, 11, 21, 23, 30, tzinfo=timezone.utc)


def msg(text: str, **kw: object) -> Message:
    return Message(conversation=CONV, user=USER, text=text, **kw)  # type: ignore[arg-type]


async def test_english_log_is_stored_and_confirmed(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    async with open_engine() as engine:
        out = await engine.handle(msg("bench 55kg 10x5", at=LATE_SATURDAY_UTC))
        assert len(out) == 1 and isinstance(out[0], Logged)
        logged = out[0].entries[0]
        assert logged.summary == "bench press 55 kg × 10 reps × 5 sets"
        assert logged.on == date(2026, 11, 22)  # the user's day, not UTC's
        stored = await engine.entries.recent(USER)
        assert [e.entry_id for e in stored] == [logged.entry_id]
        ex = stored[0].data["exercises"][0]
        assert ex["sets"] == 5 and len(ex["set_details"]) == 5 and ex["weight_unit"] == "kg"
        assert stored[0].terms == ["bench press"]
    # The parser was told what code read from the notation.
    parser_call = fake.calls("ParserOutput")[0]
    user_prompt = parser_call["messages"][1]["content"]
    assert "bench press: weight=55.0kg reps=10 sets=5" in user_prompt
    assert fake.unscripted == []


async def test_korean_log_yesterday_resolves_in_user_zone(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("벤치프레스", 55, 10, 5, date_text="어제"))
    async with open_engine() as engine:
        out = await engine.handle(msg("어제 벤치프레스 55키로 10x5", at=LATE_SATURDAY_UTC))
        assert isinstance(out[0], Logged)
        assert out[0].entries[0].on == date(2026, 11, 21)
        entry = (await engine.entries.recent(USER))[0]
        # The Korean name was normalized through the vocabulary; an English search finds it.
        assert entry.data["exercises"][0]["name"] == "bench press"
        found = await engine.entries.search(USER, ["bench press"])
        assert [e.entry_id for e in found] == [entry.entry_id]


async def test_user_timezone_override(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.default(scripts.router("LOG"))
    fake.default(scripts.strength("squat", 100, 5, 5, date_text="yesterday"))
    async with open_engine() as engine:
        out = await engine.handle(Control(conversation=CONV, user=USER, action="timezone", argument="America/New_York"))
        assert isinstance(out[0], Notice) and out[0].code == "timezone"
        bad = await engine.handle(Control(conversation=CONV, user=USER, action="timezone", argument="Mars/Base"))
        assert isinstance(bad[0], Notice) and bad[0].code == "bad_timezone"
        out = await engine.handle(msg("squat 100kg 5x5 yesterday", at=LATE_SATURDAY_UTC))
        # In New York it is still Saturday the 21st, so yesterday is the 20th.
        assert isinstance(out[0], Logged) and out[0].entries[0].on == date(2026, 11, 20)


async def test_chat_gets_a_short_reply_and_stores_nothing(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("CHAT"))
    fake.script(scripts.chat("Hello!"))
    async with open_engine() as engine:
        (hello,) = await engine.handle(msg("hi"))
        assert isinstance(hello, Answer) and hello.text == "Hello!"
        assert await engine.entries.count(USER) == 0


async def test_clarify_then_answer_by_resume(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.needs_exercise(), scripts.strength("squat", 100, 5, 5))
    fake.script(scripts.clarifier())
    async with open_engine() as engine:
        (ask,) = await engine.handle(msg("did 5x5 today at 100kg"))
        assert isinstance(ask, Ask)
        assert ask.questions[0].options == ["Bench press", "Squat", "Deadlift"]
        assert ask.asked_by == USER and ask.interrupt_id
        assert await engine.entries.count(USER) == 0
        out = after_closing(
            await engine.handle(
                Resume(
                    conversation=CONV,
                    user=USER,
                    interrupt_id=ask.interrupt_id,
                    answer=ClarificationAnswer(answers=["Squat"]),
                )
            ),
            ask,
            "Answered",
        )
        assert isinstance(out[0], Logged) and out[0].entries[0].summary == "squat 100 kg × 5 reps × 5 sets"
        # The second parse saw the answer.
        second = fake.calls("ParserOutput")[1]["messages"][1]["content"]
        assert "Which exercise was that? -> Squat" in second
        # The same button again is stale and changes nothing.
        again = await engine.handle(
            Resume(
                conversation=CONV,
                user=USER,
                interrupt_id=ask.interrupt_id,
                answer=ClarificationAnswer(answers=["Squat"]),
            )
        )
        assert isinstance(again[0], Notice) and again[0].code == "stale"
        assert await engine.entries.count(USER) == 1


async def test_plain_message_answers_pending_question(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.needs_exercise(), scripts.strength("deadlift", 140, 5, 5))
    fake.script(scripts.clarifier())
    async with open_engine() as engine:
        (ask,) = await engine.handle(msg("did 5x5 today"))
        assert isinstance(ask, Ask)
        out = after_closing(await engine.handle(msg("데드리프트 140")), ask)
        assert isinstance(out[0], Logged)
        assert out[0].entries[0].summary.startswith("deadlift 140 kg")
    # Only one routing call: the reply was an answer, not a new turn.
    assert len(fake.calls("RouterOutput")) == 1


async def test_decline_keeps_raw_text_as_note(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.needs_exercise())
    fake.script(scripts.clarifier())
    async with open_engine() as engine:
        (ask,) = await engine.handle(msg("did 5x5 today"))
        assert isinstance(ask, Ask)
        out = after_closing(
            await engine.handle(
                Resume(
                    conversation=CONV,
                    user=USER,
                    interrupt_id=ask.interrupt_id,
                    answer=ClarificationAnswer(declined=True),
                )
            ),
            ask,
            "Skipped",
        )
        assert isinstance(out[0], Logged)
        (entry,) = await engine.entries.recent(USER)
        assert entry.kind == "note" and entry.raw_text == "did 5x5 today"


async def test_cancel_drops_question_and_stores_nothing(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.needs_exercise())
    fake.script(scripts.clarifier())
    async with open_engine() as engine:
        (ask,) = await engine.handle(msg("did 5x5 today"))
        assert isinstance(ask, Ask)
        (status,) = await engine.handle(Control(conversation=CONV, user=USER, action="status"))
        assert isinstance(status, Ask) and status.interrupt_id == ask.interrupt_id
        (done,) = after_closing(
            await engine.handle(Control(conversation=CONV, user=USER, action="cancel")), ask, "Cancelled"
        )
        assert isinstance(done, Notice) and done.code == "cancelled"
        (nothing,) = await engine.handle(Control(conversation=CONV, user=USER, action="cancel"))
        assert nothing.code == "nothing"  # type: ignore[union-attr]
        assert await engine.entries.count(USER) == 0


async def test_foreign_user_cannot_answer(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.needs_exercise(), scripts.strength("squat", 100, 5, 5))
    fake.script(scripts.clarifier())
    group = "tg:-100200"
    async with open_engine() as engine:
        (ask,) = await engine.handle(Message(conversation=group, user="tg:1", text="did 5x5 today"))
        assert isinstance(ask, Ask)
        foreign = await engine.handle(
            Resume(
                conversation=group,
                user="tg:2",
                interrupt_id=ask.interrupt_id,
                answer=ClarificationAnswer(answers=["Bench press"]),
            )
        )
        assert isinstance(foreign[0], Notice) and foreign[0].code == "not_yours"
        typed = await engine.handle(Message(conversation=group, user="tg:2", text="bench"))
        assert isinstance(typed[0], Notice) and typed[0].code == "held"  # kept, and run once the question is answered
        mine = after_closing(
            await engine.handle(
                Resume(
                    conversation=group,
                    user="tg:1",
                    interrupt_id=ask.interrupt_id,
                    answer=ClarificationAnswer(answers=["Squat"]),
                )
            ),
            ask,
        )
        assert isinstance(mine[0], Logged)
        assert await engine.entries.count("tg:1") == 1 and await engine.entries.count("tg:2") == 0


async def test_pending_question_survives_restart(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.needs_exercise(), scripts.strength("bench press", 60, 5, 5))
    fake.script(scripts.clarifier())
    async with open_engine() as engine:
        (ask,) = await engine.handle(msg("did 5x5 today"))
        assert isinstance(ask, Ask)
    async with open_engine() as restarted:
        (status,) = await restarted.handle(Control(conversation=CONV, user=USER, action="status"))
        assert isinstance(status, Ask) and status.interrupt_id == ask.interrupt_id
        out = after_closing(
            await restarted.handle(
                Resume(
                    conversation=CONV,
                    user=USER,
                    interrupt_id=ask.interrupt_id,
                    answer=ClarificationAnswer(answers=["Bench press"]),
                )
            ),
            ask,
        )
        assert isinstance(out[0], Logged)
        assert await restarted.entries.count(USER) == 1


async def test_reset_starts_new_thread_and_keeps_entries(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"), scripts.router("LOG"))
    fake.script(scripts.strength("squat", 100, 5, 5), scripts.needs_exercise())
    fake.script(scripts.clarifier())
    async with open_engine() as engine:
        await engine.handle(msg("squat 100kg 5x5"))
        (ask,) = await engine.handle(msg("did 5x5 today"))
        assert isinstance(ask, Ask)
        old_thread = await engine.conversations.thread_id(CONV)
        (reset,) = after_closing(
            await engine.handle(Control(conversation=CONV, user=USER, action="reset")),
            ask,
            "Closed: fresh conversation",
        )
        assert isinstance(reset, Notice) and reset.code == "reset"
        assert await engine.conversations.thread_id(CONV) != old_thread
        stale = await engine.handle(
            Resume(
                conversation=CONV,
                user=USER,
                interrupt_id=ask.interrupt_id,
                answer=ClarificationAnswer(answers=["Squat"]),
            )
        )
        assert isinstance(stale[0], Notice) and stale[0].code == "stale"
        assert await engine.entries.count(USER) == 1
