"""``bench/import.py`` stays runnable and honest, and the import it measures stays flat in memory.

The benchmark's files must be what it says (a clean Strong export over years,
warm-ups, pounds and kilograms), its script must run end to end through the
command line's code, and the property it reports (issue 23.6: memory that
does not grow with the file) is checked here at a small size: four times
the rows, about the same peak of Python allocations.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tracemalloc
from pathlib import Path
from types import ModuleType

import pytest

from engine.domains.registry import DomainRegistry
from engine.importers import parse_export, store_workouts
from engine.importers.common import decode
from engine.importers.files import open_export, read_export, scan
from engine.importers.strong import ExerciseNamer
from engine.store.db import Database

ROOT = Path(__file__).resolve().parents[2]
USER = "console:bench"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    # "import" is a keyword: the script is loaded by path.
    spec = importlib.util.spec_from_file_location("bench_import", ROOT / "bench" / "import.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def namer() -> ExerciseNamer:
    return ExerciseNamer.from_registry(DomainRegistry.load())


def test_the_generated_export_is_a_clean_strong_file(bench: ModuleType, namer: ExerciseNamer, tmp_path: Path) -> None:
    path = tmp_path / "strong.csv"
    rows = bench.write_export(path, 2000)
    result = parse_export("strong", decode(path.read_bytes()), user_key=USER, namer=namer)
    assert result.rows == rows >= 2000 and result.problems == [] and result.ignored == []
    units = {e["weight_unit"] for entry in result.entries for e in entry.data["exercises"]}
    kinds = {
        d.get("kind", "normal") for entry in result.entries for e in entry.data["exercises"] for d in e["set_details"]
    }
    assert units == {"kg", "lb", None} and kinds == {"normal", "warmup"}  # None: the bodyweight pull-ups
    days = [entry.occurred_on for entry in result.entries]
    assert (days[-1] - days[0]).days > 100 and len(set(days)) == len(days)
    assert all(len(entry.data["exercises"]) >= 5 for entry in result.entries)


async def _peak(path: Path, namer: ExerciseNamer, db: Database) -> int:
    tracemalloc.start()
    try:
        scanned = scan(open_export(path), "strong", namer=namer)
        with read_export(scanned, user_key=USER, namer=namer, keep=20) as read:
            await store_workouts(db, USER, read, batch_size=20)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


async def test_import_memory_is_flat_in_the_file_size(bench: ModuleType, namer: ExerciseNamer, tmp_path: Path) -> None:
    peaks = []
    for rows in (2000, 8000):
        path = tmp_path / f"strong_{rows}.csv"
        bench.write_export(path, rows)
        db = await Database.open(tmp_path / f"{rows}" / "almanac.db")
        try:
            peaks.append(await _peak(path, namer, db))
        finally:
            await db.close()
    # Reading all of it first grew by about 8 MB here (2.6 -> 10.5 MB); batch by batch it grows by a line
    # number per workout and the bounded caches.
    assert peaks[1] < peaks[0] + 1024 * 1024, peaks


def test_the_benchmark_runs_through_the_command_line_code(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "import.py"), "--rows", "300", "--no-trace", "--keep", str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "strong_300.csv: 14 workouts imported for console:bench, 0 already present" in run.stdout
    assert "again: 0 workouts imported for console:bench, 14 already present" in run.stdout
