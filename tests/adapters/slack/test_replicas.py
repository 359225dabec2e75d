"""Slack replicas on one Postgres: posts land on either replica (a load balancer), one replica is killed.

Every acknowledged post is answered and stored once, in order per thread,
whichever replica took it and whichever ran it; Slack's platform state (seen
events, owned threads, the intake) is shared, so a follow-up in a thread one
replica owns is heard by the other, and a retried event is run once.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.fakes.ollama_server import FakeOllama
from tests.fakes.slack_api import FakeSlack
from tests.fakes.slack_signing import SignedSender
from tests.helpers.crash import script_logs, wait_until
from tests.helpers.slack_process import SECRET, SlackBot, envelope, logged


def stored_by(bot: SlackBot) -> int:
    """Turns a replica stored (a log line each)."""
    return bot.log.read_text().count('"node": "store"')


@pytest.fixture
def replicas(tmp_path: Path, fake: FakeOllama, slack: FakeSlack, pg_url: str) -> Iterator[list[SlackBot]]:
    made = []
    for i in range(2):
        data = tmp_path / f"replica{i}" / "data"
        data.mkdir(parents=True)
        made.append(SlackBot(slack, fake, data, database_url=pg_url))
    try:
        yield made
    finally:
        for bot in made:
            if bot.proc is not None and bot.proc.poll() is None:
                bot.kill()


async def test_posts_spread_over_two_replicas_one_killed_are_answered_once_in_order(
    replicas: list[SlackBot], fake: FakeOllama, slack: FakeSlack, pg_url: str
) -> None:
    threads, weights = list(range(6)), [50, 51, 52, 53]
    script_logs(fake, model_s=0.1)
    for bot in replicas:
        bot.start()
    senders = [SignedSender(bot.endpoint, SECRET) for bot in replicas]
    rng = random.Random(4)
    try:
        for i, weight in enumerate(weights):
            for t in threads:
                # The balancer picks a replica; a thread's first post (the mention) may land on one and its
                # follow-ups on the other, which must know the thread is Almanac's.
                sender = rng.choice(senders) if i < 2 or replicas[1].proc is None else senders[0]
                assert (await sender.event(envelope(t, i, weight))).status == 200
            if i == 1:  # pull the plug on one replica while it runs turns; what it took must still run, once
                assert await asyncio.to_thread(wait_until, lambda: stored_by(replicas[1]) >= 1, 30), replicas[1].tail()
                replicas[1].kill()
        # A retry of an event the other replica took is run once.
        assert (await senders[0].event(envelope(0, 0, weights[0]))).status == 200
        done = await asyncio.to_thread(
            wait_until, lambda: all(set(logged(slack, threads)[t]) == set(weights) for t in threads), 90
        )
        assert done, (logged(slack, threads), replicas[0].tail())
        assert replicas[0].stop() == 0, replicas[0].tail()
    finally:
        for sender in senders:
            await sender.close()
    replies = logged(slack, threads)
    for t in threads:
        assert list(dict.fromkeys(replies[t])) == weights, (t, replies[t])  # in order
    with psycopg.connect(pg_url) as conn:
        stored = conn.execute("SELECT user_key FROM entries WHERE status = 'active'").fetchall()
        left = conn.execute("SELECT count(*) FROM slack_intake").fetchone()
    per_user = Counter(user for (user,) in stored)
    assert sorted(per_user.values()) == [len(weights)] * len(threads), per_user  # each post stored exactly once
    assert left == (0,)  # nothing left to run
    assert stored_by(replicas[1]) >= 1 and stored_by(replicas[0]) >= 1  # both replicas ran turns
