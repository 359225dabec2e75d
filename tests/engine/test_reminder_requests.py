"""Plain reminder requests through the engine: read in code (no model call), never stored as a log, shown
as the same Set it / Cancel card as ``/remind``, and an open question stays open."""

from __future__ import annotations

from datetime import datetime, timezone

from engine.outcomes import Ask, Notice, ReminderCard
from engine.turns import Message
from tests.conftest import OpenEngine
from tests.engine.test_open_question import OPENER, question, still_open
from tests.fakes.ollama_server import FakeOllama

USER = CONV = "console:kim"
NOW = datetime(2026, 11, 26, 0, 0, tzinfo=timezone.utc)  # Thursday 09:00 in Seoul (the tests' default zone)


def msg(text: str, message_id: str | None = None) -> Message:
    return Message(conversation=CONV, user=USER, text=text, at=NOW, message_id=message_id)


async def test_plain_requests_become_a_reminder_card_with_no_model(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        (english,) = await engine.handle(msg("remind me to stretch at 9pm"))
        (korean,) = await engine.handle(msg("매일 아침 7시에 운동 알려줘"))
        (when,) = await engine.handle(msg("remind me to stretch"))
        (what,) = await engine.handle(msg("remind me at 9pm"))
        assert await engine.entries.count(USER) == 0
    # By hand: 21:00 today in Seoul is 12:00 UTC; every morning at 7 is first due Friday 07:00 KST.
    assert isinstance(english, ReminderCard) and english.at == datetime(2026, 11, 26, 12, 0, tzinfo=timezone.utc)
    assert "stretch" in english.text and english.actions == ["confirm", "cancel"]
    assert isinstance(korean, ReminderCard) and korean.at == datetime(2026, 11, 26, 22, 0, tzinfo=timezone.utc)
    assert "운동" in korean.text
    assert isinstance(when, Notice) and when.code == "unreadable" and "when" in when.text
    assert isinstance(what, Notice) and what.text.startswith("What should I remind you of?")
    assert fake.titles() == []


async def test_a_request_while_a_question_is_open_leaves_the_question_open(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    question(fake)  # the opener names no exercise: the Clarifier asks which
    async with open_engine() as engine:
        (asked,) = await engine.handle(msg(OPENER))
        assert isinstance(asked, Ask)
        (card,) = await engine.handle(msg("remind me to stretch in 10 minutes"))
        assert await still_open(engine, asked)
    assert isinstance(card, ReminderCard) and card.at == datetime(2026, 11, 26, 0, 10, tzinfo=timezone.utc)


async def test_the_same_request_delivered_twice_proposes_once(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        (first,) = await engine.handle(msg("remind me to stretch at 9pm", message_id="m1"))
        (again,) = await engine.handle(msg("remind me to stretch at 9pm", message_id="m1"))
    assert isinstance(first, ReminderCard) and isinstance(again, ReminderCard)
    assert again.reminder_id == first.reminder_id
