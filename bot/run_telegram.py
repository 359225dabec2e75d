"""``python -m bot telegram``: settings → engine → python-telegram-bot application → polling or webhook."""

from __future__ import annotations

import asyncio
import signal
from typing import Any
from urllib.parse import urlparse

import structlog
from telegram.error import InvalidToken, NetworkError
from telegram.ext import Application

from adapters.telegram import TelegramAdapter
from adapters.telegram_retry import Retrying
from bot.config import Settings, fail
from bot.logs import SecretMasker, configure_logging

log = structlog.get_logger("bot")

App = Application[Any, Any, Any, Any, Any, Any]
ALLOWED_UPDATES = ["message", "callback_query"]
"""All Almanac reads; Telegram does not even send the rest."""


class TelegramSetupError(Exception):
    """The bot cannot start: a bad token, or the Bot API out of reach."""


def file_base_url(base_url: str) -> str:
    """The file-download base next to a Bot API base (``…/bot`` → ``…/file/bot``)."""
    root = base_url.rstrip("/")
    return (root.removesuffix("/bot") if root.endswith("/bot") else root) + "/file/bot"


def build_application(token: str, base_url: str, adapter: TelegramAdapter, retrying: Retrying | None = None) -> App:
    """A python-telegram-bot application talking to ``base_url``, with the adapter's handlers.

    Args:
        retrying: the retry policy and in-flight bound (tests pass a fast one).
    """
    retrying = retrying or Retrying()
    app = (
        Application.builder()
        .token(token)
        .base_url(base_url)
        .base_file_url(file_base_url(base_url))
        # Handlers only queue work (see adapters/telegram.py), so updates are
        # dispatched one at a time — in order — and chats still run concurrently.
        .concurrent_updates(False)
        .rate_limiter(retrying)
        # The retrier bounds requests in flight; the pool matches it, so requests never queue in httpx.
        .connection_pool_size(retrying.max_in_flight)
        .pool_timeout(30.0)
        .build()
    )
    adapter.install(app)
    return app


async def start(app: App, adapter: TelegramAdapter, base_url: str) -> None:
    """Initialize (getMe: checks the token), register the command menu and start dispatching.

    Raises:
        TelegramSetupError: the token is rejected or the Bot API cannot be reached.
    """
    try:
        await app.initialize()
    except InvalidToken:
        raise TelegramSetupError("Telegram rejected TELEGRAM_BOT_TOKEN; copy it again from @BotFather") from None
    except NetworkError as exc:
        raise TelegramSetupError(f"cannot reach the Telegram Bot API at {base_url}: {exc}") from None
    await adapter.register_commands(app.bot)
    await app.start()


async def stop(app: App, adapter: TelegramAdapter, drain_s: float = 30.0) -> None:
    """Stop fetching updates, let queued turns finish, then stop and shut down."""
    if app.updater is not None and app.updater.running:
        await app.updater.stop()
    await adapter.drain(drain_s)
    if app.running:
        await app.stop()
    await app.shutdown()


async def serve(settings: Settings, stopped: asyncio.Event) -> None:
    """Run the bot until ``stopped`` is set: long polling, or a webhook server when a URL is set."""
    from engine import Engine

    assert settings.telegram_bot_token is not None
    base_url = settings.telegram_api_base_url
    async with Engine.open(settings.engine_config()) as engine:
        adapter = TelegramAdapter(engine, allowed_users=settings.allowed_users)
        app = build_application(settings.telegram_bot_token.get_secret_value(), base_url, adapter)
        try:
            await start(app, adapter, base_url)
            assert app.updater is not None
            url = settings.telegram_webhook_url
            if url:
                secret = settings.telegram_webhook_secret
                assert secret is not None  # Settings requires it with a URL
                await app.updater.start_webhook(
                    listen=settings.telegram_webhook_listen,
                    port=settings.telegram_webhook_port,
                    url_path=urlparse(url).path.strip("/"),
                    webhook_url=url,
                    # Telegram sends it in X-Telegram-Bot-Api-Secret-Token; other requests get 403.
                    secret_token=secret.get_secret_value(),
                    allowed_updates=ALLOWED_UPDATES,
                )
            else:
                await app.updater.start_polling(allowed_updates=ALLOWED_UPDATES)
            log.info("telegram.started", mode="webhook" if url else "polling", bot=app.bot.username)
            await stopped.wait()
        finally:
            await stop(app, adapter)


async def _run(settings: Settings) -> None:
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopped.set)
    await serve(settings, stopped)


def main(settings: Settings) -> None:
    """Run Almanac on Telegram; log lines go to stderr. Bad set-up stops with one line (exit code 2)."""
    from engine import DataDirError, DomainFileError, check_writable

    if settings.telegram_bot_token is None:
        fail("TELEGRAM_BOT_TOKEN is not set; create a bot with @BotFather and put its token there")
    try:
        check_writable(settings.data_dir)
    except DataDirError as exc:
        fail(str(exc))
    configure_logging(settings.log_format, settings.log_level, settings.secrets())
    log.info("start", mode="telegram", data_dir=str(settings.data_dir))
    try:
        asyncio.run(_run(settings))
    except TelegramSetupError as exc:
        # Error texts from the HTTP layer may carry a URL; the token must not reach the terminal.
        fail(SecretMasker(settings.secrets()).mask(str(exc)))
    except (DataDirError, DomainFileError) as exc:
        fail(str(exc))
