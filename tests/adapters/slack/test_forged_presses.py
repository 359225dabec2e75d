"""A press acts as the person who pressed, whatever its button's value says.

Slack signs who pressed (``user.id``) and where (the container's channel);
the value is ours, but it comes back in the request, so it is read as a
claim: its owner may refuse a press by someone else, never let one through,
and its conversation must be the presser's own in the channel pressed in.
Every forged field below is refused or acts only as the presser: on plan
buttons, on the Revise modal's submission and on the ``/almanac forget``
confirmation.
"""

from __future__ import annotations

import copy
import json
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from adapters.slack.actions import Press
from engine import Engine
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import TEAM, FakeSlack, Posted
from tests.helpers import scripts
from tests.helpers.slack import ANN, BOB, CHANNEL, DM, Workspace, running

TODAY = datetime.now(ZoneInfo("Asia/Seoul")).date()  # the test engine's default zone
WEEK = [(TODAY + timedelta(days=d)).isoformat() for d in (1, 3, 5)]
BOBS_DM = "D0BOB"
NOT_YOURS = "Only the person who was asked can answer that."


def key(user: str) -> str:
    return f"slack:{TEAM}:{user}"


async def seed(engine: Engine, user: str) -> None:
    days = ((7, 52.5), (0, 55))
    await engine.entries.add(
        key(user), [scripts.bench_entry(TODAY - timedelta(days=d), w, source_key=f"seed:{d}") for d, w in days]
    )


async def planned(engine: Engine, user: str) -> list[str]:
    entries = await engine.entries.between(key(user), TODAY, TODAY + timedelta(days=7), kinds=("planned",))
    return [e.occurred_on.isoformat() for e in entries if e.kind == "planned"]


def script_plans(fake: FakeOllama, count: int) -> None:
    plan = scripts.former(
        operations=[scripts.op_plan(d, weight=w) for d, w in zip(WEEK, (57.5, 60, 62.5))],
        assumptions=[scripts.assumption("current working weight is 55 kg", source=TODAY.isoformat())],
    )
    fake.script("RouterOutput", *[scripts.router("TASK", ["strength"])] * count)
    fake.script("TaskFormationOutput", *[plan] * count)


def approve_of(message: Posted) -> Press:
    press = Press.parse(message.buttons()[0]["action_id"], message.buttons()[0]["value"])
    assert press is not None and press.kind == "approve"
    return press


def forged(blocks: list[dict[str, Any]], label: str, action: str, value: str) -> list[dict[str, Any]]:
    """``blocks`` whose button ``label`` carries ``action`` and ``value`` instead."""
    blocks = copy.deepcopy(blocks)
    button = next(e for b in blocks if b["type"] == "actions" for e in b["elements"] if e["text"]["text"] == label)
    button["action_id"], button["value"] = action, value
    return blocks


async def press_forged(ws: Workspace, message: Posted, action: str, value: str, user: str = BOB) -> None:
    """``user`` presses Approve on ``message`` with the button's action id and value replaced."""
    posted = copy.deepcopy(message)
    posted.blocks = forged(message.blocks, "Approve", action, value)
    reply = await ws.press(posted, "Approve", user=user)
    assert reply.status == 200


async def submit_forged(ws: Workspace, metadata: str, text: str, user: str = BOB) -> None:
    """A Revise modal's submission by ``user`` whose ``private_metadata`` is ``metadata``."""
    view = {
        "id": "V0FORGED",
        "type": "modal",
        "callback_id": "almanac:revise",
        "private_metadata": metadata,
        "state": {"values": {"feedback": {"text": {"type": "plain_text_input", "value": text}}}},
    }
    payload = {
        "type": "view_submission",
        "team": {"id": TEAM},
        "user": {"id": user, "team_id": TEAM},
        "api_app_id": "A0ALMANAC",
        "token": "legacy",
        "trigger_id": f"trigger.view.{time.time()}",
        "view": view,
    }
    reply = await ws.sender.interaction(payload)
    assert reply.status == 200
    await ws.settle()


async def test_a_forged_plan_button_is_refused_or_acts_only_as_the_presser(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    script_plans(fake, 2)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await seed(engine, ANN)
        await seed(engine, BOB)
        ts = await ws.mention("plan my next week of bench, I want 70kg for 5")
        anns = ws.thread(ts)[-1]
        await ws.mention("plan my next week of bench, I want 70kg for 5", user=BOB, thread_ts=ts)
        bobs = ws.thread(ts)[-1]
        a, b = approve_of(anns), approve_of(bobs)
        assert (a.owner, b.owner) == (ANN, BOB) and a.conversation != b.conversation
        elsewhere = f"slack:{TEAM}:C0ELSE:{ts}:{BOB}"
        forgeries = [
            ("almanac:approve", f"{a.interrupt_id}||{a.conversation}"),  # owner emptied
            ("almanac:cancel", f"{a.interrupt_id}||{a.conversation}"),
            ("almanac:approve", f"{a.interrupt_id}|{BOB}|{a.conversation}"),  # owner set to the presser
            ("almanac:approve", f"{a.interrupt_id}|{BOB}|{b.conversation}"),  # Ann's plan, Bob's conversation
            ("almanac:approve", f"{b.interrupt_id}||{a.conversation}"),  # Bob's plan, Ann's conversation
            ("almanac:forget", f"||{a.conversation}"),  # an action of another kind
            ("almanac:forget", f"{a.interrupt_id}||{a.conversation}"),
            ("almanac:choice:0", f"{a.interrupt_id}||{a.conversation}"),
            ("almanac:approve", f"{a.interrupt_id}||{elsewhere}"),  # the presser's key, another channel
            ("almanac:approve", f"{a.interrupt_id}||slack:{TEAM}:{DM}"),  # Ann's DM
            ("almanac:approve", json.dumps({"interrupt": a.interrupt_id, "owner": ""})),  # garbage
            ("almanac:approve", "not|a"),
            ("almanac:nope", a.value),
            ("almanac:choice:x", a.value),
        ]
        for action, value in forgeries:
            notices = len(ws.ephemeral_texts(BOB))
            await press_forged(ws, anns, action, value)
            assert len(ws.ephemeral_texts(BOB)) == notices + 1, (action, value)  # one private refusal each
            assert await planned(engine, ANN) == [] and await planned(engine, BOB) == [], (action, value)
            assert await engine.entries.count(key(ANN)) == 2, (action, value)
            assert slack.message(CHANNEL, anns.ts).edits == 0, (action, value)
        assert ws.ephemeral_texts(BOB)[0] == NOT_YOURS
        assert slack.views == {} and slack.message(CHANNEL, bobs.ts).edits == 0

        await ws.press(anns, "Approve")  # refused presses gave the buttons back
        await ws.press(bobs, "Approve", user=BOB)
        assert await planned(engine, ANN) == WEEK and await planned(engine, BOB) == WEEK
    assert slack.errors == []


async def test_a_forged_revise_press_or_submission_acts_only_as_the_presser(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    script_plans(fake, 1)
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await seed(engine, ANN)
        ts = await ws.mention("plan my next week of bench, I want 70kg for 5")
        anns = ws.thread(ts)[-1]
        a = approve_of(anns)
        await press_forged(ws, anns, "almanac:revise", f"{a.interrupt_id}||{a.conversation}")
        assert slack.views == {}  # no modal for Ann's plan opens for Bob

        mine = f"slack:{TEAM}:{CHANNEL}:{ts}:{BOB}"
        for metadata in [
            json.dumps({"v": f"{a.interrupt_id}||{a.conversation}", "c": CHANNEL, "m": anns.ts, "r": None, "e": False}),
            json.dumps({"v": f"{a.interrupt_id}|{BOB}|{a.conversation}", "c": CHANNEL, "m": anns.ts}),
            json.dumps({"v": f"{a.interrupt_id}||{mine}", "c": "C0ELSE", "m": anns.ts}),  # key and channel disagree
            json.dumps({"v": "garbage", "c": CHANNEL, "m": anns.ts}),
            json.dumps(["not", "an", "object"]),
            "{not json",
        ]:
            await submit_forged(ws, metadata, "make it 200 kg")
            assert slack.message(CHANNEL, anns.ts).edits == 0 and anns.buttons() != [], metadata
            assert len(fake.calls("TaskFormationOutput")) == 1, metadata  # Ann's plan was not revised
        await ws.press(anns, "Approve")
        assert await planned(engine, ANN) == WEEK
    assert "200 kg" not in str(fake.calls("TaskFormationOutput"))


async def test_a_forged_forget_confirmation_forgets_nobody_else(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        await seed(engine, ANN)
        await seed(engine, BOB)
        blocks = (await ws.slash("forget", user=BOB)).json()["blocks"]
        label = "Delete everything"
        anns_key = f"slack:{TEAM}:{CHANNEL}:-:{ANN}"
        for action, value, channel in [
            ("almanac:forget", f"||{anns_key}", CHANNEL),  # owner emptied
            ("almanac:forget", f"|{BOB}|{anns_key}", CHANNEL),
            ("almanac:forget", f"|{ANN}|{anns_key}", CHANNEL),
            ("almanac:forget", f"||slack:{TEAM}:{DM}", BOBS_DM),  # Ann's DM, pressed in Bob's
            ("almanac:approve", f"|{BOB}|slack:{TEAM}:{CHANNEL}:-:{BOB}", CHANNEL),  # another kind
            ("almanac:forget", "||", CHANNEL),
        ]:
            await ws.press_ephemeral(forged(blocks, label, action, value), label, user=BOB, channel=channel)
            assert await engine.entries.count(key(ANN)) == 2, (action, value)
            assert await engine.entries.count(key(BOB)) == 2, (action, value)
        await ws.press_ephemeral(blocks, label, user=BOB)  # Bob's own confirmation, as Slack sent it
        assert await engine.entries.count(key(BOB)) == 0 and await engine.entries.count(key(ANN)) == 2
    assert slack.errors == []
