"""Several real processes on one Postgres database: a receiver and workers, killed at random, against the fakes.

The receiver is ``python -m bot telegram`` with ``DATABASE_URL`` (it polls
the fake Bot API, records, and runs turns too); each worker is ``python -m bot
worker``. `stream` sends log messages from many chats and kills a random
worker with SIGKILL at random moments, starting it again; `crash.count` then
says what happened to every message. Used by
``tests/adapters/telegram/test_workers.py`` and ``bench/scale.py``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path

from tests.fakes.ollama_server import FakeOllama
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers.crash import BotProcess, settle, text_of


@dataclass
class Deployment:
    receiver: BotProcess
    workers: list[BotProcess]

    @classmethod
    def make(
        cls, root: Path, tg: FakeTelegram, fake: FakeOllama, url: str, workers: int, *, read_in_code: bool = False
    ) -> Deployment:
        """A receiver and ``workers`` workers on ``url`` (not started); ``read_in_code`` as in `BotProcess`."""

        def process(name: str, mode: str) -> BotProcess:
            data = root / name / "data"
            data.mkdir(parents=True)
            return BotProcess(
                tg, fake, data, read_in_code=read_in_code, mode=mode, database_url=url, log_name=f"{name}.log"
            )

        return cls(process("receiver", "telegram"), [process(f"worker{i}", "worker") for i in range(workers)])

    @property
    def processes(self) -> list[BotProcess]:
        return [self.receiver, *self.workers]

    def start_all(self) -> None:
        """Every process at once, on a database that may be empty: they migrate it together."""
        marks = [p.log_size() for p in self.processes]
        for p in self.processes:
            p.start()
        for p, mark in zip(self.processes, marks, strict=True):
            p.wait_started(mark)

    def restart(self, process: BotProcess) -> None:
        mark = process.log_size()
        process.start()
        process.wait_started(mark)

    def kill_all(self) -> None:
        for p in self.processes:
            p.kill()

    def stop_all(self) -> list[int]:
        return [p.stop() for p in self.processes]


def stream(
    tg: FakeTelegram,
    deployment: Deployment,
    *,
    seed: int,
    chats: int,
    messages: int,
    kills: int,
    settle_s: float = 60.0,
) -> dict[int, list[int]]:
    """Send ``messages`` log messages from ``chats`` chats, killing a random worker ``kills`` times mid-stream.

    Each chat's messages stay in order; chats interleave at random. A killed worker starts again after a
    random pause, while the others carry on. Returns chat → the weights it sent, in order.
    """
    rng = random.Random(seed)
    sent: dict[int, list[int]] = {2000 + c: [] for c in range(chats)}
    order = [2000 + rng.randrange(chats) for _ in range(messages)]
    cuts = set(rng.sample(range(1, messages), kills))
    for i, chat in enumerate(order):
        weight = 20 + len(sent[chat])
        sent[chat].append(weight)
        tg.enqueue(tg.message(chat, chat, text_of(weight)))
        time.sleep(rng.uniform(0.0, 0.01))
        if i in cuts:
            time.sleep(rng.uniform(0.05, 0.5))  # turns are running on every worker
            victim = rng.choice(deployment.workers)
            victim.kill()
            if rng.random() < 0.5:  # the others go on alone a while
                time.sleep(rng.uniform(0.1, 1.0))
            deployment.restart(victim)
    settle(tg, sent, settle_s)
    return sent
