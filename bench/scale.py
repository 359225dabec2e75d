"""Scale benchmark: throughput, latency and safety of 1, 2 and 4 processes running turns on one Postgres, and SQLite.

Run it from the repository root (a script, not a pytest test)::

    .venv/bin/python bench/scale.py            # 400 messages from 40 chats per configuration, 3 seeds of kills
    .venv/bin/python bench/scale.py --quick    # 120 messages from 12 chats, 2 seeds (~2 minutes)
    .venv/bin/python bench/scale.py --code-path --seeds 5
    .venv/bin/python bench/scale.py --rate 15 --seeds 0     # latency at a load every configuration keeps up with
    .venv/bin/python bench/scale.py --kills-only --seeds 10

What runs
---------
The processes are the real ones, as in production: ``python -m bot telegram``
against the fake Bot API and the fake model (``tests/helpers/crash.py``; both
fakes are served from this process on loopback). The bench starts its own
throwaway PostgreSQL cluster (``tests/helpers/postgres.py``) and gives each
run an empty database. Configurations:

* SQLite — one ``python -m bot telegram`` without ``DATABASE_URL`` (today's default);
* Postgres 1 — the receiver alone (it polls, records, and runs turns);
* Postgres 2 and 4 — the receiver and 1 or 3 ``python -m bot worker`` processes
  (``tests/helpers/workers.py``), all claiming conversations from one database.

Each runs with an instant model (0 ms) and a 100 ms one, on the model's path
(``READ_IN_CODE=false``: a router and a parser call per message); ``--code-path``
adds the default path, where code reads these logs with no model call. After a
warm-up (every process's first turns pay for lazy imports), ``--messages`` log
messages from ``--chats`` private chats are queued in a random interleaving, a
few milliseconds apart, faster than any configuration answers: the figures are
those of a saturated deployment. ``--rate R`` offers R messages/s instead (Poisson
arrivals), for the latency of a deployment that keeps up.

Figures
-------
* msg/s — messages from the first one queued to the last reply seen; per core:
  msg/s ÷ min(processes, cores), what one engine process does with a core of its own;
  per CPU — messages per CPU-second of the bot processes and PostgreSQL together,
  the same ratio from CPU time rather than wall time (steadier on a shared machine).
  With ``--rate`` the msg/s is the offered rate when the deployment keeps up.
* pg tx — transactions committed in the run's database per message (a statement
  outside a transaction counts one): a floor on the round trips a turn costs, and
  what idle workers' polling for claims adds.
* turns/process — the timed turns each process stored (the receiver first).
* latency p50/p99 — from the moment getUpdates handed the message out to its
  reply's sendMessage reaching the fake. On a saturated deployment this is mostly
  the wait behind the same chat's earlier messages (a backlog), so:
* added p50/p99 — from the moment the turn *could* start (handed out and the
  chat's previous reply sent) to its reply, minus the model's time (2 calls ×
  the model's delay): what the deployment adds to the model — claims, Postgres
  or SQLite round trips, the engine's CPU, and the wait for a free slot or core.
* CPU ms per message — process CPU time over the run of the bot processes, of the
  PostgreSQL server (postmaster and backends), and of the fakes (this process),
  divided by the messages; ours — the cores those three used over the run; busy — the
  whole machine's cores in use (/proc/stat). Busy well above ours means something else
  ran on the machine meanwhile: the wall-clock figures are then pessimistic, the CPU
  per message much less so.
* lost / duplicated / out of order / unanswered — `tests.helpers.crash.count`, from
  the database and the chats.

Then the run with kills: Postgres with 4 processes, a random worker killed with
SIGKILL at ``--kills`` random moments of the stream and started again
(`tests.helpers.workers.stream`), over ``--seeds`` seeds: taken over (claims
that found a turn a killed worker left unfinished and ran it again: the kills did
cut turns short), lost, duplicated, out of order, unanswered, repeated replies (a kill between sending a reply and
marking it done: reported, not a failure) and stale status lines.

Exits 1 when any message is lost, duplicated, out of order or unanswered, or a
process did not exit 0 on SIGTERM.

What a bigger machine would show
--------------------------------
On this 2-core machine the receiver, the workers, PostgreSQL and the fakes share
two cores, so with an instant model more processes than cores add only contention
(4 processes are no faster than 2), and the figures to carry to another machine
are the per-core ones. Measured here (bench/README.md has a table): a message on
the model's path costs ~15 ms of bot CPU on SQLite (~70 messages per CPU-second);
on Postgres ~18 ms in the bot plus ~9 ms in the server (~36 per CPU-second),
because every turn makes a few dozen round trips (claim, advisory lock, inbox,
entries, checkpoint on a pool, release) where SQLite makes in-process calls. The
bot's CPU per message grows a little with the processes (~19, ~20, ~24 ms for 1, 2,
4 on the quick run), and the database's transactions per message hardly (18, 20,
21): a claim takes three round trips whatever the contention (the heads locked in
the statement that reads them, read again under the locks, the cut-off turns), and
receivers wake idle workers with NOTIFY instead of their polling. (Before that
change: 19, 26, 38 transactions, a round trip per head tried and a poll every 50 ms.)

With N cores and N workers the instant-model throughput should grow close to
N × the per-CPU-second figure (one engine process is CPU-bound: one interpreter
lock, LangGraph, validation, the clients) until PostgreSQL's own CPU (~10 ms of
it per message: a core serves ~100 messages/s) or its lock traffic is the limit;
with the database on another machine each round trip adds a network hop, so the
added latency grows by round trips × RTT while the throughput does not change.

With a real model the model is the limit long before either: a turn waits 2 × the
model's latency (seconds on real hardware, not 100 ms) while the engine needs
milliseconds of CPU. Each process runs at most 8 conversations at once (the
``ClaimLoop`` slots, ``WORKER_SLOTS``) and 8 model calls (``OLLAMA_MAX_CONCURRENCY``),
so one process does at most ~8 / (2 × model latency) turns a second (with a 500 ms
model: ~7 msg/s for SQLite and Postgres 1 alike; ~15 for Postgres 4, where the
longest chat's own turns, one after another, were the bound); workers
multiply the conversations and calls in flight until the model servers' own
capacity (``OLLAMA_HOSTS``, per-host caps) bounds the throughput. On SQLite the
turns are not capped by slots (every chat runs at once) but the one process's 8
model calls are, which is why SQLite beats Postgres 1 on the 100 ms rows: Postgres 1
holds a slot for the whole turn, its CPU and round trips included, not only its
model calls.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fakes.ollama_server import FakeOllama  # noqa: E402
from tests.fakes.telegram_api import FakeTelegram  # noqa: E402
from tests.helpers import postgres  # noqa: E402
from tests.helpers.crash import BotProcess, Figures, count, script_logs, settle, text_of  # noqa: E402
from tests.helpers.workers import Deployment, stream  # noqa: E402

CORES = os.cpu_count() or 1
CALLS_PER_TURN = 2  # router + parser on the model's path
FIRST_CHAT = 3000
WARM_UP_CHAT = 9000  # warm-up chats, apart from the timed ones
TICK = os.sysconf("SC_CLK_TCK")
_WEIGHT = re.compile(r"bench press (\d+) kg")  # as the replies name a stored log


@dataclass(frozen=True)
class Config:
    backend: str
    """``sqlite`` or ``postgres``."""
    processes: int
    """Processes running turns (for Postgres the receiver and ``processes - 1`` workers)."""
    model_s: float
    read_in_code: bool

    @property
    def label(self) -> str:
        name = "SQLite" if self.backend == "sqlite" else f"Postgres {self.processes}"
        return f"{name:11} {'code' if self.read_in_code else 'model':5} {self.model_s * 1000:>4.0f} ms"


@dataclass
class Run:
    config: Config
    seconds: float = 0.0
    messages: int = 0
    latency_ms: list[float] = field(default_factory=list)
    added_ms: list[float] = field(default_factory=list)
    cpu_bot_s: float = 0.0
    cpu_pg_s: float = 0.0
    cpu_fakes_s: float = 0.0
    busy_cores: float = 0.0
    figures: Figures = field(default_factory=Figures)
    exits: list[int] = field(default_factory=list)
    pg_transactions: int = 0
    """Transactions committed in the run's database over the timed run."""
    spread: list[int] = field(default_factory=list)
    """Turns stored by each process (the receiver first) in the timed run."""

    def ok(self) -> bool:
        return self.figures.ok() and all(code == 0 for code in self.exits)


# --------------------------------------------------------------------------- CPU accounting (Linux /proc)


def _process_cpu(pid: int, children: bool = False) -> float:
    """CPU seconds of a process (and of its reaped children): utime, stime (cutime, cstime)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    used = int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if children else 0)
    return used / TICK


def _postgres_cpu(cluster: postgres.Cluster) -> float:
    """The server's CPU seconds: the postmaster, the backends it reaped, and the live ones."""
    master = int((cluster.directory / "data" / "postmaster.pid").read_text().split()[0])
    total = _process_cpu(master, children=True)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            continue
        if parent == master:
            total += _process_cpu(int(stat.parent.name))
    return total


def _transactions(url: str | None) -> int:
    """Transactions committed in the database so far (its statistics; a backend reports at the latest as it exits)."""
    if url is None:
        return 0
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()").fetchone()
    return int(row[0]) if row else 0


def _busy_ticks() -> tuple[int, int]:
    """(busy, all) clock ticks of the whole machine since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle and iowait
    return sum(values) - idle, sum(values)


# --------------------------------------------------------------------------- one configuration


@contextmanager
def deployment(
    config: Config, tg: FakeTelegram, fake: FakeOllama, root: Path, url: str | None
) -> Iterator[list[BotProcess]]:
    """The configuration's processes, started and polling; killed on the way out whatever happened."""
    if url is None:
        (root / "data").mkdir()
        bot = BotProcess(tg, fake, root / "data", read_in_code=config.read_in_code)
        processes = [bot]
        try:
            bot.restart()
            yield processes
        finally:
            bot.kill()
        return
    made = Deployment.make(root, tg, fake, url, workers=config.processes - 1, read_in_code=config.read_in_code)
    try:
        made.start_all()
        yield made.processes
    finally:
        made.kill_all()


def warm_up(tg: FakeTelegram, chats: int, stall_s: float) -> None:
    """A first turn per chat, answered before the timed run: lazy imports and first connections are paid here."""
    sent = {WARM_UP_CHAT + c: [20] for c in range(chats)}
    for chat in sent:
        tg.enqueue(tg.message(chat, chat, text_of(20)))
    if not settle(tg, sent, stall_s):
        raise SystemExit("the warm-up was not answered")


def run_config(config: Config, args: argparse.Namespace, cluster: postgres.Cluster, seed: int) -> Run:
    run = Run(config)
    rng = random.Random(seed)
    with FakeOllama() as fake, FakeTelegram() as tg, tempfile.TemporaryDirectory() as tmp:
        script_logs(fake, config.model_s)
        url = postgres.create_database(cluster.server_url) if config.backend == "postgres" else None
        with deployment(config, tg, fake, Path(tmp), url) as processes:
            warm_up(tg, max(args.warmup, 2 * config.processes), args.stall)
            sent: dict[int, list[int]] = {FIRST_CHAT + c: [] for c in range(args.chats)}
            update_of: dict[tuple[int, int], int] = {}
            cpu_bot = [_process_cpu(p.pid) for p in processes]
            marks = [p.log_size() for p in processes]
            transactions = _transactions(url)
            cpu_pg, cpu_fakes, busy = _postgres_cpu(cluster), time.process_time(), _busy_ticks()
            started = time.monotonic()
            for _ in range(args.messages):
                chat = FIRST_CHAT + rng.randrange(args.chats)
                weight = 20 + len(sent[chat])
                sent[chat].append(weight)
                update = tg.message(chat, chat, text_of(weight))
                update_of[(chat, weight)] = int(update["update_id"])
                tg.enqueue(update)
                # Paced: exponential gaps (arrivals of many independent people); else as fast as a few ms apart.
                time.sleep(rng.expovariate(args.rate) if args.rate else rng.uniform(0.0, args.gap_ms / 1000))
            settle(tg, sent, args.stall)
            # Read before SIGTERM: a stopped process's CPU time is gone from /proc.
            run.cpu_bot_s = sum(_process_cpu(p.pid) for p in processes) - sum(cpu_bot)
            run.cpu_pg_s = _postgres_cpu(cluster) - cpu_pg if url else 0.0
            run.cpu_fakes_s = time.process_time() - cpu_fakes
            busy_now = _busy_ticks()
            run.busy_cores = CORES * (busy_now[0] - busy[0]) / max(1, busy_now[1] - busy[1])
            run.exits = [p.stop() for p in processes]
            run.pg_transactions = _transactions(url) - transactions if url else 0
            # A log line per turn stored (LOG_FORMAT=json): which process ran how many of the timed turns.
            run.spread = [
                p.log.read_bytes()[mark:].count(b'"node": "store"') for p, mark in zip(processes, marks, strict=True)
            ]
        run.figures = count(tg, url or Path(tmp) / "data" / "almanac.db", sent)
        if url:
            postgres.drop_database(url)
        _latencies(run, tg, sent, update_of, started)
    return run


def _latencies(
    run: Run, tg: FakeTelegram, sent: dict[int, list[int]], update_of: dict[tuple[int, int], int], started: float
) -> None:
    model_ms = CALLS_PER_TURN * run.config.model_s * 1000 if not run.config.read_in_code else 0.0
    last = started
    for chat, weights in sent.items():
        replied: dict[int, float] = {}
        for m in tg.sent(chat):  # in sending order: the first reply naming a weight is its answer
            for w in _WEIGHT.findall(m.text):
                replied.setdefault(int(w), m.sent_at)
        previous = 0.0
        for w in weights:
            at = replied.get(w)
            if at is None:
                continue  # counted as lost or unanswered
            handed = tg.delivered[update_of[(chat, w)]]
            run.latency_ms.append((at - handed) * 1000)
            run.added_ms.append((at - max(handed, previous)) * 1000 - model_ms)
            previous, last = at, max(last, at)
    run.messages = sum(len(w) for w in sent.values())
    run.seconds = last - started


# --------------------------------------------------------------------------- kills


@dataclass
class KillRun:
    figures: Figures
    kills: int
    taken_over: int
    """Claims that found a turn a killed worker left unfinished, run again (``shared.took_over`` lines)."""
    exits: list[int]
    seconds: float


def run_kills(seed: int, args: argparse.Namespace, cluster: postgres.Cluster) -> KillRun:
    with FakeOllama() as fake, FakeTelegram() as tg, tempfile.TemporaryDirectory() as tmp:
        script_logs(fake, args.kill_model_ms / 1000)
        url = postgres.create_database(cluster.server_url)
        made = Deployment.make(Path(tmp), tg, fake, url, workers=3)
        began = time.monotonic()
        try:
            made.start_all()
            sent = stream(
                tg,
                made,
                seed=seed,
                chats=args.chats,
                messages=args.kill_messages,
                kills=args.kills,
                settle_s=args.stall,
            )
            exits = made.stop_all()
        finally:
            made.kill_all()
        figures = count(tg, url, sent)
        postgres.drop_database(url)
        if not figures.ok():
            for p in made.processes:
                print(f"       --- {p.log.name}\n{p.tail(15)}")
        taken_over = sum(p.log.read_bytes().count(b"shared.took_over") for p in made.processes)
        return KillRun(figures, sum(w.kills for w in made.workers), taken_over, exits, time.monotonic() - began)


# --------------------------------------------------------------------------- report


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def print_run(r: Run) -> None:
    rate = r.messages / r.seconds if r.seconds > 0 else float("nan")
    per_core = rate / min(r.config.processes, CORES)
    f = r.figures
    per_msg = 1000 / max(1, r.messages)
    ours = (r.cpu_bot_s + r.cpu_pg_s + r.cpu_fakes_s) / r.seconds if r.seconds > 0 else float("nan")
    per_cpu_s = r.messages / (r.cpu_bot_s + r.cpu_pg_s) if r.cpu_bot_s > 0 else float("nan")
    print(
        f"{r.config.label} {rate:7.1f} {per_core:8.1f} {per_cpu_s:7.1f} {pct(r.latency_ms, 0.5):7.0f} {pct(r.latency_ms, 0.99):7.0f}"
        f" {pct(r.added_ms, 0.5):7.0f} {pct(r.added_ms, 0.99):7.0f}  {r.cpu_bot_s * per_msg:5.1f} {r.cpu_pg_s * per_msg:5.1f}"
        f" {r.cpu_fakes_s * per_msg:5.1f} {ours:5.2f} {r.busy_cores:5.2f}  {f.lost:4} {f.duplicated:4} {f.out_of_order:4} {f.unanswered:4}"
        + f" {r.pg_transactions * per_msg / 1000:6.0f}  {'/'.join(map(str, r.spread)):>15}"
        + ("" if all(c == 0 for c in r.exits) else f"  exits {r.exits}")
    )
    for line in f.details[:10]:
        print("       " + line)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--messages", type=int, default=400, help="timed messages per configuration")
    p.add_argument("--chats", type=int, default=40)
    p.add_argument("--warmup", type=int, default=8, help="warm-up messages (at least 2 per process)")
    p.add_argument("--gap-ms", type=float, default=5.0, help="messages are queued 0..gap ms apart")
    p.add_argument("--rate", type=float, default=0.0, help="offered messages/s (0: saturate, --gap-ms apart)")
    p.add_argument("--model-ms", type=float, nargs="+", default=[0.0, 100.0], help="each model call's time")
    p.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4], help="Postgres configurations")
    p.add_argument("--code-path", action="store_true", help="also READ_IN_CODE=true (no model call)")
    p.add_argument("--seeds", type=int, default=3, help="seeds of the run with kills (0: none)")
    p.add_argument("--kills", type=int, default=5, help="SIGKILLs per seed")
    p.add_argument("--kills-only", action="store_true", help="only the run with kills")
    p.add_argument("--kill-messages", type=int, default=None, help="messages per seed (default: --messages)")
    p.add_argument("--kill-model-ms", type=float, default=100.0)
    p.add_argument("--stall", type=float, default=60.0, help="give up when no reply came for this long (s)")
    p.add_argument("--seed", type=int, default=1, help="the timed runs' interleaving")
    p.add_argument("--quick", action="store_true", help="120 messages from 12 chats, 2 seeds of 3 kills")
    args = p.parse_args()
    if args.quick:
        args.messages, args.chats, args.seeds, args.kills = 120, 12, 2, 3
    args.kill_messages = args.kill_messages or args.messages
    configs = [
        Config(backend, n, ms / 1000, code)
        for code in ([False, True] if args.code_path else [False])
        for ms in ([0.0] if code else args.model_ms)
        for backend, n in [("sqlite", 1), *(("postgres", n) for n in args.processes)]
    ]
    load = f"offered at {args.rate:g} msg/s" if args.rate else f"queued 0-{args.gap_ms:g} ms apart (saturating)"
    print(f"{CORES} cores, load average {os.getloadavg()[0]:.2f} before the run")
    cluster = postgres.Cluster.start()
    ok = True
    try:
        if not args.kills_only:
            print(f"{args.messages} messages from {args.chats} chats per configuration, {load}")
            print(
                f"{'configuration':28} {'msg/s':>7} {'per core':>8} {'per CPU':>7} {'lat p50':>7} {'p99':>7} {'added50':>7} {'p99':>7}"
                f"  {'CPU ms/msg: bot':>5} {'pg':>5} {'fakes':>5} {'ours':>5} {'busy':>5}  {'lost':>4} {'dup':>4} {'ooo':>4} {'unan':>4} {'pg tx':>6}  {'turns/process':>15}"
            )
        for config in [] if args.kills_only else configs:
            run = run_config(config, args, cluster, args.seed)
            print_run(run)
            ok &= run.ok()
        if args.seeds:
            print(
                f"\nkills: Postgres 4 processes (receiver + 3 workers), {args.kill_messages} messages from {args.chats} "
                f"chats, model {args.kill_model_ms:g} ms, {args.kills} SIGKILLs of a random worker per seed"
            )
            print(
                f"{'seed':>4} {'kills':>5} {'taken over':>10} {'lost':>5} {'dup':>5} {'ooo':>5} {'unanswered':>10} {'repeated':>8} {'stale ⏳':>8} {'time':>7}"
            )
            for seed in range(1, args.seeds + 1):
                k = run_kills(seed, args, cluster)
                f = k.figures
                print(
                    f"{seed:>4} {k.kills:>5} {k.taken_over:>10} {f.lost:>5} {f.duplicated:>5} {f.out_of_order:>5}"
                    f" {f.unanswered:>10} {f.repeated_replies:>8} {f.stale_status:>8} {k.seconds:>6.1f}s"
                    + ("" if all(c == 0 for c in k.exits) else f"  exits {k.exits}")
                )
                for line in f.details[:10]:
                    print("       " + line)
                ok &= f.ok() and all(c == 0 for c in k.exits)
    finally:
        cluster.stop()
    print("\nresult:", "no message lost, duplicated or out of order" if ok else "FAILED (see above)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
