"""The export samples of ``tests/data`` the golden-history tests import, and how they import one."""

from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr

from engine import EngineConfig, Logbook
from engine.importers.files import FileImport
from engine.store.db import Database

DATA = Path(__file__).resolve().parents[2] / "data"
USER = "console:kim"


def sample_config(data_dir: Path, database_url: str | None) -> EngineConfig:
    """A data folder, and Postgres when the test runs on it (``database_url`` fixture)."""
    return EngineConfig(data_dir=data_dir, database_url=SecretStr(database_url) if database_url else None)


async def open_database(config: EngineConfig) -> Database:
    """The database ``import_sample(config, …)`` wrote to (the caller closes it)."""
    return await Database.open_either(config.database, config.entries_db)


async def import_sample(into: Path | EngineConfig, name: str) -> FileImport:
    """Import ``tests/data/<name>`` for ``USER`` into a data folder or an engine's store, as ``almanac import`` does."""
    config = into if isinstance(into, EngineConfig) else EngineConfig(data_dir=into)
    imported = await Logbook.open(config).import_file(USER, DATA / name)
    assert imported is not None, name
    return imported
