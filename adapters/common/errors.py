"""The one error type an adapter raises for the runner to report."""

from __future__ import annotations


class SetupError(Exception):
    """The platform will not let the bot start: a rejected token, an unreachable API.

    ``bot/runner.py`` turns it into one line on stderr and exit code 2, with
    secrets masked; its message says what to fix (``Telegram rejected
    TELEGRAM_BOT_TOKEN; copy it again from @BotFather``). Anything else that
    escapes an adapter is a bug and keeps its traceback.
    """
