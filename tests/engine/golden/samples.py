"""The export samples of ``tests/data`` the golden-history tests import, and how they import one."""

from __future__ import annotations

from pathlib import Path

from engine import EngineConfig, Logbook
from engine.importers.files import FileImport

DATA = Path(__file__).resolve().parents[2] / "data"
USER = "console:kim"


async def import_sample(data_dir: Path, name: str) -> FileImport:
    """Import ``tests/data/<name>`` for ``USER`` into ``data_dir``, as ``almanac import`` does."""
    imported = await Logbook.open(EngineConfig(data_dir=data_dir)).import_file(USER, DATA / name)
    assert imported is not None, name
    return imported
