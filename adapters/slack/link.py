"""The pipe between the worker (the engine's process) and the Slack gateway: one JSON object per line, both ways.

What travels is `adapters.slack.protocol`: pydantic models, written with their
``op`` and validated when read, so each side dispatches by type. Two kinds:

- a *call* (``{"id": n, "op": ..., ...}``) waits for its `Reply`
  (``{"re": n, ...}``); calls run concurrently on the receiving side, so a
  slow Web API call holds up nothing else;
- a *tell* (``{"op": ..., ...}`` without an id) gets no reply, and tells are
  handled one at a time in the order they were sent: the gateway's hand-overs
  of accepted requests rely on that to keep each conversation in order.

A line is written whole (the writer's buffer), and the reader reads whole
lines, so neither side ever sees half a message. A line that is not JSON, or
not a message of the protocol, is logged (``slack.link_garbled``,
``slack.link_rejected``) and skipped; a rejected call gets a failed reply, so
its caller does not wait for ever. When the other end goes away (its process
exited), `run` returns and every call still waiting fails with `LinkClosed`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import structlog
from pydantic import ValidationError

from adapters.slack.protocol import CALL, TELL, Call, Reply, Tell

log = structlog.get_logger("adapters.slack")
OnCall = Callable[[Call], Awaitable[Reply]]
OnTell = Callable[[Tell], None]
LINE_LIMIT = 64 * 1024 * 1024
"""Longest line read: a private export file travels whole (years of entries are a few MB)."""


class LinkClosed(ConnectionError):
    """The other process is gone."""


class CallFailed(RuntimeError):
    """The other side raised while handling a call, or could not read it (its message says what)."""


class Link:
    """One end of the pipe.

    Args:
        reader: the other side's output.
        writer: the other side's input.
        on_call: answers a call; raising sends the error back.
        on_tell: handles a tell; synchronous, so tells are handled in order.
    """

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, on_call: OnCall, on_tell: OnTell
    ) -> None:
        self._reader, self._writer = reader, writer
        self._on_call, self._on_tell = on_call, on_tell
        self._next = 0
        self._waiting: dict[int, asyncio.Future[Reply]] = {}
        self._answering: set[asyncio.Task[None]] = set()
        self.closed = False

    async def call(self, message: Call) -> Reply:
        """Send a call and wait for its reply.

        Raises:
            LinkClosed: the other side went away before answering.
            CallFailed: the other side raised, or could not read the call.
        """
        if self.closed:
            raise LinkClosed("the Slack gateway is not running")
        self._next += 1
        done: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._waiting[self._next] = done
        self._write({"id": self._next, **message.model_dump(mode="json")})
        reply = await done
        if reply.failed is not None:
            raise CallFailed(reply.failed)
        return reply

    def tell(self, message: Tell) -> None:
        """Send a message that needs no reply (in order with every other tell)."""
        if self.closed:
            raise LinkClosed("the Slack gateway is not running")
        self._write(message.model_dump(mode="json"))

    def _write(self, message: dict[str, Any]) -> None:
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
                    message = None
                if not isinstance(message, dict):
                    log.error("slack.link_garbled", length=len(line))
                    continue
                self._receive(message)
        finally:
            self.closed = True
            for done in self._waiting.values():
                if not done.done():
                    done.set_exception(LinkClosed("the other side of the Slack link went away"))
            self._waiting.clear()

    def _receive(self, message: dict[str, Any]) -> None:
        """A reply goes to its caller; a tell is handled now; a call runs as a task of its own."""
        if "re" in message:
            self._replied(message)
            return
        call_id = message.pop("id", None)
        if call_id is not None and (not isinstance(call_id, int) or isinstance(call_id, bool)):
            log.error("slack.link_rejected", op=str(message.get("op")), call=True, reason="id: not a number")
            return
        try:
            if call_id is None:
                tell = TELL.validate_python(message)
            else:
                call = CALL.validate_python(message)
        except ValidationError as exc:
            reason = _reason(exc)
            log.error("slack.link_rejected", op=str(message.get("op")), call=call_id is not None, reason=reason)
            if call_id is not None and not self.closed:
                self._write({"re": call_id, "failed": f"unreadable call: {reason}"})
            return
        if call_id is None:
            self._on_tell(tell)
            return
        task = asyncio.create_task(self._answer(call_id, call))
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)

    def _replied(self, message: dict[str, Any]) -> None:
        done = self._waiting.pop(message.pop("re"), None) if isinstance(message.get("re"), int) else None
        if done is None or done.done():
            log.error("slack.link_rejected", op="reply", reason="a reply to no call waiting")
            return
        try:
            done.set_result(Reply.model_validate(message))
        except ValidationError as exc:
            log.error("slack.link_rejected", op="reply", reason=_reason(exc))
            done.set_exception(CallFailed(f"unreadable reply: {_reason(exc)}"))

    async def _answer(self, call_id: int, call: Call) -> None:
        try:
            reply = await self._on_call(call)
        except Exception as exc:  # the caller hears of it; this side goes on
            log.warning("slack.link_call_failed", op=call.op, error=f"{type(exc).__name__}: {exc}")
            reply = Reply(failed=f"{type(exc).__name__}: {exc}")
        if not self.closed:
            self._write({"re": call_id, **reply.model_dump(mode="json", exclude_defaults=True)})

    async def close(self) -> None:
        """Stop writing (the other side reads the end of the stream) and wait for calls being answered."""
        if self._answering:
            await asyncio.gather(*list(self._answering), return_exceptions=True)
        if not self._writer.is_closing():
            self._writer.close()


def _reason(exc: ValidationError) -> str:
    """The first problem, short enough for a log line (no field values: they may be a person's words)."""
    first = exc.errors(include_input=False, include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])
