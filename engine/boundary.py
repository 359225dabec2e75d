"""The engine's boundary as a type: what an adapter may call (ARCHITECTURE §2)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from engine.outcomes import ApprovalRequest, Ask, Outcome
from engine.turns import Turn

Progress = Callable[[str], Awaitable[None]]
"""Receives stage names (``routing``, ``parsing``, …) while a turn runs."""


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
