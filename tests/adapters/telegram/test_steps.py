"""Steps you can watch in Telegram (issue 25 item 5): a question's steps stream as a draft in a private
chat, one edited status line in a group, before the checked answer; no step shows a number the model
wrote. Real application, fake Bot API, real engine, fake model (its reply delayed, so steps show)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

from tests.conftest import OpenEngine
from tests.fakes.ollama_server import Delay, FakeOllama
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers import scripts
from tests.helpers.telegram import CHAT, USER, Harness, running

WRONG = "987.6"
"""A number only the scripted model writes: no step (and no answer) may show it."""
ASKED = int(datetime(2026, 11, 25, 3, 0, tzinfo=timezone.utc).timestamp())  # Wednesday noon in Seoul
QUESTION = "how many times did I squat in the last two weeks?"
SIGNS: dict[str, Any] = {"status_after": 0.1, "status_every": 0.2, "typing_after": 0.0}


def day(d: int) -> int:
    return int(datetime(2026, 11, d, 3, 0, tzinfo=timezone.utc).timestamp())


async def seed(bot: Harness, chat_id: int = CHAT, **kw: Any) -> None:
    # 2026-11-10 falls before the last two weeks (from 2026-11-12); 11-14 and 11-20 inside.
    for d in (10, 14, 20):
        (logged,) = await bot.say("squat 100kg 5x5", chat_id, USER, date=day(d), **kw)
        assert logged.text.startswith("✓ Logged")


def script_slow_model(fake: FakeOllama) -> None:
    fake.default(scripts.analyzer("sufficient"))
    fake.script("SynthesizerOutput", Delay(1.0, scripts.synthesizer(f"You squatted {WRONG} kg twice.")))


async def test_a_question_streams_its_steps_as_a_draft_before_the_answer(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    script_slow_model(fake)
    async with sqlite_engine() as engine, running(tg, engine, **SIGNS) as bot:
        await seed(bot)
        before = len(tg.drafts(CHAT))
        (answer,) = await bot.say(QUESTION, date=ASKED)
    drafts = tg.drafts(CHAT)[before:]
    assert drafts, "no draft while the model took a second"
    assert len({d.draft_id for d in drafts}) == 1 and drafts[0].draft_id != 0  # one draft, animated as it changes
    assert all(d.at < answer.sent_at for d in drafts)  # every step before the answer
    assert all(b.at - a.at >= 0.15 for a, b in zip(drafts, drafts[1:]))  # throttled
    last = drafts[-1].text.splitlines()
    # Every step so far, in the order they ran; the period is code's reading of "the last two weeks".
    assert last[:5] == [
        "✓ Reading your message",
        "✓ Working out what you asked",
        "✓ Fetching your entries",
        "✓ Fetching your squat entries for 2026-11-12 – 2026-11-25",
        "✓ Looking over what I found",
    ]
    assert last[5] in ("⏳ Writing the answer…", "✓ Writing the answer")
    assert not any("987" in d.text for d in drafts)
    # The answer is code's checked one: 11-14 and 11-20 in the window (11-10 is not), the model's number gone.
    assert answer.text == "Sessions of squat, 2026-11-12 to 2026-11-25: 2 sessions."
    assert tg.draft_shown(CHAT) is None  # the answer superseded the draft
    assert not [m for m in tg.sent(CHAT, deleted=True) if m.text.startswith("⏳")]  # no status line in private


async def test_korean_steps_in_a_group_status_line(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    group = -100200
    script_slow_model(fake)
    async with sqlite_engine() as engine, running(tg, engine, **SIGNS) as bot:
        await seed(bot, group, mention=True)
        calls, last = len(tg.calls()), max(m.message_id for m in tg.sent(group, deleted=True))
        (answer,) = await bot.say("지난 2주 동안 스쿼트 몇 번 했어?", group, USER, date=ASKED, mention=True)
    turn = tg.calls()[calls:]
    texts = [str(c.params["text"]) for c in turn if c.method in ("sendMessage", "editMessageText")]
    texts = [t for t in texts if t.startswith("⏳")]  # the status line as sent, then as edited
    statuses = [m for m in tg.sent(group, deleted=True) if m.text.startswith("⏳") and m.message_id > last]
    assert len(statuses) == 1 and statuses[0].deleted and statuses[0].message_id < answer.message_id
    assert texts[0].startswith("⏳ <i>") and len(texts) == 1 + statuses[0].edits
    assert texts[-1] in ("⏳ <i>답을 쓰는 중…</i>", "⏳ <i>답을 확인하는 중…</i>")
    assert all("987" not in t for t in texts)
    assert tg.drafts() == []  # no draft outside a private chat
    assert "987" not in answer.text


async def test_a_refused_draft_falls_back_to_the_status_line(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    script_slow_model(fake)
    async with sqlite_engine() as engine, running(tg, engine, **SIGNS) as bot:
        await seed(bot)
        tg.fail("sendMessageDraft", 400, "Bad Request: TEXTDRAFT_PEER_INVALID", times=99)
        calls = len(tg.calls())
        (answer,) = await bot.say(QUESTION, date=ASKED)
    turn = tg.calls()[calls:]
    statuses = [m for m in tg.sent(CHAT, deleted=True) if m.text.startswith("⏳")]
    assert len(statuses) == 1 and statuses[0].deleted and statuses[0].message_id < answer.message_id
    assert [c.method for c in turn].count("sendMessageDraft") == 1  # refused once, not tried again in the turn


async def test_a_draft_is_sent_again_before_it_fades(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A draft is a preview of about 30 seconds: a step that lasts longer is sent again, so it stays."""
    monkeypatch.setattr("adapters.telegram.progress.DRAFT_KEEP_S", 0.3)
    script_slow_model(fake)  # the answer is written for a second: three times the draft's (shortened) life
    async with sqlite_engine() as engine, running(tg, engine, **SIGNS) as bot:
        await seed(bot)
        before = len(tg.drafts(CHAT))
        await bot.say(QUESTION, date=ASKED)
    texts = [d.text for d in tg.drafts(CHAT)[before:]]
    writing = [t for t in texts if t.endswith("⏳ Writing the answer…")]
    assert len(writing) >= 2 and len(set(writing)) == 1  # the same draft, refreshed
