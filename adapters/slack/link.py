"""The pipe between the engine's process and the Slack gateway: one JSON object per line, both ways.

Two kinds of message:

- a *call* (``{"id": n, "op": ..., ...}``) waits for its reply
  (``{"re": n, ...}``); calls run concurrently on the receiving side, so a
  slow Web API call holds up nothing else;
- a *tell* (``{"op": ..., ...}`` without an id) gets no reply, and tells are
  handled one at a time in the order they were sent: the gateway's hand-overs
  of accepted requests rely on that to keep each conversation in order.

A line is written whole (the writer's buffer), and the reader reads whole
lines, so neither side ever sees half a message. When the other end goes
away (its process exited), `run` returns and every call still waiting fails
with `LinkClosed`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import structlog

log = structlog.get_logger("adapters.slack")
Message = dict[str, Any]
OnCall = Callable[[str, Message], Awaitable[Message]]
OnTell = Callable[[str, Message], None]
LINE_LIMIT = 64 * 1024 * 1024
"""Longest line read: a private export file travels whole (years of entries are a few MB)."""


class LinkClosed(ConnectionError):
    """The other process is gone."""


class CallFailed(RuntimeError):
    """The other side raised while handling a call (its message says what)."""


class Link:
    """One end of the pipe.

    Args:
        reader: the other side's output.
        writer: the other side's input.
        on_call: answers a call (its reply fields); raising sends the error back.
        on_tell: handles a tell; synchronous, so tells are handled in order.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, on_call: OnCall,
                 on_tell: OnTell) -> None:
        self._reader, self._writer = reader, writer
        self._on_call, self._on_tell = on_call, on_tell
        self._next = 0
        self._waiting: dict[int, asyncio.Future[Message]] = {}
        self._answering: set[asyncio.Task[None]] = set()
        self.closed = False

    async def call(self, op: str, **fields: Any) -> Message:
        """Send a call and wait for its reply.

        Raises:
            LinkClosed: the other side went away before answering.
            CallFailed: the other side raised.
        """
        if self.closed:
            raise LinkClosed("the Slack gateway is not running")
        self._next += 1
        done: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._waiting[self._next] = done
        self._write({"id": self._next, "op": op, **fields})
        reply = await done
        if "failed" in reply:
            raise CallFailed(str(reply["failed"]))
        return reply

    def tell(self, op: str, **fields: Any) -> None:
        """Send a message that needs no reply (in order with every other tell)."""
        if self.closed:
            raise LinkClosed("the Slack gateway is not running")
        self._write({"op": op, **fields})

    def _write(self, message: Message) -> None:
        self._writer.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")

    async def run(self) -> None:
        """Read until the other side closes; then fail every call still waiting."""
        try:
            while True:
                try:
                    line = await self._reader.readline()
                except (ConnectionError, asyncio.LimitOverrunError, ValueError) as exc:
                    log.error("slack.link_broken", reason=str(exc))
                    break
                if not line:
                    break
                try:
                    message = json.loads(line)
                except ValueError:
                    log.error("slack.link_garbled", length=len(line))
                    continue
                self._receive(message)
        finally:
            self.closed = True
            for done in self._waiting.values():
                if not done.done():
                    done.set_exception(LinkClosed("the other side of the Slack link went away"))
            self._waiting.clear()

    def _receive(self, message: Message) -> None:
        if "re" in message:
            done = self._waiting.pop(int(message["re"]), None)
            if done is not None and not done.done():
                done.set_result(message)
            return
        op = str(message.pop("op"))
        if "id" not in message:
            self._on_tell(op, message)
            return
        task = asyncio.create_task(self._answer(int(message.pop("id")), op, message))
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)

    async def _answer(self, call_id: int, op: str, message: Message) -> None:
        try:
            reply = await self._on_call(op, message)
        except Exception as exc:  # the caller hears of it; this side goes on
            log.warning("slack.link_call_failed", op=op, error=f"{type(exc).__name__}: {exc}")
            reply = {"failed": f"{type(exc).__name__}: {exc}"}
        if not self.closed:
            self._write({"re": call_id, **reply})

    async def close(self) -> None:
        """Stop writing (the other side reads the end of the stream) and wait for calls being answered."""
        if self._answering:
            await asyncio.gather(*list(self._answering), return_exceptions=True)
        if not self._writer.is_closing():
            self._writer.close()
