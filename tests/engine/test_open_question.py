"""Issue 22 item 2: a message is never swallowed by an open question.

While a question is open, a message code reads as a log or a question of its own is not taken as the
answer: it is held, the person is told how it was taken, and it runs right after the question is answered
(the question stays open and answerable). The same holds for the change asked for after Revise.
Code reads first here (the default); each test names the defect it guards against ("Before: …").
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from engine.conversation import admission
from engine.domains.registry import DomainRegistry, DomainSelector
from engine.engine import Engine
from engine.outcomes import Answer, ApprovalRequest, Ask, Logged, Notice, Outcome
from engine.reading import read_message
from engine.turns import ApprovalDecision, ClarificationAnswer, Control, Message, Resume
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts
from tests.helpers.outcomes import after_closing

CONV = USER = "console:kim"
NOW = datetime(2026, 11, 25, 3, 0, tzinfo=timezone.utc)  # Wednesday noon in Seoul
TODAY = date(2026, 11, 25)
WEEK = [(TODAY + timedelta(days=d)).isoformat() for d in (1, 3, 5)]
REGISTRY = DomainRegistry.load()
EVERYTHING = DomainSelector(REGISTRY).build_active_context(REGISTRY.names)
CHOICES = ["Bench press", "Squat", "Deadlift"]
OPENER = "trained hard today"


def say(text: str) -> Message:
    return Message(conversation=CONV, user=USER, text=text, at=NOW)


def answer(ask: Ask | ApprovalRequest, reply: ClarificationAnswer | ApprovalDecision) -> Resume:
    return Resume(conversation=CONV, user=USER, interrupt_id=ask.interrupt_id, answer=reply, at=NOW)


def logged(outcomes: list[Outcome]) -> list[str]:
    return [e.summary for o in outcomes if isinstance(o, Logged) for e in o.entries]


async def still_open(engine: Engine, ask: Ask | ApprovalRequest) -> bool:
    shown = await engine.handle(Control(conversation=CONV, user=USER, action="status"))
    return any(isinstance(o, (Ask, ApprovalRequest)) and o.interrupt_id == ask.interrupt_id for o in shown)


def question(fake: FakeOllama) -> None:
    """The opener names no exercise: the Clarifier asks which (with choices), and the answer gives a squat."""
    fake.script(scripts.needs_exercise(), scripts.strength("squat", 100, 5, 5))
    fake.script(scripts.clarifier())


@pytest.mark.parametrize(
    "text, expected",
    [
        ("5k in 25:30", "log"),
        ("bench 60kg 5x5", "log"),
        ("벤치 60kg 5x5", "log"),
        ("bench 55kg 10x5 — better than last week?", "log"),
        ("what's my heaviest bench?", "question"),
        ("how far did I run last week?", "question"),
        ("내 벤치 최고 기록은?", "question"),
        # What answers: yes, a choice, a number, skip, a correction, a fragment, a question about the question.
        ("yes", None),
        ("Yes, squat", None),
        ("2", None),
        ("skip", None),
        ("squat", None),
        ("100kg", None),
        ("that was 60kg, not 55", None),
        ("no, it's 60kg", None),
        ("5k", None),
        ("about 40 minutes", None),
        ("what do you mean?", None),
        ("which one?", None),
        ("smaller jumps", None),
        ("could you lower the bench weights?", None),
        # A line that names one of the question's choices answers it, whatever else it looks like.
        ("squat 100kg 5x5", None),
    ],
)
def test_what_is_clearly_not_an_answer(text: str, expected: str | None) -> None:
    assert admission.taken_as(text, read_message(text, REGISTRY, EVERYTHING, TODAY), CHOICES) == expected


async def test_a_log_while_a_question_is_open_is_logged_and_the_question_stays_answerable(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    """Before: "5k in 25:30" went to the Parser as the exercise's name, was never logged, and the question came back."""
    question(fake)
    async with open_engine() as engine:
        (ask,) = await engine.handle(say(OPENER))
        assert isinstance(ask, Ask)
        (held,) = await engine.handle(say("5k in 25:30"))
        assert isinstance(held, Notice) and held.code == "held", held
        assert "new log, not as your answer" in held.text
        assert await still_open(engine, ask)
        out = await engine.handle(say("squat"))  # a typed answer still answers
        squat, run = logged(out)
        assert squat == "squat 100 kg × 5 reps × 5 sets" and "5 km" in run and "25:30" in run, out
        assert not await still_open(engine, ask)
    parses = fake.calls("ParserOutput")
    assert len(parses) == 2 and "25:30" not in parses[-1]["messages"][-1]["content"]


async def test_a_question_while_a_question_is_open_is_answered_after_it(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    """Before: "what's my heaviest bench?" was taken as the exercise of "trained hard today"."""
    question(fake)
    fake.default(scripts.analyzer("sufficient"))
    fake.default(scripts.synthesizer("Here is what your log shows."))
    async with open_engine() as engine:
        await engine.entries.add(USER, [scripts.bench_entry(TODAY - timedelta(days=2), 60, source_key="seed")])
        (ask,) = await engine.handle(say(OPENER))
        assert isinstance(ask, Ask)
        (held,) = await engine.handle(say("what's my heaviest bench?"))
        assert isinstance(held, Notice) and held.code == "held" and "new question, not as your answer" in held.text
        assert await still_open(engine, ask)
        out = after_closing(await engine.handle(answer(ask, ClarificationAnswer(answers=["Squat"]))), ask)
        assert [type(o) for o in out][:1] == [Logged] and any(isinstance(o, Answer) for o in out[1:]), out
    assert "heaviest" not in fake.calls("ParserOutput")[-1]["messages"][-1]["content"]


async def test_a_log_given_as_the_change_after_revise_is_logged_after_the_decision(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    """Before: after Revise, "5k in 25:30" re-formed the plan with it as the change, and was never logged."""
    fake.script(scripts.router("TASK", ["strength"]))
    fake.script(scripts.former(
        operations=[scripts.op_plan(d, weight=w) for d, w in zip(WEEK, (57.5, 60, 62.5))],
        assumptions=[scripts.assumption("current working weight is 55 kg", source=TODAY.isoformat())],
    ))  # fmt: skip
    async with open_engine() as engine:
        await engine.entries.add(USER, [scripts.bench_entry(TODAY, 55, source_key="seed")])
        (plan,) = await engine.handle(say("plan my next week of bench"))
        assert isinstance(plan, ApprovalRequest)
        (held,) = await engine.handle(answer(plan, ApprovalDecision(decision="revise", feedback="5k in 25:30")))
        assert isinstance(held, Notice) and held.code == "held" and "not as the change to the plan" in held.text
        assert await still_open(engine, plan)
        out = await engine.handle(answer(plan, ApprovalDecision(decision="approve")))
        assert "5 km" in logged(out)[-1] and "25:30" in logged(out)[-1], out
    assert len(fake.calls("TaskFormationOutput")) == 1  # the plan was not formed again with a run as its change


async def test_pending_reads_the_open_question_without_a_turn(open_engine: OpenEngine, fake: FakeOllama) -> None:
    """Issue 23: adapters learnt what was open with a ``status`` turn (recorded, ordered, run like any turn);
    ``engine.pending`` reads the checkpoint, and the turn that closes the question says so (`Closed`)."""
    question(fake)
    async with open_engine() as engine:
        assert await engine.pending(CONV, USER) is None
        (ask,) = await engine.handle(say(OPENER))
        assert isinstance(ask, Ask)
        assert await engine.pending(CONV, USER) == ask
        assert await engine.pending("console:someone-else", USER) is None
        rows = await engine.db.conn.execute_fetchall("SELECT COUNT(*) FROM inbox")
        out = after_closing(await engine.handle(answer(ask, ClarificationAnswer(answers=["Squat"]))), ask, "Answered")
        assert logged(out) == ["squat 100 kg × 5 reps × 5 sets"]
        assert await engine.pending(CONV, USER) is None
        assert (await engine.db.conn.execute_fetchall("SELECT COUNT(*) FROM inbox"))[0][0] == rows[0][
            0
        ] + 1  # the answer only


async def test_closed_is_kept_for_a_redelivery_and_said_by_forget(open_engine: OpenEngine, fake: FakeOllama) -> None:
    """A delivery seen again gets what the first run showed, its `Closed` too (the buttons come off even
    when the first reply never arrived); /forget, which drops the thread, closes what was open."""
    question(fake)
    async with open_engine() as engine:
        (ask,) = await engine.handle(say(OPENER))
        assert isinstance(ask, Ask)
        reply = answer(ask, ClarificationAnswer(answers=["Squat"])).model_copy(update={"message_id": "d1"})
        first = await engine.handle(reply)
        assert after_closing(first, ask, "Answered") and await engine.handle(reply) == first
        question(fake)
        (again,) = await engine.handle(say(OPENER))
        assert isinstance(again, Ask)
        forget = Control(conversation=CONV, user=USER, action="forget")
        (gone,) = after_closing(await engine.handle(forget), again, "Closed")
        assert isinstance(gone, Notice) and gone.code == "forgotten"
        assert await engine.pending(CONV, USER) is None


async def test_a_typed_pick_reaching_the_engine_reads_as_on_every_platform(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    """Issue 23: what a typed line means was decided in the adapters only; a "2" that reached the engine
    went to the Parser as the answer "2", and an "approved." while a plan was open was held as a message.
    Admission reads them with the adapters' one reading (`engine.conversation.typed`)."""
    question(fake)
    fake.script("RouterOutput", scripts.router("TASK", ["strength"]))
    fake.script(scripts.former(
        operations=[scripts.op_plan(d, weight=w) for d, w in zip(WEEK, (57.5, 60, 62.5))],
        assumptions=[scripts.assumption("current working weight is 55 kg", source=TODAY.isoformat())],
    ))  # fmt: skip
    async with open_engine() as engine:
        (ask,) = await engine.handle(say(OPENER))
        assert isinstance(ask, Ask) and ask.questions[0].options[1] == "Squat"
        out = after_closing(await engine.handle(say("2")), ask, "Answered")
        assert logged(out) == ["squat 100 kg × 5 reps × 5 sets"]
        assert "-> Squat" in fake.calls("ParserOutput")[-1]["messages"][-1]["content"]
        await engine.entries.add(USER, [scripts.bench_entry(TODAY, 55, source_key="seed")])
        (plan,) = await engine.handle(say("plan my next week of bench"))
        assert isinstance(plan, ApprovalRequest)
        done = after_closing(await engine.handle(say("Approved.")), plan, "Approved")
        assert len(logged(done)) == 3 and await engine.pending(CONV, USER) is None
