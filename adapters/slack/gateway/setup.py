"""Setting up the bolt app in the gateway: the Web API client, the token checks, the app and its listeners."""

from __future__ import annotations

import aiohttp
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
from adapters.slack.gateway.listeners import Listeners


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
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
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
    listeners: Listeners, client: AsyncWebClient, token: str, bot_user: str, signing_secret: str | None
) -> AsyncApp:
    """A bolt ``AsyncApp`` with the gateway's listeners.

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
        # functions): each costs every request some work.
        attaching_conversation_kwargs_enabled=False,
        attaching_function_token_enabled=False,
        ignoring_self_assistant_message_events_enabled=False,
    )
    listeners.install(app, bot_user)
    return app
