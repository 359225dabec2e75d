"""``python -m bot worker`` and ``python -m bot migrate``: the processes of a deployment past one machine.

A worker runs the turns that receivers (``python -m bot telegram`` with
``DATABASE_URL``) recorded in the shared database, any number of workers on
any machines (`adapters.common.claims`). ``migrate`` brings the schema up to
date and exits: a deployment runs it before starting the rest (every process
also migrates at start, safely, so it is optional).
"""

from __future__ import annotations

from bot.config import Settings, fail
from bot.runner import run, until_stopped
from engine import migrate_storage


async def migrate(settings: Settings) -> None:
    """Apply what the database lacks (Postgres), or make the SQLite files' tables; print what was done."""
    config = settings.engine_config()
    applied = await migrate_storage(config)
    if applied is None:
        print(f"SQLite database {config.entries_db} is up to date (DATABASE_URL is not set)")
    else:
        print(f"applied migrations {', '.join(map(str, applied))}" if applied else "the database is up to date")


def main(settings: Settings, mode: str) -> None:
    """Run a worker, or migrate; bad set-up stops with one line (exit code 2)."""
    if mode == "migrate":
        run(settings, "migrate", lambda: migrate(settings))
        return
    if settings.database_url is None:
        fail("a worker runs turns from a shared database: set DATABASE_URL (alone, run `python -m bot telegram`)")
    if settings.telegram_bot_token is None:
        fail("TELEGRAM_BOT_TOKEN is not set: a worker sends its answers through the Telegram bot")
    from bot.run_telegram import serve  # the Telegram adapter loads only for a worker, not for migrate

    run(settings, "worker", lambda: until_stopped(lambda stopped: serve(settings, stopped, receive=False)))
