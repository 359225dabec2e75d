"""``/almanac`` subcommands, privacy and access: help, usage, export to DMs, forget, allowlists, recovery."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from adapters.slack.store import SlackStore
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import FakeSlack
from tests.helpers import scripts
from tests.helpers.slack import ANN, BOB, CHANNEL, running

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


ME = f"slack:T0ALMANAC:{ANN}"


def log_script(fake: FakeOllama, n: int = 1) -> None:
    fake.script("RouterOutput", *[scripts.router("LOG")] * n)
    fake.script("ParserOutput", *[scripts.strength("bench press", 55, 10, 5)] * n)


async def test_help_usage_and_timezone_answer_privately(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        help_ = await ws.slash("")
        assert "/almanac log <text>" in help_.shown()
        assert (await ws.slash("help")).shown() == help_.shown()
        assert (await ws.slash("timezone")).shown() == "Usage: `/almanac timezone Asia/Seoul`"
        assert (await ws.slash("tz America/New_York")).body == ""
        assert ws.ephemeral_texts()[-1].startswith("Time zone set to America/New_York")
    assert slack.calls("chat.postMessage") == [] and fake.requests == []


async def test_export_in_a_channel_goes_to_the_members_dms(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    log_script(fake)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await ws.mention("bench 55kg 10x5")
        channel_posts = len(slack.messages(CHANNEL))
        await ws.slash("export")
        assert len(slack.messages(CHANNEL)) == channel_posts  # nothing of it in the channel
    (upload,) = slack.files
    assert upload["channel"] == "D0ANN" and upload["filename"].endswith(".csv")
    rows = list(csv.DictReader(io.StringIO(upload["content"].decode("utf-8"))))
    assert {r["exercise"] for r in rows} == {"bench press"} and len(rows) == 5
    assert ws.ephemeral_texts()[-1] == "Your export is in your direct messages with me."


async def test_forget_asks_with_a_confirm_button_then_deletes(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    log_script(fake)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await ws.mention("bench 55kg 10x5")
        confirm = (await ws.slash("forget")).json()
        assert await engine.entries.count(ME) == 1  # nothing happens before the confirmation
        button = confirm["blocks"][-1]["elements"][0]
        assert button["style"] == "danger" and button["confirm"]["confirm"]["text"] == "Delete"
        await ws.press_ephemeral(confirm["blocks"], "Delete everything")
        assert await engine.entries.count(ME) == 0
    texts = ws.ephemeral_texts()
    assert "Deleting everything…" in texts and any(t.startswith("Done: deleted 1 entry") for t in texts)


async def test_unknown_users_and_workspaces_are_refused_and_nothing_is_stored(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    log_script(fake)
    async with (
        sqlite_engine() as engine,
        running(slack, engine, tmp_path / "data", allowed_users=[ANN], allowed_teams=["T0ALMANAC"]) as ws,
    ):
        refusal = await ws.slash("log bench 55kg 10x5", user=BOB)
        assert refusal.shown().startswith("Sorry, this Almanac is private")
        await ws.mention("bench 55kg 10x5", user=BOB)
        await ws.mention("bench 55kg 10x5", user=BOB)  # one refusal, then silence
        assert ws.ephemeral_texts(BOB)[-1].startswith("Sorry") and len(slack.ephemeral) == 1
        assert await engine.entries.count(f"slack:T0ALMANAC:{BOB}") == 0 and fake.requests == []
        ts = await ws.mention("bench 55kg 10x5")
        assert "bench press 55 kg" in ws.thread(ts)[0].shown()
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data2", allowed_teams=["T0OTHER"]) as ws:
        await ws.mention("bench 55kg 10x5")
        assert len(fake.calls("RouterOutput")) == 1  # the other workspace's post went nowhere


async def test_slash_command_where_almanac_is_not_a_member_answers_through_response_url(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    log_script(fake)
    slack.not_in_channel.add("C0PRIVATE")
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await ws.slash("log bench 55kg 10x5", channel="C0PRIVATE")
        assert slack.messages("C0PRIVATE") == []
        (response,) = slack.responses
        assert "bench press 55 kg" in response["text"] and response["response_type"] == "ephemeral"
        assert await engine.entries.count(ME) == 1


async def test_an_acknowledged_post_interrupted_by_a_crash_runs_at_the_next_start(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    log_script(fake)
    data = tmp_path / "data"
    data.mkdir()
    # What a crash right after the ack leaves behind: the intake row, still pending.
    store = await SlackStore.open(data / "slack.db")
    spec = {
        "kind": "post",
        "place": {"team": "T0ALMANAC", "channel": CHANNEL, "thread_ts": "1800000000.000100", "user": ANN},
        "text": "bench 55kg 10x5",
        "ts": "1800000000.000100",
        "at": 1_800_000_000.0,
    }
    await store.accept(["event:Ev0CRASHED"], f"slack:T0ALMANAC:{CHANNEL}:1800000000.000100:{ANN}", spec)
    await store.close()
    async with sqlite_engine() as engine, running(slack, engine, data) as ws:
        await ws.settle()
        assert "bench press 55 kg" in ws.thread("1800000000.000100")[0].shown()
        await ws.mention("bench 55kg 10x5", ts="1800000000.000100", event_id="Ev0CRASHED", retry_num=2)
        assert await engine.entries.count(ME) == 1  # Slack's retry of it is recognised
    async with sqlite_engine() as engine, running(slack, engine, data) as ws:
        await ws.settle()
        assert len(ws.thread("1800000000.000100")) == 1  # done rows do not run again


async def test_a_question_where_almanac_is_not_a_member_is_answered_on_the_ephemeral_message(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.needs_exercise(), scripts.strength("squat", 100, 5, 5))
    fake.script(scripts.clarifier())
    slack.not_in_channel.add("C0PRIVATE")
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await ws.slash("log did 5x5 today", channel="C0PRIVATE")
        (question,) = slack.responses
        assert question["text"] == "Which exercise was that?"
        await ws.press_ephemeral(question["blocks"], "Squat", channel="C0PRIVATE")
        replaced, logged = slack.responses[1:]
        assert replaced["replace_original"] is True and "✓ Squat" in str(replaced["blocks"])
        assert "squat 100 kg" in logged["text"] and await engine.entries.count(ME) == 1
    assert slack.calls("chat.update") == []
