"""``python -m bot.slack_gateway`` — the Slack gateway process, started by ``python -m bot slack`` itself.

Not for running by hand: its standard input and output are the pipe to the
engine's process (`adapters.slack.gateway`), which sends it everything it
needs, settings included (`adapters.slack.protocol.GatewayConfig`), so nothing
here reads the environment. This module only gives it the bot's logging
(masked, to stderr, like the parent's).
"""

from __future__ import annotations

from adapters.slack.gateway import main
from adapters.slack.protocol import GatewayConfig
from bot.logs import configure_logging


def configure(config: GatewayConfig) -> None:
    """The parent's log format and level; its tokens and secret are masked in every line."""
    configure_logging(config.log.format, config.log.level, config.secrets())


if __name__ == "__main__":
    main(configure)
