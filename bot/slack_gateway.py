"""``python -m bot.slack_gateway`` — the Slack gateway process, started by ``python -m bot slack`` itself.

Not for running by hand: its standard input and output are the pipe to the
engine's process (`adapters.slack.gateway`), which sends it everything it
needs, settings included, so nothing here reads the environment. This module
only gives it the bot's logging (masked, to stderr, like the parent's).
"""

from __future__ import annotations

from typing import Any

from adapters.slack.gateway import main
from bot.logs import configure_logging


def configure(config: dict[str, Any]) -> None:
    """The parent's log format and level; its tokens and secret are masked in every line."""
    http = config.get("http") or {}
    secrets = [str(s) for s in (config.get("token"), config.get("app_token"), http.get("signing_secret")) if s]
    configure_logging(str(config["log"]["format"]), str(config["log"]["level"]), secrets)


if __name__ == "__main__":
    main(configure)
