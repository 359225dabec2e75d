"""Almanac's Home tab in Slack: opening it publishes the member's summary of last week (``views.publish``,
recorded by the fake), a log publishes it again, the Messages tab and refused members publish nothing."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from engine.store.entries import EntryStore
from engine.summary.weekly import last_week
from tests.conftest import OpenEngine
from tests.engine.summary.seeded import lift, sets
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import TEAM, FakeSlack
from tests.helpers.slack import ANN, BOB, DM, running

ME = f"slack:{TEAM}:{ANN}"


def texts(view: dict[str, object]) -> list[str]:
    blocks = view["blocks"]
    assert isinstance(blocks, list)
    out = []
    for b in blocks:
        if b["type"] == "header" or b["type"] == "section":
            out.append(b["text"]["text"])
        elif b["type"] == "context":
            out += [e["text"] for e in b["elements"]]
    return out


async def test_home_shows_last_week_and_is_refreshed_after_a_log(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    # Last week as the engine will read it now (the engine's default zone is UTC): two bench sessions there.
    monday = last_week("UTC", datetime.now(timezone.utc))
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await EntryStore(engine.db).add(
            ME,
            [
                lift(monday, "bench press", sets(60, 5, 5)),
                lift(monday + timedelta(days=2), "bench press", sets(62.5, 5, 5)),
            ],
        )
        await ws.event({"type": "app_home_opened", "user": ANN, "channel": DM, "tab": "home"})
        (first,) = slack.homes(ANN)
        await ws.post("squat 100kg 5x5", channel=DM)
        homes = slack.homes(ANN)
        await ws.event({"type": "app_home_opened", "user": ANN, "channel": DM, "tab": "messages"})
        after_messages_tab = slack.homes(ANN)
    shown = texts(first)
    assert first["type"] == "home" and shown[0] == "Your week"
    end = monday + timedelta(days=6)
    lines = shown[1].split("\n")
    assert lines[0] == f"Last week ({monday.isoformat()} to {end.isoformat()})"
    # 60 × 5 × 5 + 62.5 × 5 × 5 = 1,500 + 1,562.5 = 3,062.5 kg, nothing in the 4 weeks before.
    assert lines[1:3] == ["Sessions: 2 training days logged (none planned)", "PRs: none"]
    assert lines[3] == "Volume (weight × reps of working sets): 3,062.5 kg (nothing logged in the 4 weeks before)"
    assert len(homes) == 2 and texts(homes[1])[1].split("\n")[0] == lines[0]  # published again after the log
    assert len(after_messages_tab) == 2
    assert slack.errors == [] and fake.titles() == []


async def test_a_refused_member_gets_no_home(sqlite_engine: OpenEngine, slack: FakeSlack, tmp_path: Path) -> None:
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data", allowed_users=[ANN]) as ws:
        await ws.event({"type": "app_home_opened", "user": BOB, "channel": "D0BOB", "tab": "home"})
        await ws.event({"type": "app_home_opened", "user": ANN, "channel": DM, "tab": "home"})
    assert slack.homes(BOB) == [] and len(slack.homes(ANN)) == 1
