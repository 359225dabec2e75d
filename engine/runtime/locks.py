"""Per-conversation ordering (one turn at a time per key, in arrival order) and per-user draining for ``/forget``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class KeyedLocks:
    """A FIFO lock per key, dropped when nobody holds or waits for it.

    ``asyncio.Lock`` wakes waiters in the order they arrived, which gives
    per-conversation ordering; the map never outgrows the conversations that
    are active right now.
    """

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


class UserGate:
    """Lets ``/forget`` wait for the person's running turns, and holds their new ones meanwhile.

    Every turn passes ``async with gate.turn(user)`` (shared: a person's turns
    in different conversations run side by side); ``/forget`` takes
    ``gate.alone(user, but=1)``, which waits until the person's other turns
    have finished and keeps new ones out until it is done. So nothing a
    running turn stores lands after "Nothing of yours is kept".
    """

    def __init__(self) -> None:
        self._running: dict[str, int] = {}
        self._closed: set[str] = set()
        self._changed = asyncio.Condition()

    @asynccontextmanager
    async def turn(self, user: str) -> AsyncIterator[None]:
        async with self._changed:
            while user in self._closed:
                await self._changed.wait()
            self._running[user] = self._running.get(user, 0) + 1
        try:
            yield
        finally:
            async with self._changed:
                left = self._running[user] - 1
                if left:
                    self._running[user] = left
                else:
                    del self._running[user]
                self._changed.notify_all()

    @asynccontextmanager
    async def alone(self, user: str, but: int = 0) -> AsyncIterator[None]:
        """Wait until at most ``but`` turns of ``user`` run (the caller's own), keeping new ones out."""
        async with self._changed:
            while user in self._closed:
                await self._changed.wait()
            self._closed.add(user)
            try:
                while self._running.get(user, 0) > but:
                    await self._changed.wait()
            except BaseException:
                self._closed.discard(user)
                self._changed.notify_all()
                raise
        try:
            yield
        finally:
            async with self._changed:
                self._closed.discard(user)
                self._changed.notify_all()
