"""How fast, and in how much memory, a large Strong export imports through the command line's own code.

Run it from the repository root (a script, not a pytest test)::

    .venv/bin/python bench/import.py                          # 10,000 and 100,000 rows
    .venv/bin/python bench/import.py --rows 20000 --keep /tmp/imp   # other sizes; keep the files

It writes realistic Strong exports in a temporary folder: one person's
training over years (five sessions a week, push / pull / legs, five exercises
of four sets each, warm-up sets ``W`` before the first lifts, an RPE or a note
now and then, pounds for the first third of the history and kilograms after,
with the odd session in the other unit). Each size is then imported, in a
fresh child process, by :func:`bot.data_cli.run_import` (what ``python -m bot
import strong FILE --user KEY`` runs) into an empty temporary ``DATA_DIR``.
Before it, the child imports a one-workout file into another ``DATA_DIR``, so
modules, the vocabulary and SQLite are loaded before anything is measured.

Per size it prints:

* import s, rows/s: the wall time of ``run_import`` (the file's rows read,
  checked, grouped, built and stored, the report printed), and data rows over it;
* CPU s: the process's CPU time over the same span (SQLite's thread included),
  which other load on the machine moves far less than wall time;
* RSS delta: the process's ``ru_maxrss`` after the import minus before it (after
  the warm-up): everything the import made the process hold at its peak,
  Python objects, SQLite's cache and the allocator's slack alike;
* tracemalloc peak: the peak of Python allocations during the import, in a
  second child (tracing slows it, so it is not timed);
* again: the same file imported a second time (every workout already present).

A line for ``csv.reader`` alone over the same file is the floor.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import date, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
USER = "console:bench"
HEADER = (
    "Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight", "Weight Unit", "Reps",
    "Distance", "Distance Unit", "Seconds", "Notes", "Workout Notes", "RPE",
)  # fmt: skip
# (workout, [(exercise, top working weight in kg at the start, reps)]): push / pull / legs.
PLAN: tuple[tuple[str, tuple[tuple[str, float, int], ...]], ...] = (
    ("Push Day", (("Bench Press (Barbell)", 60, 5), ("Overhead Press (Barbell)", 40, 6),
                  ("Incline Bench Press (Dumbbell)", 22.5, 10), ("Triceps Pushdown (Cable)", 25, 12),
                  ("Lateral Raise (Dumbbell)", 8, 15))),
    ("Pull Day", (("Deadlift (Barbell)", 100, 5), ("Pull Up", 0, 8), ("Bent Over Row (Barbell)", 60, 8),
                  ("Lat Pulldown (Cable)", 50, 10), ("Bicep Curl (Dumbbell)", 12, 12))),
    ("Leg Day", (("Squat (Barbell)", 80, 5), ("Romanian Deadlift (Barbell)", 70, 8), ("Leg Press", 120, 10),
                 ("Leg Curl (Machine)", 35, 12), ("Standing Calf Raise (Machine)", 60, 15))),
)  # fmt: skip
ROWS_PER_WORKOUT = 22  # 20 working sets and about two warm-ups
LB = 0.45359237


def _load(kg: float, unit: str) -> str:
    """A load as the person's plates make it: 2.5 kg or 5 lb steps."""
    if unit == "lbs":
        return f"{round(kg / LB / 5) * 5:g}"
    return f"{round(kg / 2.5) * 2.5:g}"


def write_export(path: Path, rows: int, seed: int = 1) -> int:
    """A Strong export of about ``rows`` data rows (whole workouts), oldest first; returns the rows written."""
    rng = random.Random(seed)
    workouts = max(1, rows // ROWS_PER_WORKOUT)
    day = date(2026, 1, 1) - timedelta(days=workouts * 7 // 5)
    switch = workouts // 3  # pounds before, kilograms after
    written = n = 0
    with path.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(HEADER)
        while written < rows:
            day += timedelta(days=rng.choice((1, 1, 1, 2, 2)))
            name, exercises = PLAN[n % len(PLAN)]
            unit = "lbs" if n < switch else "kg"
            if rng.random() < 0.05:
                unit = "kg" if unit == "lbs" else "lbs"  # a session at another gym
            hour, minute = rng.choice(((7, 0), (12, 15), (18, 30), (19, 0))), rng.randrange(0, 60, 5)
            start = f"{day.isoformat()} {hour[0]:02d}:{(hour[1] + minute) % 60:02d}:00"
            length = rng.randrange(45, 100)
            duration = f"{length // 60}h {length % 60}m" if length >= 60 else f"{length}m"
            gain = 1 + 0.3 * n / workouts  # slow progress over the years
            notes = rng.choice(("", "", "", "", "Felt strong", "Tired today"))
            for i, (exercise, kg, reps) in enumerate(exercises):
                top = kg * gain
                warmups = (0.5, 0.7) if i == 0 else (0.6,) if i == 1 and rng.random() < 0.2 else ()
                sets = [("W", w * top, 8) for w in warmups]
                sets += [(str(k), top, reps - (1 if k == 4 and rng.random() < 0.3 else 0)) for k in range(1, 5)]
                for order, load, count in sets:
                    weight = _load(load, unit) if kg else "0"
                    rpe = rng.choice(("", "", "8", "8.5", "9")) if order == "4" else ""
                    note = "belt on" if i == 0 and order == "1" and rng.random() < 0.1 else ""
                    out.writerow(
                        [start, name, duration, exercise, order, weight, unit, count, 0, "", 0, note, notes, rpe]
                    )
                    written += 1
            n += 1
    return written


# --- the child: one measured import -------------------------------------------------


def _child(mode: str, file: Path, warm: Path) -> dict[str, Any]:
    if mode == "csv":
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.perf_counter()
        with file.open(encoding="utf-8-sig", newline="") as f:
            rows = sum(1 for _ in csv.reader(f)) - 1
        return {"seconds": time.perf_counter() - started, "rss_kb": _rss() - base, "rows": rows}

    from bot.config import load_settings
    from bot.data_cli import run_import

    def once(path: Path, data_dir: Path) -> tuple[float, float, str]:
        os.environ["DATA_DIR"] = str(data_dir)
        settings = load_settings()
        out = io.StringIO()
        cpu, started = _cpu(), time.perf_counter()
        with contextlib.redirect_stdout(out):
            code = run_import(settings, path, user=USER, unit="kg")
        if code != 0:
            raise SystemExit(f"import of {path} exited {code}: {out.getvalue()}")
        return time.perf_counter() - started, _cpu() - cpu, out.getvalue().splitlines()[0]

    tmp = Path(tempfile.mkdtemp(prefix="almanac-import-"))
    once(warm, tmp / "warm")
    if mode == "trace":
        tracemalloc.start()
        tracemalloc.reset_peak()
        once(file, tmp / "data")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return {"traced_kb": peak // 1024}
    base = _rss()
    seconds, cpu, report = once(file, tmp / "data")
    rss = _rss() - base
    again, _, again_report = once(file, tmp / "data")
    return {
        "seconds": seconds, "cpu": cpu, "rss_kb": rss, "report": report, "again": again, "again_report": again_report,
    }  # fmt: skip


def _cpu() -> float:
    """CPU seconds of the whole process (SQLite's thread too): less moved by other load than wall time."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _rss() -> int:
    """The process's peak resident set so far, in KiB (Linux reports ru_maxrss in KiB)."""
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _run_child(mode: str, file: Path, warm: Path) -> dict[str, Any]:
    env = {**os.environ, "OLLAMA_HOST": "http://127.0.0.1:9", "PYTHONPATH": str(ROOT)}
    env.pop("DATA_DIR", None)
    with tempfile.TemporaryDirectory() as cwd:  # no .env of the developer's is read
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child", mode, str(file), str(warm)],
            cwd=cwd, env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"child {mode} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, action="append", help="data rows per file (repeatable; 10k and 100k)")
    parser.add_argument("--keep", type=Path, default=None, help="write the exports here and keep them")
    parser.add_argument("--no-trace", action="store_true", help="skip the tracemalloc child (faster)")
    parser.add_argument("--child", nargs=3, metavar=("MODE", "FILE", "WARM"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, file, warm = args.child
        print(json.dumps(_child(mode, Path(file), Path(warm))))
        return 0

    sizes = args.rows or [10_000, 100_000]
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        warm = folder / "warm.csv"
        write_export(warm, ROWS_PER_WORKOUT, seed=7)
        print(f"{'rows':>8} {'MB':>5} | {'import s':>8} {'CPU s':>6} {'rows/s':>7} {'RSS delta':>9} "
              f"{'traced peak':>11} {'again s':>7} | {'csv.reader s':>12} {'RSS delta':>9}")  # fmt: skip
        for size in sizes:
            file = folder / f"strong_{size}.csv"
            rows = write_export(file, size)
            run = _run_child("import", file, warm)
            traced = None if args.no_trace else _run_child("trace", file, warm)["traced_kb"]
            plain = _run_child("csv", file, warm)
            print(
                f"{rows:>8,} {file.stat().st_size / 2**20:>5.1f} | {run['seconds']:>8.2f} {run['cpu']:>6.2f} "
                f"{rows / run['seconds']:>7,.0f} "
                f"{run['rss_kb'] / 1024:>6.1f} MB {'-' if traced is None else f'{traced / 1024:.1f} MB':>11} "
                f"{run['again']:>7.2f} | {plain['seconds']:>12.2f} {plain['rss_kb'] / 1024:>6.1f} MB"
            )
            print(f"{'':>8}   {run['report']}; again: {run['again_report'].split(': ', 1)[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
