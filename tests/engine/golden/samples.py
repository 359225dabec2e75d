"""The export samples of ``tests/data`` the golden-history tests import, and how they import one."""

from __future__ import annotations

from pathlib import Path

from engine import EngineConfig, Logbook
from engine.importers.files import FileImport

DATA = Path(__file__).resolve().parents[2] / "data"
USER = "console:kim"


async def import_sample(into: Path | EngineConfig, name: str) -> FileImport:
    """Import ``tests/data/<name>`` for ``USER`` into a data folder or an engine's store, as ``almanac import`` does."""
    config = into if isinstance(into, EngineConfig) else EngineConfig(data_dir=into)
    imported = await Logbook.open(config).import_file(USER, DATA / name)
    assert imported is not None, name
    return imported
