"""The default path in Telegram: logs code reads are stored and confirmed with no model call, and a
model that would read them wrong changes nothing. Real application, fake Bot API, real engine, fake model."""

from __future__ import annotations

from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers import scripts
from tests.helpers.telegram import USER, running

ME = f"tg:{USER}"


async def test_logs_and_small_talk_need_no_model(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    fake.default(scripts.router("CHAT"))  # a model that would read these wrong
    fake.default(scripts.strength("bench press", 60, 8, 2))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (hello,) = await bot.say("hello")
        assert hello.text.startswith("Hi!") and "no entries" not in hello.text
        (english,) = await bot.say("bench 55kg 10x5")
        assert english.text.startswith("✓ Logged ") and "bench press 55 kg × 10 reps × 5 sets" in english.text
        (korean,) = await bot.say("어제 벤치프레스 60키로 10회 3세트")
        assert "bench press 60 kg × 10 reps × 3 sets" in korean.text
        (run,) = await bot.say("5k in 25:30")
        assert "running" in run.text and "5 km" in run.text
        assert await engine.entries.count(ME) == 3
    assert fake.titles() == []


async def test_next_gives_the_target_computed_from_the_log_with_no_model(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await bot.say("bench 60kg 5x5")
        (target,) = await bot.say("/next bench")
        assert target.text.startswith("Next bench press: 5 × 5 at 62.5 kg — linear progression: every work set of ")
        assert "+2.5 kg (upper body)." in target.text
        (korean,) = await bot.say("/next 벤치")
        assert korean.text.startswith("다음 벤치프레스: 62.5 kg로 5회 × 5세트 — 선형 증량")
        (never,) = await bot.say("/next squat")
        assert never.text.startswith("You haven't logged squat yet")
        (unknown,) = await bot.say("/next xyzzy")
        assert "I don't know a lift called “xyzzy”" in unknown.text
        (usage,) = await bot.say("/next")
        assert "/next bench" in usage.text
    assert fake.titles() == []


async def test_a_record_is_shown_under_the_confirmation(sqlite_engine: OpenEngine, tg: FakeTelegram) -> None:
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (first,) = await bot.say("bench 55kg 10x5")
        assert first.text.splitlines()[1:] == ["🆕 First time logged: bench press."]
        (record,) = await bot.say("bench 60kg 5x5")
    logged, line = record.text.splitlines()
    assert logged.startswith("✓ Logged ") and "bench press 60 kg × 5 reps × 5 sets" in logged
    assert line.startswith("🏆 New heaviest bench press: 60 kg × 5 (before: 55 kg × 10, ")
