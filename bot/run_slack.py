"""``python -m bot slack``: settings → engine → `adapters.slack.serve` (Socket Mode or HTTP mode)."""

from __future__ import annotations

import asyncio
import sys

from adapters import slack
from bot.config import Settings, fail
from bot.runner import run, until_stopped
from engine import Engine


def http(settings: Settings) -> slack.Http | None:
    """HTTP mode's listener and signing secret when ``SLACK_MODE=http``; None = Socket Mode."""
    if settings.slack_mode != "http":
        return None
    assert settings.slack_signing_secret is not None  # Settings requires it in HTTP mode
    return slack.Http(
        signing_secret=settings.slack_signing_secret.get_secret_value(),
        host=settings.slack_http_listen,
        port=settings.slack_http_port,
    )


async def serve(settings: Settings, stopped: asyncio.Event) -> None:
    """Open the engine and run the Slack app until ``stopped`` is set."""
    assert settings.slack_bot_token is not None
    app_token = settings.slack_app_token
    async with Engine.open(settings.engine_config()) as engine:
        await slack.serve(
            engine,
            token=settings.slack_bot_token.get_secret_value(),
            base_url=settings.slack_api_base_url,
            data_dir=settings.data_dir,
            stopped=stopped,
            app_token=app_token.get_secret_value() if app_token is not None else None,
            http=http(settings),
            command=settings.slack_command,
            allowed_teams=settings.slack_allowed_teams,
            allowed_users=settings.allowed_users,
            log_format=settings.log_format,
            log_level=settings.log_level,
            database_url=settings.database_url.get_secret_value() if settings.database_url else None,
            slots=settings.worker_slots,
        )


def main(settings: Settings) -> None:
    """Run Almanac on Slack; log lines go to stderr. Bad set-up stops with one line (exit code 2)."""
    if settings.slack_bot_token is None:
        fail("SLACK_BOT_TOKEN is not set; install the app from slack/manifest.yml and copy its xoxb- token")
    if settings.slack_mode == "socket" and settings.slack_app_token is None:
        fail(
            "SLACK_APP_TOKEN is not set; create an app-level token (xapp-…) with connections:write, "
            "or use SLACK_MODE=http with SLACK_SIGNING_SECRET"
        )
    try:
        run(settings, "slack", lambda: until_stopped(lambda stopped: serve(settings, stopped)))
    except slack.GatewayExited as exc:
        # Not a set-up problem (exit 2): a supervisor should start Almanac again, and the
        # requests the gateway acknowledged run then.
        print(f"almanac: {exc}; start Almanac again (acknowledged requests are kept and will run)", file=sys.stderr)
        raise SystemExit(1) from None
