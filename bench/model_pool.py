"""Model pool benchmark: throughput and latency over 1, 2 and 3 model servers, and a server lost mid-run.

Run it from the repository root (a script, not a pytest test)::

    .venv/bin/python bench/model_pool.py                       # ~15 s
    .venv/bin/python bench/model_pool.py --calls 120 --callers 12 --delay 0.05

Each model server is ``tests.fakes.ollama_server.FakeOllama`` on 127.0.0.1, answering every chat
after ``--delay`` seconds (100 ms: a model's answer on a busy host, scaled down) and taking one
call at a time (cap 1, ``OLLAMA_HOST_CONCURRENCY``'s default). The caller is the engine's own
model client (``engine.agents.llm.LLM.structured``) with question-sized calls: a ~10 KB prompt
(about 2,500 tokens, the Synthesizer's budget) and a small JSON answer. ``--callers`` tasks make
``--calls`` calls between them, each starting its next call when the last one ends.

Scenarios: one host (the single-server path, ``OLLAMA_HOST``, with ``OLLAMA_MAX_CONCURRENCY=1``
for the same cap), a pool of 2 and of 3; then a pool of 3 whose first host is stopped (its open
connections dropped, as a crash does) once a third of the calls are done. Per scenario: calls/s,
p50 and p99 of a call's latency (its wait for a slot included), errors the callers saw, and the
pool's failovers and back-offs (its ``llm.pool.*`` log events). With cap 1 and a fixed delay the
ideal is hosts / delay calls per second.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel
from structlog.testing import capture_logs

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.agents.llm import LLM  # noqa: E402
from engine.config import LLMConfig, ModelHost  # noqa: E402
from engine.errors import UserFacingError  # noqa: E402
from tests.fakes.ollama_server import FakeOllama  # noqa: E402

PROMPT = ("Bench press 2026-11-{day:02d}: 4 sets of 8 at 60 kg, rest 2 min, felt easy. " * 130)[:10_000]


class BenchAnswer(BaseModel):
    """A small answer, as the Synthesizer's claims are."""

    text: str
    claims: list[str]


@dataclass
class Result:
    name: str
    seconds: float
    latencies: list[float]
    errors: int
    failovers: int
    backoffs: int
    per_host: list[int]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(name: str, hosts: int, args: argparse.Namespace, *, kill_at: float | None = None) -> Result:
    fakes = [FakeOllama(delay_s=args.delay).start() for _ in range(hosts)]
    for f in fakes:
        f.default("BenchAnswer", {"text": "You pressed 60 kg for 4x8.", "claims": ["v1", "v2"]})
    if hosts == 1:
        config = LLMConfig(host=fakes[0].url, max_concurrency=1, timeout_s=30)
    else:
        config = LLMConfig(host=fakes[0].url, hosts=tuple(ModelHost(url=f.url) for f in fakes), timeout_s=30)
    llm = LLM(config)
    latencies: list[float] = []
    errors = 0
    todo = iter(range(args.calls))
    killed = False

    async def caller() -> None:
        nonlocal errors, killed
        for n in todo:
            if kill_at is not None and not killed and n >= args.calls * kill_at:
                killed = True
                await asyncio.to_thread(fakes[0].stop)  # connections in flight are cut off
            started = time.perf_counter()
            try:
                await llm.structured(
                    "synthesizer", BenchAnswer, "Answer from the values given.", PROMPT.format(day=n % 28 + 1)
                )
            except UserFacingError:
                errors += 1
            latencies.append(time.perf_counter() - started)

    with capture_logs() as logs:
        started = time.perf_counter()
        await asyncio.gather(*(caller() for _ in range(args.callers)))
        seconds = time.perf_counter() - started
    await llm.aclose()
    per_host = [f.chat_count() for f in fakes]
    for f in fakes:
        f.stop()
    events = [e["event"] for e in logs]
    return Result(
        name, seconds, latencies, errors, events.count("llm.pool.failover"), events.count("llm.pool.backoff"), per_host
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=60)
    parser.add_argument("--callers", type=int, default=6)
    parser.add_argument("--delay", type=float, default=0.1, help="seconds each fake host takes per call")
    args = parser.parse_args()
    results = [
        await run("1 host", 1, args),
        await run("2 hosts", 2, args),
        await run("3 hosts", 3, args),
        await run("3 hosts, 1 killed at 1/3", 3, args, kill_at=1 / 3),
    ]
    print(f"{args.calls} calls, {args.callers} callers, {args.delay * 1000:.0f} ms per call, cap 1 per host")
    print(
        f"{'scenario':<26} {'calls/s':>8} {'ideal':>6} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} {'failovers':>9} {'back-offs':>9}  per host"
    )
    for r in results:
        hosts = len(r.per_host) - (1 if "killed" in r.name else 0)
        print(
            f"{r.name:<26} {len(r.latencies) / r.seconds:>8.1f} {hosts / args.delay:>6.0f} "
            f"{statistics.median(r.latencies) * 1000:>7.0f} {pct(r.latencies, 0.99) * 1000:>7.0f} "
            f"{r.errors:>6} {r.failovers:>9} {r.backoffs:>9}  {r.per_host}"
        )


if __name__ == "__main__":
    asyncio.run(main())
