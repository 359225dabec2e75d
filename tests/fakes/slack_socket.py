"""A fake of Slack's Socket Mode server: one WebSocket that hands out envelopes and collects their acks.

Slack's side of Socket Mode: after ``apps.connections.open`` (served by
`tests.fakes.slack_api.FakeSlack`, which hands out `FakeSocketMode.url`), the
app connects here; the server pushes ``hello``, then envelopes
(``events_api``, ``slash_commands``, ``interactive``), and the app answers
each with ``{"envelope_id": …, "payload": …}`` — its ack.

Slack also ends connections (a refresh, a deploy on its side): `drop` closes
the current one, the app asks ``apps.connections.open`` for a new URL and
connects again, and `send` then goes over the new connection — which is how
Slack redelivers an envelope whose ack it did not get.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

from aiohttp import WSMsgType, web


class FakeSocketMode:
    """Runs on the test's event loop; `send` an envelope, `acks` to read the answers."""

    def __init__(self) -> None:
        self.acks: dict[str, dict[str, Any]] = {}
        self.connected = asyncio.Event()
        self._ws: web.WebSocketResponse | None = None
        self._ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._acked = asyncio.Condition()
        self.connections = 0
        """How many times the app connected (a reconnect makes it 2)."""
        self._sent_on: dict[str, web.WebSocketResponse] = {}

    async def start(self) -> FakeSocketMode:
        """Listen on an ephemeral loopback port."""
        app = web.Application()
        app.router.add_get("/link", self._link)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = int(self._runner.addresses[0][1])
        return self

    async def stop(self) -> None:
        """Close the socket and stop listening."""
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def url(self) -> str:
        """The ``wss`` URL ``apps.connections.open`` returns (plain ws on loopback)."""
        return f"ws://127.0.0.1:{self._port}/link"

    async def send(self, kind: str, payload: dict[str, Any], retry_attempt: int = 0, drop_after: bool = False) -> str:
        """Push one envelope over the current connection (waiting for one); its id.

        Args:
            retry_attempt: Slack's count of earlier deliveries of this payload (0: the first).
            drop_after: end the connection right after sending, so that the app's ack has no way back.
        """
        await self.connected.wait()
        assert self._ws is not None
        envelope_id = f"env-{next(self._ids)}"
        self._sent_on[envelope_id] = self._ws
        await self._ws.send_str(
            json.dumps(
                {
                    "envelope_id": envelope_id,
                    "type": kind,
                    "payload": payload,
                    "accepts_response_payload": kind != "events_api",
                    "retry_attempt": retry_attempt,
                    "retry_reason": "timeout" if retry_attempt else "",
                }
            )
        )
        if drop_after:
            await self.drop()
        return envelope_id

    async def drop(self) -> None:
        """End the current connection from Slack's side: an ack of an envelope sent over it is lost."""
        ws, self._ws = self._ws, None
        self.connected.clear()
        if ws is not None:
            await ws.close()

    async def ack_of(self, envelope_id: str) -> dict[str, Any]:
        """Wait for the app's answer to an envelope."""
        async with self._acked:
            await self._acked.wait_for(lambda: envelope_id in self.acks)
        return self.acks[envelope_id]

    async def _link(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._ws = ws
        self.connections += 1
        await ws.send_str(json.dumps({"type": "hello", "num_connections": 1}))
        self.connected.set()
        async for msg in ws:
            if msg.type == WSMsgType.TEXT:
                data = json.loads(msg.data)
                if self._sent_on.get(str(data.get("envelope_id"))) is not ws or ws is not self._ws:
                    continue  # the envelope's connection has ended: its ack never reaches Slack
                async with self._acked:
                    self.acks[str(data.get("envelope_id"))] = data
                    self._acked.notify_all()
        return ws
