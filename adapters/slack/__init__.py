"""Slack: events in, ``engine.handle(...)``, outcomes out as Block Kit in threads.

One name to run it — `serve` — and the adapter itself. Inside, one job per file:

- ``adapter.py`` — listeners: slash command, mentions, DMs, thread replies; each ack'ed, recorded, queued
- ``presses.py`` — button presses and the Revise modal
- ``app.py`` — Web API client (retries), token checks, bolt app, Socket Mode or HTTP mode, `serve`
- ``intake.py`` — the receiving side's own event loop, so acks never wait behind the engine
- ``turns.py`` — one turn: ``engine.handle`` with a reaction as the sign of work, then outcomes in the thread
- ``place.py`` — where a turn happens, and the conversation and user keys
- ``render.py`` — outcomes as Block Kit; ``actions.py`` — what a button carries; ``text.py`` — escaping, splitting
- ``send.py`` — post, update, ephemeral, response URL, private files, reactions
- ``store.py`` — ``slack.db``: de-duplication, intake, owned threads, open prompts, press claims
- ``texts.py`` — what the adapter itself says
"""

from adapters.slack.adapter import SlackAdapter
from adapters.slack.app import Http, Running, running, serve

__all__ = ["Http", "Running", "SlackAdapter", "running", "serve"]
