"""``/almanac forget`` in a DM and in a channel thread: the person's words leave every store Almanac keeps.

After the confirmed forget no SQLite file in ``DATA_DIR`` (the engine's
entries and turns, the conversation checkpoints, the Slack adapter's
``slack.db``) holds a word the person wrote, and the next turn in the same
place reaches the model without them. What is not the person's stays: another
member's words in the same thread, and Almanac's ownership of the thread.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import TEAM, FakeSlack
from tests.helpers import scripts
from tests.helpers.slack import ANN, BOB, CHANNEL, DM, running

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


SECRET, OTHER = "PAPAYA", "MANGO"
"""Words only Ann (SECRET) or only Bob (OTHER) wrote."""
ME = f"slack:{TEAM}:{ANN}"


def holding(data_dir: Path, word: str) -> list[str]:
    """``file:table.column`` of every SQLite file in ``data_dir`` whose rows still contain ``word``.

    As written or lower-cased (a full-text index keeps lower-cased terms). Virtual tables are
    read through what holds their rows: their content table and their own shadow tables.
    """
    found = []
    for path in sorted(data_dir.glob("*.db")):
        db = sqlite3.connect(path)
        try:
            tables = [
                str(r[0])
                for r in db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'"
                )
            ]
            for table in tables:
                for column in [str(r[1]) for r in db.execute(f"PRAGMA table_info('{table}')")]:
                    sql = (
                        f'SELECT count(*) FROM "{table}" WHERE instr(CAST("{column}" AS BLOB), CAST(? AS BLOB)) > 0'
                        f' OR instr(CAST("{column}" AS BLOB), CAST(? AS BLOB)) > 0'
                    )
                    if db.execute(sql, (word, word.lower())).fetchone()[0]:
                        found.append(f"{path.name}:{table}.{column}")
        finally:
            db.close()
    return found


def seen_by_model(fake: FakeOllama, title: str) -> str:
    """Everything the model was sent in its latest ``title`` call."""
    return json.dumps(fake.calls(title)[-1]["messages"], ensure_ascii=False)


async def test_forget_in_a_dm_wipes_the_persons_words_and_the_next_turn_starts_afresh(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    fake.script(scripts.router("LOG"), scripts.router("CHAT"), scripts.router("CHAT"))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    fake.script(scripts.chat("Nice name."), scripts.chat("I don't know."))
    async with sqlite_engine() as engine, running(slack, engine, data) as ws:
        await ws.post(f"bench 55kg 10x5 at {SECRET} gym", channel=DM)
        await ws.post(f"my gym is called {SECRET}", channel=DM)
        assert SECRET in seen_by_model(fake, "RouterOutput")  # the second turn saw the first one's words
        kept = holding(data, SECRET)
        assert any(p.startswith("almanac.db:") for p in kept) and any(p.startswith("checkpoints.db:") for p in kept)

        confirm = (await ws.slash("forget", channel=DM)).json()
        await ws.press_ephemeral(confirm["blocks"], "Delete everything", channel=DM)
        assert await engine.entries.count(ME) == 0
        assert holding(data, SECRET) == []

        await ws.post("what is my gym called?", channel=DM)
        assert SECRET not in seen_by_model(fake, "RouterOutput")
        assert SECRET not in seen_by_model(fake, "ChatOutput")
        assert ws.slack.messages(DM)[-1].shown() == "I don't know."
    assert any(t.startswith("Done: deleted 1 entry") for t in ws.ephemeral_texts())


async def test_forget_typed_in_a_channel_wipes_the_members_thread_but_not_the_others(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    fake.script("RouterOutput", *[scripts.router(r) for r in ("LOG", "CHAT", "LOG", "LOG", "CHAT")])
    fake.script(
        scripts.strength("bench press", 55, 10, 5), scripts.strength("squat", 60, 5, 5), scripts.needs_exercise()
    )
    fake.script(scripts.clarifier())
    fake.script(scripts.chat("Nice name."), scripts.chat("I don't know."))
    async with sqlite_engine() as engine, running(slack, engine, data) as ws:
        thread = await ws.mention(f"bench 55kg 10x5 at {SECRET} gym")
        await ws.post(f"my gym is called {SECRET}", thread_ts=thread)  # a follow-up, no mention
        await ws.post(f"squat 60kg 5x5 at {OTHER}", user=BOB, thread_ts=thread)
        other = await ws.mention(f"5x5 at {SECRET} today")  # another thread, a question left open there
        asked = f"slack:{TEAM}:{CHANNEL}:{other}:{ANN}"
        assert (await ws.adapter.store.prompt(asked)) is not None
        assert holding(data, SECRET) and holding(data, OTHER)

        confirm = (await ws.slash("forget")).json()  # typed in the channel, not in the thread
        await ws.press_ephemeral(confirm["blocks"], "Delete everything")
        assert await engine.entries.count(ME) == 0
        assert await engine.entries.count(f"slack:{TEAM}:{BOB}") == 1
        assert holding(data, SECRET) == []
        assert await ws.adapter.store.prompt(asked) is None
        assert any(p.startswith("almanac.db:") for p in holding(data, OTHER))  # Bob's words are his

        # Almanac still takes part in the thread: Ann's next reply there needs no mention, and starts afresh.
        assert await ws.adapter.store.owns(TEAM, CHANNEL, thread)
        await ws.post("what is my gym called?", thread_ts=thread)
        assert SECRET not in seen_by_model(fake, "RouterOutput")
        assert ws.thread(thread)[-1].shown() == "I don't know."
