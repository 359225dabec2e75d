"""One SQLite connection on a thread of its own, with group commit; what `SlackStore` runs on.

Every write is one whole transaction run on that thread (standard
``sqlite3``). With aiosqlite a transaction spans several awaits, and on a
busy event loop the gap between an INSERT and its COMMIT grows to seconds
while the write lock is held; here a transaction never waits for a loop, and
callers on any loop (the intake's, the turns') share the connection.

Group commit: writes that arrive while the thread is busy (an fsync takes a
while) wait and then share one transaction and one fsync, each in its own
savepoint, so a burst of events is acknowledged in one disk write instead of
hundreds in a row.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import structlog

log = structlog.get_logger("adapters.slack")
T = TypeVar("T")
Write = Callable[[sqlite3.Connection], Any]
Waiter = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]"]


class SqliteThread:
    """A connection in autocommit mode (transactions are explicit), used only from its thread."""

    def __init__(self, name: str) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._batch: list[tuple[Write, Waiter | None]] = []
        self._flushing = False

    async def open(self, path: Path, setup: Callable[[sqlite3.Connection], None]) -> None:
        """Connect (creating the file and its folder) and run ``setup`` on the thread."""

        def connect() -> None:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, isolation_level=None)
            setup(db)
            self._db = db

        await self.run(connect)

    async def close(self) -> None:
        """Close the connection (after the writes queued before) and the thread."""
        if self._db is not None:
            await self.run(self._db.close)
            self._db = None
        self._pool.shutdown(wait=True)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn`` on the connection's thread."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def read(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """The rows of one query."""
        return await self.run(self._read, sql, args)

    def _read(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        assert self._db is not None, "the store is closed"
        return self._db.execute(sql, args).fetchall()

    async def tx(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` in a write transaction, committed (on disk) before this returns."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        self._enqueue(fn, (loop, done))
        return await done

    async def write(self, sql: str, *args: Any) -> int:
        """One statement, committed; the number of rows it changed."""
        return await self.tx(lambda db: db.execute(sql, args).rowcount)

    def write_soon(self, sql: str, *args: Any) -> None:
        """One statement in the next group, and nobody waits for it (a failure is logged).

        It is committed before anything written after it, as writes run in order.
        """
        self._enqueue(lambda db: db.execute(sql, args), None)

    def _enqueue(self, fn: Write, waiter: Waiter | None) -> None:
        with self._lock:
            self._batch.append((fn, waiter))
            start, self._flushing = not self._flushing, True
        if start:
            self._pool.submit(self._flush)

    def _flush(self) -> None:
        with self._lock:
            batch, self._batch, self._flushing = self._batch, [], False
        db = self._db
        settled: list[tuple[Waiter | None, Any, BaseException | None]] = []
        try:
            assert db is not None, "the store is closed"
            db.execute("BEGIN IMMEDIATE")
            for fn, waiter in batch:
                db.execute("SAVEPOINT one")
                try:
                    settled.append((waiter, fn(db), None))
                    db.execute("RELEASE one")
                except Exception as exc:  # this write alone is undone (e.g. a seen key)
                    db.execute("ROLLBACK TO one")
                    db.execute("RELEASE one")
                    settled.append((waiter, None, exc))
            db.execute("COMMIT")
        except BaseException as exc:  # nothing of the batch is stored: every writer hears so
            if db is not None and db.in_transaction:
                db.execute("ROLLBACK")
            settled = [(waiter, None, exc) for _, waiter in batch]
        for waiter, result, error in settled:
            if waiter is not None:
                waiter[0].call_soon_threadsafe(_settle, waiter[1], result, error)
            elif error is not None:
                log.warning("slack.store_write_failed", error=str(error))


def _settle(done: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if done.cancelled():
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)
