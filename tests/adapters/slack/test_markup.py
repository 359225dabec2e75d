"""Nothing a person, an import or the model wrote is live markup in Slack.

``<!channel>`` in an exercise name would ping the whole channel and
``<https://…|click>`` in an answer would be a disguised link. Every text that
comes from data or a model reaches the Web API with ``&``, ``<`` and ``>``
escaped: in the message's ``text`` (what notifications show) and in every
``mrkdwn`` and ``markdown`` text of its blocks. Button labels are
``plain_text``, which Slack never parses for mentions or links.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import FakeSlack
from tests.helpers import scripts
from tests.helpers.slack import ANN, CHANNEL, DM, running

pytestmark = pytest.mark.model_reads

LIVE = ("<!channel>", "<!here>", "<https://evil.example|click>")
NAME = "<!channel> press & <!here> <https://evil.example|click>"
ESCAPED = "&lt;!channel&gt;"
SENDS = ("chat.postMessage", "chat.update", "chat.postEphemeral", "respond")


def markup(params: dict[str, Any]) -> Iterator[str]:
    """Every text of a call that Slack parses as markup: ``text`` and each mrkdwn or markdown text in its blocks."""
    yield str(params.get("text", ""))

    def walk(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            if node.get("type") in ("mrkdwn", "markdown") and isinstance(node.get("text"), str):
                yield node["text"]
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for item in node:
                yield from walk(item)

    yield from walk(params.get("blocks") or [])


def live_markup(slack: FakeSlack) -> list[str]:
    """Texts sent to Slack that still hold one of the live strings."""
    return [t for c in slack.calls() if c.method in SENDS for t in markup(c.params) if any(s in t for s in LIVE)]


async def test_a_name_from_the_log_and_the_models_words_reach_slack_escaped(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    fake.script(scripts.router("LOG"), scripts.router("CHAT"), scripts.router("LOG"))
    fake.script(
        scripts.needs_exercise(),
        scripts.strength(NAME, 100, 5, 5),
        scripts.needs_exercise(),
        scripts.strength(NAME, 60, 5, 5),
    )
    fake.script("ClarifierOutput", *[scripts.clarifier(f"Was it {NAME}?", options=[NAME, "Squat"])] * 2)
    fake.script(scripts.chat(f"Nice — {NAME} again."))
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("did 5x5 today at 100kg")
        (question,) = ws.thread(ts)
        assert ESCAPED in question.text and ESCAPED in question.blocks[0]["text"]["text"]
        await ws.press(question, NAME)  # the label shows in the closed question, and the name is logged
        closed = slack.message(CHANNEL, question.ts)
        assert ESCAPED in closed.text and ESCAPED in closed.blocks[-1]["elements"][0]["text"]
        logged = ws.thread(ts)[-1]
        assert logged.shown().startswith("✓ Logged ") and ESCAPED in logged.text and ESCAPED in logged.shown()

        await ws.post("what do you think?", channel=DM)
        (answer,) = slack.messages(DM)
        assert ESCAPED in answer.text and ESCAPED in answer.blocks[0]["text"]
        assert "&lt;https://evil.example|click&gt;" in answer.blocks[0]["text"]

        ts = await ws.mention("did 5x5 today at 60kg")
        (question,) = ws.thread(ts)
        await ws.post(NAME, thread_ts=ts)  # typed, not pressed: the closed question quotes it
        closed = slack.message(CHANNEL, question.ts)
        assert closed.buttons() == [] and ESCAPED in closed.text and ESCAPED in closed.shown()
    assert live_markup(slack) == []
    assert slack.errors == []


async def test_a_plans_title_and_the_persons_revision_reach_slack_escaped(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    today = datetime.now(ZoneInfo("Asia/Seoul")).date()
    week = [(today + timedelta(days=d)).isoformat() for d in (1, 3, 5)]
    plan = scripts.former(
        goal=NAME,
        operations=[scripts.op_plan(d, weight=w) for d, w in zip(week, (57.5, 60, 62.5))],
        assumptions=[scripts.assumption("current working weight is 55 kg", source=today.isoformat())],
    )
    fake.script(scripts.router("TASK", ["strength"]))
    fake.script("TaskFormationOutput", plan, plan)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        days = ((7, 52.5), (0, 55))
        await engine.entries.add(
            f"slack:T0ALMANAC:{ANN}",
            [scripts.bench_entry(today - timedelta(days=d), w, source_key=f"seed:{d}") for d, w in days],
        )
        ts = await ws.mention("plan my next week of bench, I want 70kg for 5")
        request = ws.thread(ts)[-1]
        assert request.shown().startswith("*Plan: "), request.shown()
        await ws.press(request, "Revise")
        (view_id,) = slack.views
        await ws.submit_view(view_id, f"less {NAME} please")
        revised = slack.message(CHANNEL, request.ts)
        assert "✎ Revise: less " in revised.text and ESCAPED in revised.text and ESCAPED in revised.shown()
    assert live_markup(slack) == []
    assert slack.errors == []
