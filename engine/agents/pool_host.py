"""One model server of the pool: its wire calls, its back-off and what it reports (see ``pool.py``)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import httpx
import ollama

from engine import texts
from engine.errors import ModelFailed
from engine.language.text import public_url

BACKOFF_FIRST_S = 1.0
BACKOFF_CAP_S = 30.0
PROBE_TIMEOUT_S = 5.0


class Down(Exception):
    """The host cannot take calls now (refused, dropped, or HTTP 503): fail over."""


class Absent(Exception):
    """The host has not got the model (HTTP 404)."""


@dataclass(frozen=True)
class HostHealth:
    """One host as the pool sees it (for ``bot doctor`` and tests)."""

    url: str
    """Credentials masked."""
    cap: int
    in_flight: int
    up: bool
    """False while backed off or being probed."""
    failures: int
    """Failures since it last answered a chat."""
    latency_ms: float
    """Moving average of its answered calls."""
    back_off_s: float
    """Seconds until it is probed again; 0 when up (or being probed)."""


@dataclass(eq=False)
class Host:
    """A model server's state; the pool changes it only from the event loop's thread."""

    index: int
    url: str
    cap: int
    in_flight: int = 0
    failures: int = 0
    down_until: float | None = None
    """Set while backed off (and while its probe runs); None: in use."""
    probing: bool = False
    latency_s: float = 0.0
    client: ollama.AsyncClient | None = None

    @property
    def shown(self) -> str:
        return public_url(self.url)

    def health(self, now: float) -> HostHealth:
        return HostHealth(
            url=self.shown,
            cap=self.cap,
            in_flight=self.in_flight,
            up=self.down_until is None,
            failures=self.failures,
            latency_ms=round(self.latency_s * 1000, 1),
            back_off_s=max(0.0, (self.down_until or now) - now),
        )

    async def send(
        self,
        model: str,
        messages: list[dict[str, str]],
        schema: dict[str, Any],
        options: dict[str, Any],
        timeout_s: float,
    ) -> str:
        """One chat, sent as the single-server client sends it; raises Down, Absent, ModelFailed or a timeout."""
        if self.client is None:  # made inside the running loop, on first use
            self.client = ollama.AsyncClient(
                host=self.url,
                timeout=timeout_s,
                limits=httpx.Limits(max_connections=self.cap, max_keepalive_connections=self.cap),
            )
        try:
            response = await self.client.chat(
                model=model, messages=messages, format=schema, stream=False, options=options
            )
        except httpx.TimeoutException:
            raise
        except ollama.ResponseError as exc:
            if exc.status_code == 503:
                raise Down("HTTP 503") from None
            if exc.status_code == 404:
                raise Absent() from None
            raise ModelFailed(texts.model_failed(exc.status_code, str(exc.error))) from None
        except (httpx.HTTPError, ConnectionError) as exc:
            raise Down(type(exc).__name__) from None
        return response.message.content or ""

    def answered(self, seconds: float) -> int:
        """Note a chat answered in ``seconds``; returns the failures it had before."""
        self.latency_s = 0.7 * self.latency_s + 0.3 * seconds if self.latency_s else seconds
        before, self.failures, self.down_until = self.failures, 0, None
        return before

    def back_off(self, now: float, rng: random.Random) -> float:
        """Take it out of use: 1 s doubling to 30 s with each failure, up to half of it taken off at random
        (hosts lost together are not probed together). Returns the seconds chosen."""
        self.failures += 1
        span = min(BACKOFF_CAP_S, BACKOFF_FIRST_S * 2.0 ** (self.failures - 1))
        seconds = span / 2 + rng.uniform(0, span / 2)
        self.down_until = now + seconds
        return seconds

    async def probe(self) -> bool:
        """Whether it answers ``GET /api/tags`` (the cheapest call Ollama has that proves it serves)."""
        try:
            async with httpx.AsyncClient(timeout=PROBE_TIMEOUT_S) as client:
                reply = await client.get(f"{self.url}/api/tags")
        except (httpx.HTTPError, OSError):
            return False
        return reply.status_code == 200

    async def aclose(self) -> None:
        if self.client is not None:
            inner = getattr(self.client, "_client", None)  # ollama's AsyncClient keeps its httpx client here
            if isinstance(inner, httpx.AsyncClient):
                await inner.aclose()
            self.client = None
