"""Slack: events in, ``engine.handle(...)``, outcomes out as Block Kit in threads.

Two processes (see ``adapter.py``): the gateway receives and talks to Slack;
the engine's process runs the turns. One name to run it — `serve` — and the
adapter itself. Inside, one job per file:

- ``app.py`` — starts the gateway beside the engine, `running` and `serve`
- ``adapter.py`` — the engine's side: handed-over requests and presses queued per conversation
- ``requests.py`` — an accepted post or slash command as its engine turn; ``presses.py`` — a press's decision
- ``turns.py`` — one turn: ``engine.handle`` with a reaction as the sign of work, then outcomes in the thread
- ``gateway.py`` — the gateway process: receiving, acks, Web API calls for the engine's side
- ``listeners.py`` — bolt's listeners: slash command, mentions, DMs, threads, presses, the Revise modal
- ``setup.py`` — the Web API client (retries), token checks, the bolt app
- ``link.py`` — the pipe between the two processes; ``api.py`` — the Web API here or through the pipe
- ``place.py`` — where a turn happens, and the conversation and user keys
- ``render.py`` — outcomes as Block Kit; ``actions.py`` — what a button carries; ``text.py`` — escaping, splitting
- ``send.py`` — post, update, ephemeral, response URL, private files, reactions; replies kept through rate limits
- ``store.py`` — ``slack.db``: de-duplication, intake, owned threads, open prompts, press claims
- ``texts.py`` — what the adapter itself says
"""

from adapters.slack.adapter import SlackAdapter
from adapters.slack.app import GatewayExited, Http, Running, running, serve

__all__ = ["GatewayExited", "Http", "Running", "SlackAdapter", "running", "serve"]
