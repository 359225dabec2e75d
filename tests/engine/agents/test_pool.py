"""A pool of model servers: the real client against two or three fake Ollamas on loopback.

Each fake counts the chats it answers at once (``max_in_flight``), so caps are measured where
they matter, on the server. Back-off time is driven by a clock the test moves; no test sleeps
for more than the fakes' few-millisecond delays.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel
from structlog.testing import capture_logs

from engine.agents.llm import LLM
from engine.agents.pool import Pool
from engine.agents.pool_host import BACKOFF_CAP_S
from engine.config import LLMConfig, ModelHost
from engine.errors import ModelMissing, ModelTimeout, ModelUnreachable
from tests.fakes.ollama_server import Delay, Fail, FakeOllama, Hang

REPLY = {"answer": "pong", "count": 1}


class PingOutput(BaseModel):
    answer: str
    count: int


class Clock:
    """Back-off time, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def fakes() -> Iterator[list[FakeOllama]]:
    servers = [FakeOllama().start() for _ in range(3)]
    for server in servers:
        server.default("PingOutput", REPLY)
    yield servers
    for server in servers:
        server.stop()


def pool_llm(
    servers: list[FakeOllama], caps: list[int | None] | None = None, clock: Clock | None = None, **kw: Any
) -> LLM:
    caps = caps or [None] * len(servers)
    hosts = tuple(ModelHost(url=s.url, concurrency=c) for s, c in zip(servers, caps, strict=True))
    config = LLMConfig(host=servers[0].url, hosts=hosts, **{"timeout_s": 5.0, **kw})
    llm = LLM(config)
    # The pool the client makes on first use, made here with the test's clock and a seeded jitter.
    llm._pool = Pool(config, clock=clock or Clock(), rng=random.Random(7))
    return llm


async def ask(llm: LLM, agent: str = "router") -> PingOutput:
    return await llm.structured(agent, PingOutput, "sys", "user")


def pool_of(llm: LLM) -> Pool:
    assert llm.pool is not None
    return llm.pool


async def test_concurrent_calls_spread_over_the_least_busy_hosts(fakes: list[FakeOllama]) -> None:
    for f in fakes:
        f.delay_s = 0.1
    llm = pool_llm(fakes)
    started = time.perf_counter()
    answers = await asyncio.gather(*(ask(llm) for _ in range(6)))
    took = time.perf_counter() - started
    assert all(a.answer == "pong" for a in answers)
    # Cap 1 each: 6 calls over 3 hosts are two rounds of 0.1 s, two calls per host, one at a time.
    assert [f.chat_count() for f in fakes] == [2, 2, 2]
    assert [f.max_in_flight for f in fakes] == [1, 1, 1]
    assert 0.19 < took < 0.6
    await llm.aclose()


async def test_a_hosts_own_cap_and_the_default_cap_are_kept(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    a.delay_s = b.delay_s = 0.05
    llm = pool_llm([a, b], caps=[3, None])  # "http://a#3" and a host at OLLAMA_HOST_CONCURRENCY=1
    await asyncio.gather(*(ask(llm) for _ in range(12)))
    assert (a.max_in_flight, b.max_in_flight) == (3, 1)
    # 4 slots of 0.05 s for 12 calls: three rounds, three calls a round on a and one on b.
    assert (a.chat_count(), b.chat_count()) == (9, 3)
    await llm.aclose()


async def test_a_waiting_call_takes_the_first_slot_freed_on_any_host(fakes: list[FakeOllama]) -> None:
    slow, fast = fakes[:2]
    slow.delay_s, fast.delay_s = 0.3, 0.02
    llm = pool_llm([slow, fast])
    await asyncio.gather(*(ask(llm) for _ in range(4)))
    # One call each at once; the two that waited went to the fast host as it freed, not in line at the slow one.
    assert (slow.chat_count(), fast.chat_count()) == (1, 3)
    await llm.aclose()


async def test_calls_in_line_are_served_first_come_first_served(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    a.delay_s = b.delay_s = 0.05
    llm = pool_llm([a, b])

    async def hog() -> None:  # a caller that asks again the moment it has its answer
        for _ in range(6):
            await ask(llm)

    hogs = [asyncio.create_task(hog()) for _ in range(2)]
    await asyncio.sleep(0.01)
    started = time.perf_counter()
    await ask(llm)
    waited = time.perf_counter() - started
    await asyncio.gather(*hogs)
    # It waits for the first slot freed (under 0.05 s) and is answered in 0.05 s: not behind all 12 calls (0.3 s).
    assert waited < 0.16, waited
    await llm.aclose()


async def test_the_per_model_cap_holds_below_the_hosts_cap(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    a.delay_s = b.delay_s = 0.05
    llm = pool_llm([a, b], caps=[4, 4], model_concurrency=1)
    await asyncio.gather(*(ask(llm) for _ in range(6)))
    assert (a.max_in_flight, b.max_in_flight) == (1, 1)
    assert pool_of(llm).health()[0].in_flight == 0  # every slot given back
    await llm.aclose()


async def test_a_stopped_host_is_backed_off_and_its_calls_go_to_the_other(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    a.stop()
    llm = pool_llm([a, b])
    with capture_logs() as logs:
        answers = [await ask(llm) for _ in range(4)]
    assert all(x.answer == "pong" for x in answers)
    assert b.chat_count() == 4
    events = [e["event"] for e in logs if e["event"].startswith("llm.pool.")]
    # The first call found a down and went on to b; the next three went to b alone.
    assert events == ["llm.pool.backoff", "llm.pool.failover"]
    backoff = next(e for e in logs if e["event"] == "llm.pool.backoff")
    assert backoff["host"] == a.url and "messages" not in backoff
    health = pool_of(llm).health()
    assert (health[0].up, health[0].failures) == (False, 1)
    assert 0.5 <= health[0].back_off_s <= 1.0  # the first back-off: 1 s with up to half of it taken off
    await llm.aclose()


async def test_a_host_killed_mid_call_loses_no_call(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    a.default("PingOutput", Delay(2.0, REPLY))
    llm = pool_llm([a, b])
    call = asyncio.create_task(ask(llm))
    while a.in_flight == 0:
        await asyncio.sleep(0.005)
    await asyncio.to_thread(a.stop)  # drops the open connection, as a crash does
    assert (await call).answer == "pong"
    assert b.chat_count() == 1
    await llm.aclose()


async def test_a_full_queue_503_fails_over_and_backs_off(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    a.refuse = Fail(503, "server busy, please try again.  maximum pending requests exceeded")
    llm = pool_llm([a, b])
    with capture_logs() as logs:
        for _ in range(3):
            assert (await ask(llm)).answer == "pong"
    assert (a.chat_count(), b.chat_count()) == (1, 3)
    assert [e["reason"] for e in logs if e["event"] == "llm.pool.backoff"] == ["HTTP 503"]
    await llm.aclose()


async def test_every_host_down_is_model_unreachable_naming_them(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    a.stop()
    b.refuse = Fail(503, "queue full")
    llm = pool_llm([a, b])
    with pytest.raises(ModelUnreachable) as caught:
        await ask(llm)
    assert a.url in caught.value.message and b.url in caught.value.message
    # Both are backed off: the next call fails at once, sending nothing.
    with pytest.raises(ModelUnreachable):
        await ask(llm)
    assert b.chat_count() == 1
    await llm.aclose()


async def test_a_host_back_after_its_back_off_is_probed_then_used(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    clock = Clock()
    a.stop()
    llm = pool_llm([a, b], clock=clock)
    await ask(llm)
    await asyncio.to_thread(a.start)
    await ask(llm)  # still inside the back-off: b, and no probe of a
    assert a.requests == []
    clock.now += 1.0  # the first back-off is at most 1 s
    await ask(llm)  # a is due: this call starts its probe and goes to b, which is free
    await pool_of(llm).probes_done()
    assert [(r.method, r.path) for r in a.requests] == [("GET", "/api/tags")]
    assert pool_of(llm).health()[0].up
    a.delay_s = b.delay_s = 0.05
    await asyncio.gather(ask(llm), ask(llm))
    assert a.chat_count() == 1
    assert b.chat_count() == 4
    await llm.aclose()


async def test_a_host_whose_queue_stays_full_backs_off_longer(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    clock = Clock()
    a.refuse = Fail(503, "queue full")
    llm = pool_llm([a, b], clock=clock)
    await ask(llm)
    clock.now += 1.0
    await ask(llm)  # a's probe starts; /api/tags answers while its queue is full
    await pool_of(llm).probes_done()
    a.delay_s = b.delay_s = 0.05
    await asyncio.gather(ask(llm), ask(llm))  # one of them goes to a, gets 503 and fails over to b
    health = pool_of(llm).health()[0]
    assert (a.chat_count(), b.chat_count(), health.failures) == (2, 4, 2)
    assert 1.0 <= health.back_off_s <= 2.0  # the second back-off, not the first again
    await llm.aclose()


async def test_calls_in_line_fail_at_once_when_every_host_goes_down(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    for f in (a, b):
        f.default("PingOutput", Delay(2.0, REPLY))
    llm = pool_llm([a, b])
    calls = [asyncio.create_task(ask(llm)) for _ in range(3)]
    while a.in_flight + b.in_flight < 2:
        await asyncio.sleep(0.005)
    started = time.perf_counter()
    await asyncio.gather(asyncio.to_thread(a.stop), asyncio.to_thread(b.stop))
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert all(isinstance(r, ModelUnreachable) for r in results), results
    assert time.perf_counter() - started < 1.0  # not at the 5 s timeout
    await llm.aclose()


async def test_back_off_doubles_with_jitter_up_to_its_cap(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    clock = Clock()
    a.stop()
    llm = pool_llm([a, b], clock=clock)
    await ask(llm)
    pool = pool_of(llm)
    seen = [pool.health()[0].back_off_s]
    for _ in range(7):  # each due probe fails and backs off again
        clock.now += seen[-1]
        await ask(llm)
        await pool.probes_done()
        seen.append(pool.health()[0].back_off_s)
    spans = [1, 2, 4, 8, 16, 30, 30, 30]
    assert all(span / 2 <= s <= span for s, span in zip(seen, spans, strict=True)), seen
    assert max(seen) <= BACKOFF_CAP_S
    assert b.chat_count() == 8 and a.chat_count() == 0
    await llm.aclose()


async def test_a_model_missing_on_one_host_is_served_by_the_other(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    a.models = {"qwen2.5:7b-instruct"}
    b.models = {"qwen2.5:7b-instruct", "qwen2.5:14b-instruct"}
    llm = pool_llm([a, b], agent_models={"parser": "qwen2.5:14b-instruct"})
    with capture_logs() as logs:
        for _ in range(3):
            await ask(llm, "parser")
    # a said "not found" once; the mark is for that model only, and a is not down.
    assert [r.body["model"] for r in a.requests] == ["qwen2.5:14b-instruct"]
    assert [e["host"] for e in logs if e["event"] == "llm.pool.model_missing"] == [a.url]
    assert pool_of(llm).health()[0].up
    a.delay_s = b.delay_s = 0.05
    await asyncio.gather(ask(llm), ask(llm))  # the small model: both hosts
    assert a.calls("PingOutput")[-1]["model"] == "qwen2.5:7b-instruct"
    await llm.aclose()


async def test_a_model_missing_everywhere_is_model_missing(fakes: list[FakeOllama]) -> None:
    llm = pool_llm(fakes[:2], model="llama9:404b")
    with pytest.raises(ModelMissing, match="ollama pull llama9:404b"):
        await ask(llm)
    assert [f.chat_count() for f in fakes[:2]] == [1, 1]
    await llm.aclose()


async def test_a_timeout_is_not_retried_on_another_host(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    a.default("PingOutput", Hang(5.0))
    llm = pool_llm([a, b], timeout_s=0.3)
    with pytest.raises(ModelTimeout):
        await ask(llm)
    assert (a.chat_count(), b.chat_count()) == (1, 0)
    assert pool_of(llm).health()[0].up  # slow is not down
    await llm.aclose()


async def test_waiting_for_a_slot_ends_at_the_calls_timeout(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    for f in (a, b):
        f.default("PingOutput", Hang(5.0))
    llm = pool_llm([a, b], timeout_s=0.3)
    started = time.monotonic()  # the fakes' clock for arrivals
    results = await asyncio.gather(*(ask(llm) for _ in range(3)), return_exceptions=True)
    assert all(isinstance(r, ModelTimeout) for r in results)
    assert time.monotonic() - started < 1.5
    # The third call waited in the queue until the first two gave their slots back at their deadline
    # (a hair before its own: it may then still go out, and time out at once).
    arrivals = sorted(r.received_at for f in (a, b) for r in f.requests)
    assert len(arrivals) in (2, 3)
    assert len(arrivals) == 2 or arrivals[2] - started >= 0.29
    await llm.aclose()


async def test_one_host_sends_exactly_what_it_sent_before(fakes: list[FakeOllama]) -> None:
    a, b = fakes[:2]
    before = LLM(LLMConfig(host=a.url))
    one = LLM(LLMConfig(host=b.url, hosts=(), host_concurrency=1))
    for llm in (before, one):
        await ask(llm)
        await ask(llm, "parser")
    assert one.pool is None
    sent = [[(r.method, r.path, r.body) for r in f.requests] for f in (a, b)]
    assert sent[0] == sent[1] and len(sent[0]) == 2  # two chats; no probe, no other call
    for llm in (before, one):
        await llm.aclose()
