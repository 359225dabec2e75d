"""Chart files: unique names, atomic writes, and a folder pruned by age (7 days) and count (200)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from engine.charts.files import MAX_FILES, prune, write_chart


def test_each_chart_gets_its_own_file(tmp_path: Path) -> None:
    a = write_chart(tmp_path / "charts", "lift-bench press", b"one")
    b = write_chart(tmp_path / "charts", "lift-bench press", b"two")
    assert a != b and a.parent == b.parent == tmp_path / "charts"
    assert a.name.startswith("lift-bench-press-") and a.suffix == ".png"
    assert a.read_bytes() == b"one" and b.read_bytes() == b"two"
    assert sorted(p.suffix for p in a.parent.iterdir()) == [".png", ".png"]  # no temporary file left


def test_old_files_and_those_past_the_limit_are_deleted(tmp_path: Path) -> None:
    now = time.time()
    old = tmp_path / "old.png"
    old.write_bytes(b"x")
    os.utime(old, (now - 8 * 86400, now - 8 * 86400))
    stray = tmp_path / "cut-off.png.tmp"
    stray.write_bytes(b"x")
    os.utime(stray, (now - 9 * 86400, now - 9 * 86400))
    other = tmp_path / "notes.txt"
    other.write_bytes(b"keep")
    for i in range(MAX_FILES + 5):
        p = tmp_path / f"c{i:03d}.png"
        p.write_bytes(b"x")
        os.utime(p, (now - 3600 + i, now - 3600 + i))  # c000 oldest
    gone = prune(tmp_path, now=now)
    assert {p.name for p in gone} == {"old.png", "cut-off.png.tmp", *(f"c{i:03d}.png" for i in range(5))}
    left = sorted(p.name for p in tmp_path.iterdir())
    assert len(left) == MAX_FILES + 1 and left[0] == "c005.png" and "notes.txt" in left
