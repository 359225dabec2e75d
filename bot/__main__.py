"""``python -m bot [console|telegram|slack]`` — start Almanac.

With no mode given, Almanac picks the chat platform whose token is set, and
the console chat when none is.
"""

from __future__ import annotations

import argparse

from bot.config import Settings, load_settings
from bot.data_cli import add_commands as add_data_commands
from bot.data_cli import run as run_data_command
from bot.knowledge_cli import add_commands as add_knowledge_commands
from bot.knowledge_cli import run as run_knowledge_command
from bot.privacy import private_by_default
from bot.vocab_cli import add_commands as add_vocab_commands
from bot.vocab_cli import run as run_vocab_command


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot", description="Almanac, your training-log expert.")
    sub = p.add_subparsers(dest="mode")
    console = sub.add_parser("console", help="chat in this terminal")
    console.add_argument("--name", default=None, help="who you are (default: your login name)")
    console.add_argument(
        "--steps", action="store_true", help="print each step of a turn on its own line when output is not a terminal"
    )
    sub.add_parser("telegram", help="run the Telegram bot (TELEGRAM_BOT_TOKEN)")
    sub.add_parser("slack", help="run the Slack app (SLACK_BOT_TOKEN)")
    sub.add_parser(
        "worker", help="run turns that receivers recorded in the shared database (DATABASE_URL; any number of them)"
    )
    sub.add_parser("migrate", help="bring the database's schema up to date, then exit (safe with several at once)")
    add_data_commands(sub)  # import, export
    add_vocab_commands(sub)  # vocab unknown, search
    add_knowledge_commands(sub)  # ingest, retrieve
    sub.add_parser(
        "doctor",
        help="check the database (DATABASE_URL), Ollama and the configured models, one line each with its fix "
        "(exit 1: a check failed)",
    )
    return p


def _mode(args: argparse.Namespace, settings: Settings) -> str:
    if args.mode:
        return str(args.mode)
    if settings.telegram_bot_token is not None:
        return "telegram"
    if settings.slack_bot_token is not None:
        return "slack"
    return "console"


def main(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m bot`` and the ``almanac`` script."""
    private_by_default()  # first: every file of every mode (and of the Slack gateway) is 0600
    args = _parser().parse_args(argv)
    if args.mode in ("import", "export"):
        raise SystemExit(run_data_command(args))
    if args.mode in ("vocab", "search"):
        raise SystemExit(run_vocab_command(args))
    if args.mode in ("ingest", "retrieve"):
        raise SystemExit(run_knowledge_command(args))
    if args.mode == "doctor":
        from bot.doctor import run as run_doctor  # imported once chosen, as the platforms: --help stays quick

        raise SystemExit(run_doctor(args))
    settings = load_settings()
    mode = _mode(args, settings)
    if mode in ("worker", "migrate"):
        from bot.run_worker import main as run_worker

        run_worker(settings, mode)
        return
    # Platform modules are imported only once chosen: ``--help`` and the data commands stay quick.
    if mode == "telegram":
        from bot.run_telegram import main as run_telegram

        run_telegram(settings)  # logs to stderr: the terminal is not a chat here
        return
    if mode == "slack":
        from bot.run_slack import main as run_slack

        run_slack(settings)  # logs to stderr, as Telegram
        return
    from bot.run_console import main as run_console

    run_console(settings, getattr(args, "name", None), steps=getattr(args, "steps", False))


if __name__ == "__main__":
    main()
