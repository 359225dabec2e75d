"""The Slack gateway process: receives, acknowledges, writes ``slack.db``, makes the Web API calls.

- ``process.py`` — `Gateway`: the link's calls (`adapters.slack.protocol`) and `main`
- ``listeners.py`` — bolt's listeners: slash command, mentions, DMs, threads, presses, the Revise modal
- ``setup.py`` — the Web API client (retries), token checks, the bolt app

It imports the shared modules of `adapters.slack` and never the worker's.
"""

from adapters.slack.gateway.process import Gateway, main

__all__ = ["Gateway", "main"]
