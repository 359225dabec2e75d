"""The default path in Slack: a log code reads is stored and confirmed in the thread with no model call."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import FakeSlack
from tests.helpers import scripts
from tests.helpers.slack import ANN, DM, running

ME = f"slack:T0ALMANAC:{ANN}"


async def test_logs_code_reads_need_no_model(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    fake.default(scripts.router("CHAT"))  # a model that would read these wrong
    fake.default(scripts.strength("bench press", 60, 8, 2))
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("bench 55kg 10x5")
        (english,) = ws.thread(ts)
        assert english.shown().startswith("✓ Logged ") and "bench press 55 kg × 10 reps × 5 sets" in english.shown()
        await ws.post("벤치프레스 55키로 10회 5세트", channel=DM)
        (korean,) = ws.slack.messages(DM)
        assert "bench press 55 kg × 10 reps × 5 sets" in korean.shown()
        assert await engine.entries.count(ME) == 2
    assert ws.slack.errors == [] and fake.titles() == []


async def test_almanac_next_gives_the_target_computed_from_the_log_with_no_model(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await ws.post("bench 60kg 5x5", channel=DM)
        assert (await ws.slash("next bench")).body == ""
        assert ws.ephemeral_texts()[-1].startswith("Next bench press: 5 × 5 at 62.5 kg — linear progression: ")
        target, hint = ws.ephemeral_texts()[-1].splitlines()
        assert target.endswith(", +2.5 kg (upper body).")
        assert hint == "To plan it: “plan my next bench press session” (or “add that to my plan”)."
        await ws.slash("next 벤치")
        assert ws.ephemeral_texts()[-1].startswith("다음 벤치프레스: 62.5 kg로 5회 × 5세트 — 선형 증량")
        await ws.slash("next squat")
        assert ws.ephemeral_texts()[-1].startswith("You haven't logged squat yet")
        await ws.slash("next xyzzy")
        assert "I don't know a lift called “xyzzy”" in ws.ephemeral_texts()[-1]
        assert (await ws.slash("next")).shown() == "Usage: `/almanac next bench`"
    assert ws.slack.errors == [] and fake.titles() == []


async def test_a_record_is_shown_under_the_confirmation(
    sqlite_engine: OpenEngine, slack: FakeSlack, tmp_path: Path
) -> None:
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await ws.post("bench 55kg 10x5", channel=DM)
        await ws.post("bench 60kg 5x5", channel=DM)
        first, record = ws.slack.messages(DM)
        assert first.shown().splitlines()[1:] == ["🆕 First time logged: bench press."]
        logged, line = record.shown().splitlines()
    assert logged.startswith("✓ Logged ") and "bench press 60 kg × 5 reps × 5 sets" in logged
    assert line.startswith("🏆 New heaviest bench press: 60 kg × 5 (before: 55 kg × 10, ")
    assert ws.slack.errors == []
