"""Telegram load benchmark: many chats at once through the fake Bot API.

Run it from the repository root (a script, not a pytest test)::

    .venv/bin/python bench/telegram_load.py                  # 200 chats x 5 messages, model 100 ms per call
    .venv/bin/python bench/telegram_load.py --chats 50 --engine stand-in   # quick look

What runs
---------
The bot side is real: ``adapters.telegram.app.build_application`` and ``start``,
python-telegram-bot's updater long-polling ``getUpdates``, the adapter
(`adapters.telegram`), and an engine. The two outside servers are the test
fakes — ``tests.fakes.telegram_api.FakeTelegram`` and
``tests.fakes.ollama_server.FakeOllama`` (every model call answered after
``--model-ms``) — run in a child process, as Telegram and Ollama are other
machines: their threads do not compete with the bot for the interpreter lock.

All ``chats x messages`` updates are queued at once (message 1 of every chat,
then message 2, …), so every chat has several turns waiting from the start:
the adapter must keep each chat's turns in order while chats run in parallel.
Each message is a LOG turn, ``bench <w>kg 10x5`` with a weight unique within
its chat; the router and the parser are two model calls.

Two engines (``--engine``, default ``both``), each run twice — first with
the same load straight into ``engine.handle`` ("engine alone", no Telegram),
then through Telegram:

* ``stand-in`` — makes the same two model calls over HTTP and returns
  ``Logged``, nothing else: the adapter's own cost shows plainly.
* ``real`` — `engine.Engine` on a temporary ``DATA_DIR`` (SQLite
  checkpointer and entries), the engine people run.

Figures
-------
* ideal — all chats in parallel, each chat's turns in sequence, nothing but
  the model: ``messages x calls per turn x model time``.
* throughput ratio — ideal / Telegram wall time, and engine-alone / Telegram
  wall time. The target (>= 0.9) applies to the real engine against the
  engine alone: what Telegram costs on top of the engine people run. Against
  the ideal, one Python process cannot get near 0.9 on a small machine: the
  engine spends ~15-20 ms of CPU per LOG turn (LangGraph, SQLite, the model
  client), so 1,000 turns take ~15 s of CPU however parallel the chats are;
  and an HTTP round trip through httpx costs ~1.3 ms of CPU, so even the
  stand-in (three round trips per turn with Telegram, two without) is
  CPU-bound far below 1,000 turns/s. The stand-in's ratio is shown, not judged.
* CPU — process CPU time of the bot and of the fakes' process during the run.
* added latency per turn — for each turn, from the moment it could start
  (its update handed out by getUpdates and the chat's previous reply sent) to
  its reply reaching the fake, minus the time inside ``engine.handle``: what
  the adapter and the Bot API round trips add. p50 / p99 / max, split into
  before and after ``engine.handle``.
* lost, duplicated, out of order — from the replies the fake recorded, per chat.

Exits 1 when the real engine's ratio is below 0.9 or any reply is lost,
duplicated or out of order. Numbers depend on the machine and its load (the
load average is printed; run twice and compare).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import multiprocessing
import os
import re
import resource
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import ollama  # noqa: E402

from adapters.telegram import TelegramAdapter  # noqa: E402
from adapters.telegram.app import ALLOWED_UPDATES, build_application, start, stop  # noqa: E402
from bot.logs import configure_logging  # noqa: E402
from engine import ApprovalRequest, Ask, Engine, EngineConfig, LLMConfig, Logged, LoggedEntry, Message, Outcome, Turn  # noqa: E402

TARGET_RATIO = 0.9
CALLS_PER_TURN = 2  # router + parser
BASE_WEIGHT = 50
WARM_UP = 50_000  # chat ids of the warm-up turns, above any run's chats
_WEIGHT = re.compile(r"bench (\d+)kg")


# --------------------------------------------------------------------------- the outside world (child process)


def _fakes(conn: Connection, model_ms: float) -> None:
    """Serve the fake Bot API and the fake model; obey commands from the parent."""
    from tests.fakes.ollama_server import FakeOllama
    from tests.fakes.telegram_api import FakeTelegram
    from tests.helpers import scripts

    def parse(body: dict[str, Any]) -> dict[str, Any]:
        users = [m["content"] for m in body["messages"] if m.get("role") == "user"]
        weight = int(_WEIGHT.findall(users[0].split("Message:")[-1])[-1])
        return scripts.strength("bench press", weight, 10, 5)

    with FakeOllama(delay_s=model_ms / 1000) as model, FakeTelegram(long_poll_s=0.5) as tg:
        model.default("RouterOutput", scripts.router("LOG"))
        model.default("ParserOutput", parse)
        sent: list[tuple[int, str, float]] = []
        replies = [0]

        def on_send(m: Any) -> None:
            sent.append((m.chat_id, m.text, m.sent_at))
            if m.text.startswith("✓ Logged"):
                replies[0] += 1

        tg.on_send = on_send
        conn.send((model.url, tg.base_url, tg.token))
        while True:
            command, *args = conn.recv()
            if command == "load":
                chats, messages, first_chat = args
                ids: dict[int, tuple[int, int]] = {}
                updates = []
                for i in range(messages):
                    for c in range(first_chat, first_chat + chats):
                        u = tg.message(c, c, f"bench {BASE_WEIGHT + i}kg 10x5")
                        ids[u["update_id"]] = (c, i)
                        updates.append(u)
                t0 = time.monotonic()
                tg.enqueue(*updates)
                conn.send((t0, ids))
            elif command == "cpu":
                usage = resource.getrusage(resource.RUSAGE_SELF)
                conn.send(usage.ru_utime + usage.ru_stime)
            elif command == "count":
                conn.send(replies[0])
            elif command == "results":
                conn.send((list(sent), dict(tg.delivered), Counter(tg.methods())))
            elif command == "stop":
                conn.send(None)
                return


class Outside:
    """The parent's handle on the child process running the fakes."""

    def __init__(self, model_ms: float) -> None:
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_fakes, args=(child, model_ms), daemon=True)
        self._proc.start()
        self.model_url, self.tg_base_url, self.token = self._conn.recv()

    def ask(self, *command: Any) -> Any:
        self._conn.send(command)
        return self._conn.recv()

    async def ask_async(self, *command: Any) -> Any:
        return await asyncio.to_thread(self.ask, *command)

    def close(self) -> None:
        self.ask("stop")
        self._proc.join(timeout=10)


# --------------------------------------------------------------------------- engines


@dataclass
class Span:
    conversation: str
    text: str
    started: float
    ended: float


@dataclass
class Timed:
    """Wraps an engine and records how long each message turn spent inside ``handle``."""

    engine: Any
    spans: list[Span] = field(default_factory=list)

    async def handle(self, turn: Turn, progress: Any = None) -> list[Outcome]:
        started = time.monotonic()
        out: list[Outcome] = await self.engine.handle(turn, progress)
        if isinstance(turn, Message):
            self.spans.append(Span(turn.conversation, turn.text, started, time.monotonic()))
        return out

    async def pending(self, conversation: str, user: str) -> Ask | ApprovalRequest | None:
        found: Ask | ApprovalRequest | None = await self.engine.pending(conversation, user)
        return found

    async def interrupted(self, conversation: str) -> list[Turn]:
        turns: list[Turn] = await self.engine.interrupted(conversation)
        return turns


class StandIn:
    """Two model calls over HTTP, then ``Logged``: an engine that costs nothing but the model."""

    def __init__(self, host: str, shards: int = 16) -> None:
        # No cap on concurrent calls, so the model's latency is the only limit; several small
        # pools, because one httpx pool of hundreds of connections costs more CPU than the bot.
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        self._clients = [ollama.AsyncClient(host=host, timeout=30, limits=limits) for _ in range(shards)]
        self._n = 0

    async def handle(self, turn: Turn, progress: Any = None) -> list[Outcome]:
        if not isinstance(turn, Message):
            return []  # commands cost no model time
        for title in ("RouterOutput", "ParserOutput"):
            if progress is not None:
                await progress("routing" if title == "RouterOutput" else "parsing")
            schema = {"title": title, "type": "object"}
            prompt = f"Message:\n{turn.text}"
            client = self._clients[hash(turn.conversation) % len(self._clients)]
            await client.chat(
                model="qwen2.5:7b-instruct", messages=[{"role": "user", "content": prompt}], format=schema
            )
        self._n += 1
        weight = int(_WEIGHT.findall(turn.text)[-1])
        entry = LoggedEntry(
            entry_id=str(self._n),
            on=date.today(),
            domain="strength",
            summary=f"bench press {weight} kg × 10 reps × 5 sets",
        )
        return [Logged(entries=[entry])]

    async def pending(self, conversation: str, user: str) -> Ask | ApprovalRequest | None:
        return None  # it never asks

    async def interrupted(self, conversation: str) -> list[Turn]:
        return []  # it keeps nothing


# --------------------------------------------------------------------------- runs


@dataclass
class Result:
    wall: float
    spans: list[Span]
    cpu_bot: float = 0.0
    cpu_fakes: float = 0.0
    replies: list[tuple[int, str, float]] = field(default_factory=list)
    delivered: dict[int, float] = field(default_factory=dict)
    ids: dict[int, tuple[int, int]] = field(default_factory=dict)
    calls: Counter[str] = field(default_factory=Counter)
    base: int = 0
    t0: float = 0.0


async def engine_alone(engine: Any, outside: Outside, chats: int, messages: int) -> Result:
    """The same load straight into ``engine.handle``: each chat's turns in sequence, chats in parallel."""
    timed = Timed(engine)

    async def chat(c: int) -> None:
        for i in range(messages):
            text = f"bench {BASE_WEIGHT + i}kg 10x5"
            await timed.handle(Message(conversation=f"tg:{c}", user=f"tg:{c}", text=text, message_id=str(i)))

    await asyncio.gather(*(chat(c) for c in range(10_000, 10_000 + 5)))  # warm-up chats
    timed.spans.clear()
    cpu_fakes = await outside.ask_async("cpu")
    cpu_bot, started = time.process_time(), time.monotonic()
    await asyncio.gather(*(chat(c) for c in range(1, chats + 1)))
    wall = time.monotonic() - started
    cpu_bot = time.process_time() - cpu_bot
    return Result(wall, timed.spans, cpu_bot=cpu_bot, cpu_fakes=await outside.ask_async("cpu") - cpu_fakes)


async def through_telegram(
    engine: Any, outside: Outside, chats: int, messages: int, timeout: float, base: int
) -> Result:
    """The load as Telegram updates: getUpdates → adapter → engine → sendMessage.

    Chats are numbered from ``base + 1`` so that runs sharing the fake do not mix.
    """
    timed = Timed(engine)
    adapter = TelegramAdapter(timed)
    app = build_application(outside.token, outside.tg_base_url, adapter)
    await start(app, adapter, outside.tg_base_url)
    assert app.updater is not None
    await app.updater.start_polling(allowed_updates=ALLOWED_UPDATES)
    try:
        await _wait_for(outside, 0, 5, 1, timeout, warm_up=base + WARM_UP)
        done = await outside.ask_async("count")
        _, _, calls_before = await outside.ask_async("results")
        timed.spans.clear()
        cpu_fakes, cpu_bot = await outside.ask_async("cpu"), time.process_time()
        t0, ids = await outside.ask_async("load", chats, messages, base + 1)
        await _wait_for(outside, done, chats, messages, timeout)
        cpu_bot = time.process_time() - cpu_bot
        cpu_fakes = await outside.ask_async("cpu") - cpu_fakes
        replies, delivered, calls = await outside.ask_async("results")
        mine = [r for r in replies if base < r[0] <= base + chats]
        last = max(at for _, _, at in mine)
        return Result(last - t0, timed.spans, cpu_bot, cpu_fakes, mine, delivered, ids, calls - calls_before, base, t0)
    finally:
        await stop(app, adapter)


async def _wait_for(
    outside: Outside, before: int, chats: int, messages: int, timeout: float, warm_up: int | None = None
) -> None:
    if warm_up is not None:
        before = await outside.ask_async("count")
        await outside.ask_async("load", chats, messages, warm_up)
    deadline = time.monotonic() + timeout
    while await outside.ask_async("count") < before + chats * messages:
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out: {await outside.ask_async('count') - before} of {chats * messages} replies")
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)  # a straggler (a duplicate) would arrive now


# --------------------------------------------------------------------------- figures


@dataclass
class Check:
    lost: int
    duplicated: int
    out_of_order: int
    added_ms: list[float]
    before_ms: list[float]
    after_ms: list[float]


def check(result: Result, chats: int, messages: int) -> Check:
    by_chat: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for chat_id, text, at in result.replies:
        m = re.search(r"bench press (\d+) kg", text)
        if m:
            by_chat[chat_id].append((int(m.group(1)) - BASE_WEIGHT, at))
    lost = duplicated = out_of_order = 0
    reply_at: dict[tuple[int, int], float] = {}
    for c in range(result.base + 1, result.base + chats + 1):
        got = [i for i, _ in sorted(by_chat[c], key=lambda r: r[1])]
        counts = Counter(got)
        lost += sum(1 for i in range(messages) if counts[i] == 0)
        duplicated += sum(n - 1 for n in counts.values() if n > 1)
        out_of_order += sum(1 for a, b in zip(got, got[1:]) if b < a)
        for i, at in by_chat[c]:
            reply_at.setdefault((c, i), at)
    update_of = {v: k for k, v in result.ids.items()}
    span_of = {(s.conversation, s.text): s for s in result.spans}
    added, before, after = [], [], []
    for (c, i), at in reply_at.items():
        ready = result.delivered.get(update_of[(c, i)], 0.0)
        if i > 0 and (c, i - 1) in reply_at:
            ready = max(ready, reply_at[(c, i - 1)])
        span = span_of.get((f"tg:{c}", f"bench {BASE_WEIGHT + i}kg 10x5"))
        if span is not None:
            added.append(((at - ready) - (span.ended - span.started)) * 1000)
            before.append((span.started - ready) * 1000)
            after.append((at - span.ended) * 1000)
    return Check(lost, duplicated, out_of_order, added, before, after)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report(result: Result, alone: Result, chats: int, messages: int, ideal: float, target: bool) -> bool:
    """Print one engine's figures; True when its targets are met."""
    c = check(result, chats, messages)
    turns = chats * messages
    clean = not (c.lost or c.duplicated or c.out_of_order)
    ratio = alone.wall / result.wall
    for label, r in (("engine alone (no Telegram)", alone), ("through Telegram", result)):
        print(
            f"  {label:27} {r.wall:6.2f} s  {turns / r.wall:6.1f} turns/s   CPU: bot {r.cpu_bot:5.1f} s, fakes {r.cpu_fakes:4.1f} s"
        )
    verdict = ("ok" if ratio >= TARGET_RATIO else "MISSED") if target else "not a target, see the docstring"
    print(
        f"  throughput ratio: to the ideal {ideal / result.wall:.2f} (engine alone: {ideal / alone.wall:.2f});"
        f" to the engine alone {ratio:.2f}  (target >= {TARGET_RATIO}: {verdict})"
    )
    inside = [(s.ended - s.started) * 1000 for s in result.spans]
    inside_alone = [(s.ended - s.started) * 1000 for s in alone.spans]
    print(
        f"  time in engine.handle per turn: p50 {pct(inside, 0.5):7.1f} ms   p99 {pct(inside, 0.99):7.1f} ms"
        f"   (alone: p50 {pct(inside_alone, 0.5):.1f} ms, p99 {pct(inside_alone, 0.99):.1f} ms)"
    )
    print(
        f"  added latency per turn:         p50 {pct(c.added_ms, 0.5):7.1f} ms   p99 {pct(c.added_ms, 0.99):7.1f} ms"
        f"   max {max(c.added_ms, default=float('nan')):.1f} ms"
    )
    print(
        f"    before engine.handle:         p50 {pct(c.before_ms, 0.5):7.1f} ms   p99 {pct(c.before_ms, 0.99):7.1f} ms"
        f";  after it: p50 {pct(c.after_ms, 0.5):.1f} ms, p99 {pct(c.after_ms, 0.99):.1f} ms"
    )
    print(
        f"  replies: {turns} expected, {len(c_replies(result))} received; lost {c.lost}, duplicated {c.duplicated},"
        f" out of order {c.out_of_order}  {'ok' if clean else 'FAILED'}"
    )
    handed = sorted(result.delivered[u] for u in result.ids)
    t0 = result.t0
    print(f"  getUpdates handed out the updates between +{handed[0] - t0:.2f} s and +{handed[-1] - t0:.2f} s")
    calls = ", ".join(f"{m} {n}" for m, n in sorted(result.calls.items()) if n)
    print(f"  Bot API calls in the run: {calls}")
    return clean and (ratio >= TARGET_RATIO or not target)


def c_replies(result: Result) -> list[tuple[int, str, float]]:
    return [r for r in result.replies if r[1].startswith("✓ Logged")]


async def main_async(args: argparse.Namespace) -> int:
    configure_logging("console", "WARNING", stream=io.StringIO())
    load = os.getloadavg()[0]
    ideal = args.messages * CALLS_PER_TURN * args.model_ms / 1000
    print(
        f"Telegram load: {args.chats} chats x {args.messages} messages, model {args.model_ms:g} ms per call, "
        f"{CALLS_PER_TURN} calls per turn"
    )
    print(
        f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average {load:.2f} before the run"
        + ("  (busy: figures inflated)" if load >= 0.75 * (os.cpu_count() or 1) else "")
    )
    print(f"ideal (chats in parallel, turns in sequence, model time only): {ideal:.2f} s")
    outside = Outside(args.model_ms)
    ok = True
    try:
        if args.engine in ("stand-in", "both"):
            print("\n[stand-in engine: two model calls per turn, nothing else]")
            alone = await engine_alone(StandIn(outside.model_url), outside, args.chats, args.messages)
            result = await through_telegram(
                StandIn(outside.model_url), outside, args.chats, args.messages, args.timeout, 0
            )
            ok &= report(result, alone, args.chats, args.messages, ideal, target=False)
        if args.engine in ("real", "both"):
            print("\n[real engine: Engine.open on a temporary DATA_DIR, SQLite]")
            llm = LLMConfig(host=outside.model_url, timeout_s=60, max_retries=2)
            with tempfile.TemporaryDirectory() as d:
                async with Engine.open(EngineConfig(data_dir=Path(d), llm=llm)) as engine:
                    alone = await engine_alone(engine, outside, args.chats, args.messages)
            with tempfile.TemporaryDirectory() as d:
                async with Engine.open(EngineConfig(data_dir=Path(d), llm=llm)) as engine:
                    result = await through_telegram(engine, outside, args.chats, args.messages, args.timeout, 100_000)
            ok &= report(result, alone, args.chats, args.messages, ideal, target=True)
    finally:
        outside.close()
    print("\nresult:", "targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--chats", type=int, default=200)
    p.add_argument("--messages", type=int, default=5)
    p.add_argument("--model-ms", type=float, default=100.0)
    p.add_argument("--engine", choices=("stand-in", "real", "both"), default="both")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for all replies")
    raise SystemExit(asyncio.run(main_async(p.parse_args())))


if __name__ == "__main__":
    main()
