"""Slack's platform state on Postgres, as two replicas see it: one store each, one database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from adapters.slack.pg_store import PgSlackStore
from adapters.slack.store import Prompt, Thread


@pytest.fixture
async def two(pg_url: str) -> AsyncIterator[tuple[PgSlackStore, PgSlackStore]]:
    a, b = await asyncio.gather(PgSlackStore.open(pg_url), PgSlackStore.open(pg_url))  # both make the tables
    yield a, b
    await a.close()
    await b.close()


async def test_an_event_seen_by_one_replica_is_seen_by_the_other(two: tuple[PgSlackStore, PgSlackStore]) -> None:
    a, b = two
    thread = Thread("T1", "C1", "100.0", "U1", "slack:T1:C1:100.0:U1")
    assert await a.accept(["ev:1", "post:T1:C1:100.0"], "q1", {"kind": "post"}, thread) is not None
    assert await b.accept(["ev:1"], "q1", {"kind": "post"}) is None  # Slack's retry, at the other replica
    assert await b.accept(["ev:2", "post:T1:C1:100.0"], "q1", {"kind": "post"}) is None  # the app_mention twin
    assert await b.owns("T1", "C1", "100.0")  # a follow-up there needs no mention, on either replica
    assert await b.latest("T1", "C1", "U1") == "slack:T1:C1:100.0:U1"


async def test_requests_are_claimed_per_conversation_in_order_by_one_replica(
    two: tuple[PgSlackStore, PgSlackStore],
) -> None:
    a, b = two
    first = await a.accept(["e1"], "q1", {"n": 1})
    second = await a.accept(["e2"], "q1", {"n": 2})
    other = await b.accept(["e3"], "q2", {"n": 3})
    taken = await a.claim_requests(8)
    assert [(p.id, p.queue) for p in taken] == [(first, "q1"), (other, "q2")]  # heads only, oldest first
    assert await b.claim_requests(8) == []  # both conversations run on `a`
    assert first is not None
    a.finish(first, "q1")
    await asyncio.sleep(0.1)
    (next_one,) = await b.claim_requests(8)
    assert (next_one.id, next_one.queue) == (second, "q1")  # in order, on the other replica


async def test_a_press_waits_while_another_replica_runs_its_conversation(
    two: tuple[PgSlackStore, PgSlackStore],
) -> None:
    a, b = two
    intake = await a.accept(["e1"], "slack:conv", {"n": 1})
    assert [p.id for p in await a.claim_requests(1)] == [intake]
    entered = asyncio.Event()

    async def press() -> None:
        async with b.hold("slack:conv"):
            entered.set()

    pressing = asyncio.create_task(press())
    await asyncio.sleep(0.3)
    assert not entered.is_set()  # the turn on `a` is still running
    assert intake is not None
    a.finish(intake, "slack:conv")
    await asyncio.wait_for(entered.wait(), 5)
    await pressing


async def test_prompts_and_press_claims_are_shared(two: tuple[PgSlackStore, PgSlackStore]) -> None:
    a, b = two
    await a.set_prompt("conv", Prompt("C1", "200.0", "int-1", [{"type": "section"}], "slack:T1:U1"))
    shown = await b.prompt("conv")
    assert shown is not None and (shown.ts, shown.interrupt_id, shown.blocks) == (
        "200.0",
        "int-1",
        [{"type": "section"}],
    )
    assert await a.claim("C1", "200.0") and not await b.claim("C1", "200.0")  # a double press across replicas
    await a.release("C1", "200.0")
    assert await b.claim("C1", "200.0")
    await b.forget_member("slack:T1:U1")
    assert await a.prompt("conv") is None
