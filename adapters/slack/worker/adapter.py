"""Slack adapter, the engine's side: what the gateway handed over becomes engine turns, outcomes go out.

The Slack app runs as two processes (ARCHITECTURE §6–7):

- the **gateway** (`adapters.slack.gateway`) holds every connection to Slack:
  it receives (HTTP mode or Socket Mode), acknowledges, records and
  de-duplicates (`adapters.slack.gateway.listeners`), and makes the Web API calls;
- **this** process runs the engine. Accepted requests and presses arrive in
  the order the gateway accepted them; each runs in its conversation's queue
  (`ChatQueues`): one turn at a time per conversation, conversations
  concurrently (`Requests`, `Presses`, `Turns`). Replies go back to the
  gateway as lines through the pipe (`adapters.slack.api.RemoteApi`), in the
  typed messages of `adapters.slack.protocol`.

Why two: receiving, acknowledging and posting are Python work, and in one
process they share one interpreter lock with the engine. Under load they
took a tenth of the engine's throughput and pushed acknowledgements towards
Slack's 3 seconds; in a process of their own they take neither.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

import structlog
from pydantic import ValidationError

from adapters.common import Budget, ChatQueues, ReplyNotShown
from adapters.slack import texts
from adapters.slack.api import SlackApi
from adapters.slack.link import LinkClosed
from adapters.slack.pg_store import PgSlackStore
from adapters.slack.place import Place
from adapters.slack.protocol import ACCEPTED, Handed, Post, Slash
from adapters.slack.render import plain
from adapters.slack.send import Outbox
from adapters.slack.store import Pending, Store
from adapters.slack.worker.presses import Presses
from adapters.slack.worker.requests import Requests
from adapters.slack.worker.turns import Turns
from engine import Handler, Outcome, ReminderCard, Reminding

log = structlog.get_logger("adapters.slack")


class SlackAdapter:
    """Runs handed-over requests and presses as engine turns, in order per conversation.

    Args:
        engine: anything with ``handle(turn, progress)``.
        store: the adapter's durable state (``slack.db``).
        api: the Web API (through the gateway).
        eyes_after: seconds before 👀 shows on a slow turn.
        status_after / status_every: seconds before a slow turn's steps show, and between updates.
        keep_replies_s: how long a reply that Slack rate-limits is kept and sent when ``Retry-After``
            allows (`Outbox`); past that the person hears the turn was handled.
        command: the slash command, as the person types it (in what the adapter says).
        signs_per_second: slow turns per second that get 👀/✅, across conversations; beyond that they
            are skipped (replies never are). ``reactions.add`` is a Tier 3 method, about 50 a minute.
        settled: waits until everything the gateway accepted so far has been handed over.
        handled: deletes a handled request's intake row without waiting (default: `SlackStore.done`).
    """

    def __init__(
        self,
        engine: Handler,
        store: Store,
        api: SlackApi,
        *,
        eyes_after: float = 1.0,
        status_after: float = 1.0,
        status_every: float = 1.0,
        keep_replies_s: float = 600.0,
        command: str = "/almanac",
        signs_per_second: float = 0.8,
        settled: Callable[[], Awaitable[None]] | None = None,
        handled: Callable[[int], None] | None = None,
    ) -> None:
        self.store = store
        self.outbox = Outbox(api, Budget(per_second=signs_per_second, burst=5), keep_s=keep_replies_s)
        self.command = command
        self.turns = Turns(
            engine, self.outbox, store, eyes_after, command, status_after=status_after, status_every=status_every
        )
        self.queues = ChatQueues(self._job_failed)
        self.requests = Requests(self.turns, store, self.outbox, self.queues, handled)
        self.presses = Presses(self.turns, store, self.outbox)
        self._settled = settled
        self._reminding: asyncio.Task[None] | None = None

    def request(self, queue: str, intake: int, spec: Post | Slash) -> None:
        """A recorded post or slash command: queue it behind its conversation's earlier work."""
        self.requests.submit(queue, intake, spec)

    def press(self, spec: Handed) -> None:
        """A press that took its buttons, a Revise submission or a confirmed forget: queue it."""

        async def job() -> None:
            if isinstance(self.store, PgSlackStore):  # replicas: never beside a turn of it elsewhere
                async with self.store.hold(spec.place.conversation):
                    await self.presses.run(spec)
            else:
                await self.presses.run(spec)

        self.queues.submit(spec.place.conversation, job, spec)

    def start_reminders(self) -> None:
        """Post the engine's reminders (``chat.postMessage``) into the DM or thread they were made in, as they
        fall due (an engine without reminders: nothing)."""
        engine = self.turns.engine
        if not isinstance(engine, Reminding) or self._reminding is not None:
            return

        async def push(conversation: str, outcomes: Sequence[Outcome]) -> None:
            owner = next((o.asked_by for o in outcomes if isinstance(o, ReminderCard)), "").rsplit(":", 1)[-1]
            if not owner:  # a summary or a nudge: a channel's key names its member, a DM's needs none
                parts = conversation.split(":")
                owner = parts[4] if len(parts) == 5 else ""
            place = Place.of_conversation(conversation, owner)
            if place is None:
                raise ValueError(f"no Slack place for {conversation}")
            # Outside the conversation's queue: a reminder answers no turn. A failed post raises: tried again.
            await self.turns.deliver(place, list(outcomes))

        self._reminding = asyncio.create_task(engine.deliver_reminders("slack", push), name="slack.reminders")

    async def stop_reminders(self) -> None:
        if self._reminding is not None:
            self._reminding.cancel()
            await asyncio.gather(self._reminding, return_exceptions=True)
            self._reminding = None

    async def recover(self) -> int:
        """Queue again the requests a crash interrupted (acknowledged, not yet handled); how many."""
        pending = await self.store.pending()
        for item in pending:
            log.info("slack.recovered", intake=item.id, kind=item.spec.get("kind"))
            self.submit_recorded(item)
        return len(pending)

    def submit_recorded(self, item: Pending) -> bool:
        """Queue a recorded request (recovered, or claimed from the shared store); False: unreadable, dropped."""
        try:
            spec = ACCEPTED.validate_python(item.spec)
        except ValidationError as exc:  # no turn can come of it: say so once, and let it go
            log.error("slack.recovered_unreadable", intake=item.id, error=str(exc.errors()[0]["msg"]))
            self.store.done(item.id)
            return False
        self.requests.submit(item.queue, item.id, spec)
        return True

    async def drain(self, timeout: float | None = None, *, gateway_alive: bool = True) -> None:
        """Let everything accepted so far finish: handed over, queued, run, and its replies sent.

        Without the gateway no reply can go out: the queued turns are cancelled at once (their rows
        stay pending and run at the next start) instead of running the model for nothing.
        """
        if not gateway_alive:
            await self.queues.drain(0)
            return
        if self._settled is not None:
            await self._settled()
        await asyncio.sleep(0)
        await self.queues.drain(timeout)

    async def _job_failed(self, context: object, exc: Exception) -> None:
        """A job raised: log it with its place, and tell the person privately; never show a traceback.

        A turn the engine handled but whose reply was lost (`ReplyNotShown`) is never answered
        with "please try again": that would log it twice.
        """
        kind = getattr(context, "kind", None)
        if isinstance(exc, LinkClosed):  # the gateway is gone: nothing can be shown; the request stays pending
            log.warning("slack.job_left_pending", kind=kind, reason=str(exc))
            return
        done = exc if isinstance(exc, ReplyNotShown) else None
        log.error("slack.job_failed", kind=kind, handled=done is not None, exc_info=exc)
        place = getattr(context, "place", None)
        if place is not None:
            text = texts.APOLOGY if done is None else texts.reply_not_shown(done.kinds, self.command)
            try:
                await self.outbox.ephemeral(place, plain(text)[0])
            except Exception as again:
                log.warning("slack.apology_failed", reason=str(again))
