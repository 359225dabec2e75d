"""``python -m bot [console|telegram|slack]`` — start Almanac.

With no mode given, Almanac picks the chat platform whose token is set, and
the console chat when none is.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import re
import sys
from pathlib import Path

import structlog

from bot.config import Settings, fail, load_settings
from bot.data_cli import add_commands as add_data_commands
from bot.data_cli import run as run_data_command
from bot.logs import configure_logging


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot", description="Almanac, your training-log expert.")
    sub = p.add_subparsers(dest="mode")
    console = sub.add_parser("console", help="chat in this terminal")
    console.add_argument("--name", default=None, help="who you are (default: your login name)")
    sub.add_parser("telegram", help="run the Telegram bot (TELEGRAM_BOT_TOKEN)")
    sub.add_parser("slack", help="run the Slack app (SLACK_BOT_TOKEN)")
    add_data_commands(sub)  # import, export
    return p


def _mode(args: argparse.Namespace, settings: Settings) -> str:
    if args.mode:
        return str(args.mode)
    if settings.telegram_bot_token is not None:
        return "telegram"
    if settings.slack_bot_token is not None:
        return "slack"
    return "console"


def _console_name(given: str | None) -> str:
    name = given
    if not name:
        try:
            name = getpass.getuser()
        except (KeyError, OSError):
            name = "me"
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:40] or "me"


async def _run_console(settings: Settings, name: str) -> None:
    from adapters.console import ConsoleChat
    from engine import Engine

    async with Engine.open(settings.engine_config()) as engine:
        await ConsoleChat(engine, name, export_dir=Path.cwd()).run()


def main(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m bot`` and the ``almanac`` script."""
    args = _parser().parse_args(argv)
    if args.mode in ("import", "export"):
        raise SystemExit(run_data_command(args))
    settings = load_settings()
    mode = _mode(args, settings)
    if mode == "telegram":
        from bot.run_telegram import main as run_telegram

        run_telegram(settings)  # logs to stderr: the terminal is not a chat here
        return
    if mode == "slack":
        fail(
            f"the {mode} adapter is not part of this version yet; "
            f"unset {mode.upper()}_BOT_TOKEN to chat in the console (python -m bot console)"
        )

    from engine import DataDirError, DomainFileError, check_writable

    try:
        check_writable(settings.data_dir)
    except DataDirError as exc:
        fail(str(exc))
    # The console owns the terminal, so its log lines go to a file beside the data.
    log_file = open(settings.data_dir / "almanac.log", "a", encoding="utf-8")  # noqa: SIM115
    configure_logging(settings.log_format, settings.log_level, settings.secrets(), stream=log_file)
    structlog.get_logger("bot").info("start", mode=mode, data_dir=str(settings.data_dir))
    try:
        asyncio.run(_run_console(settings, _console_name(getattr(args, "name", None))))
    except (DataDirError, DomainFileError) as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        print("\nbye", file=sys.stderr)
    finally:
        log_file.close()


if __name__ == "__main__":
    main()
