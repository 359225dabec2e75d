"""A log sent again under a new message id is stored once, on every platform (`engine.runtime.repeats`).

The rule is narrow: the same conversation, person and words, soon after a log
whose entries are still kept. Real engine on both checkpointers; code reads
these lines, so the fake model is not called.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from engine.outcomes import Answer, Logged, Notice
from engine.turns import Control, Message
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama

NOW = datetime(2026, 11, 25, 3, 0, tzinfo=timezone.utc)
THREAD = "slack:T1:C1:1700000000.000100"  # a conversation two people share
ANN, BOB = "slack:T1:UANN", "slack:T1:UBOB"


def said(text: str, message_id: str, user: str = ANN, minutes: float = 0) -> Message:
    return Message(
        conversation=THREAD, user=user, text=text, message_id=message_id, at=NOW + timedelta(minutes=minutes)
    )


async def test_a_log_sent_again_is_kept_once_until_it_is_undone(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        (logged,) = await engine.handle(said("bench 55kg 10x5", "m1"))
        assert isinstance(logged, Logged)
        (again,) = await engine.handle(said("Bench  55kg 10x5", "m2", minutes=3))  # retyped: the same words
        assert isinstance(again, Notice) and again.code == "repeat"
        assert "bench press 55 kg × 10 reps × 5 sets" in again.text
        assert await engine.entries.count(ANN) == 1
        assert await engine.handle(said("bench 55kg 10x5", "m2", minutes=3)) == [again]  # a redelivery: the same notice
        await engine.handle(Control(conversation=THREAD, user=ANN, action="undo", at=NOW + timedelta(minutes=4)))
        assert await engine.entries.count(ANN) == 0
        (meant,) = await engine.handle(said("bench 55kg 10x5", "m3", minutes=5))  # the log is gone: this one is meant
        assert isinstance(meant, Logged) and await engine.entries.count(ANN) == 1


async def test_only_the_same_persons_log_counts(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        assert isinstance((await engine.handle(said("bench 55kg 10x5", "m1")))[0], Logged)
        (bobs,) = await engine.handle(said("bench 55kg 10x5", "m2", user=BOB, minutes=1))
        assert isinstance(bobs, Logged)  # the same words from someone else are their own set
        (hello,) = await engine.handle(said("hello", "m3", minutes=2))
        (hello_again,) = await engine.handle(said("hello", "m4", minutes=3))
        assert isinstance(hello, Answer) and hello_again == hello  # not a log: answered again
        (again,) = await engine.handle(said("bench 55kg 10x5", "m5", minutes=4))
        assert isinstance(again, Notice) and again.code == "repeat"
        assert await engine.entries.count(ANN) == 1 and await engine.entries.count(BOB) == 1
    assert fake.titles() == []
