"""Start-up benchmark: how long ``python -m bot console`` takes to show its prompt, and its memory then.

Run it from the repository root (a script, not a pytest test)::

    .venv/bin/python bench/startup.py [--runs 5] [--root PATH]

Each run starts the real console (``python -m bot console``) in a fresh
process on one data directory, with ``tests.fakes.ollama_server.FakeOllama``
as Ollama (``EMBEDDING_BACKEND=ollama``, so the knowledge base's first ingest
takes seconds, not the built-in model's minute). A first, untimed start
creates the databases and ingests the built-in articles; the timed starts
that follow are ordinary restarts.

Per run it records the wall time from the process start to the console's
``> `` prompt, the process's resident memory (``VmRSS``) at that moment, and
again once the start-up ingest has finished in the background (``settled``).
One more start with ``-X importtime`` lists which of Chroma, langsmith, numpy
and onnxruntime were imported before the prompt appeared, with the time spent
in their own modules (not in what they import in turn).

``--root`` runs another checkout's ``bot`` (e.g. an exported older commit) with
this virtualenv, to compare before and after.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fakes.ollama_server import FakeOllama  # noqa: E402

PROMPT = "> "
INGESTED = "knowledge.ingested"
"""The log line the start-up ingest writes when it is done (``engine.knowledge.library``)."""
WATCHED = ("chromadb", "langsmith", "numpy", "onnxruntime")
"""Top-level packages whose import before the prompt the report names."""


@dataclass(frozen=True)
class Start:
    to_prompt_s: float
    rss_at_prompt_kb: int
    rss_settled_kb: int


def rss_kb(pid: int) -> int:
    """The process's resident set size in KB (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def env_for(data_dir: Path, fake: FakeOllama) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "SLACK_"))}
    env.update(
        DATA_DIR=str(data_dir),
        OLLAMA_HOST=fake.url,
        EMBEDDING_BACKEND="ollama",
        EMBEDDING_MODEL="bge-m3",
        KNOWLEDGE_ENABLED="true",
        PYTHONUNBUFFERED="1",
    )
    return env


def read_until(proc: subprocess.Popen[bytes], marker: bytes, timeout_s: float) -> bytes:
    """Stdout up to and including ``marker`` (raw reads: the prompt has no newline)."""
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + timeout_s
    while marker not in seen:
        if time.monotonic() > deadline:
            raise SystemExit(f"no {marker!r} within {timeout_s:.0f} s; got {seen[-300:]!r}")
        chunk = os.read(proc.stdout.fileno(), 4096)
        if not chunk:
            raise SystemExit(f"the console ended before {marker!r}; got {seen[-300:]!r}")
        seen += chunk
    return seen


def ingested(log: Path, before: int) -> bool:
    try:
        return INGESTED in log.read_text(encoding="utf-8", errors="replace")[before:]
    except FileNotFoundError:
        return False


def start(
    root: Path, env: dict[str, str], data_dir: Path, *, settle_s: float, importtime: bool = False
) -> tuple[Start, str]:
    """One start: time to the prompt, memory then and once the ingest is done; ``/quit``.

    With ``importtime``, also what ``-X importtime`` printed before the prompt.
    """
    log = data_dir / "almanac.log"
    log_before = log.stat().st_size if log.exists() else 0
    args = [sys.executable, *(["-X", "importtime"] if importtime else []), "-m", "bot", "console", "--name", "bench"]
    started = time.perf_counter()
    proc = subprocess.Popen(
        args,
        cwd=root,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if importtime else subprocess.DEVNULL,
    )
    # -X importtime writes hundreds of KB to stderr: read it all along, or the child blocks on a full pipe.
    errors: list[bytes] = []
    reader = threading.Thread(target=_collect, args=(proc, errors), daemon=True) if importtime else None
    if reader is not None:
        reader.start()
    try:
        read_until(proc, PROMPT.encode(), 120)
        to_prompt = time.perf_counter() - started
        at_prompt = rss_kb(proc.pid)
        before_prompt = b"".join(errors).decode(errors="replace")
        deadline = time.monotonic() + settle_s
        while not ingested(log, log_before) and time.monotonic() < deadline:
            time.sleep(0.05)
        settled = rss_kb(proc.pid)
        assert proc.stdin is not None
        proc.stdin.write(b"/quit\n")
        proc.stdin.flush()
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if reader is not None:
        reader.join(timeout=5)
    return Start(to_prompt, at_prompt, settled), before_prompt


def _collect(proc: subprocess.Popen[bytes], into: list[bytes]) -> None:
    assert proc.stderr is not None
    while chunk := os.read(proc.stderr.fileno(), 65536):
        into.append(chunk)


def imported_before_prompt(importtime: str) -> dict[str, float]:
    """Import time (ms) of each watched package imported before the prompt: its own modules' self times."""
    found: dict[str, float] = {}
    for line in importtime.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", line)
        if m is None:
            continue
        package = m.group(2).split(".")[0]
        if package in WATCHED:
            found[package] = found.get(package, 0.0) + int(m.group(1)) / 1000
    return found


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--runs", type=int, default=5, help="timed starts (default 5)")
    p.add_argument("--root", type=Path, default=ROOT, help="the checkout whose bot runs (default: this one)")
    p.add_argument("--settle", type=float, default=20.0, help="seconds to wait for the start-up ingest (default 20)")
    args = p.parse_args(argv)
    with FakeOllama() as fake, tempfile.TemporaryDirectory(prefix="almanac-startup-") as tmp:
        fake.models.add("bge-m3")
        data_dir = Path(tmp) / "data"
        env = env_for(data_dir, fake)
        print(f"first start (creates the databases, ingests the built-in articles) in {args.root} …", flush=True)
        first, _ = start(args.root, env, data_dir, settle_s=120)
        runs = []
        for i in range(args.runs):
            run, _ = start(args.root, env, data_dir, settle_s=args.settle)
            runs.append(run)
            print(
                f"  start {i + 1}: prompt after {run.to_prompt_s:.2f} s, RSS {run.rss_at_prompt_kb / 1024:.1f} MB "
                f"(settled {run.rss_settled_kb / 1024:.1f} MB)",
                flush=True,
            )
        _, importtime = start(args.root, env, data_dir, settle_s=args.settle, importtime=True)
    watched = imported_before_prompt(importtime)
    print()
    print("=" * 100)
    print(
        f"startup ({os.cpu_count() or 0} cores, Python {sys.version.split()[0]}; {args.root}; "
        f"load average {os.getloadavg()[0]:.2f})"
    )
    print(f"first start:  prompt after {first.to_prompt_s:.2f} s, RSS at prompt {first.rss_at_prompt_kb / 1024:.1f} MB")
    print(
        f"restart:      prompt after p50 {statistics.median(r.to_prompt_s for r in runs):.2f} s "
        f"(min {min(r.to_prompt_s for r in runs):.2f}), RSS at prompt p50 "
        f"{statistics.median(r.rss_at_prompt_kb for r in runs) / 1024:.1f} MB, after the start-up ingest p50 "
        f"{statistics.median(r.rss_settled_kb for r in runs) / 1024:.1f} MB"
    )
    print(
        "imported before the prompt: "
        + (", ".join(f"{k} ({v:.0f} ms)" for k, v in sorted(watched.items())) or "none of " + ", ".join(WATCHED))
    )
    print("=" * 100)
    return 0


if __name__ == "__main__":
    sys.exit(main())
