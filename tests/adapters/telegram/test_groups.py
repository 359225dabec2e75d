"""Groups, forum topics and the allowlist: who Almanac hears, whose buttons count, whose entries are whose."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from adapters.telegram.keyboards import Press
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers import scripts
from tests.helpers.telegram import running

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


GROUP, FORUM = -100200, -100300
ANN, BOB = 1, 2


async def test_group_hears_mentions_replies_and_commands_only(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    tg.set_chat_type(GROUP, "supergroup")
    fake.default(scripts.router("LOG"))
    fake.default(scripts.strength("bench press", 55, 10, 5))
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        assert await bot.say("bench 55kg 10x5", GROUP, ANN) == []  # chatter between members
        assert fake.calls("RouterOutput") == []
        (logged,) = await bot.say("bench 55kg 10x5", GROUP, ANN, mention=True)
        assert logged.text.startswith("✓ Logged") and logged.reply_to is not None  # quotes Ann's message
        (again,) = await bot.say("bench 55kg 10x5 again", GROUP, BOB, reply_to=logged.message_id)
        assert again.text.startswith("✓ Logged")
        (by_command,) = await bot.say(f"/log@{tg.username} bench 55kg 10x5", GROUP, BOB)
        assert by_command.text.startswith("✓ Logged")
        assert await bot.say("/log@other_bot bench", GROUP, BOB) == []
        assert await bot.say("/dance", GROUP, BOB) == []  # maybe another bot's; not for us to answer
        (hint,) = await bot.say(f"/dance@{tg.username}", GROUP, BOB)
        assert "/help" in hint.text
        # Each member's entries are their own.
        assert await engine.entries.count(f"tg:{ANN}") == 1 and await engine.entries.count(f"tg:{BOB}") == 2
    # The mention itself was not part of what the engine read.
    assert all(tg.username not in c["messages"][-1]["content"] for c in fake.calls("RouterOutput"))


async def test_foreign_press_in_a_group_changes_nothing(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    tg.set_chat_type(GROUP, "supergroup")
    fake.script(scripts.router("LOG"))
    fake.script(scripts.needs_exercise(), scripts.strength("squat", 100, 5, 5))
    fake.script(scripts.clarifier())
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (question,) = await bot.say("did 5x5 today", GROUP, ANN, mention=True)
        # Bob presses Ann's button: the owner is in the callback data, so the alert comes at once.
        assert await bot.press(question, "Bench press", BOB) == []
        alert = tg.answers()[-1]
        assert alert["show_alert"] and alert["text"] == "Only the person who was asked can answer that."
        assert question.reply_markup is not None and question.edits == 0
        # A button without an owner (an older client, a long id): the engine refuses and says why.
        ownerless = Press("choice", Press.parse(question.buttons()[0]["callback_data"]).interrupt_id, 0).data()  # type: ignore[union-attr]
        await bot.feed(tg.press(GROUP, question.message_id, BOB, ownerless, force=True))
        assert tg.answers()[-1]["text"] == "Only the person who was asked can answer that."
        # Bob typing a reply to the question does not answer it either: in a group each member's
        # exchange is its own conversation, so it is a message of Bob's, and Ann's question stays open.
        fake.script(scripts.router("CHAT"))
        fake.script(scripts.chat("Hi Bob!"))
        (own,) = await bot.say("hello", GROUP, BOB, reply_to=question.message_id)
        assert own.text == "Hi Bob!" and question.reply_markup is not None
        # Ann's press still works: the refused presses did not claim the message.
        (logged,) = await bot.press(question, "Squat", ANN)
        assert "squat 100 kg" in logged.text
        assert await engine.entries.count(f"tg:{ANN}") == 1 and await engine.entries.count(f"tg:{BOB}") == 0


async def test_each_forum_topic_is_its_own_conversation(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    tg.set_chat_type(FORUM, "forum")
    fake.script(scripts.router("LOG"), scripts.router("LOG"))
    fake.script(scripts.needs_exercise(), scripts.strength("squat", 100, 5, 5))
    fake.script(scripts.clarifier())
    async with sqlite_engine() as engine, running(tg, engine) as bot:
        (question,) = await bot.say("did 5x5 today", FORUM, ANN, topic=7, mention=True)
        assert question.thread_id == 7
        # The same person in another topic starts a new turn there; the question in topic 7 stays open.
        (logged,) = await bot.say("squat 100kg 5x5", FORUM, ANN, topic=9, mention=True)
        assert logged.thread_id == 9 and logged.text.startswith("✓ Logged")
        assert question.reply_markup is not None
        assert await engine.conversations.thread_id(f"tg:{FORUM}:7") != await engine.conversations.thread_id(
            f"tg:{FORUM}:9"
        )
    assert all(c.params.get("message_thread_id") in (7, 9) for c in tg.calls("sendMessage"))


async def test_allowlist_refuses_once_and_stores_nothing(
    sqlite_engine: OpenEngine, fake: FakeOllama, tg: FakeTelegram
) -> None:
    tg.set_chat_type(GROUP, "supergroup")
    fake.default(scripts.router("LOG"))
    fake.default(scripts.strength("bench press", 55, 10, 5))
    stranger = 999
    async with sqlite_engine() as engine, running(tg, engine, allowed_users=[str(ANN)]) as bot:
        (refusal,) = await bot.say("bench 55kg 10x5", stranger, stranger)
        assert "private" in refusal.text
        assert await bot.say("hello?", stranger, stranger) == []  # one refusal, not one per message
        assert await bot.say("/export", stranger, stranger) == []
        # Ann may; in the group Ann's question cannot be answered by the stranger either.
        (logged,) = await bot.say("bench 55kg 10x5", GROUP, ANN, mention=True)
        await bot.feed(tg.press(GROUP, logged.message_id, stranger, "a:" + "0" * 32 + ":0", force=True))
        assert tg.answers()[-1]["show_alert"] and "private" in tg.answers()[-1]["text"]
        db_path = engine.config.entries_db
    assert len(fake.calls("RouterOutput")) == 1  # only Ann's message reached the model
    assert rows_mentioning(db_path, f"tg:{stranger}") == {}
    assert rows_mentioning(db_path, f"tg:{ANN}")  # the check does find what is there


def rows_mentioning(db_path: Path, needle: str) -> dict[str, int]:
    """Rows of every table in the database that contain ``needle`` anywhere."""
    found: dict[str, int] = {}
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as db:
        tables = [
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'"
            )
        ]
        for table in tables:
            for row in db.execute(f'SELECT * FROM "{table}"'):
                if any(isinstance(v, str) and needle in v for v in row):
                    found[table] = found.get(table, 0) + 1
    return found
