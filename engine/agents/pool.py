"""A pool of Ollama servers behind the one model client (``OLLAMA_HOSTS``).

Rules, and why:

* **Caps.** Each host takes at most its cap of calls at once (``#N`` on its URL, else
  ``OLLAMA_HOST_CONCURRENCY``, default 1: a CPU host answers one call at a time fastest),
  and at most ``OLLAMA_MODEL_CONCURRENCY`` of them for one model, when set.
* **Least busy.** A call goes to the host with the smallest share of its cap in use;
  ties go to the lower recent latency (10 ms buckets of a moving average), then round
  robin, so equal hosts alternate and a clearly faster one is preferred.
* **Waiting.** With every usable host at its cap the call waits for a slot, never
  past its deadline (``OLLAMA_TIMEOUT_S`` from the call's start, which also bounds the
  request itself): then it is ``model_timeout``.
* **Down.** A connection error, a dropped connection or HTTP 503 (Ollama's "queue
  full") backs the host off, exponentially with jitter (1 s, 2 s, 4 s … capped at
  30 s), and the same request goes at once to each other host, once. Every host down:
  ``model_unreachable`` naming them, also for calls waiting in line. A backed-off host
  is used again only after a ``GET /api/tags`` probe, run as its own task once the
  back-off is over; its back-off keeps growing until it answers a chat (a host whose
  queue stays full answers the probe and refuses the next call).
* **Missing.** 404 "model not found" marks that (host, model) only, re-checked after
  ``MISSING_RECHECK_S``; the call goes to another host. Missing everywhere: ``model_missing``.
* **Timeouts are not retried elsewhere**: a model slow on one host is slow on the next,
  and a retry would double the CPU spent on an answer nobody waits for.

Nothing here connects before the first call; every map is bounded by hosts × models.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import structlog

from engine import texts
from engine.agents.pool_host import Absent, Down, Host, HostHealth
from engine.config import LLMConfig
from engine.errors import ModelMissing, ModelTimeout, ModelUnreachable

log = structlog.get_logger("engine.llm.pool")

MISSING_RECHECK_S = 60.0
"""A model pulled on a host later is found within this long."""
_LATENCY_BUCKET_S = 0.010


@dataclass(eq=False)
class _Waiter:
    """A call in line for a slot."""

    model: str
    tried: set[int]
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    host: Host | None = None
    error: Exception | None = None


class Pool:
    """Routes model calls across ``config.hosts``; see the module's rules."""

    def __init__(
        self, config: LLMConfig, *, clock: Callable[[], float] = time.monotonic, rng: random.Random | None = None
    ) -> None:
        self._config = config
        self._clock = clock  # back-off and re-check times; call deadlines use the loop's own clock
        self._rng = rng or random.Random()
        self._hosts = [Host(i, h.url, h.concurrency or config.host_concurrency) for i, h in enumerate(config.hosts)]
        self._model_in_flight: dict[tuple[int, str], int] = {}
        self._missing: dict[tuple[int, str], float] = {}
        self._probes: set[asyncio.Task[None]] = set()
        self._line: list[_Waiter] = []  # calls waiting for a slot, oldest first (one per call in flight)
        self._turn = 0

    def health(self) -> list[HostHealth]:
        """Every host's state now."""
        now = self._clock()
        return [h.health(now) for h in self._hosts]

    async def chat(
        self, model: str, messages: list[dict[str, str]], schema: dict[str, Any], options: dict[str, Any]
    ) -> str:
        """Send one chat to the best host, failing over as the rules say; returns the reply's content.

        Raises:
            ModelUnreachable, ModelTimeout, ModelMissing, ModelFailed.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._config.timeout_s
        tried: set[int] = set()
        while True:
            host = await self._acquire(model, tried, deadline)
            started = loop.time()
            try:
                async with asyncio.timeout_at(deadline):
                    content = await host.send(model, messages, schema, options, self._config.timeout_s)
                if failures := host.answered(loop.time() - started):
                    log.info("llm.pool.recovered", host=host.shown, after_failures=failures)
                return content
            except (TimeoutError, httpx.TimeoutException):
                raise ModelTimeout(texts.model_timeout(self._config.timeout_s)) from None
            except Down as exc:
                tried.add(host.index)
                self._back_off(host, str(exc))
            except Absent:
                tried.add(host.index)
                self._missing[(host.index, model)] = self._clock() + MISSING_RECHECK_S
                log.warning("llm.pool.model_missing", host=host.shown, model=model)
            finally:
                self._release(host, model)
            log.info("llm.pool.failover", host=host.shown, tried=len(tried), hosts=len(self._hosts))

    async def _acquire(self, model: str, tried: set[int], deadline: float) -> Host:
        # First come, first served: slots are handed out by `_dispatch`, oldest call first, so a
        # caller looping on calls cannot take every freed slot and starve the rest.
        me = _Waiter(model, tried)
        self._line.append(me)
        self._dispatch()
        served = False
        try:
            if not me.ready.is_set():
                async with asyncio.timeout_at(deadline):
                    await me.ready.wait()
            if me.error is not None:
                raise me.error
            assert me.host is not None
            served = True
            return me.host
        except TimeoutError:
            raise ModelTimeout(texts.model_timeout(self._config.timeout_s)) from None
        finally:
            if me in self._line:
                self._line.remove(me)
            if not served and me.host is not None:  # handed a slot as its time ran out
                self._release(me.host, model)

    def _dispatch(self) -> None:
        """Give free slots to the calls in line, oldest first; fail those no host is left for."""
        for w in list(self._line):
            usable, coming = self._usable(w.model, w.tried)
            if not usable and not coming:
                w.error = self._exhausted(w.model)
            else:
                free = [h for h in usable if h.in_flight < h.cap and self._model_load(h, w.model) < self._model_cap(h)]
                if not free:
                    continue
                w.host = self._take(min(free, key=self._rank), w.model)
            self._line.remove(w)
            w.ready.set()

    def _usable(self, model: str, tried: set[int]) -> tuple[list[Host], bool]:
        """Hosts this call may use now, and whether a probe may soon add one (due probes start here)."""
        now = self._clock()
        usable, coming = [], False
        for h in self._hosts:
            if h.index in tried or self._missing.get((h.index, model), now) > now:
                continue
            if h.down_until is not None:
                if h.down_until <= now and not h.probing:
                    self._start_probe(h)
                coming = coming or h.probing
                continue
            usable.append(h)
        return usable, coming

    def _take(self, host: Host, model: str) -> Host:
        self._turn = host.index + 1
        host.in_flight += 1
        self._model_in_flight[(host.index, model)] = self._model_load(host, model) + 1
        return host

    def _rank(self, h: Host) -> tuple[float, int, int]:
        # Round robin among equals: the host after the last one chosen comes first.
        return (h.in_flight / h.cap, int(h.latency_s / _LATENCY_BUCKET_S), (h.index - self._turn) % len(self._hosts))

    def _model_load(self, h: Host, model: str) -> int:
        return self._model_in_flight.get((h.index, model), 0)

    def _model_cap(self, h: Host) -> int:
        return self._config.model_concurrency or h.cap

    def _release(self, host: Host, model: str) -> None:
        host.in_flight -= 1
        key = (host.index, model)
        left = self._model_in_flight.get(key, 1) - 1
        if left > 0:
            self._model_in_flight[key] = left
        else:
            self._model_in_flight.pop(key, None)  # keeps the map to the calls in flight
        self._notify()

    def _exhausted(self, model: str) -> Exception:
        now = self._clock()
        if all(self._missing.get((h.index, model), 0.0) > now for h in self._hosts):
            return ModelMissing(texts.model_missing(model))
        return ModelUnreachable(texts.model_pool_unreachable([h.shown for h in self._hosts]))

    def _back_off(self, host: Host, reason: str) -> None:
        seconds = host.back_off(self._clock(), self._rng)
        log.warning(
            "llm.pool.backoff", host=host.shown, reason=reason, failures=host.failures, seconds=round(seconds, 2)
        )
        self._notify()

    def _start_probe(self, host: Host) -> None:
        host.probing = True
        task = asyncio.create_task(self._probe(host))
        self._probes.add(task)  # a reference, so the task is not collected mid-run; at most one per host
        task.add_done_callback(self._probes.discard)

    async def _probe(self, host: Host) -> None:
        ok = await host.probe()
        host.probing = False
        if ok:
            # Back in use; its failures are forgotten only once it answers a chat: a host whose
            # queue stays full answers the probe and 503s the next call, and must back off longer.
            host.down_until = None
            self._notify()
        else:
            self._back_off(host, "probe failed")

    def _notify(self) -> None:
        self._dispatch()

    async def probes_done(self) -> None:
        """Wait for the probes running now (tests, shutdown)."""
        if self._probes:
            await asyncio.gather(*self._probes, return_exceptions=True)

    async def aclose(self) -> None:
        """Stop the probes and close every host's connections."""
        for task in list(self._probes):
            task.cancel()
        await self.probes_done()
        for h in self._hosts:
            await h.aclose()
