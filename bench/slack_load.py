"""Slack load benchmark: many threads at once through HTTP mode, the fake Web API and a slow model.

Run it from the repository root (a script, not a pytest test)::

    .venv/bin/python bench/slack_load.py                      # 200 threads x 5 messages, model 100 ms per call
    .venv/bin/python bench/slack_load.py --engine real --rounds 5   # the figure to judge: median of 5 pairs
    .venv/bin/python bench/slack_load.py --threads 50 --engine stand-in   # quick look

What runs
---------
The bot side is real: `adapters.slack.worker.app.running` starts the gateway process
(token check, ``slack.db``, the bolt ``AsyncApp`` with its listeners, the
aiohttp server in HTTP mode, every Web API call) and runs the adapter's queues
and the engine in this process. Slack's side runs in two child processes,
as Slack and Ollama are other machines: one holds the fake Web API
(``tests.fakes.slack_api.FakeSlack``) and the fake model (every call answered
after ``--model-ms``); the other is the sender, which posts signed events to
the app and times the acknowledgements. The sender has a process of its own
because the fakes' threads and their growing record of every call would
otherwise stall its clock: one garbage collection there took 186 ms in the
first second of a round and showed as a 316 ms ack p99 the app never had.

Each thread starts with an ``app_mention`` at the top level (Almanac takes
the thread) followed by ``message`` events in the thread without a mention.
Threads are sent concurrently; within a thread each event goes out when the
bot's reply to the previous one arrived, as a person writes after reading
(``--burst``: as soon as the previous one was acknowledged, so all 1,000
events arrive within seconds and queue up behind the slow model). Either
way the adapter must keep each thread's turns in order. Every message is a
LOG turn (``bench <w>kg 10x5``, the weight unique within its thread): two
model calls.

Engines (``--engine``, default ``both``), each first driven directly —
``engine.handle`` with the same load, no Slack ("engine alone") — then
through Slack:

* ``stand-in`` — the same two model calls over HTTP, then ``Logged``: the
  adapter's own cost shows plainly.
* ``real`` — `engine.Engine` on a temporary ``DATA_DIR``, the engine people run.

Figures
-------
* ack latency — from an event's request to the app's HTTP response (what the
  3-second limit is about): p50 / p99 / max; target p99 <= 300 ms.
* throughput ratio — engine-alone wall time / Slack wall time (last reply);
  target >= 0.9 for the real engine (the median of ``--rounds``; the pooled
  ratio of all rounds is printed too). ``--control SHARE`` also runs the
  engine alone without and with two background processes at ``SHARE`` of a
  core each, to show how far this machine moves a ratio with no Slack in it.
* lost, duplicated, out of order — replies per thread, from what the fake
  Web API recorded; target 0.
* reply time — from posting a message to Almanac's reply (model included).
* Web API calls during the run; CPU of the bot's process (by thread: main
  runs the engine and the adapter's queues), of the gateway, and of Slack's
  side.

Exits 1 when a target of the real engine is missed. Figures depend on the
machine and its load (the load average is printed; run twice and compare).
On a shared machine one pair of runs moves by ±0.15 with what else runs:
``--rounds 5`` alternates engine-alone and through-Slack runs and judges the
median ratio.
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
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.telegram_load import StandIn  # noqa: E402  (the same stand-in engine)
from bot.logs import configure_logging  # noqa: E402
from engine import Engine, EngineConfig, LLMConfig, Message  # noqa: E402

TARGET_ACK_P99_MS, TARGET_RATIO = 300.0, 0.9
BASE_WEIGHT, SECRET = 50, "bench-signing-secret"
_WEIGHT = re.compile(r"bench(?: press)? (\d+) ?kg")


# --------------------------------------------------------------------------- Slack's side (child processes)


def _fakes(conn: Connection, model_ms: float, replies: Connection) -> None:
    """The fake Web API and the fake model; each reply Almanac posts is told to the sender's process."""
    import threading

    from tests.fakes.ollama_server import FakeOllama
    from tests.fakes.slack_api import FakeSlack
    from tests.helpers import scripts

    def parse(body: dict[str, Any]) -> dict[str, Any]:
        users = [m["content"] for m in body["messages"] if m.get("role") == "user"]
        return scripts.strength("bench press", int(_WEIGHT.findall(users[0].split("Message:")[-1])[-1]), 10, 5)

    lock = threading.Lock()

    def on_call(call: Any) -> None:  # in a server thread
        if call.method == "chat.postMessage" and str(call.params.get("text", "")).startswith("✓ Logged"):
            with lock:
                replies.send(str(call.params.get("thread_ts")))

    with FakeOllama(delay_s=model_ms / 1000) as model, FakeSlack() as slack:
        model.default("RouterOutput", scripts.router("LOG"))
        model.default("ParserOutput", parse)
        slack.on_call = on_call
        conn.send((model.url, slack.api_url))
        while True:
            command = conn.recv()[0]
            if command == "replies":
                posts = slack.calls("chat.postMessage")
                conn.send([(str(c.params.get("thread_ts")), str(c.params.get("text")), c.at) for c in posts])
            elif command == "calls":
                conn.send(Counter(c.method for c in slack.calls()))
            elif command == "cpu":
                conn.send(_own_cpu())
            elif command == "stop":
                conn.send(None)
                return


def _sender(conn: Connection, replies: Connection) -> None:
    """Slack's event sender: posts each thread's events and times the acks (see the module's "What runs")."""
    import threading

    from tests.fakes.slack_api import BOT_USER, TEAM
    from tests.fakes.slack_signing import SignedSender

    inbox: dict[str, asyncio.Queue[None]] = defaultdict(asyncio.Queue)
    loop_box: list[asyncio.AbstractEventLoop] = []

    def listen() -> None:  # the fakes' process tells each reply; wake that thread's sender
        while True:
            try:
                thread_ts = replies.recv()
            except EOFError:
                return
            if loop_box:
                loop_box[0].call_soon_threadsafe(inbox[thread_ts].put_nowait, None)

    threading.Thread(target=listen, daemon=True).start()

    async def load(endpoint: str, threads: int, messages: int, first: int, burst: bool) -> dict[str, Any]:
        sender = SignedSender(endpoint, SECRET, connections=0)  # every thread posts at once, as Slack would
        loop_box[:] = [asyncio.get_running_loop()]
        acks: list[float] = []
        first_acks: list[float] = []  # of the posts that went out in the run's first second
        later_acks: list[float] = []
        turnaround: list[float] = []
        failed = 0

        async def thread(t: int) -> None:
            nonlocal failed
            top = f"{1_800_000_000 + t}.000000"
            for i in range(messages):
                ts = top if i == 0 else f"{1_800_000_000 + t}.{i:06d}"
                event = {
                    "type": "app_mention" if i == 0 else "message",
                    "channel": "C0LOAD",
                    "user": f"U{t:05d}",
                    "text": (f"<@{BOT_USER}> " if i == 0 else "") + f"bench {BASE_WEIGHT + i}kg 10x5",
                    "ts": ts,
                    "team": TEAM,
                    "channel_type": "channel",
                }
                if i:
                    event["thread_ts"] = top
                envelope = {
                    "team_id": TEAM,
                    "type": "event_callback",
                    "event": event,
                    "event_id": f"Ev{t:05d}{i:02d}",
                    "event_time": int(time.time()),
                }
                started = time.monotonic()
                reply = await sender.event(envelope)
                acks.append((time.monotonic() - started) * 1000)
                (first_acks if started - t0 < 1.0 else later_acks).append(acks[-1])
                failed += reply.status != 200
                if not burst:  # a person writes the next message after reading the reply
                    await inbox[top].get()
                    turnaround.append((time.monotonic() - started) * 1000)

        # One url_verification first (bolt answers its challenge; nothing is stored): the sender's own
        # first-request costs stay out of the figures, as Slack's servers are warm.
        await sender.event({"type": "url_verification", "challenge": "warm", "token": "x"})
        t0 = time.monotonic()
        await asyncio.gather(*(thread(t) for t in range(first, first + threads)))
        await sender.close()
        return {
            "t0": t0,
            "acks": acks,
            "first_acks": first_acks,
            "later_acks": later_acks,
            "turnaround": turnaround,
            "failed": failed,
        }

    conn.send(None)
    while True:
        command, *args = conn.recv()
        if command == "load":
            conn.send(asyncio.run(load(*args)))
        elif command == "cpu":
            conn.send(_own_cpu())
        elif command == "stop":
            conn.send(None)
            return


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Outside:
    """The parent's handle on Slack's side: the fakes' process and the sender's."""

    def __init__(self, model_ms: float) -> None:
        ctx = multiprocessing.get_context("spawn")
        replies_in, replies_out = ctx.Pipe(duplex=False)
        self._fakes, fakes_end = ctx.Pipe()
        self._sender, sender_end = ctx.Pipe()
        self._procs = [
            ctx.Process(target=_fakes, args=(fakes_end, model_ms, replies_out), daemon=True),
            ctx.Process(target=_sender, args=(sender_end, replies_in), daemon=True),
        ]
        for proc in self._procs:
            proc.start()
        self.model_url, self.api_url = self._fakes.recv()
        self._sender.recv()

    async def ask(self, *command: Any) -> Any:
        """A command to the process that runs it; ``cpu`` sums both."""

        def call(conn: Connection) -> Any:
            conn.send(command)
            return conn.recv()

        if command[0] == "cpu":
            return sum([await asyncio.to_thread(call, self._fakes), await asyncio.to_thread(call, self._sender)])
        return await asyncio.to_thread(call, self._sender if command[0] == "load" else self._fakes)

    def close(self) -> None:
        for conn in (self._fakes, self._sender):
            conn.send(("stop",))
            conn.recv()
        for proc in self._procs:
            proc.join(timeout=10)


# --------------------------------------------------------------------------- runs


async def engine_alone(
    engine: Any, threads: int, messages: int, first: int = 0
) -> tuple[float, float, dict[str, float]]:
    """The same load straight into ``engine.handle``: each thread's turns in sequence, threads in parallel.

    ``first``: the number of the first thread (each round of ``--rounds`` talks in new conversations).
    """

    async def thread(t: int) -> None:
        for i in range(messages):
            key = f"slack:T0ALMANAC:C0ALONE:{t}.0:U{t:05d}"
            await engine.handle(
                Message(
                    conversation=key,
                    user=f"slack:T0ALMANAC:U{t:05d}",
                    text=f"bench {BASE_WEIGHT + i}kg 10x5",
                    message_id=f"{t}.{i}",
                )
            )

    started, cpu, before = time.monotonic(), time.process_time(), thread_cpu()
    await asyncio.gather(*(thread(t) for t in range(first, first + threads)))
    by_thread = {k: v - before.get(k, 0.0) for k, v in thread_cpu().items()}
    return time.monotonic() - started, time.process_time() - cpu, by_thread


async def through_slack(
    engine: Any,
    outside: Outside,
    data: Path,
    threads: int,
    messages: int,
    first: int,
    timeout: float,
    burst: bool,
    log_level: str = "WARNING",
) -> dict[str, Any]:
    """The load as signed events into the app in HTTP mode; returns the sender's figures and the replies."""
    from adapters.slack.worker.app import EVENTS_PATH, Http, running
    from tests.fakes.slack_api import TOKEN

    http = Http(signing_secret=SECRET, host="127.0.0.1", port=0)
    async with running(
        engine,
        token=TOKEN,
        base_url=outside.api_url,
        data_dir=data,
        http=http,
        log_format="console",
        log_level=log_level,
    ) as app:
        before = len(await outside.ask("replies"))
        calls_before = await outside.ask("calls")
        cpu_bot, cpu_fakes, threads_before = time.process_time(), await outside.ask("cpu"), thread_cpu()
        cpu_gateway = process_cpu(app.gateway.pid)
        sent = await outside.ask("load", f"http://127.0.0.1:{app.port}{EVENTS_PATH}", threads, messages, first, burst)
        await asyncio.wait_for(app.adapter.drain(), timeout)
        sent["cpu_bot"] = time.process_time() - cpu_bot
        sent["cpu_gateway"] = process_cpu(app.gateway.pid) - cpu_gateway
        sent["threads"] = {k: v - threads_before.get(k, 0.0) for k, v in thread_cpu().items()}
        sent["cpu_fakes"] = await outside.ask("cpu") - cpu_fakes
        sent["replies"] = (await outside.ask("replies"))[before:]
        sent["calls"] = await outside.ask("calls") - calls_before
    return sent


def _burn(stop: Any, duty: float) -> None:
    """A background process that keeps ``duty`` of one core busy, in 15 ms slices."""
    while not stop.is_set():
        until = time.perf_counter() + 0.015
        while time.perf_counter() < until:
            pass
        time.sleep(0.015 * (1 - duty) / duty)


async def control(engine: Any, threads: int, messages: int, rounds: int, duty: float) -> float:
    """The engine alone, in turn without and with two background processes at ``duty`` of a core each.

    Nothing of Slack runs, so the pooled ratio (without / with) shows how far
    this machine alone moves a ratio when other processes take about the
    gateway's and Slack's side's share of the CPU.
    """
    ctx = multiprocessing.get_context("spawn")
    plain = loaded = 0.0
    print(f"\n[control: the engine alone, in turn without and with two processes at {duty:g} of a core each]")
    for r in range(2 * rounds):
        burners, stop = [], ctx.Event()
        if r % 2:
            burners = [ctx.Process(target=_burn, args=(stop, duty), daemon=True) for _ in range(2)]
            for proc in burners:
                proc.start()
        wall, _, by_thread = await engine_alone(engine, threads, messages, 50_000 + r * threads)
        stop.set()
        for proc in burners:
            proc.join(timeout=10)
        print(
            f"  control {r // 2 + 1}{' with background load' if r % 2 else ''}: {wall:6.2f} s, "
            f"main thread {by_thread.get('MainThread', 0.0):.1f} s"
        )
        if r % 2:
            loaded += wall
        else:
            plain += wall
    return plain / loaded


def thread_cpu() -> dict[str, float]:
    """CPU seconds per thread of this process, by thread name (Linux ``/proc``; empty elsewhere)."""
    import threading

    tick = os.sysconf("SC_CLK_TCK")
    names = {t.native_id: t.name.split(" (")[0].split("_")[0] for t in threading.enumerate()}
    cpu: dict[str, float] = defaultdict(float)
    for tid, name in names.items():
        try:
            fields = Path(f"/proc/self/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        cpu[name] += (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    return dict(cpu)


def process_cpu(pid: int) -> float:
    """CPU seconds of another process (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report(
    label: str,
    alone_run: tuple[float, float, dict[str, float]],
    run: dict[str, Any],
    threads: int,
    messages: int,
    first: int,
    target: bool,
) -> tuple[bool, float, float, float]:
    """Print one run's figures; (no reply lost, duplicated or out of order, throughput ratio, ack p99, wall)."""
    alone, alone_cpu, alone_threads = alone_run
    by_thread: dict[str, list[int]] = defaultdict(list)
    last = run["t0"]
    for thread_ts, text, at in sorted(run["replies"], key=lambda r: r[2]):
        m = _WEIGHT.search(text)
        if text.startswith("✓ Logged") and m:
            by_thread[thread_ts].append(int(m.group(1)) - BASE_WEIGHT)
            last = max(last, at)
    lost = dup = disorder = 0
    for t in range(first, first + threads):
        got = by_thread.get(f"{1_800_000_000 + t}.000000", [])
        counts = Counter(got)
        lost += sum(1 for i in range(messages) if counts[i] == 0)
        dup += sum(n - 1 for n in counts.values() if n > 1)
        disorder += sum(1 for a, b in zip(got, got[1:]) if b < a)
    wall, turns, acks = last - run["t0"], threads * messages, run["acks"]
    ratio = alone / wall if wall > 0 else float("nan")
    p99 = pct(acks, 0.99)
    clean = not (lost or dup or disorder or run["failed"])
    print(f"\n[{label}]")
    print(f"  engine alone (no Slack)  {alone:6.2f} s  {turns / alone:6.1f} turns/s   CPU: bot {alone_cpu:5.1f} s")
    if alone_threads:
        print("    by thread: " + ", ".join(f"{k} {v:.1f} s" for k, v in sorted(alone_threads.items()) if v >= 0.05))
    print(
        f"  through Slack            {wall:6.2f} s  {turns / wall:6.1f} turns/s   "
        f"CPU: bot {run['cpu_bot']:5.1f} s + gateway {run['cpu_gateway']:4.1f} s, Slack side {run['cpu_fakes']:4.1f} s"
    )
    verdict = lambda ok: ("ok" if ok else "MISSED") if target else "shown, not judged"  # noqa: E731
    if run.get("threads"):
        print("    by thread: " + ", ".join(f"{k} {v:.1f} s" for k, v in sorted(run["threads"].items()) if v >= 0.05))
    print(
        f"  throughput ratio to the engine alone: {ratio:.2f}  (target >= {TARGET_RATIO}: "
        f"{verdict(ratio >= TARGET_RATIO)})"
    )
    print(
        f"  ack latency: p50 {pct(acks, 0.5):6.1f} ms   p99 {p99:6.1f} ms   max {max(acks):6.1f} ms  "
        f"(target p99 <= {TARGET_ACK_P99_MS:g} ms: {verdict(p99 <= TARGET_ACK_P99_MS)}); non-200: {run['failed']}"
    )
    first, later = run.get("first_acks") or [], run.get("later_acks") or []
    if first:
        print(
            f"    of which sent in the first second ({len(first)}; every thread starts then): p99 {pct(first, 0.99):6.1f} ms;"
            f" the other {len(later)}: p99 {pct(later, 0.99):6.1f} ms   max {max(later, default=0.0):6.1f} ms"
        )
    if run["turnaround"]:
        t = run["turnaround"]
        print(f"  reply time (post to reply, model included): p50 {pct(t, 0.5):6.1f} ms   p99 {pct(t, 0.99):6.1f} ms")
    print(
        f"  replies: {turns} expected; lost {lost}, duplicated {dup}, out of order {disorder}  "
        f"{'ok' if clean else 'FAILED'}"
    )
    print("  Web API calls: " + ", ".join(f"{m} {n}" for m, n in sorted(run["calls"].items()) if n))
    return clean, ratio, p99, wall


async def main_async(args: argparse.Namespace) -> int:
    configure_logging("console", "WARNING", stream=sys.stderr if args.log else io.StringIO())
    load = os.getloadavg()[0]
    print(
        f"Slack load: {args.threads} threads x {args.messages} messages, model {args.model_ms:g} ms per call, "
        f"2 calls per turn, HTTP mode"
    )
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average {load:.2f} before the run")
    outside = Outside(args.model_ms)
    ok = True
    try:
        with tempfile.TemporaryDirectory() as tmp:
            if args.engine in ("stand-in", "both"):
                alone = await engine_alone(StandIn(outside.model_url), args.threads, args.messages)
                run = await through_slack(
                    StandIn(outside.model_url),
                    outside,
                    Path(tmp) / "standin",
                    args.threads,
                    args.messages,
                    0,
                    args.timeout,
                    args.burst,
                )
                ok &= report(
                    "stand-in engine: two model calls per turn, nothing else",
                    alone,
                    run,
                    args.threads,
                    args.messages,
                    0,
                    target=False,
                )[0]
            if args.engine in ("real", "both"):
                llm = LLMConfig(host=outside.model_url, timeout_s=60, max_concurrency=256)
                config = EngineConfig(data_dir=Path(tmp) / "real", llm=llm)
                rounds = []
                async with Engine.open(config) as engine:
                    # Alone and through Slack take turns, each round in new conversations, so that a
                    # change in the machine's load falls on both sides of a ratio.
                    for r in range(args.rounds):
                        first = 10_000 + r * args.threads
                        alone = await engine_alone(engine, args.threads, args.messages, r * args.threads)
                        run = await through_slack(
                            engine,
                            outside,
                            Path(tmp) / "real",
                            args.threads,
                            args.messages,
                            first,
                            args.timeout,
                            args.burst,
                        )
                        rounds.append((alone, run, first))
                    neighbour = (
                        await control(engine, args.threads, args.messages, args.rounds, args.control)
                        if args.control
                        else None
                    )
                results = [
                    report(
                        f"real engine (SQLite){f', round {n + 1}' if args.rounds > 1 else ''}",
                        alone,
                        run,
                        args.threads,
                        args.messages,
                        first,
                        target=True,
                    )
                    for n, (alone, run, first) in enumerate(rounds)
                ]
                ratios = sorted(ratio for _, ratio, _, _ in results)
                median, worst_p99 = ratios[(len(ratios) - 1) // 2], max(p99 for _, _, p99, _ in results)
                if args.rounds > 1:
                    print(
                        f"\n[real engine, {args.rounds} rounds] throughput ratio per round "
                        f"{', '.join(f'{r:.2f}' for r in ratios)}: median {median:.2f} (target >= {TARGET_RATIO}); "
                        f"ack p99 at most {worst_p99:.1f} ms (target <= {TARGET_ACK_P99_MS:g})"
                    )
                ok &= all(clean for clean, _, _, _ in results) and median >= TARGET_RATIO
                ok &= worst_p99 <= TARGET_ACK_P99_MS
                pooled = sum(alone[0] for alone, _, _ in rounds) / sum(wall for _, _, _, wall in results)
                print(f"[real engine] pooled ratio (all engine-alone time / all through-Slack time): {pooled:.2f}")
                if neighbour is not None:
                    print(
                        f"[control] the engine alone without / with two processes at {args.control:g} of a core "
                        f"each, pooled: {neighbour:.2f} (no Slack in it: how far the machine moves a ratio)"
                    )
    finally:
        outside.close()
    return 0 if ok else 1


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--threads", type=int, default=200)
    p.add_argument("--messages", type=int, default=5)
    p.add_argument("--model-ms", type=float, default=100.0)
    p.add_argument("--engine", choices=["stand-in", "real", "both"], default="both")
    p.add_argument("--timeout", type=float, default=600.0)
    p.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="real engine: alternate alone / through Slack this many times and judge the median ratio",
    )
    p.add_argument(
        "--control",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="real engine: also run the engine alone without and with two background processes "
        "each keeping SHARE of a core busy (0.13 is about the gateway's and Slack's side's)",
    )
    p.add_argument("--log", action="store_true", help="show the bot's warnings and errors on stderr")
    p.add_argument(
        "--burst",
        action="store_true",
        help="send each thread's next message on the ack, not on the reply (all 1,000 within seconds)",
    )
    args = p.parse_args()
    if args.control and not 0 < args.control < 1:
        p.error("--control is a share of one core, between 0 and 1 (e.g. 0.13)")
    raise SystemExit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
