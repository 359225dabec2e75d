"""Per-conversation ordering and once-only delivery, the same for every platform.

Handlers put work into a conversation's queue without awaiting anything
first, so the order in which events arrive is the order in which their turns
run; one worker per busy conversation runs them one at a time, while other
conversations' workers run concurrently. `Recent` remembers what was already
seen (Telegram ``update_id`` s, Slack ``event_id`` s, pressed messages), so a
platform's retry or duplicate delivery is handled once.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable

Job = Callable[[], Awaitable[None]]
OnError = Callable[[object, Exception], Awaitable[None]]


class ChatQueues:
    """A FIFO of jobs per key and one worker task per key that has work.

    The key is the engine's conversation key; the name is historical (Telegram
    chats came first).

    Args:
        on_error: called with the job's context and the exception when a job
            raises; the worker then goes on with the next job.
    """

    def __init__(self, on_error: OnError) -> None:
        self._on_error = on_error
        self._queues: dict[str, deque[tuple[Job, object]]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}

    def submit(self, key: str, job: Job, context: object = None) -> None:
        """Queue ``job`` behind the key's earlier jobs. Synchronous on purpose: call it before any ``await``."""
        queue = self._queues.setdefault(key, deque())
        queue.append((job, context))
        if key not in self._workers:
            self._workers[key] = asyncio.create_task(self._work(key, queue), name=f"chat-worker:{key}")

    def busy(self, key: str) -> bool:
        """Whether a job of this key is running or waiting."""
        return key in self._workers

    def __len__(self) -> int:
        return len(self._workers)

    async def _work(self, key: str, queue: deque[tuple[Job, object]]) -> None:
        try:
            while queue:
                job, context = queue.popleft()
                try:
                    await job()
                except Exception as exc:
                    await self._on_error(context, exc)
        finally:
            # No await between the empty check and here, so no job can slip in unseen.
            del self._queues[key]
            del self._workers[key]

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until every queued job has run; after ``timeout`` seconds, cancel the rest."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while self._workers:
            workers = list(self._workers.values())
            left = None if deadline is None else max(0.0, deadline - loop.time())
            _, pending = await asyncio.wait(workers, timeout=left)
            if pending and deadline is not None and loop.time() >= deadline:
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)


class Recent:
    """A bounded set of recently seen keys (update or event ids, pressed messages); the oldest go first."""

    def __init__(self, size: int = 10_000) -> None:
        self._size = size
        self._keys: OrderedDict[Hashable, None] = OrderedDict()

    def add(self, key: Hashable) -> bool:
        """Remember ``key``; False if it was already there."""
        if key in self._keys:
            return False
        self._keys[key] = None
        if len(self._keys) > self._size:
            self._keys.popitem(last=False)
        return True

    def __contains__(self, key: Hashable) -> bool:
        return key in self._keys

    def discard(self, key: Hashable) -> None:
        self._keys.pop(key, None)
