"""Nothing thrown away, nothing leaked, in Telegram: failed answers, held messages, Revise, groups, restarts.

Each test names the defect it guards against ("Before: …").
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from telegram import Update

from adapters.telegram.intake import SOURCE, delivery_of, status_note
from engine import Engine
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.telegram_api import BotMessage, FakeTelegram
from tests.helpers import scripts
from tests.helpers.telegram import CHAT, USER, Harness, running

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


GROUP, ANN, BOB = -100500, 1, 2
TODAY = datetime.now(ZoneInfo("Asia/Seoul")).date()  # the test engine's default zone
WEEK = [(TODAY + timedelta(days=d)).isoformat() for d in (1, 3, 5)]


def plan(weights: tuple[float, ...] = (57.5, 60, 62.5)) -> dict[str, Any]:
    return scripts.former(
        operations=[scripts.op_plan(d, weight=w) for d, w in zip(WEEK, weights)],
        assumptions=[scripts.assumption("current working weight is 55 kg", source=TODAY.isoformat())],
    )


def script_plans(fake: FakeOllama, *plans: dict[str, Any]) -> None:
    fake.script(scripts.router("TASK", ["strength"]))
    fake.script("TaskFormationOutput", *plans)


async def seed(engine: Engine, user: int = USER) -> None:
    await engine.entries.add(f"tg:{user}", [scripts.bench_entry(TODAY, 55, source_key="seed")])


async def planned(engine: Engine, user: int = USER) -> list[str]:
    entries = await engine.entries.between(f"tg:{user}", TODAY, TODAY + timedelta(days=7), kinds=("planned",))
    return [e.occurred_on.isoformat() for e in entries]


async def ask_for_plan(bot: Harness, chat: int = CHAT, user: int = USER, **kw: Any) -> BotMessage:
    (request,) = await bot.say("plan my next week of bench", chat, user, **kw)
    assert request.text.startswith("Plan: "), request.text
    return request


async def test_model_failure_on_a_press_keeps_the_question_pressable(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    """Before: the button was edited to "✓ Squat" and could not be pressed again; /status said nothing was waiting."""
    fake.script(scripts.router("LOG"))
    fake.script(scripts.needs_exercise())
    fake.script(scripts.clarifier())
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (question,) = await bot.say("did 5x5 today")
        fake.stop()
        failure, again = await bot.press(question, "Squat")
        assert "can't reach the language model" in failure.text
        assert [b["text"] for b in again.buttons()][:3] == ["Bench press", "Squat", "Deadlift"]
        kept, shown = await bot.say("/status")
        assert "“Squat” is kept" in kept.text and shown.buttons()
        fake.start()
        fake.script(scripts.strength("squat", 100, 5, 5))
        (logged,) = await bot.press(shown, "Squat")
        assert "squat 100 kg" in logged.text
        assert await engine.entries.count(f"tg:{USER}") == 1


async def test_message_while_a_plan_is_open_runs_after_the_decision(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    """Before: "A plan is waiting for your decision" — and the message was gone."""
    script_plans(fake, plan())
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("squat", 100, 5, 5))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await seed(engine)
        request = await ask_for_plan(bot)
        (held,) = await bot.say("squat 100kg 5x5")
        assert held.text.startswith("Noted") and "after you decide" in held.text
        after = await bot.press(request, "Approve")
        assert [m.text.split()[0] for m in after] == ["✓", "Done.", "✓"]
        assert "squat 100 kg" in after[-1].text
        assert len(await planned(engine)) == 3


async def test_revise_takes_the_next_message_only_as_the_answer_to_its_prompt(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    """Before: after Revise, the next message was always taken as the change — even "5k in 25:30"."""
    script_plans(fake, plan(), plan((56, 57, 58)))
    fake.script(scripts.router("LOG", ["running"]))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await seed(engine)
        request = await ask_for_plan(bot)
        (prompt,) = await bot.press(request, "Revise")
        assert prompt.text.endswith("What should change?")
        await bot.say("/status")  # Almanac said something since: the prompt is no longer the last thing asked
        (held,) = await bot.say("5k in 25:30")
        assert held.text.startswith("Noted")  # kept as a message of its own, not taken as the change
        revised = await bot.say("smaller jumps", reply_to=prompt.message_id)
        assert revised[0].text.startswith("Plan: ") and "56 kg" in revised[0].text
    feedback = fake.calls("TaskFormationOutput")[-1]["messages"][1]["content"]
    assert "smaller jumps" in feedback and "25:30" not in feedback


async def test_in_a_group_each_member_has_a_conversation_of_their_own(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    """Before: Ann's open plan refused Bob's messages, and Bob's typed /cancel cancelled Ann's plan."""
    tg.set_chat_type(GROUP, "supergroup")
    script_plans(fake, plan())
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("squat", 100, 5, 5))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await seed(engine, ANN)
        request = await ask_for_plan(bot, GROUP, ANN, mention=True)
        (logged,) = await bot.say(f"/log@{tg.username} squat 100kg 5x5", GROUP, BOB)
        assert "squat 100 kg" in logged.text
        (nothing,) = await bot.say(f"/cancel@{tg.username}", GROUP, BOB)
        assert nothing.text == "Nothing to cancel."
        assert request.reply_markup is not None  # Ann's plan is still open, with its buttons
        await bot.press(request, "Approve", ANN)
        assert len(await planned(engine, ANN)) == 3


async def test_export_in_a_group_goes_to_the_person_privately(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    """Before: /export typed in a group posted the person's whole training log into the group."""
    tg.set_chat_type(GROUP, "supergroup")
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await seed(engine, ANN)
        (said,) = await bot.say(f"/export@{tg.username}", GROUP, ANN)
        assert "private chat" in said.text
        assert [m.document[0] for m in tg.sent(ANN) if m.document] == [m.document[0] for m in tg.sent() if m.document]
        assert tg.sent(ANN)[0].document is not None
        # Someone who never opened a private chat with the bot gets a hint, and nothing in the group.
        tg.fail("sendDocument", 403, "Forbidden: bot can't initiate conversation with a user")
        (hint,) = await bot.say(f"/export@{tg.username}", GROUP, ANN)
        assert "open a chat with" in hint.text
    assert not [m for m in tg.sent(GROUP) if m.document]


async def test_start_up_runs_what_a_crash_left_and_deletes_its_status_line(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    """Before: the "⏳ Parsing…" line a crash left stayed in the chat forever, and the message was never run."""
    fake.script(scripts.router("LOG"), scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5), scripts.strength("squat", 100, 5, 5))
    left = tg.message(CHAT, USER, "bench 55kg 10x5")
    newer = tg.message(CHAT, USER, "squat 100kg 5x5")
    async with sqlite_engine() as engine:
        # What a kill leaves: the update recorded (its offset confirmed), its status line on screen.
        async with running(tg, engine) as bot:
            stale = (await bot.app.bot.send_message(CHAT, "⏳ Parsing…")).message_id
        await engine.receive(SOURCE, [delivery_of(Update.de_json(left, bot.app.bot))])  # type: ignore[arg-type]
        await engine.note(SOURCE, str(left["update_id"]), status_note(CHAT, stale))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await bot.feed(newer)
        first, second = tg.sent(CHAT)  # the status line is gone; the older message ran first
        assert "bench press 55 kg" in first.text and "squat 100 kg" in second.text
        assert await engine.unfinished(SOURCE) == []
    assert tg.get(CHAT, stale).deleted


async def test_a_redelivered_update_is_recognised(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    update = tg.message(CHAT, USER, "bench 55kg 10x5")
    async with sqlite_engine() as engine:
        async with running(tg, engine) as bot:
            await bot.feed(update)
        async with running(tg, engine) as bot:  # a restart, then Telegram delivers it again
            await bot.feed(json.loads(json.dumps(update)))
    assert len(tg.sent(CHAT)) == 1 and len(fake.calls("RouterOutput")) == 1
