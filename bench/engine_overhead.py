"""Engine overhead benchmark: what Almanac itself costs per turn, in time and bytes.

Run it from the repository root (it is a script, not a pytest test)::

    .venv/bin/python bench/engine_overhead.py [--turns 1000] [--samples 200]

Everything is real except the model: a real ``Engine`` (``Engine.open``) with
the production SQLite checkpointer (``AsyncSqliteSaver``, WAL) and application
database in a temporary ``DATA_DIR``, the real ``ollama`` client, and
``tests.fakes.ollama_server.FakeOllama`` — a real HTTP server on 127.0.0.1 that
answers every structured call instantly with the reply shapes of
``tests/helpers/scripts.py``. Logging is configured at WARNING into a memory buffer, so
log I/O does not dominate.

What is measured
----------------
1. **LOG turn** — wall time of ``await engine.handle(Message(...))`` for a LOG
   message that code reads whole (route → parse → store → checkpoint, no model
   call; each turn's weight or reps differ, so none is taken for a resend),
   over ``--samples`` turns after ``--warmup`` turns. ``model HTTP`` is the time spent inside
   ``engine.llm._chat`` (wrapped by this script): the round-trips to the fake
   model over a local socket. ``overhead`` is the turn time minus that, i.e.
   what the engine costs beyond waiting for the model, split into ``SQLite``
   (time awaiting ``aiosqlite`` calls on both databases: statements, commits,
   fsyncs, the hop to aiosqlite's thread) and ``other`` (LangGraph, prompts,
   validation, Python). ``CPU`` is the process CPU time of the turn (all
   threads, the fake server's too), which other load on the machine moves
   far less than wall time.
2. **Clarify and resume** — a message whose parse needs clarification
   (sets and reps but no exercise: code asks which → ``Ask``), then the
   ``Resume`` answering it (parser → ``Logged``). Both halves are timed
   separately, over ``--samples`` pairs.
3. **The LangGraph floor** — the same three turn types run by LangGraph alone:
   the engine's graph shape (every node and edge of the compiled graph, the
   real ``State`` and ``fresh_turn`` input) with trivial async nodes and
   routers, on LangGraph's own ``AsyncSqliteSaver`` with the engine's pragmas,
   one ``ainvoke(..., durability="exit")`` per turn. The engine's ``overhead``
   (and CPU) over the floor's is its cost per turn beyond LangGraph's.
4. **SQLite round trips** — every ``aiosqlite`` call of a turn on either
   database, counted by the same wrapper that times them (a statement, a fetch,
   a commit, a cursor opened or closed: each is a trip to aiosqlite's worker
   thread), for the engine and the floor. ``--show-trips`` lists one turn's.
5. **Storage growth** — ``--turns`` LOG turns in one conversation on a fresh
   data dir. Every ``--every`` turns (and at turn 1, 100 and the last) the
   script records, on a separate read-only ``sqlite3`` connection:

   * raw file sizes of ``checkpoints.db`` / ``-wal`` and ``almanac.db`` / ``-wal``
     (the WAL grows and is checkpointed back, so raw sizes saw-tooth);
   * the logical size of each database: ``page_count * page_size`` (what the
     database would occupy with its WAL folded in) and the part of it in use
     (minus ``freelist_count`` pages);
   * the size of the thread's checkpoint row (``length(checkpoint)`` and
     ``length(metadata)``) and the number of ``checkpoints`` / ``writes`` rows.

   Entries legitimately grow ``almanac.db`` (one row per LOG turn, its FTS
   index, and an inbox row per turn, pruned after 7 days), so checkpoint and
   entries growth are reported separately, with a per-table breakdown of
   ``almanac.db`` from SQLite's ``dbstat``.

How to read the summary
-----------------------
* ``LOG turn`` p50 is the headline: engine time per LOG turn with a model that
  answers instantly. Target: p50 <= 25 ms.
* ``bytes/turn`` is logical growth of both databases divided by turns.
  Target: <= 20 KB per turn.
* ``x the LangGraph floor`` and ``SQLite round trips`` per turn type; targets
  for the LOG turn: CPU <= 2.5x the floor's, round trips <= 15.
* ``growth`` compares turn 100 with the last turn: the checkpoint row must stay
  the same size (a thread keeps its latest checkpoint and the one before it,
  and per-turn state is reset), and bytes per turn after turn 100 must not exceed bytes per turn
  before it (storage cost per turn must not rise as the conversation grows).
  Target: flat.
* ``latency over N turns`` compares LOG turns at the start and the end of the
  long conversation (wall and CPU p50); CPU should not rise with the number of
  turns (informational, not part of the exit status).
* p99 and max are mostly disk (an fsync that stalls shows in ``SQLite``) and
  other processes; on a shared 2-core machine they swing from run to run.

Numbers depend on the machine and on load; run twice and compare. The script
exits with status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import platform
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import aiosqlite  # noqa: E402
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver  # noqa: E402
from langgraph.graph import StateGraph  # noqa: E402
from langgraph.types import Command, interrupt  # noqa: E402

from bot.logs import configure_logging  # noqa: E402
from engine.config import EngineConfig, LLMConfig  # noqa: E402
from engine.engine import Engine  # noqa: E402
from engine.graph.state import State, fresh_turn  # noqa: E402
from engine.graph.steps import Node  # noqa: E402
from engine.outcomes import Ask, Logged, Outcome  # noqa: E402
from engine.runtime.threads import WAL_LIMIT_BYTES  # noqa: E402
from engine.turns import ClarificationAnswer, Message, Resume  # noqa: E402
from tests.fakes.ollama_server import FakeOllama, Reply  # noqa: E402
from tests.helpers import scripts  # noqa: E402

# --- targets --------------------------------------------------------------

TARGET_LOG_P50_MS = 25.0
TARGET_BYTES_PER_TURN = 20 * 1024
TARGET_LOG_TRIPS = 15
"""SQLite round trips per LOG turn (aiosqlite calls on both databases)."""
TARGET_FLOOR_RATIO = 2.5
"""A LOG turn's CPU time over the LangGraph floor's (CPU: wall time swings with other load)."""
# The checkpoint row jitters by up to ~100 B from turn to turn: LangGraph's
# channel versions end in a random float of varying length ("…116.0.65704…"),
# one per channel. A leak (say history not trimmed) adds that per turn, i.e.
# tens of KB over 900 turns; anything beyond this counts as growth.
ROW_TOLERANCE_BYTES = 256
# Page-granular growth is lumpy (100-turn windows vary by ~±15 %); a later
# per-turn rate may exceed the early one by this factor before it counts as
# rising. Something that grows with the conversation shows as a multiple.
RATE_TOLERANCE = 1.5
# After turn 100 the checkpoint database should reuse its pages: at most one
# new 4 KB page per 100 turns.
CHECKPOINT_TOLERANCE_BYTES_PER_TURN = 41.0
SPLIT_TURN = 100
# A 1-minute load average at or above this, before the run, means other
# processes compete for the cores and wall times are not representative.
BUSY_LOAD = 0.75

# --- the scripted conversation -----------------------------------------------

LOG_TEXT = "bench 55kg 10x5"


def log_text(n: int) -> str:
    """The n-th LOG message: a different weight or rep count each turn, for 1,000 turns; code reads each whole.

    The same text again within minutes would be taken for a resend whose reply
    went missing (``engine.runtime.repeats``) and answered with a notice, not stored.
    """
    return f"bench {50 + n % 50}kg {8 + n // 50 % 20}x5"


CLARIFY_TEXT = "did 5x5 today"
ANSWER = "Squat"
USER = "bench:user"


def _parser_user_prompt(body: dict[str, Any]) -> str:
    """The parser's first user message (re-asks append more; the first has the inputs)."""
    messages = body.get("messages") or []
    users = [m.get("content", "") for m in messages if m.get("role") == "user"]
    return str(users[0]) if users else ""


def _parser_reply(body: dict[str, Any]) -> Reply:
    """Parsed unless the message is the vague one and no answer was given yet.

    The parser prompt lists earlier answers as ``question -> answer``; with
    none it says ``(none)``.
    """
    prompt = _parser_user_prompt(body)
    if "-> " in prompt:
        return scripts.strength("squat", 100, 5, 5)
    if CLARIFY_TEXT in prompt:
        return scripts.needs_exercise()
    return scripts.strength("bench press", 55, 10, 5)


def script_fake(fake: FakeOllama) -> None:
    """Instant replies by schema title, forever."""
    fake.default("RouterOutput", scripts.router("LOG"))
    fake.default("ParserOutput", _parser_reply)
    fake.default("ClarifierOutput", scripts.clarifier())


def recycle(fake: FakeOllama) -> None:
    """Check the fake saw nothing wrong, then drop its recordings.

    The fake keeps every request body; over thousands of turns that heap
    slows Python's garbage collector and would show up as engine drift.
    """
    problems = fake.errors + [f"unscripted: {t}" for t in fake.unscripted]
    if problems:
        raise SystemExit("benchmark broken: the fake model reported " + "; ".join(problems[:5]))
    fake.reset()
    script_fake(fake)


# --- timing helpers ---------------------------------------------------------


_TRIP_KINDS = {
    "execute": "statement",
    "executemany": "statement",
    "executescript": "statement",
    "_execute_insert": "statement",
    "_execute_fetchall": "statement",
    "fetchone": "fetch",
    "fetchmany": "fetch",
    "fetchall": "fetch",
    "commit": "commit",
    "rollback": "commit",
}
"""What an ``aiosqlite`` call does, by the name of the ``sqlite3`` method it runs on the worker thread."""
TRIP_KINDS = ("statement", "fetch", "commit", "other")


class Clocks:
    """Accumulated waits (model HTTP round-trips and SQLite calls) and SQLite round trips.

    * model: time inside ``engine.llm._chat`` (wrapped per engine);
    * SQLite: time awaiting ``aiosqlite`` calls on any connection (both the
      application database and the checkpointer), i.e. the statement, its
      commit/fsync and the hop to aiosqlite's worker thread;
    * trips: how many of those calls were made, by database and kind. Each
      one is a round trip to aiosqlite's worker thread (a statement, a fetch
      of its rows, a commit, a cursor opened or closed). Counted here, in the
      benchmark, by the same class-level wrapper that times them; production
      code counts nothing.

    A turn runs its awaits one after another, so the two do not overlap.
    """

    def __init__(self) -> None:
        self.model_s = 0.0
        self.sqlite_s = 0.0
        self.trips: Counter[tuple[str, str]] = Counter()
        """Round trips so far, by (database, kind)."""
        self.trace: list[str] | None = None
        """When a list, each round trip is appended to it, described (``--show-trips``)."""
        self._names: dict[int, str] = {}
        self._restore: Callable[[], None] | None = None

    def name(self, conn: aiosqlite.Connection, label: str) -> None:
        """Count this connection's round trips under ``label`` (others count as ``other``)."""
        self._names[id(conn)] = label

    def _count(self, conn: aiosqlite.Connection, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        method = getattr(fn, "__name__", "")
        kind = _TRIP_KINDS.get(method, "other")
        db = self._names.get(id(conn), "other")
        self.trips[(db, kind)] += 1
        if self.trace is not None:
            what = " ".join(str(args[0]).split())[:90] if kind == "statement" and args else method
            self.trace.append(f"{db:<11} {kind:<9} {what}")

    def install(self, engine: Engine) -> None:
        original: Callable[..., Awaitable[str]] = engine.llm._chat

        async def timed_chat(*args: Any, **kwargs: Any) -> str:
            started = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                self.model_s += time.perf_counter() - started

        # An instance attribute shadows the method for this engine only.
        engine.llm._chat = timed_chat  # type: ignore[method-assign]

    def install_sqlite(self) -> None:
        """Time every aiosqlite call (class-level patch, undone by `uninstall_sqlite`)."""
        execute: Callable[..., Awaitable[Any]] = aiosqlite.Connection._execute

        async def timed_execute(conn: aiosqlite.Connection, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
            self._count(conn, fn, args)
            started = time.perf_counter()
            try:
                return await execute(conn, fn, *args, **kwargs)
            finally:
                self.sqlite_s += time.perf_counter() - started

        aiosqlite.Connection._execute = timed_execute

        def restore() -> None:
            aiosqlite.Connection._execute = execute

        self._restore = restore

    def uninstall_sqlite(self) -> None:
        if self._restore is not None:
            self._restore()
            self._restore = None


@dataclass(frozen=True)
class Timing:
    """One turn: wall time and the waits inside it, in seconds."""

    total_s: float
    model_s: float
    sqlite_s: float
    cpu_s: float
    """Process CPU time (all threads, the fake server's included): less sensitive to a busy machine."""
    trips: Counter[tuple[str, str]] = field(default_factory=Counter)
    """SQLite round trips of the turn, by (database, kind)."""


@dataclass
class Samples:
    """Per-turn times, in milliseconds, and SQLite round trips."""

    total_ms: list[float] = field(default_factory=list)
    model_ms: list[float] = field(default_factory=list)
    sqlite_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    trips: list[Counter[tuple[str, str]]] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)
    """The round trips of one turn, described (filled with ``--show-trips``)."""

    def add(self, t: Timing) -> None:
        self.total_ms.append(t.total_s * 1000)
        self.model_ms.append(t.model_s * 1000)
        self.sqlite_ms.append(t.sqlite_s * 1000)
        self.cpu_ms.append(t.cpu_s * 1000)
        self.trips.append(t.trips)

    @property
    def trip_totals(self) -> list[float]:
        return [float(sum(c.values())) for c in self.trips]

    def typical_trips(self) -> Counter[tuple[str, str]]:
        """The breakdown of the turn with the median number of round trips."""
        if not self.trips:
            return Counter()
        ordered = sorted(self.trips, key=lambda c: sum(c.values()))
        return ordered[(len(ordered) - 1) // 2]

    @property
    def overhead_ms(self) -> list[float]:
        """Turn time minus model round-trips."""
        return [t - m for t, m in zip(self.total_ms, self.model_ms)]

    @property
    def rest_ms(self) -> list[float]:
        """Turn time minus model round-trips and SQLite: graph, prompts, validation, Python."""
        return [t - m - q for t, m, q in zip(self.total_ms, self.model_ms, self.sqlite_ms)]


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (p100 is the maximum)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-pct * len(ordered) // 100))))
    return ordered[rank - 1]


def describe(values: Sequence[float]) -> str:
    return (
        f"p50 {percentile(values, 50):6.2f} ms  p99 {percentile(values, 99):6.2f} ms  "
        f"mean {statistics.fmean(values):6.2f} ms"
    )


async def timed(clocks: Clocks, run: Awaitable[Any], trace: list[str] | None = None) -> tuple[Any, Timing]:
    """Await ``run`` and measure it; with ``trace``, describe its round trips into it."""
    model_before, sqlite_before, trips_before = clocks.model_s, clocks.sqlite_s, clocks.trips.copy()
    clocks.trace = trace
    cpu_started = time.process_time()
    started = time.perf_counter()
    try:
        result = await run
    finally:
        clocks.trace = None
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    trips = clocks.trips - trips_before
    return result, Timing(elapsed, clocks.model_s - model_before, clocks.sqlite_s - sqlite_before, cpu, trips)


async def timed_handle(
    engine: Engine, clocks: Clocks, turn: Message | Resume, trace: list[str] | None = None
) -> tuple[list[Outcome], Timing]:
    outcomes, timing = await timed(clocks, engine.handle(turn), trace)
    return list(outcomes), timing


def expect(outcomes: list[Outcome], kind: type[Outcome], what: str) -> Outcome:
    """The outcome of ``kind``; stop the benchmark if the turn did something else."""
    found = [o for o in outcomes if isinstance(o, kind)]
    if not found:
        raise SystemExit(f"benchmark broken: {what} gave {outcomes!r}, expected {kind.__name__}")
    return found[0]


# --- storage probes ---------------------------------------------------------


@dataclass(frozen=True)
class DbSize:
    """One database's size, as files and as SQLite sees it."""

    file_bytes: int
    wal_bytes: int
    logical_bytes: int
    """``page_count * page_size``: the database with its WAL folded in."""
    used_bytes: int
    """Logical size minus free pages."""


@dataclass(frozen=True)
class Snapshot:
    turn: int
    checkpoints: DbSize
    entries: DbSize
    row_checkpoint: int
    row_metadata: int
    checkpoint_rows: int
    write_rows: int


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _read_only(path: Path) -> sqlite3.Connection:
    # A short-lived reader: it never blocks the writers' WAL checkpoints for long.
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def db_size(path: Path) -> DbSize:
    conn = _read_only(path)
    try:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    finally:
        conn.close()
    return DbSize(
        file_bytes=_file_size(path),
        wal_bytes=_file_size(path.with_name(path.name + "-wal")),
        logical_bytes=pages * page_size,
        used_bytes=(pages - free) * page_size,
    )


def snapshot(turn: int, config: EngineConfig, thread: str) -> Snapshot:
    conn = _read_only(config.checkpoints_db)
    try:
        row = conn.execute(
            "SELECT length(checkpoint), length(metadata) FROM checkpoints "
            "WHERE thread_id = ? AND checkpoint_ns = '' ORDER BY checkpoint_id DESC LIMIT 1",
            (thread,),
        ).fetchone()
        checkpoint_rows = conn.execute("SELECT count(*) FROM checkpoints").fetchone()[0]
        write_rows = conn.execute("SELECT count(*) FROM writes").fetchone()[0]
    finally:
        conn.close()
    return Snapshot(
        turn=turn,
        checkpoints=db_size(config.checkpoints_db),
        entries=db_size(config.entries_db),
        row_checkpoint=int(row[0]) if row else 0,
        row_metadata=int(row[1]) if row else 0,
        checkpoint_rows=int(checkpoint_rows),
        write_rows=int(write_rows),
    )


def table_bytes(path: Path) -> dict[str, int]:
    """Bytes per table/index (``dbstat``), FTS shadow tables grouped under their table."""
    conn = _read_only(path)
    try:
        rows = conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall()
    except sqlite3.OperationalError:  # dbstat not compiled in
        return {}
    finally:
        conn.close()
    grouped: dict[str, int] = {}
    for name, size in rows:
        key = "entries_fts (all shadow tables)" if str(name).startswith("entries_fts") else str(name)
        grouped[key] = grouped.get(key, 0) + int(size)
    return grouped


# --- scenarios --------------------------------------------------------------


def make_config(data_dir: Path, fake: FakeOllama) -> EngineConfig:
    # Like tests/conftest.py's engine_config.
    llm = LLMConfig(host=fake.url, timeout_s=5.0, max_retries=2)
    return EngineConfig(data_dir=data_dir, llm=llm, default_timezone="Asia/Seoul")


def name_connections(engine: Engine, clocks: Clocks) -> None:
    """Count the engine's round trips per database."""
    clocks.name(engine.db.conn, "app")
    saver = engine.checkpointer
    if isinstance(saver, AsyncSqliteSaver):
        clocks.name(saver.conn, "checkpoints")


async def bench_log(engine: Engine, clocks: Clocks, samples: int, warmup: int) -> Samples:
    conversation = "bench:log"
    result = Samples()
    for i in range(warmup + samples):
        outcomes, timing = await timed_handle(
            engine,
            clocks,
            Message(conversation=conversation, user=USER, text=log_text(i)),
            result.trace if i == warmup else None,
        )
        expect(outcomes, Logged, f"LOG turn {i}")
        if i >= warmup:
            result.add(timing)
    return result


async def bench_clarify(engine: Engine, clocks: Clocks, samples: int, warmup: int) -> tuple[Samples, Samples]:
    conversation = "bench:clarify"
    asks, resumes = Samples(), Samples()
    for i in range(warmup + samples):
        outcomes, timing = await timed_handle(
            engine,
            clocks,
            Message(conversation=conversation, user=USER, text=CLARIFY_TEXT),
            asks.trace if i == warmup else None,
        )
        ask = expect(outcomes, Ask, f"clarify message {i}")
        assert isinstance(ask, Ask)
        if i >= warmup:
            asks.add(timing)
        resume = Resume(
            conversation=conversation,
            user=USER,
            interrupt_id=ask.interrupt_id,
            answer=ClarificationAnswer(answers=[ANSWER]),
        )
        outcomes, timing = await timed_handle(engine, clocks, resume, resumes.trace if i == warmup else None)
        expect(outcomes, Logged, f"resume {i}")
        if i >= warmup:
            resumes.add(timing)
    return asks, resumes


@dataclass
class Growth:
    snapshots: list[Snapshot]
    latency: Samples
    tables_before: dict[str, int]
    tables_after: dict[str, int]


async def bench_growth(
    engine: Engine, clocks: Clocks, fake: FakeOllama, config: EngineConfig, turns: int, every: int
) -> Growth:
    conversation = "bench:growth"
    thread = await engine.conversations.thread_id(conversation)
    marks = {1, min(SPLIT_TURN, turns), turns} | set(range(every, turns + 1, every))
    snapshots = [snapshot(0, config, thread)]
    tables_before = table_bytes(config.entries_db)
    latency = Samples()
    for turn in range(1, turns + 1):
        outcomes, timing = await timed_handle(
            engine, clocks, Message(conversation=conversation, user=USER, text=log_text(turn))
        )
        expect(outcomes, Logged, f"growth turn {turn}")
        latency.add(timing)
        if turn in marks:
            snapshots.append(snapshot(turn, config, thread))
        if turn % SPLIT_TURN == 0:
            recycle(fake)
    return Growth(snapshots, latency, tables_before, table_bytes(config.entries_db))


# --- the LangGraph floor ------------------------------------------------------
#
# What LangGraph alone costs for the same turns: the engine's graph shape
# (every node, edge and conditional edge of the compiled graph, the real
# ``State`` schema and the same ``fresh_turn`` input) with trivial async nodes
# and routers, compiled on LangGraph's own ``AsyncSqliteSaver`` set up as the
# engine sets up its saver (WAL, synchronous=NORMAL, the same WAL size limit)
# and invoked as the engine does (``ainvoke(..., durability="exit")``, a
# thread id and the inbox item in the metadata). No inbox, no entries, no
# pruning, no state read before the run: one ``ainvoke`` per turn.


@asynccontextmanager
async def plain_saver(path: Path) -> AsyncIterator[AsyncSqliteSaver]:
    """LangGraph's SQLite saver as it comes, with the engine's pragmas (``engine.runtime.threads.sqlite_saver``)."""
    async with AsyncSqliteSaver.from_conn_string(str(path)) as saver:
        await saver.setup()
        await saver.conn.execute("PRAGMA synchronous=NORMAL")
        await saver.conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
        yield saver


FLOOR_NEXT = {"route": "parse", "store": "remember", "wait_user": "parse", "chat": "remember"}
"""The LOG path through the graph; ``parse`` goes to ``clarify`` or ``store`` (see `_floor_router`)."""


async def _floor_route(state: State) -> dict[str, Any]:
    return {"intent": "LOG", "domains": ["strength"]}


async def _floor_parse(state: State) -> dict[str, Any]:
    vague = CLARIFY_TEXT in state["text"] and not state.get("answers")
    return {"parsed": {"status": "needs_clarification" if vague else "parsed"}}


async def _floor_clarify(state: State) -> dict[str, Any]:
    ask = {"questions": [{"text": "Which exercise?", "options": []}], "why": "", "if_declined": ""}
    return {"ask": ask, "ask_origin": "log", "clarify_rounds": state.get("clarify_rounds", 0) + 1}


async def _floor_wait_user(state: State) -> dict[str, Any]:
    answer = interrupt(state.get("ask"))
    item = {"question": "Which exercise?", "answer": str(answer)}
    return {"answers": [*state.get("answers", []), item], "ask": None}


async def _floor_store(state: State) -> dict[str, Any]:
    logged = {"kind": "logged", "entries": [{"entry_id": state["turn_id"], "summary": state["text"]}]}
    return {"outcomes": [logged]}


async def _floor_remember(state: State) -> dict[str, Any]:
    said = {"role": "assistant", "text": "logged"}
    return {"history": [*state.get("history", []), {"role": "user", "text": state["text"]}, said][-12:]}


async def _floor_nothing(state: State) -> dict[str, Any]:
    return {}


FLOOR_NODES: dict[str, Node] = {
    "route": _floor_route,
    "parse": _floor_parse,
    "clarify": _floor_clarify,
    "wait_user": _floor_wait_user,
    "store": _floor_store,
    "remember": _floor_remember,
}


def _floor_router(node: str, ends: list[str]) -> Callable[[State], Awaitable[str]]:
    async def after(state: State) -> str:
        if node == "parse":
            vague = (state.get("parsed") or {}).get("status") == "needs_clarification"
            return "clarify" if vague else "store"
        return FLOOR_NEXT.get(node, ends[0])

    return after


def floor_graph(shape: StateGraph[Any]) -> StateGraph[State]:
    """The engine's graph shape with trivial async nodes and routers (uncompiled)."""
    g: StateGraph[State] = StateGraph(State)
    for name in shape.nodes:
        g.add_node(name, FLOOR_NODES.get(name, _floor_nothing))
    for start, end in shape.edges:
        g.add_edge(start, end)
    for start, branches in shape.branches.items():
        for spec in branches.values():
            ends = list((spec.ends or {}).values())
            g.add_conditional_edges(start, _floor_router(start, ends), ends)
    return g


def _floor_input(item: int, conversation: str, text: str) -> State:
    return fresh_turn(
        turn_id=str(item), conversation=conversation, user=USER, text=text, today="2025-01-06", timezone="Asia/Seoul"
    )


@dataclass
class Floor:
    log: Samples
    asks: Samples
    resumes: Samples


async def bench_floor(shape: StateGraph[Any], clocks: Clocks, data_dir: Path, samples: int, warmup: int) -> Floor:
    """The same three turn types, LangGraph alone."""
    data_dir.mkdir(parents=True, exist_ok=True)
    floor = Floor(Samples(), Samples(), Samples())
    async with plain_saver(data_dir / "floor.db") as saver:
        clocks.name(saver.conn, "checkpoints")
        graph = floor_graph(shape).compile(checkpointer=saver)
        item = 0

        def config(thread: str) -> Any:
            return {"configurable": {"thread_id": thread}, "metadata": {"inbox_item": item}}

        for i in range(warmup + samples):
            item += 1
            trace = floor.log.trace if i == warmup else None
            result, timing = await timed(
                clocks,
                graph.ainvoke(_floor_input(item, "floor:log", log_text(i)), config("floor:log"), durability="exit"),
                trace,
            )
            if result.get("__interrupt__") or not result.get("outcomes"):
                raise SystemExit(f"benchmark broken: the floor's LOG turn gave {result!r}")
            if i >= warmup:
                floor.log.add(timing)
        for i in range(warmup + samples):
            item += 1
            trace = floor.asks.trace if i == warmup else None
            result, timing = await timed(
                clocks,
                graph.ainvoke(
                    _floor_input(item, "floor:clarify", CLARIFY_TEXT), config("floor:clarify"), durability="exit"
                ),
                trace,
            )
            pending = result.get("__interrupt__") or []
            if len(pending) != 1:
                raise SystemExit(f"benchmark broken: the floor's clarify turn gave {result!r}")
            if i >= warmup:
                floor.asks.add(timing)
            item += 1
            trace = floor.resumes.trace if i == warmup else None
            result, timing = await timed(
                clocks, graph.ainvoke(Command(resume=ANSWER), config("floor:clarify"), durability="exit"), trace
            )
            if result.get("__interrupt__") or not result.get("outcomes"):
                raise SystemExit(f"benchmark broken: the floor's resume gave {result!r}")
            if i >= warmup:
                floor.resumes.add(timing)
    return floor


# --- report -----------------------------------------------------------------


def kb(n: float) -> str:
    return f"{n / 1024:,.2f} KB"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def at_turn(snaps: Sequence[Snapshot], turn: int) -> Snapshot:
    return next(s for s in snaps if s.turn == turn)


def rate(a: Snapshot, b: Snapshot, size: Callable[[Snapshot], int]) -> float:
    return (size(b) - size(a)) / (b.turn - a.turn) if b.turn > a.turn else 0.0


def cp_logical(s: Snapshot) -> int:
    return s.checkpoints.logical_bytes


def en_logical(s: Snapshot) -> int:
    return s.entries.logical_bytes


def total_logical(s: Snapshot) -> int:
    return s.checkpoints.logical_bytes + s.entries.logical_bytes


def total_raw(s: Snapshot) -> int:
    c, e = s.checkpoints, s.entries
    return c.file_bytes + c.wal_bytes + e.file_bytes + e.wal_bytes


def breakdown(samples: Samples) -> str:
    return (
        f"model HTTP p50 {percentile(samples.model_ms, 50):.2f} ms, "
        f"overhead p50 {percentile(samples.overhead_ms, 50):.2f} ms "
        f"= SQLite {percentile(samples.sqlite_ms, 50):.2f} + other {percentile(samples.rest_ms, 50):.2f}"
    )


def trips_line(samples: Samples) -> str:
    """Round trips per turn: the median, its breakdown by database and kind, and the range."""
    typical = samples.typical_trips()
    parts = []
    for db in sorted({d for d, _ in typical}):
        kinds = ", ".join(f"{typical[(db, k)]} {k}" for k in TRIP_KINDS if typical[(db, k)])
        parts.append(f"{db} {sum(n for (d, _), n in typical.items() if d == db)} ({kinds})")
    totals = samples.trip_totals
    return f"{percentile(totals, 50):3.0f} (min {min(totals):.0f}, max {max(totals):.0f}; " + "; ".join(parts) + ")"


def ratio(engine: Sequence[float], floor: Sequence[float]) -> float:
    """p50 over p50."""
    base = percentile(floor, 50)
    return percentile(engine, 50) / base if base > 0 else float("nan")


def floor_rows(engine: Sequence[Samples], floor: Floor) -> list[tuple[str, Samples, Samples]]:
    log, asks, resumes = engine
    return [("LOG turn", log, floor.log), ("clarify message", asks, floor.asks), ("resume", resumes, floor.resumes)]


def print_floor(engine: Sequence[Samples], floor: Floor, show_trips: bool) -> None:
    print("  engine vs the LangGraph floor (the engine's graph shape, trivial async nodes, same saver, one ainvoke):")
    print(f"  {'':<16}{'':<12} {'engine':>10} {'floor':>10} {'ratio':>7}")
    for name, mine, base in floor_rows(engine, floor):
        print(
            f"  {name:<16}{'overhead p50':<12} {percentile(mine.overhead_ms, 50):7.2f} ms "
            f"{percentile(base.total_ms, 50):7.2f} ms {ratio(mine.overhead_ms, base.total_ms):6.2f}x"
        )
        print(
            f"  {'':<16}{'CPU p50':<12} {percentile(mine.cpu_ms, 50):7.2f} ms "
            f"{percentile(base.cpu_ms, 50):7.2f} ms {ratio(mine.cpu_ms, base.cpu_ms):6.2f}x"
        )
        print(f"  {'':<16}{'trips':<12} engine {trips_line(mine)}")
        print(f"  {'':<16}{'':<12} floor  {trips_line(base)}")
    if show_trips:
        for name, mine, base in floor_rows(engine, floor):
            for who, samples in (("engine", mine), ("floor", base)):
                print()
                print(f"  round trips of one {name} ({who}, the first timed one):")
                for n, line in enumerate(samples.trace, 1):
                    print(f"    {n:>3} {line}")


def print_latency(name: str, samples: Samples) -> None:
    rows = (
        ("total", samples.total_ms),
        ("model HTTP", samples.model_ms),
        ("overhead", samples.overhead_ms),
        ("  SQLite", samples.sqlite_ms),
        ("  other", samples.rest_ms),
        ("CPU", samples.cpu_ms),
    )
    for i, (label, values) in enumerate(rows):
        print(f"  {name if i == 0 else '':<16}{label:<11} {describe(values)}  max {max(values):7.2f} ms")


def print_storage(args: argparse.Namespace, growth: Growth, split: Snapshot) -> None:
    snaps = growth.snapshots
    print(
        "  storage, one conversation (logical = page_count*page_size; raw = file and -wal sizes; "
        "row = thread's checkpoint row)"
    )
    print(
        f"  {'turn':>6} {'ckpt.db':>10} {'ckpt-wal':>10} {'ckpt log.':>10} {'alm.db':>10} {'alm-wal':>10} "
        f"{'alm log.':>10} {'row B':>7} {'meta B':>7} {'ckpts':>5} {'writes':>6}"
    )
    step = max(1, len(snaps) // 12)
    shown = {s.turn: s for s in [*snaps[::step], snaps[1], split, snaps[-1]]}
    for turn in sorted(shown):
        s = shown[turn]
        c, e = s.checkpoints, s.entries
        print(
            f"  {s.turn:>6} {c.file_bytes:>10,} {c.wal_bytes:>10,} {c.logical_bytes:>10,} {e.file_bytes:>10,} "
            f"{e.wal_bytes:>10,} {e.logical_bytes:>10,} {s.row_checkpoint:>7,} {s.row_metadata:>7,} "
            f"{s.checkpoint_rows:>5} {s.write_rows:>6}"
        )
    n = args.turns
    print()
    print(f"  almanac.db by table (dbstat), turn 0 -> {n}:")
    before, after = growth.tables_before, growth.tables_after
    for name in sorted(set(before) | set(after), key=lambda k: (-(after.get(k, 0) - before.get(k, 0)), k)):
        b, a = before.get(name, 0), after.get(name, 0)
        if a != b:
            print(f"    {name:<34} {b:>10,} -> {a:>10,} B  ({(a - b) / n:7.1f} B/turn)")
    windows = [s for s in snaps if s.turn % SPLIT_TURN == 0]
    rates = [rate(a, b, total_logical) for a, b in zip(windows, windows[1:])]
    if rates:
        print(
            f"  logical bytes/turn per {SPLIT_TURN}-turn window after turn {SPLIT_TURN}: "
            + ", ".join(f"{r / 1024:.2f}" for r in rates)
            + " KB"
        )


def report(
    args: argparse.Namespace,
    log: Samples,
    asks: Samples,
    resumes: Samples,
    floor: Floor,
    growth: Growth,
    elapsed_s: float,
    load_before: float,
) -> bool:
    """Print details and the summary block; True when every target is met."""
    snaps = growth.snapshots
    first, last = snaps[0], snaps[-1]
    split = at_turn(snaps, min(SPLIT_TURN, args.turns))
    n = args.turns

    print()
    print(
        f"details ({args.samples} samples per scenario after {args.warmup} warm-up; "
        "overhead = total - model HTTP; other = overhead - SQLite; CPU = process CPU time)"
    )
    print_latency("LOG turn", log)
    print_latency("clarify message", asks)
    print_latency("resume", resumes)
    print()
    print_floor((log, asks, resumes), floor, args.show_trips)
    print()
    print_storage(args, growth, split)
    head = max(1, len(growth.latency.total_ms) // 10)
    early, late = growth.latency.total_ms[:head], growth.latency.total_ms[-head:]
    early_cpu, late_cpu = growth.latency.cpu_ms[:head], growth.latency.cpu_ms[-head:]

    log_ok = percentile(log.total_ms, 50) <= TARGET_LOG_P50_MS
    per_turn = rate(first, last, total_logical)
    bytes_ok = per_turn <= TARGET_BYTES_PER_TURN
    early_rate, late_rate = rate(first, split, total_logical), rate(split, last, total_logical)
    cp_late = rate(split, last, cp_logical)
    row_delta = last.row_checkpoint - split.row_checkpoint
    row_flat = abs(row_delta) <= ROW_TOLERANCE_BYTES
    # The latest checkpoint and its parent, which a failed turn rolls back to (engine.runtime.threads).
    cp_flat = cp_late <= CHECKPOINT_TOLERANCE_BYTES_PER_TURN and last.checkpoint_rows <= 2
    rate_flat = late_rate <= early_rate * RATE_TOLERANCE
    flat = row_flat and cp_flat and rate_flat
    # CPU, not wall time: other processes on a small machine move wall time a lot.
    drift_flat = percentile(late_cpu, 50) <= percentile(early_cpu, 50) * RATE_TOLERANCE + 1.0

    print()
    print("=" * 110)
    print(
        f"engine_overhead ({os.cpu_count() or 0} cores, Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}, fake model over HTTP, SQLite checkpointer; run {elapsed_s:.0f} s)"
    )
    if load_before >= BUSY_LOAD:
        print(
            f"note: the machine was busy before the run (load average {load_before:.2f} on "
            f"{os.cpu_count() or 0} cores): wall times are inflated; compare the CPU figures."
        )
    print(
        f"LOG turn:        p50 {percentile(log.total_ms, 50):6.2f} ms  p99 {percentile(log.total_ms, 99):6.2f} ms  "
        f"({breakdown(log)}; CPU p50 {percentile(log.cpu_ms, 50):.2f} ms)  "
        f"target p50 <= {TARGET_LOG_P50_MS:g} ms  {verdict(log_ok)}"
    )
    print(
        f"clarify message: p50 {percentile(asks.total_ms, 50):6.2f} ms  p99 {percentile(asks.total_ms, 99):6.2f} ms  "
        f"({breakdown(asks)})"
    )
    print(
        f"resume:          p50 {percentile(resumes.total_ms, 50):6.2f} ms  "
        f"p99 {percentile(resumes.total_ms, 99):6.2f} ms  ({breakdown(resumes)})"
    )
    for name, mine, base in floor_rows((log, asks, resumes), floor):
        print(
            f"{name + ':':<17}{ratio(mine.overhead_ms, base.total_ms):5.2f}x the LangGraph floor "
            f"({percentile(base.total_ms, 50):.2f} ms; CPU {ratio(mine.cpu_ms, base.cpu_ms):.2f}x), "
            f"SQLite round trips {percentile(mine.trip_totals, 50):.0f} (floor {percentile(base.trip_totals, 50):.0f})"
        )
    trips_ok = percentile(log.trip_totals, 50) <= TARGET_LOG_TRIPS
    floor_ok = ratio(log.cpu_ms, floor.log.cpu_ms) <= TARGET_FLOOR_RATIO
    print(
        f"LOG turn vs floor: round trips {percentile(log.trip_totals, 50):.0f}  target <= {TARGET_LOG_TRIPS}  "
        f"{verdict(trips_ok)};  CPU {ratio(log.cpu_ms, floor.log.cpu_ms):.2f}x  target <= {TARGET_FLOOR_RATIO:g}x  "
        f"{verdict(floor_ok)}"
    )
    print(
        f"bytes/turn ({n} turns, logical): checkpoints {kb(rate(first, last, cp_logical))}, "
        f"entries {kb(rate(first, last, en_logical))}, total {kb(per_turn)}  "
        f"target <= {kb(TARGET_BYTES_PER_TURN)}  {verdict(bytes_ok)}"
    )
    print(
        f"                 raw files incl. WAL: {kb(rate(first, last, total_raw))}/turn "
        f"(WAL files at turn {n}: {kb(last.checkpoints.wal_bytes + last.entries.wal_bytes)})"
    )
    print(
        f"bytes/turn turns 1-{split.turn}: {kb(early_rate)}, turns {split.turn}-{n}: {kb(late_rate)} "
        f"(of which checkpoints {kb(cp_late)})  {'flat' if rate_flat else 'RISING'}"
    )
    print(
        f"growth turn {split.turn}->{n}: checkpoint row {split.row_checkpoint:,} B -> {last.row_checkpoint:,} B "
        f"({'flat' if row_flat else f'GROWS {row_delta:+,} B'}), {last.checkpoint_rows} checkpoint row(s), "
        f"{last.write_rows} write row(s), checkpoints.db {split.checkpoints.logical_bytes:,} B -> "
        f"{last.checkpoints.logical_bytes:,} B ({last.checkpoints.used_bytes:,} B in use)  {verdict(flat)}"
    )
    print(
        f"latency over {n} turns, first {head} -> last {head} turns: wall p50 {percentile(early, 50):.2f} -> "
        f"{percentile(late, 50):.2f} ms, CPU p50 {percentile(early_cpu, 50):.2f} -> "
        f"{percentile(late_cpu, 50):.2f} ms  {'flat' if drift_flat else 'RISING'}"
    )
    print("=" * 110)
    return log_ok and bytes_ok and flat and trips_ok and floor_ok


# --- main -------------------------------------------------------------------


def load_average() -> float:
    """The 1-minute load average (0 where the platform has none)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return 0.0


async def run(args: argparse.Namespace) -> bool:
    started = time.perf_counter()
    load_before = load_average()
    configure_logging("json", "WARNING", stream=io.StringIO())
    clocks = Clocks()
    clocks.install_sqlite()
    try:
        with FakeOllama() as fake, tempfile.TemporaryDirectory(prefix="almanac-bench-") as tmp:
            script_fake(fake)

            # Latency: one engine, LOG turns then clarify/resume pairs.
            async with Engine.open(make_config(Path(tmp) / "latency", fake)) as engine:
                clocks.install(engine)
                name_connections(engine, clocks)
                shape = engine.graph.builder
                print(f"LOG turns: {args.warmup} warm-up + {args.samples} samples …", flush=True)
                log = await bench_log(engine, clocks, args.samples, args.warmup)
                recycle(fake)
                print(f"clarify/resume: {args.warmup} warm-up + {args.samples} samples …", flush=True)
                asks, resumes = await bench_clarify(engine, clocks, args.samples, args.warmup)
                recycle(fake)

            print(f"LangGraph floor: the same turns, {args.warmup} warm-up + {args.samples} samples each …", flush=True)
            floor = await bench_floor(shape, clocks, Path(tmp) / "floor", args.samples, args.warmup)

            # Storage: a fresh data dir, so growth belongs to this conversation alone.
            config = make_config(Path(tmp) / "growth", fake)
            async with Engine.open(config) as engine:
                clocks.install(engine)
                name_connections(engine, clocks)
                print(f"storage: {args.turns} LOG turns in one conversation …", flush=True)
                growth = await bench_growth(engine, clocks, fake, config, args.turns, args.every)
                recycle(fake)
    finally:
        clocks.uninstall_sqlite()
    return report(args, log, asks, resumes, floor, growth, time.perf_counter() - started, load_before)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--turns", type=int, default=1000, help="LOG turns in the storage conversation (default 1000)")
    p.add_argument("--samples", type=int, default=200, help="timed turns per latency scenario (default 200)")
    p.add_argument("--warmup", type=int, default=20, help="untimed turns before each latency scenario (default 20)")
    p.add_argument("--every", type=int, default=10, help="measure storage every N turns (default 10)")
    p.add_argument(
        "--show-trips",
        action="store_true",
        help="list the SQLite round trips of one turn of each type (engine and floor)",
    )
    args = p.parse_args(argv)
    if args.turns < 2 or args.samples < 1 or args.warmup < 0 or args.every < 1:
        p.error("need --turns >= 2, --samples >= 1, --warmup >= 0, --every >= 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    ok = asyncio.run(run(args))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
