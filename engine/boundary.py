"""The engine's boundary as types: every promise an adapter may rely on (ARCHITECTURE §2).

- `Handler`: ``handle`` a turn, and read what is ``pending`` in a conversation.
- `DeliveryStore`: keep what a platform delivered until it is handled (``adapters/common/intake.py``
  drives it), its unit a `Delivery`.
- `Progress`: the `Step` s of a turn while it runs (a stage and what it is doing).
- `Reminding`: reminders due are sent through the adapter's `Push`, without a turn.

`engine.Engine` keeps all of them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from engine.outcomes import ApprovalRequest, Ask, Outcome
from engine.turns import Turn


@dataclass(frozen=True)
class Delivery:
    """One thing a platform delivered (a Telegram update, a Slack event), as the platform sent it."""

    id: str
    """The platform's id for the delivery (``update_id``, ``event_id``); a second delivery of it is recognised."""
    payload: str
    """The platform's JSON, enough to dispatch it again after a crash."""
    user: str = ""
    """The sender's user key, so that ``/forget`` removes it too."""
    note: str = ""
    """The adapter's own note (e.g. a status line to clean up after a crash)."""
    conversation: str = ""
    """The conversation key it belongs to: with several workers (Postgres), one conversation's deliveries run
    one at a time, in the order recorded."""


@dataclass(frozen=True)
class Step:
    """What a running turn is doing, for an adapter to show (a draft, a status line).

    Written by code from what code read and ran (the question's terms and periods, the window a
    retrieval fetched, the articles it picked), never from a model's output: a step shows no number
    that was not checked.
    """

    stage: str
    """The stage (``routing``, ``retrieving``, ``checking``, … see `engine.graph.steps.STAGES`): for an
    adapter that shows only a kind of work."""
    text: str
    """What it is doing, in the person's language (``Fetching your bench press entries for …``)."""

    def __str__(self) -> str:
        return self.text


Progress = Callable[[Step], Awaitable[None]]
"""Receives the `Step` s of a turn while it runs, in order; a stage may bring several."""

Push = Callable[[str, Sequence[Outcome]], Awaitable[None]]
"""An adapter's way to put outcomes in a conversation without a turn (a reminder that is due): the
conversation key and what to show. It returns once the platform took the message; an exception means
not sent (the engine tries again)."""


class Handler(Protocol):
    """Anything that takes a turn and returns what the person should see.

    ``Engine`` is one; adapters and their tests depend on this protocol only.
    """

    async def handle(self, turn: Turn, progress: Progress | None = None) -> list[Outcome]:
        """Run one turn; turns of one conversation run in arrival order."""
        ...

    async def pending(self, conversation: str, user: str) -> Ask | ApprovalRequest | None:
        """The conversation's open question or plan, if any: a read, no turn (``user`` is who asks)."""
        ...

    async def interrupted(self, conversation: str) -> list[Turn]:
        """Turns of the conversation that a crash cut off, oldest first; ``handle`` each to run it."""
        ...


@runtime_checkable
class DeliveryStore(Protocol):
    """The engine's intake: what platforms delivered, kept until handled (`engine.runtime.intake.Intake`).

    Recorded before confirmed: an adapter records a delivery (`receive`) before telling its
    platform it arrived, marks it done once handled (`finish`), and after a crash dispatches
    again what is not done (`unfinished`).
    """

    async def receive(self, source: str, deliveries: Sequence[Delivery]) -> list[str]:
        """Record deliveries; returns the ids not seen before (on disk when this returns)."""
        ...

    async def unfinished(self, source: str) -> list[Delivery]:
        """Deliveries recorded but not finished, in the order to dispatch them again."""
        ...

    async def finish(self, source: str, delivery_ids: Sequence[str]) -> None:
        """Mark deliveries handled."""
        ...

    async def note(self, source: str, delivery_id: str, note: str) -> None:
        """Keep an adapter's note with a delivery."""
        ...


@runtime_checkable
class SharedDeliveries(Protocol):
    """Deliveries shared by several workers (Postgres, `engine.runtime.shared`): claimed per conversation, in order.

    `shared` is False for a process alone on its database (SQLite): it dispatches what it receives itself.
    """

    @property
    def shared(self) -> bool: ...

    async def claim(self, source: str, limit: int) -> list[Delivery]:
        """Deliveries to run now: each its conversation's oldest open one, no other worker running it."""
        ...

    async def release(self, delivery: Delivery) -> None:
        """A claimed delivery is done (marked with ``finish``), or given up: its conversation may run elsewhere."""
        ...

    async def lead(self, role: str) -> bool:
        """Whether this process leads ``role`` (one long poll, one scheduler): taken if free, kept for life."""
        ...

    async def watch(self, wake: Callable[[], None]) -> None:
        """Call ``wake`` whenever a receiver, in any process, records deliveries."""
        ...


@runtime_checkable
class Reminding(Protocol):
    """The engine's reminders, sent when due by one scheduler for every platform (`engine.reminders.scheduler`).

    Each occurrence is recorded before it is pushed and marked sent after, so a crash between the
    two sends it once at the next start; a crash after the push but before the mark sends it again.
    """

    async def deliver_reminders(self, platform: str, push: Push) -> None:
        """Push the reminders of ``platform``'s conversations (``tg``, ``slack``, ``console``) as they fall due,
        until cancelled; those left unsent by a crash go first."""
        ...
