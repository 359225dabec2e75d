"""The bolt app around the adapter: Web API clients, token checks, Socket Mode or HTTP mode, `serve`.

Socket Mode is the default: the app opens a WebSocket to Slack with the
app-level token, so it needs no public URL and works behind NAT. HTTP mode
serves ``/slack/events`` (bolt checks each request's signature and
timestamp with the signing secret) for a deployment behind a load balancer.
Either way the bolt app runs on the `Intake` loop; turns run on the caller's.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import structlog
from aiohttp import web
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp
from slack_bolt.authorization import AuthorizeResult
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from adapters.common import SetupError
from adapters.slack.adapter import SlackAdapter
from adapters.slack.intake import Intake
from adapters.slack.store import SlackStore
from engine import Handler

log = structlog.get_logger("adapters.slack")
EVENTS_PATH = "/slack/events"
STORE_FILE = "slack.db"


@dataclass(frozen=True)
class Http:
    """HTTP mode: where the events endpoint listens, and the secret requests are signed with."""

    signing_secret: str
    host: str = "0.0.0.0"
    port: int = 3000


@dataclass(frozen=True)
class Running:
    """A started app: the adapter, and in HTTP mode the port it listens on (useful with ``port=0``)."""

    adapter: SlackAdapter
    port: int | None


def web_client(token: str | None, base_url: str, session: aiohttp.ClientSession | None = None) -> AsyncWebClient:
    """The Web API client: ``base_url`` (a local server in tests), 429s and dropped connections retried.

    The rate-limit handler waits as long as ``Retry-After`` says; the others
    retry at once, then with backoff. One ``session`` keeps connections open
    across calls (it belongs to the loop that created it).
    """
    return AsyncWebClient(
        token=token,
        base_url=base_url.rstrip("/") + "/",
        session=session,
        retry_handlers=[
            AsyncRateLimitErrorRetryHandler(max_retry_count=3),
            AsyncConnectionErrorRetryHandler(max_retry_count=3),
            AsyncServerErrorRetryHandler(max_retry_count=1),
        ],
    )


async def check_token(client: AsyncWebClient, base_url: str) -> str:
    """``auth.test``: Almanac's own member id.

    Raises:
        SetupError: the token is rejected, or the Web API cannot be reached.
    """
    try:
        auth = await client.auth_test()
    except SlackApiError as exc:
        raise SetupError(
            f"Slack rejected SLACK_BOT_TOKEN ({exc.response.get('error')}); copy the Bot User OAuth Token "
            "(xoxb-…) from your app's OAuth & Permissions page"
        ) from None
    except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as exc:
        raise SetupError(f"cannot reach the Slack Web API at {base_url}: {exc}") from None
    return str(auth["user_id"])


async def check_app_token(client: AsyncWebClient, app_token: str) -> None:
    """``apps.connections.open`` once, so that a bad app-level token stops start-up.

    The Socket Mode client itself would log the refusal and retry forever.

    Raises:
        SetupError: the app-level token is rejected.
    """
    try:
        await client.apps_connections_open(app_token=app_token)
    except SlackApiError as exc:
        raise SetupError(
            f"Slack rejected SLACK_APP_TOKEN ({exc.response.get('error')}); create an app-level token "
            "(xapp-…) with connections:write under Basic Information → App-Level Tokens"
        ) from None


def build_app(
    adapter: SlackAdapter, client: AsyncWebClient, token: str, bot_user: str, signing_secret: str | None
) -> AsyncApp:
    """A bolt ``AsyncApp`` with the adapter's listeners.

    Args:
        client: a Web API client without a token: bolt hands listeners a copy with ``token``.
        token: the bot token, checked at start-up (`check_token`).
        bot_user: Almanac's member id, from that check.
        signing_secret: HTTP mode's secret (requests without a valid signature get 401);
            None in Socket Mode, where the WebSocket itself is authenticated.
    """

    async def authorize(**_: object) -> AuthorizeResult:
        # One workspace and one token, checked at start-up: no auth.test per request.
        return AuthorizeResult(enterprise_id=None, team_id=None, bot_user_id=bot_user, bot_token=token)

    app = AsyncApp(
        client=client,
        authorize=authorize,
        signing_secret=signing_secret or "",
        request_verification_enabled=signing_secret is not None,
        # Listeners only record and queue; the response waits for that, so Slack's ack
        # always follows the durable write (and never the model).
        process_before_response=True,
        # Built-in middlewares for features Almanac does not use (assistant threads, workflow
        # functions): each costs every request some work on the intake thread.
        attaching_conversation_kwargs_enabled=False,
        attaching_function_token_enabled=False,
        ignoring_self_assistant_message_events_enabled=False,
    )
    adapter.install(app, bot_user)
    return app


class _Receiver:
    """What runs on the intake loop: its own HTTP session and Web API client, the app, its server."""

    def __init__(self) -> None:
        self.stack = AsyncExitStack()

    async def start(
        self, adapter: SlackAdapter, token: str, base_url: str, bot_user: str, http: Http | None,
        app_token: str | None,
    ) -> int | None:
        session = aiohttp.ClientSession()
        self.stack.push_async_callback(session.close)
        client = web_client(None, base_url, session)
        app = build_app(adapter, client, token, bot_user, http.signing_secret if http is not None else None)
        if http is not None:
            runner = web.AppRunner(app.web_app(path=EVENTS_PATH), access_log=None)
            await runner.setup()
            self.stack.push_async_callback(runner.cleanup)
            await web.TCPSite(runner, http.host, http.port).start()
            # aiohttp keeps the listening sockets on the runner; port 0 asked the OS for a free one.
            return int(runner.addresses[0][1])
        assert app_token is not None
        await check_app_token(client, app_token)
        handler = AsyncSocketModeHandler(app, app_token=app_token, web_client=client)
        self.stack.push_async_callback(handler.close_async)
        await handler.connect_async()  # type: ignore[no-untyped-call]
        return None

    async def stop(self) -> None:
        await self.stack.aclose()


@asynccontextmanager
async def running(
    engine: Handler,
    *,
    token: str,
    base_url: str,
    data_dir: Path,
    http: Http | None = None,
    app_token: str | None = None,
    command: str = "/almanac",
    allowed_teams: Iterable[str] = (),
    allowed_users: Iterable[str] = (),
    eyes_after: float = 1.0,
) -> AsyncIterator[Running]:
    """Check the tokens, open ``slack.db``, start receiving and queue what a crash left; stop and drain on exit.

    Raises:
        SetupError: a rejected token, an unreachable Web API, or neither mode configured.
    """
    if http is None and not app_token:
        raise SetupError("set SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET with SLACK_MODE=http")
    async with AsyncExitStack() as stack:
        session = aiohttp.ClientSession()
        stack.push_async_callback(session.close)
        client = web_client(token, base_url, session)
        bot_user = await check_token(client, base_url)
        store = await SlackStore.open(data_dir / STORE_FILE)
        stack.push_async_callback(store.close)
        adapter = SlackAdapter(
            engine, store, client, command=command, allowed_teams=allowed_teams, allowed_users=allowed_users,
            eyes_after=eyes_after,
        )
        intake = Intake()
        stack.callback(intake.close)
        receiver = _Receiver()
        # Last in, first out: stop receiving, then let queued turns finish, then close the rest.
        stack.push_async_callback(adapter.drain, 30.0)
        stack.push_async_callback(intake.run, receiver.stop())
        # What a crash left is queued before anything new can arrive (and be counted twice).
        await adapter.recover()
        port = await intake.run(receiver.start(adapter, token, base_url, bot_user, http, app_token))
        log.info("slack.started", mode="http" if http is not None else "socket", port=port)
        yield Running(adapter, port)


async def serve(
    engine: Handler,
    *,
    token: str,
    base_url: str,
    data_dir: Path,
    stopped: asyncio.Event,
    app_token: str | None = None,
    http: Http | None = None,
    command: str = "/almanac",
    allowed_teams: Iterable[str] = (),
    allowed_users: Iterable[str] = (),
) -> None:
    """Run the Slack app until ``stopped`` is set: Socket Mode with ``app_token``, else HTTP mode.

    Raises:
        SetupError: a rejected token, an unreachable Web API, or neither mode configured.
    """
    async with running(
        engine, token=token, base_url=base_url, data_dir=data_dir, http=http, app_token=app_token,
        command=command, allowed_teams=allowed_teams, allowed_users=allowed_users,
    ):
        await stopped.wait()
