"""App wiring: a python-telegram-bot application around the adapter, started by polling or a webhook.

``bot/run_telegram.py`` reads the settings, opens the engine and calls `serve`;
tests and the load benchmark use `build_application`, `start` and `stop`
directly against the fake Bot API.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

import structlog
from telegram.error import InvalidToken, NetworkError
from telegram.ext import Application
from telegram.request import HTTPXRequest

from adapters.common import SetupError
from adapters.common.claims import ClaimLoop
from adapters.telegram import webhook_server
from adapters.telegram.adapter import TelegramAdapter
from adapters.telegram.intake import SOURCE, RecordingBot, RecordingQueue, replay
from adapters.telegram.retry import Retrying
from engine import Handler, SharedDeliveries

log = structlog.get_logger("adapters.telegram")

App = Application[Any, Any, Any, Any, Any, Any]
ALLOWED_UPDATES = ["message", "callback_query"]
"""All Almanac reads; Telegram does not even send the rest."""


class TelegramSetupError(SetupError):
    """The bot cannot start: a bad token, or the Bot API out of reach."""


@dataclass(frozen=True)
class Webhook:
    """Where Telegram delivers updates in webhook mode, and the secret it sends along."""

    url: str
    """The public HTTPS URL registered with Telegram; its path is the path served."""
    secret: str
    """Sent by Telegram in ``X-Telegram-Bot-Api-Secret-Token``; requests without it get 403."""
    listen: str = "0.0.0.0"
    port: int = 8443


def file_base_url(base_url: str) -> str:
    """The file-download base next to a Bot API base (``…/bot`` → ``…/file/bot``)."""
    root = base_url.rstrip("/")
    return (root.removesuffix("/bot") if root.endswith("/bot") else root) + "/file/bot"


def build_application(
    token: str,
    base_url: str,
    adapter: TelegramAdapter,
    retrying: Retrying | None = None,
    claims: ClaimLoop | None = None,
) -> App:
    """A python-telegram-bot application talking to ``base_url``, with the adapter's handlers.

    Args:
        retrying: the retry policy and in-flight bound (tests pass a fast one).
        claims: with several workers, what runs the recorded updates (they are not queued here).
    """
    retrying = retrying or Retrying()
    # getUpdates records each batch before the updater may confirm it (adapters/telegram/intake.py).
    bot = RecordingBot(
        token,
        base_url=base_url,
        base_file_url=file_base_url(base_url),
        # The retrier bounds requests in flight; the pool matches it, so requests never queue in httpx.
        request=HTTPXRequest(connection_pool_size=retrying.max_in_flight, pool_timeout=30.0),
        get_updates_request=HTTPXRequest(connection_pool_size=1),
        rate_limiter=retrying,
        record=adapter.record,
    )
    app = (
        Application.builder()
        .bot(bot)
        # Recorded before the 200 (webhook) or before the next offset (polling, through getUpdates).
        .update_queue(
            RecordingQueue(adapter.record, shared=claims is not None, recorded=claims.wake if claims else None)
        )
        # Handlers only queue work (see adapters/telegram/adapter.py), so updates are
        # dispatched one at a time — in order — and chats still run concurrently.
        .concurrent_updates(False)
        .build()
    )
    adapter.install(app)
    return app


async def start(app: App, adapter: TelegramAdapter, base_url: str, claims: ClaimLoop | None = None) -> None:
    """Initialize (getMe: checks the token), register the command menu, dispatch again what a
    crash left unhandled (before anything new, so each chat keeps its order), start dispatching, and
    start sending reminders as they fall due.

    With several workers (``claims``), what is unhandled is claimed like everything else, and the
    reminders are sent by the one process elected for it.

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
    if claims is None:
        for update in await replay(adapter.intake, app.bot):
            await app.process_update(update)
    await app.start()
    if claims is None:
        adapter.start_reminders(app.bot)  # those a crash left claimed go first
    else:
        claims.start()
        adapter.start_reminders(app.bot, when_leading="scheduler")


async def stop(app: App, adapter: TelegramAdapter, drain_s: float = 30.0, claims: ClaimLoop | None = None) -> None:
    """Stop fetching updates and sending reminders, let queued turns finish, then stop and shut down."""
    await adapter.stop_reminders()
    if app.updater is not None and app.updater.running:
        await app.updater.stop()
    if claims is not None:
        await claims.stop(drain_s)
    await adapter.drain(drain_s)
    if app.running:
        await app.stop()
    await app.shutdown()


async def serve(
    engine: Handler,
    *,
    token: str,
    base_url: str,
    stopped: asyncio.Event,
    allowed_users: Iterable[str] = (),
    webhook: Webhook | None = None,
    receive: bool = True,
    slots: int = 8,
) -> None:
    """Run the bot until ``stopped`` is set: long polling, or a webhook server when one is given.

    With several workers on one database (the engine's deliveries are shared) every process runs
    turns claimed from it; one process at a time polls (elected), while every webhook replica
    receives. ``receive=False`` is a worker only (``python -m bot worker``).

    Args:
        engine: the engine (anything with ``handle``), opened by the caller.
        token: the bot token from @BotFather.
        base_url: the Bot API base (``TELEGRAM_API_BASE_URL``).
        stopped: set it to stop; queued turns are drained first.
        allowed_users: Telegram user ids allowed to use the bot; empty = everyone.
        webhook: webhook mode's address and secret; None = long polling.
        receive: take deliveries from Telegram (False: only run what receivers recorded).
        slots: with several workers, the conversations this process runs at once (``WORKER_SLOTS``).

    Raises:
        TelegramSetupError: the token is rejected or the Bot API cannot be reached.
    """
    adapter = TelegramAdapter(engine, allowed_users=allowed_users)
    shared = engine if isinstance(engine, SharedDeliveries) and engine.shared else None
    claims = ClaimLoop(shared, adapter.intake, SOURCE, adapter.dispatch_recorded, slots=slots) if shared else None
    app = build_application(token, base_url, adapter, claims=claims)
    server, polling = None, None
    try:
        await start(app, adapter, base_url, claims)
        assert app.updater is not None
        if not receive:
            pass
        elif webhook is not None:
            # Our server, not the updater's: a body that is no Update gets 400 and one log line.
            server = webhook_server.listen(
                app.bot,
                app.update_queue,
                path=urlparse(webhook.url).path,
                secret=webhook.secret,
                host=webhook.listen,
                port=webhook.port,
            )
            await app.bot.set_webhook(webhook.url, secret_token=webhook.secret, allowed_updates=ALLOWED_UPDATES)
        elif shared is None:
            await app.updater.start_polling(allowed_updates=ALLOWED_UPDATES)
        else:  # one poller among the processes: Telegram answers a second getUpdates with 409
            polling = asyncio.create_task(_poll_when_leading(app, shared), name="telegram-poll")
        mode = "worker" if not receive else "webhook" if webhook else "polling"
        log.info("telegram.started", mode=mode, shared=claims is not None, bot=app.bot.username)
        await stopped.wait()
    finally:
        if polling is not None:
            polling.cancel()
        if server is not None:
            await webhook_server.close(server)
        await stop(app, adapter, claims=claims)


async def _poll_when_leading(app: App, engine: SharedDeliveries, every_s: float = 2.0) -> None:
    """Start the long poll once this process is elected for it (at once, or when the poller dies)."""
    while not await engine.lead("telegram-poll"):
        await asyncio.sleep(every_s)
    assert app.updater is not None
    await app.updater.start_polling(allowed_updates=ALLOWED_UPDATES)
