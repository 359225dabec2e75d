"""``python -m bot console``: a chat in this terminal for one person (``console:<name>``)."""

from __future__ import annotations

import getpass
import re
from pathlib import Path

from adapters.console import ConsoleChat
from bot.config import Settings
from bot.runner import run
from engine import Engine


def console_name(given: str | None) -> str:
    """Who is chatting: the name given, else the login name; safe for a user key."""
    name = given
    if not name:
        try:
            name = getpass.getuser()
        except (KeyError, OSError):
            name = "me"
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:40] or "me"


async def chat(settings: Settings, name: str, steps: bool = False) -> None:
    """Open the engine and chat until ``/quit`` or the end of input; exports land in the working directory."""
    async with Engine.open(settings.engine_config()) as engine:
        await ConsoleChat(engine, name, export_dir=Path.cwd(), steps=steps).run()


def main(settings: Settings, name: str | None, steps: bool = False) -> None:
    """Run the console chat; log lines go to ``almanac.log`` in the data directory (the chat owns the terminal).

    ``steps``: a turn's steps one per line where the output is not a terminal (a terminal always sees them).
    """
    person = console_name(name)
    run(settings, "console", lambda: chat(settings, person, steps), log_file=settings.data_dir / "almanac.log")
