"""Crash benchmark for Slack: the real app killed with SIGKILL while posts stream in, over several seeds.

Run it from the repository root (a script, not a pytest test)::

    .venv/bin/python bench/slack_crash.py                          # 3 seeds x 200 posts x 5 kills, 20 threads
    .venv/bin/python bench/slack_crash.py --seeds 1 --messages 50  # quick look

For each seed, ``python -m bot slack`` runs in HTTP mode as a child process
(with the gateway it starts) against the fake Web API and the fake model
(``tests/helpers/slack_process.py``; each model call takes ``--model-ms``).
Posts from ``--threads`` channel threads (each started by a mention) arrive
in a random order; at ``--kills`` random points of the stream a process is
killed with SIGKILL — the bot (which takes its gateway along) three times in
four, else the gateway (the bot then exits 1 by itself) — and the app is
started again. A post the app did not acknowledge is sent again with
``X-Slack-Retry-Num``, as Slack retries, until it is. At the end the app is
stopped with SIGTERM and every post is checked against the database and the
fake Slack:

* lost — never stored, never answered;
* stored-but-unanswered — stored, but no reply reached the thread;
* duplicated — stored more than once;
* out of order — threads whose replies came in another order than their posts;
* repeated replies — a reply posted twice (a kill between posting it and
  marking the post handled; ``chat.postMessage`` is not idempotent), reported only;
* left over — intake rows still pending in ``slack.db``, and gateways that
  outlived their bot.

Exits 1 when lost, stored-but-unanswered, duplicated, out of order or left
over is not zero for any seed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from tests.fakes.ollama_server import FakeOllama  # noqa: E402
from tests.fakes.slack_api import FakeSlack  # noqa: E402
from tests.fakes.slack_signing import SignedSender  # noqa: E402
from tests.helpers.crash import script_logs, wait_until  # noqa: E402
from tests.helpers.slack_process import SECRET, SlackBot, alive, envelope, logged  # noqa: E402


@dataclass
class Figures:
    sent: int = 0
    lost: int = 0
    unanswered: int = 0
    duplicated: int = 0
    out_of_order: int = 0
    repeated: int = 0
    left_over: int = 0
    retries: int = 0
    details: list[str] = field(default_factory=list)

    def ok(self) -> bool:
        return not (self.lost or self.unanswered or self.duplicated or self.out_of_order or self.left_over)


async def deliver(sender: SignedSender, body: dict[str, object]) -> int:
    """Post until acknowledged, as Slack retries an unacknowledged event; how many retries it took."""
    retry = 0
    while True:
        try:
            reply = await sender.event(body, retry_num=retry or None)
            if reply.status == 200:
                return retry
        except (aiohttp.ClientError, OSError):
            pass
        retry += 1
        await asyncio.sleep(0.2)


async def stream(
    bot: SlackBot, rng: random.Random, threads: int, messages: int, kills: int, figures: Figures
) -> dict[int, list[int]]:
    """Send the posts, killing at random points; thread → the weights it sent, in order."""
    sent: dict[int, list[int]] = {t: [] for t in range(threads)}
    order = [rng.randrange(threads) for _ in range(messages)]
    cuts = set(rng.sample(range(1, messages), min(kills, messages - 1)))
    sender = SignedSender(bot.endpoint, SECRET)
    bot.start()
    try:
        for n, t in enumerate(order):
            if n in cuts:
                await asyncio.sleep(rng.uniform(0.05, 0.8))  # let it work, then pull the plug mid-stream
                gateway = bot.gateway_pid()
                if rng.random() < 0.75:
                    await asyncio.to_thread(bot.kill)
                    if not await asyncio.to_thread(wait_until, lambda: not alive(gateway), 10):
                        figures.left_over += 1
                        figures.details.append(f"gateway {gateway} outlived its bot")
                else:
                    code = await asyncio.to_thread(bot.kill_gateway)
                    if code != 1:
                        figures.details.append(f"the bot exited {code} after its gateway was killed")
                await asyncio.to_thread(bot.start)
            weight = 20 + len(sent[t])
            figures.retries += await deliver(sender, envelope(t, len(sent[t]), weight))
            sent[t].append(weight)
            await asyncio.sleep(rng.uniform(0.0, 0.01))
    finally:
        await sender.close()
    return sent


def count(slack: FakeSlack, data: Path, sent: dict[int, list[int]], figures: Figures) -> None:
    figures.sent = sum(len(w) for w in sent.values())
    with sqlite3.connect(f"file:{data / 'almanac.db'}?mode=ro", uri=True) as db:
        stored = Counter(db.execute("SELECT user_key, raw_text FROM entries").fetchall())
    with sqlite3.connect(f"file:{data / 'slack.db'}?mode=ro", uri=True) as db:
        figures.left_over += int(db.execute("SELECT count(*) FROM intake").fetchone()[0])
    replies = logged(slack, list(sent))
    for t, weights in sent.items():
        answered = replies[t]
        firsts = list(dict.fromkeys(answered))
        figures.repeated += len(answered) - len(firsts)
        if firsts != [w for w in weights if w in firsts]:
            figures.out_of_order += 1
            figures.details.append(f"thread {t}: replies {answered} for {weights}")
        for w in weights:
            n = sum(k for (user, raw), k in stored.items() if user.endswith(f":U{t:04d}") and f"bench {w}kg" in raw)
            if n == 0 and w not in firsts:
                figures.lost += 1
                figures.details.append(f"thread {t}: bench {w}kg lost")
            elif w not in firsts:
                figures.unanswered += 1
                figures.details.append(f"thread {t}: bench {w}kg stored but unanswered")
            if n > 1:
                figures.duplicated += 1
                figures.details.append(f"thread {t}: bench {w}kg stored {n} times")


def run_seed(seed: int, args: argparse.Namespace) -> tuple[Figures, int, float]:
    figures = Figures()
    with FakeOllama() as fake, FakeSlack() as slack, tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        script_logs(fake, args.model_ms / 1000)
        bot = SlackBot(slack, fake, data)
        started = time.monotonic()
        try:
            sent = asyncio.run(stream(bot, random.Random(seed), args.threads, args.messages, args.kills, figures))
            everything = lambda: all(set(logged(slack, list(sent))[t]) >= set(w) for t, w in sent.items())  # noqa: E731
            wait_until(everything, 120)
            code = bot.stop()
            if code != 0:
                figures.details.append(f"the app exited {code} on SIGTERM\n{bot.tail()}")
        finally:
            bot.kill()
        count(slack, data, sent, figures)
        return figures, bot.kills, time.monotonic() - started


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--first-seed", type=int, default=1)
    p.add_argument("--messages", type=int, default=200)
    p.add_argument("--kills", type=int, default=5)
    p.add_argument("--threads", type=int, default=20)
    p.add_argument("--model-ms", type=float, default=30.0, help="time each model call takes")
    args = p.parse_args()
    print(f"{args.seeds} seeds x {args.messages} posts in {args.threads} threads x {args.kills} kills (SIGKILL)")
    print(
        f"{'seed':>4} {'kills':>5} {'lost':>5} {'unanswered':>10} {'duplicated':>10} {'out-of-order':>12} "
        f"{'repeated':>8} {'left over':>9} {'retried':>7} {'time':>7}"
    )
    total = Figures()
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        f, kills, took = run_seed(seed, args)
        print(
            f"{seed:>4} {kills:>5} {f.lost:>5} {f.unanswered:>10} {f.duplicated:>10} {f.out_of_order:>12} "
            f"{f.repeated:>8} {f.left_over:>9} {f.retries:>7} {took:>6.1f}s"
        )
        for line in f.details[:10]:
            print("       " + line)
        for name in ("sent", "lost", "unanswered", "duplicated", "out_of_order", "repeated", "left_over", "retries"):
            setattr(total, name, getattr(total, name) + getattr(f, name))
    print(
        f"total: {total.sent} posts — lost {total.lost}, stored-but-unanswered {total.unanswered}, "
        f"duplicated {total.duplicated}, out of order {total.out_of_order}, left over {total.left_over} "
        f"(repeated replies {total.repeated}, posts sent again after no ack {total.retries})"
    )
    return 0 if total.ok() else 1


if __name__ == "__main__":
    raise SystemExit(main())
