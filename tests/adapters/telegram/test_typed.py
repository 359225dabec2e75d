"""Issue 11: typed answers and decisions mean the same in Telegram and in the console
(one reading, `adapters.common.read_typed`), and an edited message gets a hint."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from adapters.common import EDIT_HINT, REVISE_PROMPT
from adapters.console import ConsoleChat
from engine import Engine
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers import scripts
from tests.helpers.telegram import CHAT, USER, Harness, running

TODAY = datetime.now(ZoneInfo("Asia/Seoul")).date()  # the test engine's default zone
WEEK = [(TODAY + timedelta(days=d)).isoformat() for d in (1, 3, 5)]
HINT = "Pick a number from 1 to 3, type your own answer, or type skip."


def question_script(fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.needs_exercise(), scripts.strength("squat", 100, 5, 5))
    fake.script(scripts.clarifier())


def plan(weights: tuple[float, ...]) -> dict[str, Any]:
    return scripts.former(
        operations=[scripts.op_plan(d, weight=w) for d, w in zip(WEEK, weights)],
        assumptions=[scripts.assumption("current working weight is 55 kg", source=TODAY.isoformat())],
    )


def plan_script(fake: FakeOllama) -> None:
    fake.script(scripts.router("TASK", ["strength"]))
    fake.script("TaskFormationOutput", plan((57.5, 60, 62.5)), plan((56.25, 57.5, 58.75)))


async def seed(engine: Engine, user: str) -> None:
    await engine.entries.add(user, [scripts.bench_entry(TODAY, 55, source_key="seed")])


async def planned(engine: Engine, user: str) -> list[str]:
    found = await engine.entries.between(user, TODAY, TODAY + timedelta(days=7), kinds=("planned",))
    return sorted(e.summary for e in found)


async def console(engine: Engine, lines: list[str]) -> str:
    out = io.StringIO()
    await ConsoleChat(engine, "kim", stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out).run()
    return out.getvalue()


async def telegram(bot: Harness, lines: list[str]) -> list[str]:
    said: list[str] = []
    for line in lines:
        said += [m.text for m in await bot.say(line)]
    return said


async def test_a_typed_number_or_skip_answers_alike(
    open_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    lines = ["finished my workout today", "9", "2"]
    question_script(fake)
    async with open_engine() as engine:
        text = await console(engine, lines)
        console_entries = [e.summary for e in await engine.entries.recent("console:kim")]
    assert HINT in text and "squat 100 kg × 5 reps × 5 sets" in text
    fake.reset()
    question_script(fake)
    async with open_engine() as engine, running(tg, engine) as bot:
        said = await telegram(bot, lines)
        telegram_entries = [e.summary for e in await engine.entries.recent(f"tg:{USER}")]
    # Before: Telegram sent "9" to the model as the answer and "2" as free text.
    assert HINT in said and any("squat 100 kg × 5 reps × 5 sets" in s for s in said)
    assert console_entries == telegram_entries == ["squat 100 kg × 5 reps × 5 sets"]
    parses = fake.calls("ParserOutput")
    assert len(parses) == 2 and "-> Squat" in parses[-1]["messages"][-1]["content"]  # "9" reached no model


async def test_skip_declines_in_telegram_too(open_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    question_script(fake)
    async with open_engine() as engine, running(tg, engine) as bot:
        said = await telegram(bot, ["finished my workout today", "skip"])
        (note,) = await engine.entries.recent(f"tg:{USER}")
    assert note.kind == "note" and note.raw_text == "finished my workout today"  # declined: kept as a note, not "skip"
    assert len(fake.calls("ParserOutput")) == 1 and any("Logged" in s for s in said)


async def test_bare_revise_asks_and_approved_approves(
    open_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    lines = ["plan my next week of bench", "revise", "smaller jumps", "approved."]
    plan_script(fake)
    async with open_engine() as engine:
        await seed(engine, "console:kim")
        text = await console(engine, lines)
        console_planned = await planned(engine, "console:kim")
    assert f"· {REVISE_PROMPT}" in text and "Done." in text
    fake.reset()
    plan_script(fake)
    async with open_engine() as engine, running(tg, engine) as bot:
        await seed(engine, f"tg:{USER}")
        said = await telegram(bot, lines)
        telegram_planned = await planned(engine, f"tg:{USER}")
    assert REVISE_PROMPT in said and any(s.startswith("Done.") for s in said)
    # The feedback reached the former, and the revised plan (smaller jumps) is what was committed.
    feedback = fake.calls("TaskFormationOutput")[-1]["messages"][-1]["content"]
    assert "smaller jumps" in feedback
    assert console_planned == telegram_planned and len(telegram_planned) == 3
    assert all("56.25" in s or "57.5" in s or "58.75" in s for s in telegram_planned)


async def test_an_edited_message_gets_a_hint_once(open_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    async with open_engine() as engine, running(tg, engine) as bot:
        first = tg.message(CHAT, USER, "bench 55kg 10x5")
        await bot.feed(first)
        edited = {
            "update_id": first["update_id"] + 100,
            "edited_message": {
                **first["message"],
                "text": "bench 60kg 10x5",
                "edit_date": first["message"]["date"] + 5,
            },
        }
        again = {**edited, "update_id": edited["update_id"] + 1}
        await bot.feed(edited, again)
        hints = [m for m in tg.sent(CHAT) if m.text == EDIT_HINT]
        assert await engine.entries.count(f"tg:{USER}") == 1  # the edit is not applied
    assert len(hints) == 1 and hints[0].reply_to == first["message"]["message_id"]


async def test_one_typed_message_costs_one_turn(open_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    """Issue 23: Telegram asked for the open question with a ``status`` turn before reading a typed line and
    again after it to know whether to take the buttons off: up to three ``handle`` calls per message. It
    reads ``engine.pending`` now, and the turn's `Closed` says the question closed."""
    fake.script("RouterOutput", scripts.router("LOG"))
    fake.script(scripts.needs_exercise(), scripts.strength("squat", 100, 5, 5))
    fake.script("ClarifierOutput", scripts.clarifier())
    async with open_engine() as engine, running(tg, engine) as bot:
        turns: list[str] = []
        handle = engine.handle

        async def counted(turn: Any, progress: Any = None) -> Any:
            turns.append(turn.kind)
            return await handle(turn, progress)

        engine.handle = counted  # type: ignore[method-assign]
        (question,) = await bot.say("finished my workout today")
        assert turns == ["message"] and question.buttons()
        turns.clear()
        said = await bot.say("Squat")  # typed, in the person's own words: the engine reads it as the answer
        assert turns == ["message"], turns  # before: ["control", "message", "control"] (status, the turn, status)
        assert any("squat 100 kg × 5 reps × 5 sets" in m.text for m in said), said
        closed = tg.get(CHAT, question.message_id)
        assert closed.edits == 1 and "✓ Squat" in closed.text and not closed.buttons()  # its buttons came off
        turns.clear()
        await bot.say("9")  # nothing is open: a message of its own
        assert turns == ["message"], turns
