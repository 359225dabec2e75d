"""`/chart bench` in Slack with the real engine on an imported Strong history: the PNG is uploaded the
files_upload_v2 way (to the member's DMs for a slash command, into the thread for a mention), its
comment stating the true best and latest figures, with no model call."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from tests.conftest import OpenEngine
from tests.engine.facts.test_history import import_history
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import FakeSlack
from tests.helpers.slack import ANN, CHANNEL, running

ME = f"slack:T0ALMANAC:{ANN}"
TRUE_BEST = "best 110.8 kg on 2025-06-07 (from 95 kg × 5)"  # by hand: see tests/engine/test_charts.py
TRUE_LATEST = "latest 110.8 kg (2026-10-10)"


def is_png(content: bytes) -> bool:
    with Image.open(io.BytesIO(content)) as image:
        return image.format == "PNG" and image.size == (900, 500)


async def test_chart_bench_uploads_a_png_with_the_true_figures(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await import_history(engine.entries.db, ME)
        await ws.slash("chart bench all time")
        ts = await ws.mention("show my bench progress")
    private, threaded = slack.files
    assert is_png(private["content"]) and is_png(threaded["content"])
    assert private["channel"] != CHANNEL  # a slash command's chart goes to the member, not the channel
    assert TRUE_BEST in private["comment"] and TRUE_LATEST in private["comment"]
    assert private["title"] == "bench press: estimated 1RM and top set per session" and private["alt_txt"]
    assert (threaded["channel"], threaded["thread_ts"]) == (CHANNEL, ts)
    assert "the last 12 months" in threaded["comment"]
    assert slack.errors == [] and fake.titles() == []
