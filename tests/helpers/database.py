"""The application database as the command line opens it, for tests that drive the command line."""

from __future__ import annotations

from bot.config import load_settings
from engine.store.db import Database


async def settings_database() -> Database:
    """``DATABASE_URL``'s Postgres when it is set, else the SQLite file under ``DATA_DIR`` (the caller closes it)."""
    config = load_settings().engine_config()
    return await Database.open_either(config.database, config.entries_db)
