"""One turn in Slack: ``engine.handle(...)`` with a sign of work, then the outcomes in the thread.

The signs of work: a reaction on the person's message, 👀 when a turn takes
longer than a moment, swapped for ✅ when it is done; and the turn's steps as
the thread's assistant status, or one status message where that is refused
(`adapters.slack.worker.status`). Both are shed when the bot is too busy (the
shared `Budget`). No thread history is fetched (``conversations.replies``):
the engine keeps it in its checkpoints.

`Turns` also keeps the question or plan each conversation shows with
buttons (durably, in `SlackStore`), so that when a typed reply, ``cancel`` or
``reset`` closes it, the buttons go away and the decision shows. The turn
itself says what it closed (its `Closed` outcome): nothing is read from the
engine after a turn.

Once ``engine.handle`` has returned, the turn is done (what it logged is
stored): a failure after that is `ReplyNotShown`, and the person hears so
instead of "please try again" (`SlackAdapter`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from datetime import datetime, timezone

import structlog
from slack_sdk.errors import SlackApiError

from adapters.common import after_the_turn, closing_label, open_prompt
from adapters.common.charts import gone_text, in_dms_note, read_png_base64
from adapters.slack import texts
from adapters.slack.link import LinkClosed
from adapters.slack.place import Place
from adapters.slack.render import SlackMessage, decided_message, plain, render
from adapters.slack.send import NOT_MEMBER, Outbox
from adapters.slack.store import Prompt, Store
from adapters.slack.text import COMMAND
from adapters.slack.worker.home import Home
from adapters.slack.worker.status import Fallbacks, Status
from engine import ApprovalRequest, Ask, Chart, Closed, Document, Handler, Logged, Notice, Outcome, Turn

log = structlog.get_logger("adapters.slack")
WORKING, DONE = "eyes", "white_check_mark"


class Turns:
    """Runs turns against the engine and shows their outcomes.

    Args:
        engine: anything with ``handle(turn, progress)``.
        outbox: where messages go.
        store: the adapter's durable state (open prompts).
        eyes_after: seconds a turn runs before 👀 appears on the person's message.
        command: the slash command, as the person types it: the engine's ``/retry`` shows as ``/almanac retry``.
        status_after / status_every: seconds a turn runs before its steps show, and between updates (`Status`).
    """

    def __init__(
        self,
        engine: Handler,
        outbox: Outbox,
        store: Store,
        eyes_after: float = 1.0,
        command: str = COMMAND,
        *,
        status_after: float = 1.0,
        status_every: float = 1.0,
    ) -> None:
        self.engine = engine
        self.outbox = outbox
        self.store = store
        self.command = command
        self._eyes_after = eyes_after
        self.home = Home(engine, outbox, command)
        """The Home tab: published when opened, again after a log (`run`)."""
        self._status = (status_after, status_every)
        self.fallbacks = Fallbacks()
        """Workspaces whose app cannot set an assistant status: a status message there instead."""

    async def run(self, place: Place, turn: Turn, source_ts: str | None = None, private: bool = False) -> None:
        """Run one turn and put its outcomes on screen.

        Args:
            place: where the replies go.
            turn: the engine turn.
            source_ts: the person's message, which gets the reactions.
            private: show text outcomes ephemerally (a slash command's control); questions and plans,
                whose buttons must be editable, still go to the thread.

        Raises:
            ReplyNotShown: something after ``engine.handle`` failed; the turn itself was handled.
            LinkClosed: the gateway is gone; the request stays pending and runs again at the next
                start, where the engine gives back what it did and the reply goes out then.
        """
        started = time.perf_counter()
        after, every = self._status
        status = Status(self.outbox, place, self.fallbacks, after, every, hidden=private)
        async with self._signs(place, source_ts), status:
            outcomes = await self.engine.handle(turn, progress=status.step)
        with after_the_turn(outcomes, passing=(LinkClosed,)):  # done: no "try again" from here on
            await self.close_answered(place, turn, outcomes)
            if any(isinstance(o, Notice) and o.code == "forgotten" for o in outcomes):
                await self.store.forget_member(place.user_key)  # open prompts elsewhere, e.g. in other threads
            await self.deliver(place, outcomes, private)
            await status.clear()  # after the answer: the thread is never without a sign
            if any(isinstance(o, Logged) for o in outcomes):
                await self.home.refresh(place.user_key)
        log.info(
            "slack.turn",
            conversation=turn.conversation,
            turn=turn.kind,
            outcomes=[o.kind for o in outcomes],
            duration_ms=round((time.perf_counter() - started) * 1000, 1),
        )

    async def deliver(self, place: Place, outcomes: list[Outcome], private: bool = False) -> None:
        """Send outcomes in order; a `Document` goes to the member's DMs, never to a shared channel,
        a `Chart` into the thread (`_chart`)."""
        for outcome in outcomes:
            if isinstance(outcome, Document):
                await self.outbox.send_privately(place, outcome)
                if not place.dm:
                    await self.outbox.ephemeral(place, render_note(texts.EXPORT_SENT))
                continue
            if isinstance(outcome, Chart):
                await self._chart(place, outcome, private)
                continue
            prompt = isinstance(outcome, (Ask, ApprovalRequest))
            for message in render(outcome, place.conversation, self.command):
                if private and not prompt:
                    await self.outbox.ephemeral(place, message)
                    continue
                ts = await self.outbox.post(place, message)
                if prompt and ts is not None:
                    assert isinstance(outcome, (Ask, ApprovalRequest))
                    await self.store.set_prompt(
                        place.conversation,
                        Prompt(place.channel, ts, outcome.interrupt_id, message.blocks, place.user_key),
                    )

    async def _chart(self, place: Place, chart: Chart, private: bool) -> None:
        """The chart's PNG, uploaded where the answer goes: the thread.

        Read from its path at every delivery, so a request run again after a restart uploads it again;
        a file gone by then sends the caption as text. Asked privately (a slash command's control), or
        where Almanac is not in the channel, it goes to the member's DMs with a note here: an
        ephemeral message cannot carry a file.
        """
        png = await read_png_base64(chart)
        if png is None:
            for message in plain(gone_text(chart)):
                await (self.outbox.ephemeral(place, message) if private else self.outbox.post(place, message))
            return
        privately = private and not place.dm
        if not privately:
            try:
                await self.outbox.upload_chart(place, chart, png)
                return
            except SlackApiError as exc:
                if exc.response.get("error") not in NOT_MEMBER:
                    raise
                log.info("slack.chart_to_dms", channel=place.channel, reason=exc.response.get("error"))
        await self.outbox.upload_chart(place, chart, png, privately=True)
        await self.outbox.ephemeral(place, render_note(in_dms_note(chart)))

    async def pending(self, place: Place) -> Ask | ApprovalRequest | None:
        """The conversation's open question or plan (``engine.pending``: no turn, no model call).

        Read before a turn only (a typed line, a press); what a turn closed its own `Closed` says.
        """
        return await open_prompt(self.engine, place.conversation, place.user_key)

    async def close_answered(self, place: Place, turn: Turn, outcomes: list[Outcome]) -> None:
        """Take the buttons off a question or plan that this turn closed without them (the engine says so: `Closed`)."""
        closed = {o.interrupt_id for o in outcomes if isinstance(o, Closed)}
        if not closed:
            return  # most turns: no store read either
        prompt = await self.store.prompt(place.conversation)
        if prompt is None or prompt.interrupt_id not in closed:
            return  # e.g. a press already took the buttons, or someone else typed in the thread
        await self.store.drop_prompt(place.conversation, prompt.ts)
        if not await self.store.claim(prompt.channel, prompt.ts):
            return  # a press decided it, and already showed so
        shown = decided_message(prompt.blocks, closing_label(turn), place.user, datetime.now(timezone.utc))
        await self.outbox.update(prompt.channel, prompt.ts, shown)

    @contextlib.asynccontextmanager
    async def _signs(self, place: Place, source_ts: str | None) -> AsyncIterator[None]:
        """👀 on the person's message once the turn takes a while, ✅ after it."""
        if source_ts is None:
            yield
            return
        eyes: list[asyncio.Task[None]] = []

        def show() -> None:
            if self.outbox.budget.take():
                eyes.append(asyncio.create_task(self.outbox.react(place.channel, source_ts, WORKING)))

        # A timer, not a task per turn: most turns end before it fires, or find the budget spent.
        timer = asyncio.get_running_loop().call_later(self._eyes_after, show)
        try:
            yield
        finally:
            timer.cancel()
            if eyes:
                await eyes[0]  # 👀 is on before it comes off
                await self.outbox.react(place.channel, source_ts, WORKING, add=False)
                await self.outbox.react(place.channel, source_ts, DONE)


def render_note(text: str) -> SlackMessage:
    """Almanac's own short note as one message."""
    return plain(text)[0]
