"""What an accepted request becomes: its engine turn, run in its conversation's queue.

A listener records a post or a slash command in ``slack.db`` (`SlackStore.accept`)
and hands its stored form (the *spec*: `Post` or `Slash` of `adapters.slack.protocol`) here; so does `SlackAdapter.recover`
for what a crash interrupted. Running from the spec alone, not from the
request, is what lets a recovered request run exactly like a fresh one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timezone

from adapters.common import MESSAGE_COMMANDS, ChatQueues, command_turn
from adapters.slack.link import LinkClosed
from adapters.slack.place import Place
from adapters.slack.protocol import Post, Slash
from adapters.slack.send import Outbox
from adapters.slack.store import Store
from adapters.slack.text import esc, shorten
from adapters.slack.worker.turns import Turns
from adapters.slack.worker.typed import run_typed
from engine import Message


class Requests:
    """Queues accepted requests and runs each as a turn."""

    def __init__(
        self,
        turns: Turns,
        store: Store,
        outbox: Outbox,
        queues: ChatQueues,
        handled: Callable[[int], None] | None = None,
    ) -> None:
        self.turns, self.store, self.outbox, self.queues = turns, store, outbox, queues
        self._handled = handled or store.done
        """Deletes a handled intake row without waiting (`SlackStore.done`, here or in the gateway)."""

    def submit(self, queue: str, intake: int, spec: Post | Slash) -> None:
        """Queue intake row ``intake`` behind its conversation's earlier jobs (on the turns' loop)."""

        async def job() -> None:
            try:
                await self.run(spec)
            except (asyncio.CancelledError, LinkClosed):
                # Shutdown, or the gateway is gone and the reply cannot go out: the row stays
                # pending and runs again at the next start (the engine gives back what it did).
                raise
            except Exception:
                self._handled(intake)  # the engine kept the failure for /retry
                raise
            self._handled(intake)

        self.queues.submit(queue, job, spec)

    async def run(self, spec: Post | Slash) -> None:
        """A post becomes a message turn; a slash command a message in a new thread, or a control."""
        place = spec.place
        at = datetime.fromtimestamp(spec.at, timezone.utc)
        if isinstance(spec, Post):
            post = Message(
                conversation=place.conversation, user=place.user_key, at=at, text=spec.text, message_id=spec.ts
            )
            await run_typed(self.turns, place, post, spec.ts)  # "2", "skip", "approve." mean what the buttons do
            return
        name, arg = spec.name, spec.arg
        if name in MESSAGE_COMMANDS:
            await self._slash_message(place, arg, at, f"cmd:{spec.id}")
            return
        conversation = place.conversation
        if not place.dm:  # a control applies to the member's latest conversation here
            conversation = await self.store.latest(place.team, place.channel, place.user) or conversation
        target = Place.of_conversation(conversation, place.user, place.response_url) or place
        turn = command_turn(name, arg, conversation=conversation, user=place.user_key, at=at)
        assert turn is not None
        await self.turns.run(target, turn, private=True)

    async def _slash_message(self, place: Place, text: str, at: datetime, message_id: str) -> None:
        """``/almanac log …``: a new thread in the channel (or the DM itself), answered there."""
        target, starter = place, None
        if not place.dm:
            starter = await self.outbox.start_thread(place, f"<@{place.user}>: {esc(shorten(text, 2_000))}")
            if starter is not None:
                target = place.in_thread(starter)
                await self.store.own(place.team, place.channel, starter)
            await self.store.set_latest(place.team, place.channel, place.user, target.conversation)
        turn = Message(conversation=target.conversation, user=place.user_key, at=at, text=text, message_id=message_id)
        await self.turns.run(target, turn, source_ts=starter)
