"""Chart files under ``DATA_DIR/charts/``: written atomically, and pruned so the folder never grows
without bound.

Pruning, after every write: files older than `MAX_AGE` (7 days) are deleted, and
of the rest only the newest `MAX_FILES` (200) are kept. A chart outcome names
its file, so an adapter can still send it after a restart within those bounds;
a week-old chart is redrawn by asking again.
"""

from __future__ import annotations

import os
import re
import time
import uuid
from pathlib import Path

import structlog

log = structlog.get_logger("engine.charts")

MAX_AGE = 7 * 24 * 3600
"""Seconds a chart file is kept."""
MAX_FILES = 200
"""Chart files kept at most (the newest)."""
_SLUG = re.compile(r"[^a-z0-9]+")


def charts_dir(data_dir: Path) -> Path:
    """Where chart files go: ``DATA_DIR/charts``."""
    return data_dir / "charts"


def write_chart(out_dir: Path, name: str, png: bytes, *, now: float | None = None) -> Path:
    """Write ``png`` under a unique name (``<name>-<random>.png``), atomically, and prune the folder.

    A reader (an adapter sending the file) never sees half a file: the bytes go to a temporary file
    in the same folder first, then ``os.replace`` puts it in place.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    slug = _SLUG.sub("-", name.lower()).strip("-")[:40] or "chart"
    path = out_dir / f"{slug}-{uuid.uuid4().hex[:12]}.png"
    tmp = path.with_suffix(".png.tmp")
    with open(tmp, "wb") as f:
        f.write(png)
    os.replace(tmp, path)
    prune(out_dir, now=now)
    return path


def prune(out_dir: Path, *, now: float | None = None, max_age: float = MAX_AGE, keep: int = MAX_FILES) -> list[Path]:
    """Delete chart files older than ``max_age`` seconds, then all but the newest ``keep``; returns those deleted.

    Left-over temporary files (a write cut off by a crash) age out the same way.
    """
    now = time.time() if now is None else now
    found: list[tuple[float, Path]] = []
    with os.scandir(out_dir) as it:
        for e in it:
            if e.is_file() and (e.name.endswith(".png") or e.name.endswith(".png.tmp")):
                found.append((e.stat().st_mtime, Path(e.path)))
    found.sort(reverse=True)
    gone = [p for i, (mtime, p) in enumerate(found) if now - mtime > max_age or i >= keep]
    for p in gone:
        try:
            p.unlink()
        except FileNotFoundError:  # another prune got there first
            pass
    if gone:
        log.info("charts.pruned", deleted=len(gone), kept=len(found) - len(gone))
    return gone
