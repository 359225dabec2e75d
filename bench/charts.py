"""How long a progress chart takes for a long history: 5,000 sessions, each kind of chart.

Run it from the repository root (a script, not a pytest test)::

    .venv/bin/python bench/charts.py                  # 5,000 sessions, 7 runs per kind (~1 min)
    .venv/bin/python bench/charts.py --sessions 1000 --runs 3   # quick look

It stores a synthetic history for one person through ``EntryStore.add`` in a
temporary ``DATA_DIR`` (strength days with bench press and squat, a warm-up
and four work sets each, the weights creeping up with noise, now and then a
failed set; a run every fourth day; a weigh-in every third), then draws each
kind of chart over the whole history (a lift, weekly volume, training days,
running, bodyweight) and prints, per kind, the median of ``--runs`` runs of:

* render: series + caption + picture + PNG file, the part ``asyncio.to_thread`` runs;
* whole: ``engine.charts.chart`` end to end (the rows read by SQL, then render).

The first chart of the process (matplotlib's import and the font's registration)
is timed apart and left out of the medians. Target: whole < 1 s per kind.
Exit code 0 when every kind meets it, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import structlog

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.charts import ChartAsk, ChartReads, chart  # noqa: E402
from engine.charts.chart import prepare  # noqa: E402
from engine.domains.registry import DomainRegistry  # noqa: E402
from engine.entries.model import NewEntry  # noqa: E402
from engine.outcomes import Chart  # noqa: E402
from engine.store.db import Database  # noqa: E402
from engine.store.entries import EntryStore  # noqa: E402

USER = "console:bench"
TARGET_S = 1.0
START = date(2007, 1, 1)


def _strength(on: date, i: int, rnd: random.Random) -> NewEntry:
    exercises = []
    for name, base in (("bench press", 60.0), ("squat", 90.0)):
        work = round((base + i * 0.01 + rnd.uniform(-4, 4)) / 2.5) * 2.5
        sets: list[dict[str, Any]] = [{"set_num": 1, "weight": base / 2, "reps": 10, "kind": "warmup"}]
        sets += [{"set_num": n, "weight": work, "reps": rnd.choice((3, 5, 5, 8))} for n in range(2, 6)]
        if rnd.random() < 0.05:
            sets.append({"set_num": 6, "weight": work + 10, "reps": 0, "kind": "failure"})
        exercises.append({"name": name, "sets": len(sets), "weight_unit": "kg", "set_details": sets})
    data = {"activity_type": "strength", "domain": "strength", "exercises": exercises, "metrics": [], "notes": ""}
    return NewEntry(
        occurred_on=on, domain="strength", activity_type="strength", summary="bench, squat", data=data,
        raw_text="bench squat", terms=["bench press", "squat"], source_key=f"s:{i}",
    )  # fmt: skip


def _metrics(on: date, domain: str, key: str, metrics: list[dict[str, str]]) -> NewEntry:
    data = {"activity_type": domain, "domain": domain, "exercises": [], "metrics": metrics, "notes": ""}
    return NewEntry(
        occurred_on=on, domain=domain, activity_type=domain, summary=domain, data=data, raw_text=domain,
        source_key=key,
    )  # fmt: skip


def history(sessions: int, seed: int = 7) -> tuple[list[NewEntry], date]:
    """``sessions`` strength days (one every 1-2 days), a run every fourth, a weigh-in every third."""
    rnd = random.Random(seed)
    out, on = [], START
    for i in range(sessions):
        out.append(_strength(on, i, rnd))
        if i % 4 == 0:
            km = round(rnd.uniform(4, 12), 1)
            minutes = km * rnd.uniform(4.6, 6.2)
            duration = f"{int(minutes)}:{int(minutes % 1 * 60):02d}"
            metrics = [
                {"name": "distance_km", "value": str(km), "unit": "km"},
                {"name": "duration", "value": duration, "unit": ""},
            ]
            out.append(_metrics(on, "running", f"r:{i}", metrics))
        if i % 3 == 0:
            weight = f"{80 + 4 * (i / sessions) + rnd.uniform(-1, 1):.1f}"
            out.append(
                _metrics(on, "general_fitness", f"w:{i}", [{"name": "bodyweight", "value": weight, "unit": "kg"}])
            )
        on += timedelta(days=rnd.choice((1, 1, 2)))
    return out, on


ASKS = {
    "lift (bench press)": ("lift", ("bench press",)),
    "weekly volume (2 lifts)": ("volume", ("bench press", "squat")),
    "training days (heatmap)": ("days", ()),
    "running (distance, pace)": ("cardio", ("running",)),
    "bodyweight": ("bodyweight", ()),
}


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    registry = DomainRegistry.load()
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "almanac.db")
        entries, end = history(args.sessions)
        t0 = time.perf_counter()
        store = EntryStore(db)
        for i in range(0, len(entries), 500):
            await store.add(USER, entries[i : i + 500])
        print(f"history: {args.sessions:,} strength sessions, {len(entries):,} entries, {START} .. {end}, "
              f"stored in {time.perf_counter() - t0:.1f} s")  # fmt: skip
        reads = ChartReads(db, registry)
        out_dir = Path(tmp) / "charts"
        first = time.perf_counter()
        await chart(ChartAsk("days", (), end - timedelta(days=30), end), reads, registry, USER, out_dir, "en")
        print(f"first chart of the process (matplotlib import, font registration): {time.perf_counter() - first:.2f} s")
        print(f"\n{'chart':<26} {'render (median)':>16} {'whole (median)':>15} {'whole max':>10}  caption")
        ok = True
        for label, (kind, subjects) in ASKS.items():
            ask = ChartAsk(kind, subjects, date.min, end)  # type: ignore[arg-type]
            wholes, renders = [], []
            shown: Chart | None = None
            for _ in range(args.runs):
                t = time.perf_counter()
                got = await chart(ask, reads, registry, USER, out_dir, "en")
                wholes.append(time.perf_counter() - t)
                assert isinstance(got, Chart), got
                shown = got
                prepared = await prepare(ask, reads, registry, USER, out_dir, "en")
                t = time.perf_counter()
                assert prepared.render() is not None
                renders.append(time.perf_counter() - t)
            whole = statistics.median(wholes)
            ok &= whole < TARGET_S
            assert shown is not None
            print(f"{label:<26} {statistics.median(renders) * 1000:>13.0f} ms {whole * 1000:>12.0f} ms "
                  f"{max(wholes) * 1000:>7.0f} ms  {shown.caption.splitlines()[0][:60]}")  # fmt: skip
        await db.close()
    print(f"\ntarget: whole < {TARGET_S:.0f} s per kind: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    # The engine's info lines (one per chart drawn) would bury the table.
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    sys.exit(asyncio.run(main()))
