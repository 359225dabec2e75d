"""``python -m bot telegram``: settings → engine → `adapters.telegram.serve` (long polling or a webhook)."""

from __future__ import annotations

import asyncio

from adapters import telegram
from bot.config import Settings, fail
from bot.runner import run, until_stopped
from engine import Engine


def webhook(settings: Settings) -> telegram.Webhook | None:
    """Webhook mode's address and secret when ``TELEGRAM_WEBHOOK_URL`` is set; None = long polling."""
    if not settings.telegram_webhook_url:
        return None
    assert settings.telegram_webhook_secret is not None  # Settings requires it with a URL
    return telegram.Webhook(
        url=settings.telegram_webhook_url,
        secret=settings.telegram_webhook_secret.get_secret_value(),
        listen=settings.telegram_webhook_listen,
        port=settings.telegram_webhook_port,
    )


async def serve(settings: Settings, stopped: asyncio.Event, receive: bool = True) -> None:
    """Open the engine and run the bot until ``stopped`` is set (``receive=False``: a worker only)."""
    assert settings.telegram_bot_token is not None
    async with Engine.open(settings.engine_config()) as engine:
        await telegram.serve(
            engine,
            token=settings.telegram_bot_token.get_secret_value(),
            base_url=settings.telegram_api_base_url,
            stopped=stopped,
            allowed_users=settings.allowed_users,
            webhook=webhook(settings),
            receive=receive,
            slots=settings.worker_slots,
        )


def main(settings: Settings) -> None:
    """Run Almanac on Telegram; log lines go to stderr. Bad set-up stops with one line (exit code 2)."""
    if settings.telegram_bot_token is None:
        fail("TELEGRAM_BOT_TOKEN is not set; create a bot with @BotFather and put its token there")
    run(settings, "telegram", lambda: until_stopped(lambda stopped: serve(settings, stopped)))
