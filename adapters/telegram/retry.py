"""Retries for every Bot API call: flood control waits, network errors back off.

python-telegram-bot passes each request (except ``getUpdates``, which its
updater retries itself) through the application's rate limiter, so this is
the one place where a call is retried — whether it comes from the adapter or
from ``CallbackQuery.answer()``. (A reply that flood control still refuses
after these retries is not dropped: `adapters.telegram.send.kept` holds it
until the wait ends.) Nothing is throttled by rate: the bot only
slows down when Telegram says so. What is bounded is the number of requests
in flight: httpx's connection pool spends time quadratic in its size on
every request (httpcore 1.0 scans all connections for each idle one), so a
few hundred chats replying at once would burn more CPU in the pool than in
the rest of the bot. Requests beyond the bound wait here, in order.
"""

from __future__ import annotations

import asyncio
import random
import warnings
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any

import structlog
from telegram.error import BadRequest, NetworkError, RetryAfter
from telegram.ext import BaseRateLimiter
from telegram.warnings import PTBDeprecationWarning

log = structlog.get_logger("adapters.telegram")

JSONDict = dict[str, Any]


def retry_after_seconds(exc: RetryAfter) -> float:
    """``RetryAfter.retry_after`` in seconds, whether PTB gives an int or a timedelta."""
    with warnings.catch_warnings():
        # v22 warns that the attribute becomes a timedelta; either form is read here.
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


class Retrying(BaseRateLimiter[None]):
    """Retry on ``RetryAfter`` (after the wait Telegram asks for) and on network errors.

    Args:
        max_in_flight: Bot API requests sent at the same time; give the
            connection pool at least this many connections.
        flood_retries: how many times one call waits out flood control.
        max_flood_wait: the longest single wait accepted (seconds); longer ones fail the call.
        network_retries: how many times one call is retried after a network error.
        backoff: first back-off delay in seconds, doubled each time (with jitter).

    A network error can hide a request that did reach Telegram (a timeout
    while reading the reply), so a retried ``sendMessage`` may, rarely, arrive
    twice; a lost answer would be worse.
    """

    def __init__(
        self,
        max_in_flight: int = 8,
        flood_retries: int = 3,
        max_flood_wait: float = 120.0,
        network_retries: int = 4,
        backoff: float = 0.5,
    ) -> None:
        self.max_in_flight = max_in_flight
        self._slots: asyncio.Semaphore | None = None
        self.flood_retries = flood_retries
        self.max_flood_wait = max_flood_wait
        self.network_retries = network_retries
        self.backoff = backoff

    async def initialize(self) -> None:
        """Create the in-flight bound on the running event loop."""
        self._slots = asyncio.Semaphore(self.max_in_flight)

    async def shutdown(self) -> None:
        """Nothing to release."""

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: None,
    ) -> bool | JSONDict | list[JSONDict]:
        """Run one Bot API call, retrying as described on the class."""
        floods = failures = 0
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.max_in_flight)
        while True:
            try:
                # Waits (flood control, back-off) happen outside the slot, so they hold up nobody else.
                async with self._slots:
                    return await callback(*args, **kwargs)
            except RetryAfter as exc:
                wait = retry_after_seconds(exc)
                if floods >= self.flood_retries or wait > self.max_flood_wait:
                    raise
                floods += 1
                log.warning("telegram.flood_wait", endpoint=endpoint, wait_s=wait, attempt=floods)
                await asyncio.sleep(wait)
            except BadRequest:
                raise  # a subclass of NetworkError, but retrying cannot fix it
            except NetworkError as exc:  # TimedOut included
                if failures >= self.network_retries:
                    raise
                delay = self.backoff * (2**failures) * (0.75 + random.random() / 2)
                failures += 1
                log.warning(
                    "telegram.network_retry", endpoint=endpoint, error=type(exc).__name__, delay_s=round(delay, 2)
                )
                await asyncio.sleep(delay)
