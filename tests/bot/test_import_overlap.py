"""Issue 22.1 at the command line: ``import strong`` and ``import notes`` of the same days count each workout once.

The README offers both imports and people keep both records: a day's Strong
workout and the daily note that says the same sets must not double that day's
sets and volume, and the import says what it left out and why.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.data_cli import run_import
from bot.notes_cli import run_notes_import
from tests.helpers.database import settings_database

DATA = Path(__file__).resolve().parents[1] / "data"
STRONG = DATA / "strong_history.csv"
USER = "console:kim"
DAYS = ("2021-03-02", "2021-03-07", "2021-03-12", "2021-03-17")
# Strong alone: sets and volume (kg × reps, warm-ups included) of the first four days of strong_history.csv.
STRONG_TOTALS = {
    "2021-03-02": (8, 1528.0), "2021-03-07": (4, 1800.0), "2021-03-12": (3, 1215.0), "2021-03-17": (8, 1528.0),
}  # fmt: skip


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database_url: str | None) -> Path:
    monkeypatch.chdir(tmp_path)
    if database_url:
        monkeypatch.setenv("DATABASE_URL", database_url)
    else:
        monkeypatch.delenv("DATABASE_URL", raising=False)  # SQLite files, whatever the shell says
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")  # code reads these notes whole; no model is needed
    return tmp_path


def notes(root: Path) -> Path:
    """Daily notes of the same days as Strong's first sessions, and one day with another workout."""
    folder = root / "notes"
    folder.mkdir()
    days = {
        # The same sets as Strong's Push Day, warm-up left out, pull-ups written one set a line.
        "2021-03-02.md": "bench press 60kg x5, 60x5, 60x4\n덤벨 벤치프레스 18키로 8회 2세트\n"
        "턱걸이 5회 1세트\n턱걸이 4회 1세트\n",
        "2021-03-07.md": "스쿼트 80키로 5회 3세트\n",  # Strong also has a warm-up set
        "2021-03-12.md": "deadlift 60kg x10, 102.5x3, 102.5x3\n",  # the warm-up written as a plain set
        "2021-03-17.md": "squat 100kg 5x5\n",  # Strong has a Push Day this day: another workout
    }
    for name, text in days.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def totals() -> dict[str, tuple[int, float]]:
    async def read() -> dict[str, tuple[int, float]]:
        db = await settings_database()
        try:
            marks = ",".join("?" * len(DAYS))
            async with db.conn.execute(
                "SELECT occurred_on, count(*), round(coalesce(sum(weight_kg * reps), 0), 1) FROM entry_sets "
                f"WHERE user_key = ? AND occurred_on IN ({marks}) GROUP BY occurred_on",
                (USER, *DAYS),
            ) as cur:
                return {str(d): (int(n), float(v)) for d, n, v in await cur.fetchall()}
        finally:
            await db.close()

    return asyncio.run(read())


def test_notes_after_strong_skip_the_workouts_strong_holds(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_import(load_settings(), STRONG, user=USER, unit="kg") == 0
    capsys.readouterr()
    assert totals() == STRONG_TOTALS
    folder = notes(env)

    assert run_notes_import(load_settings(), folder, user=USER) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == [
        f"notes: 1 note imported for {USER}, 0 already present",
        "skipped 3 notes whose workouts were already imported from Strong",
    ]
    # Each day once; the squats of 03-17 are a workout Strong does not have, so they are added.
    assert totals() == STRONG_TOTALS | {"2021-03-17": (8 + 5, 1528.0 + 2500.0)}

    assert run_notes_import(load_settings(), folder, user=USER) == 0  # again: the same answer, nothing added
    assert capsys.readouterr().out.splitlines()[:2] == [
        f"notes: 0 notes imported for {USER}, 1 already present",
        "skipped 3 notes whose workouts were already imported from Strong",
    ]
    assert totals()["2021-03-02"] == STRONG_TOTALS["2021-03-02"]


def test_strong_after_notes_skips_the_workouts_the_notes_hold(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_notes_import(load_settings(), notes(env), user=USER) == 0
    capsys.readouterr()
    assert run_import(load_settings(), STRONG, user=USER, unit="kg") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == [
        f"strong_history.csv: 114 workouts imported for {USER}, 0 already present",
        "skipped 3 workouts already imported from notes",
    ]
    got = totals()
    # The notes' sets, once: no warm-up on 03-02 and 03-07, the deadlift warm-up as the note wrote it.
    assert got["2021-03-02"] == (7, 1128.0)
    assert got["2021-03-07"] == (3, 1200.0)
    assert got["2021-03-12"] == (3, 1215.0)
    assert got["2021-03-17"] == (8 + 5, 1528.0 + 2500.0)
