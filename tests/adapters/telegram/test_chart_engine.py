"""`/chart bench` in Telegram with the real engine on an imported Strong history: a PNG arrives as a photo
(sendPhoto through python-telegram-bot to the fake Bot API) whose caption states the true best and latest
figures, in English and in Korean, with no model call."""

from __future__ import annotations

import io

from PIL import Image

from tests.conftest import OpenEngine
from tests.engine.facts.test_history import import_history
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers.telegram import USER, running

ME = f"tg:{USER}"
# By hand from tests/data/strong_history.csv (tests/engine/test_charts.py reads it independently): the best
# estimate is 95 kg × 5 → 95 × (1 + 5/30) = 110.8 kg, first on 2025-06-07; the latest session 2026-10-10.
TRUE_BEST = "best 110.8 kg on 2025-06-07 (from 95 kg × 5)"
TRUE_LATEST = "latest 110.8 kg (2026-10-10)"
TRUE_HEAVIEST = "heaviest 100 kg × 3 on 2025-06-12"  # the 105 kg × 0 attempt is not a set


def opened(png: bytes) -> tuple[str | None, tuple[int, int]]:
    with Image.open(io.BytesIO(png)) as image:
        return image.format, image.size


async def test_chart_bench_sends_a_photo_with_the_true_figures(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await import_history(engine.entries.db, ME)
        (english,) = await bot.say("/chart bench all time")
        (korean,) = await bot.say("/chart 벤치프레스 전체 기간")
        (asked,) = await bot.say("show my bench progress")
    assert english.photo is not None and opened(english.photo[1]) == ("PNG", (900, 500))
    assert english.text is not None and english.text.startswith("bench press: estimated 1RM and top set per session")
    for figure in (TRUE_BEST, TRUE_LATEST, TRUE_HEAVIEST):
        assert figure in english.text, english.text
    assert korean.photo is not None and korean.photo[1] != english.photo[1]  # Korean labels drawn
    assert korean.text is not None and korean.text.startswith("벤치프레스")
    assert "최고 110.8 kg (2025년 6월 7일, 95 kg × 5회 기준)" in korean.text
    # A question without a period: the last 12 months, said in the caption.
    assert asked.photo is not None and "the last 12 months" in (asked.text or "")
    assert fake.titles() == []


async def test_a_chart_of_nothing_logged_says_so(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (reply,) = await bot.say("/chart squat")
        (ever,) = await bot.say("/chart 스쿼트 전체 기간")
    assert reply.photo is None and reply.text is not None and "squat" in reply.text
    assert ever.photo is None and ever.text is not None and "아직 스쿼트 기록이 없어" in ever.text
    assert fake.titles() == []
