"""Slack's side of HTTP mode: signed requests into the app's ``/slack/events``.

`SignedSender` signs request bodies with the v0 scheme (``v0:<timestamp>:<body>``,
HMAC-SHA256 with the signing secret, as bolt checks them) and posts them to the
app's endpoint — slash commands form-encoded, events as JSON, interactions as
``payload=<json>`` — with Slack's retry headers on demand.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import aiohttp


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """Slack's v0 request signature: ``v0=`` + HMAC-SHA256 of ``v0:<timestamp>:<body>``."""
    base = b"v0:" + timestamp.encode() + b":" + body
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Reply:
    """The app's HTTP answer to a request from "Slack"."""

    status: int
    body: str

    def json(self) -> Any:
        """The body parsed as JSON (``None`` when empty)."""
        return json.loads(self.body) if self.body else None

    def shown(self) -> str:
        """The text the person sees: bolt answers ``ack("…")`` as plain text, ``ack(blocks=…)`` as JSON."""
        return str(self.json().get("text", "")) if self.body.startswith("{") else self.body


class SignedSender:
    """Posts signed requests to a bolt app's endpoint, as Slack does in HTTP mode.

    Args:
        endpoint: e.g. ``http://127.0.0.1:<port>/slack/events``.
        secret: the signing secret the app checks.
        connections: open at once at most (aiohttp's default 100); 0 = no limit. Slack sends from
            many machines, so a load test that waits for a free connection measures the sender.
    """

    def __init__(self, endpoint: str, secret: str, connections: int = 100) -> None:
        self.endpoint, self.secret = endpoint, secret
        self._connections = connections
        self._session: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        """Close the HTTP session."""
        if self._session is not None:
            await self._session.close()

    async def post(
        self,
        body: bytes,
        content_type: str,
        *,
        retry_num: int | None = None,
        signed: bool = True,
        timestamp: int | None = None,
    ) -> Reply:
        """Post one body; ``signed=False`` or an old ``timestamp`` make the request Slack would never send."""
        if self._session is None:
            self._session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=self._connections))
        ts = str(int(time.time()) if timestamp is None else timestamp)
        headers = {"Content-Type": content_type, "X-Slack-Request-Timestamp": ts}
        if signed:
            headers["X-Slack-Signature"] = signature(self.secret, ts, body)
        if retry_num is not None:
            headers["X-Slack-Retry-Num"] = str(retry_num)
            headers["X-Slack-Retry-Reason"] = "http_timeout"
        async with self._session.post(self.endpoint, data=body, headers=headers) as resp:
            return Reply(resp.status, await resp.text())

    async def form(self, fields: dict[str, str], **kw: Any) -> Reply:
        """A form-encoded request: a slash command's fields, or ``payload=<json>`` for interactions."""
        return await self.post(urlencode(fields).encode(), "application/x-www-form-urlencoded", **kw)

    async def event(self, envelope: dict[str, Any], **kw: Any) -> Reply:
        """An Events API envelope as JSON."""
        return await self.post(json.dumps(envelope).encode(), "application/json", **kw)

    async def interaction(self, payload: dict[str, Any], **kw: Any) -> Reply:
        """``block_actions`` / ``view_submission``: form-encoded ``payload=<json>``."""
        return await self.form({"payload": json.dumps(payload)}, **kw)
