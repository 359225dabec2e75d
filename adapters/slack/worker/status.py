"""A slow turn's steps in Slack: the assistant status of the answer's thread, or one status message.

``assistant.threads.setStatus`` shows "Almanac is fetching your squat entries…" under the thread the
answer goes to, and is cleared (status ``""``) once the answer is posted. An app that is not an
assistant app (no ``assistant:write`` scope, the feature off) is refused with an error such as
``not_allowed`` or ``missing_scope``: it gets one status message in the thread instead, updated with
``chat.update`` as steps pass and deleted once the answer is out; the workspace is remembered
(`Fallbacks`), so later turns there go straight to the message. A DM's top level has no thread to
set a status on: a status message there too.

Both draw on the outbox's shared `Budget` (with the reactions), at most one update per
``every`` seconds, in a task of their own: a slow Web API never holds up the turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from types import TracebackType

import structlog
from slack_sdk.errors import SlackApiError

from adapters.slack.link import CallFailed, LinkClosed
from adapters.slack.place import Place
from adapters.slack.render import SlackMessage
from adapters.slack.send import Outbox
from adapters.slack.text import esc
from engine import Step

log = structlog.get_logger("adapters.slack")

NOT_ASSISTANT = frozenset(
    {"not_allowed", "missing_scope", "not_allowed_token_type", "method_not_supported_for_channel_type"}
)
"""``setStatus`` refusals that mean: this app cannot set an assistant status (here)."""


class Fallbacks:
    """Workspaces whose app cannot set an assistant status, remembered for ``keep_s`` (a scope granted
    later is tried again then); at most ``size`` of them, the oldest forgotten first."""

    def __init__(self, size: int = 1000, keep_s: float = 3600.0) -> None:
        self._size, self._keep_s = size, keep_s
        self._teams: OrderedDict[str, float] = OrderedDict()

    def note(self, team: str) -> None:
        self._teams[team] = time.monotonic()
        self._teams.move_to_end(team)
        while len(self._teams) > self._size:
            self._teams.popitem(last=False)

    def __contains__(self, team: object) -> bool:
        at = self._teams.get(team) if isinstance(team, str) else None
        if at is None:
            return False
        if time.monotonic() - at > self._keep_s:
            del self._teams[str(team)]
            return False
        return True


def status_message(text: str) -> SlackMessage:
    """The fallback status message: the step, in italics."""
    line = f"⏳ _{esc(text)}…_"
    return SlackMessage(text=line, blocks=[{"type": "section", "text": {"type": "mrkdwn", "text": line}}])


class Status:
    """The steps of one turn on screen. Use as ``async with Status(...) as s: handle(turn, progress=s.step)``,
    then deliver the outcomes, then ``await s.clear()``.

    ``hidden``: show nothing (a private turn, whose answer is ephemeral: a status in the thread would
    tell the channel what the member asked about).
    """

    def __init__(
        self,
        outbox: Outbox,
        place: Place,
        fallbacks: Fallbacks,
        after: float = 1.0,
        every: float = 1.0,
        hidden: bool = False,
    ) -> None:
        self._outbox, self._place, self._fallbacks = outbox, place, fallbacks
        self._after, self._every, self._hidden = after, every, hidden
        self._steps: list[str] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._assistant = False  # a status was set on the thread
        self._message: asyncio.Task[str | None] | None = None  # the fallback message's ts

    async def step(self, step: Step) -> None:
        """The engine's progress callback."""
        if not self._steps or self._steps[-1] != step.text:
            self._steps.append(step.text)
        self._wake.set()

    async def __aenter__(self) -> Status:
        if not self._hidden:
            self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def clear(self) -> None:
        """Take the status away once the answer is out: the thread's status cleared, or the message deleted."""
        place = self._place
        if self._assistant:
            await self._quietly(
                "assistant_threads_setStatus", channel_id=place.channel, thread_ts=place.thread_ts, status=""
            )
        if self._message is not None and (ts := await self._message) is not None:
            await self._quietly("chat_delete", channel=place.channel, ts=ts)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        next_at = loop.time() + self._after
        shown = 0
        while True:
            self._wake.clear()
            now = loop.time()
            if len(self._steps) > shown and now >= next_at:
                next_at = now + self._every
                if self._outbox.budget.take():
                    shown = len(self._steps)
                    await self._show(self._steps[shown - 1])
            wake = next_at if len(self._steps) > shown else None
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(None if wake is None else max(0.0, wake - loop.time())):
                    await self._wake.wait()

    async def _show(self, text: str) -> None:
        place = self._place
        if place.thread_ts is not None and place.team not in self._fallbacks:
            try:
                args = {"channel_id": place.channel, "thread_ts": place.thread_ts, "status": f"{text}…"}
                await self._outbox.api.call("assistant_threads_setStatus", **args)
                self._assistant = True
                return
            except SlackApiError as exc:
                error = exc.response.get("error")
                if error not in NOT_ASSISTANT:
                    log.info("slack.status_failed", reason=error)
                    return
                log.info("slack.status_fallback", team=place.team, reason=error)
                self._fallbacks.note(place.team)
            except (CallFailed, LinkClosed) as exc:
                log.info("slack.status_failed", reason=str(exc))
                return
        message = status_message(text)
        if self._message is None:
            # Shielded: cancelling the sign task must not lose the ts of a message being posted.
            self._message = asyncio.ensure_future(self._post(message))
            await asyncio.shield(self._message)
            return
        ts = await asyncio.shield(self._message)
        if ts is not None:
            await self._quietly("chat_update", channel=place.channel, ts=ts, text=message.text, blocks=message.blocks)

    async def _post(self, message: SlackMessage) -> str | None:
        place = self._place
        try:
            sent = await self._outbox.api.call(
                "chat_postMessage",
                channel=place.channel,
                thread_ts=place.thread_ts,
                text=message.text,
                blocks=message.blocks,
            )
        except (SlackApiError, CallFailed, LinkClosed) as exc:
            log.info("slack.status_failed", reason=str(exc))
            return None
        return str(sent["ts"])

    async def _quietly(self, method: str, **args: object) -> None:
        try:
            await self._outbox.api.call(method, **args)
        except (SlackApiError, CallFailed, LinkClosed) as exc:
            log.info("slack.status_failed", method=method, reason=str(exc))
