"""Whole conversations in a private Telegram chat: real application, fake Bot API, real engine, fake model."""

from __future__ import annotations

import csv
import io

import pytest

from engine import Answer
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import Delay, FakeOllama
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers import scripts
from tests.helpers.telegram import CHAT, USER, running

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


ME = f"tg:{USER}"


def clarify_script(fake: FakeOllama, *then: dict[str, object]) -> None:
    fake.script(scripts.router("LOG"))
    fake.script("ParserOutput", scripts.needs_exercise(), *then)
    fake.script(scripts.clarifier())


async def test_start_registers_commands_and_logs_in_english_and_korean(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    fake.script(scripts.router("LOG"), scripts.router("LOG"))
    fake.script(
        scripts.strength("bench press", 55, 10, 5),
        scripts.strength("벤치프레스", 60, 8, 3, date_text="어제"),
    )
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        assert [c["command"] for c in tg.commands][:4] == ["start", "help", "log", "ask"]
        (intro,) = await bot.say("/start")
        assert "What it keeps" in intro.text and "/forget" in intro.text and "/export" in intro.text
        (english,) = await bot.say("bench 55kg 10x5")
        assert english.text.startswith("✓ Logged ") and "bench press 55 kg × 10 reps × 5 sets" in english.text
        (korean,) = await bot.say("어제 벤치프레스 60키로 8x3")
        assert "bench press 60 kg × 8 reps × 3 sets" in korean.text
        assert await engine.entries.count(ME) == 2
    assert all(c.params.get("parse_mode") == "HTML" for c in tg.calls("sendMessage"))


async def test_clarification_answered_by_button(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    clarify_script(fake, scripts.strength("squat", 100, 5, 5))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (question,) = await bot.say("did 5x5 today at 100kg")
        assert question.text.startswith("Which exercise was that?")
        assert [b["text"] for b in question.buttons()] == ["Bench press", "Squat", "Deadlift", "Skip"]
        assert all(len(b["callback_data"].encode()) <= 64 for b in question.buttons())
        calls_before = len(tg.calls())
        (logged,) = await bot.press(question, "Squat")
        assert "squat 100 kg × 5 reps × 5 sets" in logged.text
        # The press was answered before anything else was sent or edited.
        after = [c.method for c in tg.calls()[calls_before:] if c.method not in ("sendChatAction",)]
        assert after.index("answerCallbackQuery") < after.index("editMessageText") < after.index("sendMessage")
        shown = tg.get(CHAT, question.message_id)
        assert shown.reply_markup is None and shown.text.endswith("✓ Squat")
        assert await engine.entries.count(ME) == 1


async def test_clarification_answered_by_typing_drops_the_buttons(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    clarify_script(fake, scripts.strength("deadlift", 140, 5, 5))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (question,) = await bot.say("did 5x5 today")
        (logged,) = await bot.say("데드리프트 140")
        assert "deadlift 140 kg" in logged.text
        shown = tg.get(CHAT, question.message_id)
        assert shown.reply_markup is None and shown.text.endswith("✓ 데드리프트 140")
    assert len(fake.calls("RouterOutput")) == 1  # the typed reply answered; it was not a new turn


async def test_skip_declines_and_keeps_a_note(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    clarify_script(fake)
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (question,) = await bot.say("did 5x5 today")
        (logged,) = await bot.press(question, "Skip")
        assert logged.text.startswith("✓ Logged")
        assert tg.get(CHAT, question.message_id).text.endswith("Skipped")
        (entry,) = await engine.entries.recent(ME)
        assert entry.kind == "note"


async def test_double_press_resumes_once(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    clarify_script(fake, scripts.strength("squat", 100, 5, 5))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (question,) = await bot.say("did 5x5 today")
        # Two taps before the first edit reaches the phone: both presses carry the keyboard.
        first = tg.press(CHAT, question.message_id, USER, "Squat")
        second = tg.press(CHAT, question.message_id, USER, "Bench press")
        await bot.feed(first, second)
        assert await engine.entries.count(ME) == 1
        alerts = [a for a in tg.answers() if a.get("show_alert")]
        assert len(alerts) == 1 and "already answered" in alerts[0]["text"]
        assert len(tg.answers()) == 2  # every press was answered, once
        (logged,) = bot.after(CHAT, question.message_id)
        assert "squat 100 kg × 5 reps × 5 sets" in logged.text


async def test_reset_then_old_button_is_stale(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    clarify_script(fake)
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (question,) = await bot.say("did 5x5 today")
        squat = question.buttons()[1]["callback_data"]
        (notice,) = await bot.say("/reset")
        assert notice.text.startswith("Started a fresh conversation")
        assert tg.get(CHAT, question.message_id).reply_markup is None  # the question was closed
        # A client that still shows the keyboard (e.g. another device) presses it.
        await bot.feed(tg.press(CHAT, question.message_id, USER, squat, force=True))
        (alert,) = tg.answers()[-1:]
        assert alert["show_alert"] and "no longer open" in alert["text"]
        assert await engine.entries.count(ME) == 0


async def test_restart_while_a_button_is_pending(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    clarify_script(fake, scripts.strength("bench press", 60, 5, 5))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (question,) = await bot.say("did 5x5 today")
        thread = await engine.conversations.thread_id(f"tg:{CHAT}")
    # Application and engine are gone; both come back on the same DATA_DIR.
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (logged,) = await bot.press(question, "Bench press")
        assert "bench press 60 kg × 5 reps × 5 sets" in logged.text
        assert await engine.conversations.thread_id(f"tg:{CHAT}") == thread
        assert tg.get(CHAT, question.message_id).reply_markup is None
        assert await engine.entries.count(ME) == 1


async def test_cancel_drops_the_question(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    clarify_script(fake)
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (question,) = await bot.say("did 5x5 today")
        replies = await bot.say("/cancel")
        assert replies and tg.get(CHAT, question.message_id).text.endswith("✗ Cancelled")
        (nothing,) = await bot.say("/cancel")
        assert nothing.text == "Nothing to cancel."


async def test_long_answer_is_split_under_the_limit(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    paragraph = "Bench <progress> & notes 💪 — " + "steady work, " * 30
    long_text = "\n\n".join(f"{i}. {paragraph}" for i in range(40))
    assert len(long_text) > 10_000
    fake.script(scripts.router("CHAT"))
    fake.script(scripts.chat(long_text))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        parts = await bot.say("tell me everything")
    assert len(parts) >= 3
    assert all(len(p.text.encode("utf-16-le")) // 2 <= 4096 for p in parts)
    assert all(p.html is not None for p in parts)  # every part parsed as HTML: no tag or entity was cut
    assert "".join(p.text for p in parts).replace("\n", "") == long_text.replace("\n", "")


async def test_export_sends_a_csv_document(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (empty,) = await bot.say("/export")
        assert "nothing to export" in empty.text
        await bot.say("bench 55kg 10x5")
        (doc,) = await bot.say("/export")
    assert doc.document is not None and doc.document[0].endswith(".csv")
    rows = list(csv.DictReader(io.StringIO(doc.document[1].decode("utf-8"))))
    assert {r["exercise"] for r in rows} == {"bench press"} and len(rows) == 5  # one row per set
    assert doc.text == "1 entry"


async def test_forget_asks_first_then_deletes(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        await bot.say("bench 55kg 10x5")
        (confirm,) = await bot.say("/forget")
        assert [b["text"] for b in confirm.buttons()] == ["Yes, delete everything", "No, keep it"]
        assert await bot.press(confirm, "No, keep it") == []
        assert await engine.entries.count(ME) == 1 and confirm.reply_markup is None
        (confirm,) = await bot.say("/forget")
        (done,) = await bot.press(confirm, "Yes, delete everything")
        assert done.text.startswith("Done: deleted 1 entry ")
        assert await engine.entries.count(ME) == 0


async def test_commands_timezone_help_and_unknown(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (usage,) = await bot.say("/timezone")
        assert "Usage" in usage.text
        (ok,) = await bot.say("/timezone America/New_York")
        assert ok.text.startswith("Time zone set to America/New_York")
        (bad,) = await bot.say("/tz Mars/Base")
        assert "not a time zone" in bad.text
        (hint,) = await bot.say("/frobnicate now")
        assert hint.text == "I don't know /frobnicate. /help lists what I understand."
        (help_,) = await bot.say("/help")
        assert "/log" in help_.text and "/forget" in help_.text
        (log_usage,) = await bot.say("/log")
        assert "Usage" in log_usage.text
        (retry,) = await bot.say("/retry")
        assert retry.text.startswith("Nothing to retry")
    assert fake.calls("RouterOutput") == []


async def test_log_and_ask_commands_are_messages(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    fake.script(scripts.router("LOG"), scripts.router("CHAT"))
    fake.script(scripts.strength("squat", 100, 5, 5))
    fake.script(scripts.chat("Squat more <often> & rest."))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (logged,) = await bot.say("/log\nsquat 100kg 5x5")  # the argument may start on the next line
        assert "squat 100 kg" in logged.text
        (answer,) = await bot.say("/ask what next?")
        assert answer.text == "Squat more <often> & rest."  # escaped on the way, intact on screen
    assert "squat 100kg 5x5" in fake.calls("RouterOutput")[0]["messages"][-1]["content"]


async def test_progress_in_a_group_shows_one_status_line_then_deletes_it(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    group = -100200  # drafts are for private chats: a group gets one status line
    fake.script("RouterOutput", Delay(0.4, scripts.router("LOG")))
    fake.script("ParserOutput", Delay(0.6, scripts.strength("squat", 100, 5, 5)))
    async with (
        sqlite_engine() as engine,
        running(tg, engine, status_after=0.2, status_every=0.3, typing_after=0.0, typing_every=0.25) as bot,
    ):
        (logged,) = await bot.say("squat 100kg 5x5", group, USER, mention=True)
    assert "squat 100 kg" in logged.text
    statuses = [m for m in tg.sent(group, deleted=True) if m.text.startswith("⏳")]
    assert len(statuses) == 1 and statuses[0].deleted  # one line, edited in place, gone after the answer
    assert statuses[0].message_id < logged.message_id
    # The step moved on: the entry being read, then saved.
    assert statuses[0].edits >= 1 and statuses[0].text in ("⏳ Reading your entry…", "⏳ Saving your entry…")
    edits = [c.at for c in tg.calls("editMessageText") if c.params["message_id"] == statuses[0].message_id]
    assert all(b - a >= 0.25 for a, b in zip(edits, edits[1:]))
    assert len(tg.calls("sendChatAction")) >= 2  # renewed while the turn ran
    assert tg.drafts() == []


async def test_answer_shows_cited_dates(sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram) -> None:
    from adapters.telegram.render import render
    from engine import Citation

    answer = Answer(
        text="You benched 52.5 kg on 2026-11-15.",
        citations=[Citation(title="bench", on=__import__("datetime").date(2026, 11, 15))],
        partial=True,
    )
    rendered = render(answer)
    assert rendered is not None and "From your entries of 2026-11-15" in rendered.html and "partial" in rendered.html
