"""Issue 22 item 2 in Telegram: a log sent while a question is open is not its answer, and after Revise a
workout is not the change. Each test names the defect it guards against ("Before: …")."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers import scripts
from tests.helpers.telegram import USER, running

GROUP, ANN = -100500, 1
TODAY = datetime.now(ZoneInfo("Asia/Seoul")).date()  # the test engine's default zone
WEEK = [(TODAY + timedelta(days=d)).isoformat() for d in (1, 3, 5)]


async def test_a_log_replied_to_a_question_in_a_group_does_not_close_it(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    """Before: the question was edited to "✓ 5k in 25:30" (which reads as logged), the run was never
    logged, and the same question came back."""
    tg.set_chat_type(GROUP, "supergroup")
    fake.script(scripts.needs_exercise(), scripts.strength("squat", 100, 5, 5))
    fake.script(scripts.clarifier())
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (question,) = await bot.say("trained hard today", GROUP, ANN, mention=True)
        (held,) = await bot.say("5k in 25:30", GROUP, ANN, reply_to=question.message_id)
        assert "new log, not as your answer" in held.text
        shown = tg.get(GROUP, question.message_id)
        assert shown.edits == 0 and "✓" not in shown.text and shown.buttons()  # still open, still pressable
        after = await bot.press(shown, "Squat", ANN)
        assert any("squat 100 kg" in m.text for m in after) and any("5 km" in m.text for m in after), after
        assert await engine.entries.count(f"tg:{ANN}") == 2
    assert len(fake.calls("ParserOutput")) == 2


async def test_a_workout_right_after_revise_is_logged_not_taken_as_the_change(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    """Before: the message after a Revise press was the change whatever it said: the plan was formed again
    around "5k in 25:30" and the run was never logged."""
    fake.script(scripts.router("TASK", ["strength"]))
    fake.script(scripts.former(
        operations=[scripts.op_plan(d, weight=w) for d, w in zip(WEEK, (57.5, 60, 62.5))],
        assumptions=[scripts.assumption("current working weight is 55 kg", source=TODAY.isoformat())],
    ))  # fmt: skip
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await engine.entries.add(f"tg:{USER}", [scripts.bench_entry(TODAY, 55, source_key="seed")])
        (request,) = await bot.say("plan my next week of bench")
        (_prompt,) = await bot.press(request, "Revise")
        (held,) = await bot.say("5k in 25:30")  # the prompt is the last thing Almanac said
        assert "not as the change to the plan" in held.text
        again = next(m for m in await bot.say("/status") if m.text.startswith("Plan: "))
        assert again.buttons()
        after = await bot.press(again, "Approve")
        assert any(m.text.startswith("Done.") for m in after) and "5 km" in after[-1].text, after
        assert await engine.entries.count(f"tg:{USER}") == 2  # the seed and the run (planned sessions apart)
        assert await engine.entries.count(f"tg:{USER}", kinds=("planned",)) == 3
    assert len(fake.calls("TaskFormationOutput")) == 1
