"""Plans with Approve / Revise (a modal) / Cancel (a confirm dialog), end to end in a Slack thread."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from engine import Engine
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import FakeSlack, Posted
from tests.helpers import scripts
from tests.helpers.slack import ANN, BOB, CHANNEL, Workspace, running

TODAY = datetime.now(ZoneInfo("Asia/Seoul")).date()  # the test engine's default zone
WEEK = [(TODAY + timedelta(days=d)).isoformat() for d in (1, 3, 5)]


def key(user: str) -> str:
    return f"slack:T0ALMANAC:{user}"


def plan(weights: tuple[float, ...] = (57.5, 60, 62.5)) -> dict[str, Any]:
    return scripts.former(
        operations=[scripts.op_plan(d, weight=w) for d, w in zip(WEEK, weights)],
        assumptions=[scripts.assumption("current working weight is 55 kg", source=TODAY.isoformat())],
    )


def script_plans(fake: FakeOllama, *plans: dict[str, Any], asks: int = 1) -> None:
    fake.script("RouterOutput", *[scripts.router("TASK", ["strength"])] * asks)
    fake.script("TaskFormationOutput", *plans)


async def seed(engine: Engine, user: str = ANN) -> None:
    entries = [
        scripts.bench_entry(TODAY - timedelta(days=d), w, source_key=f"seed:{d}") for d, w in ((7, 52.5), (0, 55))
    ]
    await engine.entries.add(key(user), entries)


async def planned(engine: Engine, user: str = ANN) -> list[str]:
    entries = await engine.entries.between(key(user), TODAY, TODAY + timedelta(days=7), kinds=("planned",))
    return [e.occurred_on.isoformat() for e in entries if e.kind == "planned"]


async def ask_for_plan(ws: Workspace, user: str = ANN, thread_ts: str | None = None) -> tuple[str, Posted]:
    ts = await ws.mention("plan my next week of bench, I want 70kg for 5", user=user, thread_ts=thread_ts)
    request = ws.thread(thread_ts or ts)[-1]
    assert request.shown().startswith("*Plan: "), request.shown()
    return thread_ts or ts, request


async def test_approve_commits_once_and_shows_who_approved(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    script_plans(fake, plan())
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await seed(engine)
        ts, request = await ask_for_plan(ws)
        assert [b["text"]["text"] for b in request.buttons()] == ["Approve", "Revise", "Cancel"]
        assert "Confidence " in request.shown() and await planned(engine) == []
        await ws.press(request, "Approve")
        assert await planned(engine) == WEEK
        shown = slack.message(CHANNEL, request.ts)
        assert shown.buttons() == [] and f"✓ Approved by <@{ANN}>" in shown.shown() and "<!date^" in shown.shown()
        assert len(ws.thread(ts)) >= 2  # the confirmation follows in the thread


async def test_revise_opens_a_modal_first_then_the_feedback_revises(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    script_plans(fake, plan(), plan((56, 57, 58)))
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await seed(engine)
        ts, request = await ask_for_plan(ws)
        start = len(slack.calls())
        await ws.press(request, "Revise")
        assert [c.method for c in slack.calls()[start:]] == ["views.open"]  # nothing before it, nothing else yet
        (view_id,) = slack.views
        empty = await ws.submit_view(view_id, "   ")
        assert empty.json() == {
            "response_action": "errors",
            "errors": {"feedback": "Say what should change — or close this and press Cancel on the plan."},
        }
        assert slack.message(CHANNEL, request.ts).buttons() != []  # still open
        ok = await ws.submit_view(view_id, "smaller jumps please")
        assert ok.status == 200 and ok.body == ""
        assert "✎ Revise: smaller jumps please" in slack.message(CHANNEL, request.ts).shown()
        revised = ws.thread(ts)[-1]
        assert "56 kg" in revised.shown() and [b["text"]["text"] for b in revised.buttons()] == [
            "Approve",
            "Revise",
            "Cancel",
        ]
        await ws.press(revised, "Approve")
        assert await planned(engine) == WEEK
    assert "smaller jumps please" in str(fake.calls("TaskFormationOutput")[1]["messages"])


async def test_cancel_has_a_confirm_dialog_and_changes_nothing(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    script_plans(fake, plan())
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await seed(engine)
        _, request = await ask_for_plan(ws)
        cancel = request.buttons()[-1]
        assert cancel["style"] == "danger" and cancel["confirm"]["title"]["text"] == "Cancel this plan?"
        await ws.press(request, "Cancel")  # what Slack sends after the person confirmed
        assert await planned(engine) == []
    assert "✗ Cancelled" in slack.message(CHANNEL, request.ts).shown()


async def test_in_a_shared_thread_each_member_has_their_own_plan(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    script_plans(fake, plan(), plan((56, 57, 58)), asks=2)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await seed(engine, ANN)
        await seed(engine, BOB)
        ts, anns = await ask_for_plan(ws, ANN)
        _, bobs = await ask_for_plan(ws, BOB, thread_ts=ts)  # Ann's open plan does not block Bob
        await ws.press(anns, "Approve", user=BOB)
        assert ws.ephemeral_texts(BOB)[-1] == "Only the person who was asked can answer that."
        await ws.press(bobs, "Approve", user=BOB)
        assert await planned(engine, BOB) == WEEK and await planned(engine, ANN) == []
        await ws.press(anns, "Revise", user=BOB)
        assert slack.views == {}  # no modal for someone else's plan
