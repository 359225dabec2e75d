"""Plans with Approve / Revise / Cancel, end to end: real engine (task formation on the fake model), real application."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from engine import Engine
from engine.entries.model import NewEntry
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.telegram_api import BotMessage, FakeTelegram
from tests.helpers import scripts
from tests.helpers.telegram import CHAT, USER, Harness, running

GROUP, ANN, BOB = -100400, 1, 2
TODAY = datetime.now(ZoneInfo("Asia/Seoul")).date()  # the test engine's default zone
WEEK = [(TODAY + timedelta(days=d)).isoformat() for d in (1, 3, 5)]
PLAN_REQUEST = "plan my next week of bench, I want 70kg for 5"


def plan(weights: tuple[float, ...] = (57.5, 60, 62.5)) -> dict[str, Any]:
    return scripts.former(
        operations=[scripts.op_plan(d, weight=w) for d, w in zip(WEEK, weights)],
        assumptions=[scripts.assumption("current working weight is 55 kg", source=TODAY.isoformat())],
    )


def script_plans(fake: FakeOllama, *plans: dict[str, Any]) -> None:
    fake.script(scripts.router("TASK", ["strength"]))
    fake.script("TaskFormationOutput", *plans)


async def seed(engine: Engine, user: int = USER) -> None:
    def bench(days_ago: int, weight: float) -> NewEntry:
        return scripts.bench_entry(TODAY - timedelta(days=days_ago), weight, source_key=f"seed:{days_ago}")

    await engine.entries.add(f"tg:{user}", [bench(7, 52.5), bench(0, 55)])


async def planned(engine: Engine, user: int = USER) -> list[str]:
    entries = await engine.entries.between(f"tg:{user}", TODAY, TODAY + timedelta(days=7), kinds=("planned",))
    return [e.occurred_on.isoformat() for e in entries if e.kind == "planned"]


async def ask_for_plan(bot: Harness, chat: int = CHAT, user: int = USER, **kw: Any) -> BotMessage:
    (request,) = await bot.say(PLAN_REQUEST, chat, user, **kw)
    assert request.text.startswith("Plan: "), request.text
    return request


async def test_plan_shows_confidence_sources_and_three_buttons(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    script_plans(fake, plan())
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await seed(engine)
        request = await ask_for_plan(bot)
        assert await planned(engine) == []  # nothing changes before Approve
    assert f"plan {WEEK[0]}: bench press 5×5 @ 57.5 kg" in request.text
    assert "Confidence: " in request.text and "Sources:" in request.text
    assert request.text.endswith("Nothing changes until you approve.")
    assert [b["text"] for b in request.buttons()] == ["Approve", "Revise", "Cancel"]
    assert all(len(b["callback_data"].encode()) <= 64 for b in request.buttons())


async def test_approve_after_a_restart_commits_once(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    script_plans(fake, plan())
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await seed(engine)
        request = await ask_for_plan(bot)
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        start = len(tg.calls())
        approve = tg.press(CHAT, request.message_id, USER, "Approve")
        again = tg.press(CHAT, request.message_id, USER, "Approve")  # a second tap before the edit arrives
        await bot.feed(approve, again)
        assert await planned(engine) == WEEK
    order = [c.method for c in tg.calls()[start:] if c.method != "sendChatAction"]
    assert order.index("answerCallbackQuery") < order.index("editMessageText") < order.index("sendMessage")
    assert request.reply_markup is None and request.text.endswith("✓ Approved")
    alerts = [a for a in tg.answers() if a.get("show_alert")]
    assert len(alerts) == 1 and "already answered" in alerts[0]["text"]
    logged, committed = bot.after(CHAT, request.message_id)
    assert logged.text.count("✓ Planned") == 3 and committed.text


async def test_revise_asks_what_should_change_then_takes_the_reply(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    script_plans(fake, plan(), plan((56, 57, 58)))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await seed(engine)
        request = await ask_for_plan(bot)
        (prompt,) = await bot.press(request, "Revise")
        assert prompt.text == "What should change?"
        assert prompt.reply_markup is not None and prompt.reply_markup.get("force_reply") is True
        assert request.reply_markup is None and "Revise" in request.text
        (revised,) = await bot.say("smaller jumps please", reply_to=prompt.message_id)
        assert "56 kg" in revised.text and [b["text"] for b in revised.buttons()] == ["Approve", "Revise", "Cancel"]
        await bot.press(revised, "Approve")
        assert await planned(engine) == WEEK
    assert "smaller jumps please" in fake.calls("TaskFormationOutput")[1]["messages"][1]["content"]


async def test_revise_feedback_survives_a_restart(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    script_plans(fake, plan(), plan((56, 57, 58)))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await seed(engine)
        (prompt,) = await bot.press(await ask_for_plan(bot), "Revise")
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        # The reply to "What should change?" is what marks the feedback now.
        (revised,) = await bot.say("smaller jumps please", reply_to=prompt.message_id)
    assert revised.text.startswith("Plan: ") and "56 kg" in revised.text


async def test_cancel_changes_nothing(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    script_plans(fake, plan())
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await seed(engine)
        request = await ask_for_plan(bot)
        (cancelled,) = await bot.press(request, "Cancel")
        assert await planned(engine) == []
    assert request.text.endswith("✗ Cancelled") and cancelled.text


async def test_in_a_group_only_the_asker_decides(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    tg.set_chat_type(GROUP, "supergroup")
    script_plans(fake, plan(), plan((56, 57, 58)))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await seed(engine, ANN)
        request = await ask_for_plan(bot, GROUP, ANN, mention=True)
        assert await bot.press(request, "Approve", BOB) == []  # not Bob's plan
        assert tg.answers()[-1]["show_alert"] and request.reply_markup is not None
        (prompt,) = await bot.press(request, "Revise", ANN)
        assert prompt.html is not None and f"tg://user?id={ANN}" in prompt.html  # the force-reply targets Ann
        await bot.say("lighter please", GROUP, BOB, mention=True)  # Bob's words are not Ann's feedback
        (revised,) = await bot.say("smaller jumps please", GROUP, ANN, reply_to=prompt.message_id)
        assert "56 kg" in revised.text
        assert await planned(engine, ANN) == [] and await planned(engine, BOB) == []
    feedback = fake.calls("TaskFormationOutput")[1]["messages"][1]["content"]
    assert "smaller jumps please" in feedback and "lighter please" not in feedback
