"""`/summary` in Telegram with the real engine on the seeded history of :mod:`tests.engine.summary.seeded`:
last week's figures as a message and the volume chart as a photo, with no model call; the weekly opt-in."""

from __future__ import annotations

from datetime import datetime, timezone

from engine.summary import SummaryPrefs
from tests.conftest import OpenEngine
from tests.engine.summary.seeded import seed
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers.domains import BUILTIN
from tests.helpers.telegram import USER, running

ME = f"tg:{USER}"
MONDAY_8_SEOUL = int(datetime(2026, 11, 22, 23, 0, tzinfo=timezone.utc).timestamp())


async def test_summary_sends_last_weeks_figures_and_a_chart(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await seed(engine.db, BUILTIN, user=ME)
        await bot.say("/tz Asia/Seoul")
        text, photo = await bot.say("/summary", date=MONDAY_8_SEOUL)
        (on,) = await bot.say("/summary weekly on 월요일 8시", date=MONDAY_8_SEOUL)
        kept = await SummaryPrefs(engine.db).get(ME)
    assert text.text is not None and text.text.splitlines()[:4] == [
        "Last week (2026-11-16 to 2026-11-22)",
        "Sessions: 3 of 4 planned done (3 training days logged)",
        "PRs: 2 — bench press: heaviest 80 kg, estimated 1RM 93.3 kg",
        "Volume (weight × reps of working sets): 4,200 kg, +16.7% against the 4-week average of 3,600 kg",
    ]
    assert "Your overhead press has stalled" in text.text and "Next squat: 5 × 5 at 105 kg" in text.text
    assert photo.photo is not None and (photo.text or "").startswith("Weekly volume per lift")
    assert on.text is not None and on.text.startswith("매주 월요일 08:00(Asia/Seoul)")
    assert kept is not None and kept.conversation == ME and kept.next_due is not None
    assert kept.next_due.isoformat() == "2026-11-29T23:00:00+00:00"  # Monday 2026-11-30 08:00 in Seoul
    assert fake.titles() == []
