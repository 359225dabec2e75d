"""Flood control never costs a message or doubles one (issue 22, item 3).

Telegram answers 429 (``RetryAfter``) when a bot sends too fast. A reply it
holds back is kept and sent when the wait ends; a person who sends the same
log again meanwhile (or soon after) gets a notice instead of a second entry.
Real application, fake Bot API, real engine; code reads these logs, so the
fake model is not called.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers import scripts
from tests.helpers.telegram import CHAT, USER, running

ME = f"tg:{USER}"
LOG = "bench 55kg 10x5"

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # PTB's own RetryAfter message, v22.2


def _a_confirmation(params: dict[str, Any]) -> bool:
    return "Logged" in str(params.get("text"))


def _said(tg: FakeTelegram) -> list[str]:
    return [m.text for m in tg.sent(CHAT)]


async def test_four_flood_refusals_then_the_reply_arrives_and_a_resend_is_not_stored_twice(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    """Before: the fourth 429 ended in "please try again", and trying again stored the set twice."""
    tg.fail("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1, times=4, when=_a_confirmation)
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        # The person sends it again while the first reply is held back.
        await bot.feed(tg.message(CHAT, USER, LOG), tg.message(CHAT, USER, LOG))
        said = _said(tg)
        assert len(said) == 2 and said[0].startswith("✓ Logged") and "bench press 55 kg × 10 reps × 5 sets" in said[0]
        assert said[1].startswith("Already logged: bench press 55 kg × 10 reps × 5 sets")
        assert not any("try again" in text for text in said)
        assert await engine.entries.count(ME) == 1
    assert len([c for c in tg.calls("sendMessage") if _a_confirmation(c.params)]) == 5  # four refused, one sent


async def test_a_reply_held_back_too_long_says_the_entry_is_saved(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    """A wait longer than a reply is kept: the person hears that the entry is saved, not "try again"."""
    tg.fail("sendMessage", 429, "Too Many Requests: retry after 200", retry_after=200, when=_a_confirmation)
    async with sqlite_engine() as engine, running(tg, engine, keep_replies_s=60.0) as bot:
        (told,) = await bot.say(LOG)
        assert "saved" in told.text and "no need to send it again" in told.text
        assert "try again" not in told.text
        assert await engine.entries.count(ME) == 1


async def test_the_same_log_sent_again_soon_is_stored_once(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (logged,) = await bot.say(LOG)
        assert logged.text.startswith("✓ Logged")
        (again,) = await bot.say(LOG)
        assert again.text == (
            "Already logged: bench press 55 kg × 10 reps × 5 sets. I kept it once, not twice. "
            "If you did it a second time, say so: “bench 55kg 10x5 again”."
        )
        assert await engine.entries.count(ME) == 1
        # What the notice suggests for a set done twice: code leaves "again" to the model, which reads the set.
        fake.script(scripts.strength("bench press", 55, 10, 5))
        (twice,) = await bot.say(f"{LOG} again")
        assert twice.text.startswith("✓ Logged")
        assert await engine.entries.count(ME) == 2


async def test_the_same_log_after_the_window_is_stored_again(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    start = int(time.time())
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        assert (await bot.say(LOG, date=start))[0].text.startswith("✓ Logged")
        assert (await bot.say(LOG, date=start + 11 * 60))[0].text.startswith("✓ Logged")  # done again, later
        assert await engine.entries.count(ME) == 2
        # The window runs from the latest stored log.
        assert (await bot.say(LOG, date=start + 12 * 60))[0].text.startswith("Already logged")
        assert await engine.entries.count(ME) == 2
