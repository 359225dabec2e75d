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


async def test_a_record_is_shown_under_the_confirmation(sqlite_engine: OpenEngine, tg: FakeTelegram) -> None:
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (first,) = await bot.say("bench 55kg 10x5")
        assert first.text.splitlines()[1:] == ["🆕 First time logged: bench press."]
        (record,) = await bot.say("bench 60kg 5x5")
    logged, line = record.text.splitlines()
    assert logged.startswith("✓ Logged ") and "bench press 60 kg × 5 reps × 5 sets" in logged
    assert line.startswith("🏆 New heaviest bench press: 60 kg × 5 (before: 55 kg × 10, ")
