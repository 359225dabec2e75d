"""``python -m bot worker`` and ``python -m bot migrate``: the processes of a deployment past one machine.

A worker runs the turns that receivers (``python -m bot telegram`` with
``DATABASE_URL``) recorded in the shared database, any number of workers on
any machines (`adapters.common.claims`). ``migrate`` brings the schema up to
date and exits: a deployment runs it before starting the rest (every process
also migrates at start, safely, so it is optional).
"""

from __future__ import annotations

import asyncio

from adapters import telegram
from bot.config import Settings, fail
from bot.runner import run, until_stopped
from engine import Engine, migrate_storage


async def migrate(settings: Settings) -> None:
    """Apply what the database lacks (Postgres), or make the SQLite files' tables; print what was done."""
    config = settings.engine_config()
    applied = await migrate_storage(config)
    if applied is None:
        print(f"SQLite database {config.entries_db} is up to date (DATABASE_URL is not set)")
    else:
        print(f"applied migrations {', '.join(map(str, applied))}" if applied else "the database is up to date")


async def work(settings: Settings, stopped: asyncio.Event) -> None:
    """Open the engine on the shared database and run claimed turns until ``stopped`` is set."""
    assert settings.telegram_bot_token is not None
    async with Engine.open(settings.engine_config()) as engine:
        await telegram.serve(
            engine,
            token=settings.telegram_bot_token.get_secret_value(),
            base_url=settings.telegram_api_base_url,
            stopped=stopped,
            allowed_users=settings.allowed_users,
            receive=False,
            slots=settings.worker_slots,
        )


def main(settings: Settings, mode: str) -> None:
    """Run a worker, or migrate; bad set-up stops with one line (exit code 2)."""
    if mode == "migrate":
        run(settings, "migrate", lambda: migrate(settings))
        return
    if settings.database_url is None:
        fail("a worker runs turns from a shared database: set DATABASE_URL (alone, run `python -m bot telegram`)")
    if settings.telegram_bot_token is None:
        fail("TELEGRAM_BOT_TOKEN is not set: a worker sends its answers through the Telegram bot")
    run(settings, "worker", lambda: until_stopped(lambda stopped: work(settings, stopped)))
