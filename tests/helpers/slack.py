"""Driving the real Slack app end to end: signed requests in, the fake Web API's record out.

`running` starts what ``python -m bot slack`` starts in HTTP mode — the
token check against the fake Web API, ``slack.db``, the bolt ``AsyncApp``
with the adapter's listeners and its aiohttp server on a loopback port — and
yields a `Workspace` that plays Slack: slash commands, events (with retry
headers on demand), button presses and modal submissions, each signed.
After a request, `Workspace.settle` waits until every queued turn is done
(no sleeps, no timing).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from adapters.slack.worker.adapter import SlackAdapter
from adapters.slack.worker.app import EVENTS_PATH, Http
from adapters.slack.worker.app import running as slack_running
from engine import Handler
from tests.fakes.slack_api import BOT_USER, TEAM, TOKEN, FakeSlack, Posted
from tests.fakes.slack_signing import Reply, SignedSender

SECRET = "test-signing-secret"
CHANNEL, ANN, BOB = "C0GYM", "U0ANN", "U0BOB"
DM = "D0ANN"


class Workspace:
    """Slack's side of a conversation with the app under test."""

    def __init__(self, slack: FakeSlack, sender: SignedSender, adapter: SlackAdapter) -> None:
        self.slack, self.sender, self.adapter = slack, sender, adapter
        self._n = itertools.count(1)

    async def settle(self) -> None:
        """Wait until every queued turn and quick reply has finished."""
        await self.adapter.drain()

    # ------------------------------------------------------------------ requests

    async def slash(self, text: str, user: str = ANN, channel: str = CHANNEL, settle: bool = True) -> Reply:
        """``/almanac <text>`` typed in a channel; returns the app's immediate (ack) response."""
        n = next(self._n)
        fields = {
            "token": "legacy",
            "team_id": TEAM,
            "team_domain": "gym",
            "channel_id": channel,
            "channel_name": "directmessage" if channel.startswith("D") else "gym",
            "user_id": user,
            "user_name": user.lower(),
            "command": "/almanac",
            "text": text,
            "api_app_id": "A0ALMANAC",
            "response_url": self.slack.response_url(f"cmd{n}"),
            "trigger_id": f"trigger.cmd.{n}",
        }
        reply = await self.sender.form(fields)
        if settle:
            await self.settle()
        return reply

    def new_ts(self) -> str:
        """A timestamp for a person's message, unique in this workspace."""
        return f"{1_800_000_000 + next(self._n)}.000200"

    async def event(
        self,
        event: dict[str, Any],
        event_id: str | None = None,
        retry_num: int | None = None,
        settle: bool = True,
        **kw: Any,
    ) -> Reply:
        """One Events API delivery of ``event``."""
        envelope = {
            "token": "legacy",
            "team_id": TEAM,
            "api_app_id": "A0ALMANAC",
            "type": "event_callback",
            "event": {"team": TEAM, "event_ts": event.get("ts"), **event},
            "event_id": event_id or f"Ev{next(self._n):08d}",
            "event_time": int(time.time()),
            "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}],
        }
        reply = await self.sender.event(envelope, retry_num=retry_num, **kw)
        if settle:
            await self.settle()
        return reply

    async def mention(
        self,
        text: str,
        user: str = ANN,
        channel: str = CHANNEL,
        thread_ts: str | None = None,
        ts: str | None = None,
        **kw: Any,
    ) -> str:
        """``@almanac <text>`` posted in a channel (or a thread there); returns the post's ts."""
        ts = ts or self.new_ts()
        event = {"type": "app_mention", "channel": channel, "user": user, "text": f"<@{BOT_USER}> {text}", "ts": ts}
        if thread_ts:
            event["thread_ts"] = thread_ts
        await self.event(event, **kw)
        return ts

    async def post(
        self,
        text: str,
        user: str = ANN,
        channel: str = CHANNEL,
        thread_ts: str | None = None,
        ts: str | None = None,
        **kw: Any,
    ) -> str:
        """A plain ``message`` event: a DM (``D…`` channel) or a post in a channel or thread."""
        ts = ts or self.new_ts()
        event: dict[str, Any] = {
            "type": "message",
            "channel": channel,
            "user": user,
            "text": text,
            "ts": ts,
            "channel_type": "im" if channel.startswith("D") else "channel",
        }
        if thread_ts:
            event["thread_ts"] = thread_ts
        await self.event(event, **kw)
        return ts

    async def press(self, message: Posted, label: str, user: str = ANN, settle: bool = True) -> Reply:
        """Press the button labelled ``label`` on a message as it was posted (stale copies allowed)."""
        button = next(b for b in message.buttons() if b["text"]["text"] == label)
        n = next(self._n)
        payload = {
            "type": "block_actions",
            "user": {"id": user, "team_id": TEAM},
            "team": {"id": TEAM},
            "api_app_id": "A0ALMANAC",
            "token": "legacy",
            "trigger_id": f"trigger.press.{n}",
            "container": {
                "type": "message",
                "message_ts": message.ts,
                "channel_id": message.channel,
                "is_ephemeral": False,
                "thread_ts": message.thread_ts,
            },
            "channel": {"id": message.channel},
            "response_url": self.slack.response_url(f"press{n}"),
            "message": {
                "type": "message",
                "ts": message.ts,
                "thread_ts": message.thread_ts,
                "text": message.text,
                "blocks": message.blocks,
                "user": BOT_USER,
            },
            "actions": [
                {
                    "type": "button",
                    "action_id": button["action_id"],
                    "block_id": "b",
                    "value": button["value"],
                    "action_ts": f"{time.time():.6f}",
                    "text": button["text"],
                }
            ],
        }
        reply = await self.sender.interaction(payload)
        if settle:
            await self.settle()
        return reply

    async def press_ephemeral(
        self, blocks: list[dict[str, Any]], label: str, user: str = ANN, channel: str = CHANNEL
    ) -> Reply:
        """Press a button on an ephemeral message (one that came back in an ack)."""
        button = next(e for b in blocks if b["type"] == "actions" for e in b["elements"] if e["text"]["text"] == label)
        n = next(self._n)
        payload = {
            "type": "block_actions",
            "user": {"id": user, "team_id": TEAM},
            "team": {"id": TEAM},
            "trigger_id": f"trigger.press.{n}",
            "api_app_id": "A0ALMANAC",
            "token": "legacy",
            "container": {"type": "message", "message_ts": f"{n}.0", "channel_id": channel, "is_ephemeral": True},
            "channel": {"id": channel},
            "response_url": self.slack.response_url(f"press{n}"),
            "actions": [
                {"type": "button", "action_id": button["action_id"], "value": button["value"], "text": button["text"]}
            ],
        }
        reply = await self.sender.interaction(payload)
        await self.settle()
        return reply

    async def submit_view(self, view_id: str, text: str, user: str = ANN) -> Reply:
        """Submit an open modal with ``text`` in its one field."""
        view = self.slack.views[view_id]
        payload = {
            "type": "view_submission",
            "team": {"id": TEAM},
            "user": {"id": user, "team_id": TEAM},
            "api_app_id": "A0ALMANAC",
            "token": "legacy",
            "trigger_id": "trigger.view",
            "view": {**view, "state": {"values": {"feedback": {"text": {"type": "plain_text_input", "value": text}}}}},
        }
        reply = await self.sender.interaction(payload)
        await self.settle()
        return reply

    # ------------------------------------------------------------------ what people see

    def thread(self, thread_ts: str, channel: str = CHANNEL) -> list[Posted]:
        """The bot's replies in a thread, oldest first (the thread's own top message excluded)."""
        return [m for m in self.slack.messages(channel, thread_ts) if m.ts != thread_ts]

    def last(self, channel: str = CHANNEL, top: bool = False) -> Posted:
        """The bot's latest message in a channel (``top``: the latest outside threads)."""
        return [m for m in self.slack.messages(channel) if not top or m.thread_ts is None][-1]

    def ephemeral_texts(self, user: str = ANN) -> list[str]:
        """What ephemeral notes told ``user`` (chat.postEphemeral and response URLs)."""
        notes = [str(e.get("text", "")) for e in self.slack.ephemeral if e.get("user") == user]
        return notes + [str(r.get("text", "")) for r in self.slack.responses]


@asynccontextmanager
async def running(slack: FakeSlack, engine: Handler, data_dir: Path, **kw: Any) -> AsyncIterator[Workspace]:
    """The Slack app in HTTP mode on loopback, talking to ``slack``; stopped and drained on exit."""
    kw.setdefault("eyes_after", 3600.0)  # reactions only where a test asks for them
    http = Http(signing_secret=SECRET, host="127.0.0.1", port=0)
    async with slack_running(engine, token=TOKEN, base_url=slack.api_url, data_dir=data_dir, http=http, **kw) as app:
        assert app.port is not None
        sender = SignedSender(f"http://127.0.0.1:{app.port}{EVENTS_PATH}", SECRET)
        try:
            yield Workspace(slack, sender, app.adapter)
        finally:
            await sender.close()
