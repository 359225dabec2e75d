"""Slack: events in, ``engine.handle(...)``, outcomes out as Block Kit in threads.

Two processes, one package each, around one typed link:

- ``worker/`` — the engine's process: ``app.py`` (`running`, `serve`; starts
  the gateway), ``adapter.py``, ``requests.py``, ``presses.py``, ``turns.py``,
  ``typed.py``
- ``gateway/`` — the gateway process: ``process.py`` (receiving, acks, Web API
  calls for the worker), ``listeners.py`` (bolt's listeners), ``setup.py``
  (the Web API client, token checks, the bolt app)
- ``protocol.py`` — what the two say to each other: typed calls, replies and
  tells (pydantic, discriminated by ``op`` / ``kind``), and `GatewayConfig`

Shared by both processes, one job per file:

- ``link.py`` — the pipe: protocol messages as JSON lines, validated on read;
  ``api.py`` — the Web API here (gateway) or through the pipe (worker)
- ``place.py`` — where a turn happens, and the conversation and user keys
- ``render.py`` — outcomes as Block Kit; ``actions.py`` — what a button carries; ``text.py`` — escaping, splitting
- ``send.py`` — post, update, ephemeral, response URL, private files, reactions; replies kept through rate limits
- ``store.py`` — ``slack.db``: de-duplication, intake, owned threads, open prompts, press claims
  (``sqlite_thread.py`` — its writer thread)
- ``texts.py`` — what the adapter itself says

One name to run it — `serve` — and the adapter itself.
"""

from adapters.slack.protocol import Http
from adapters.slack.worker.adapter import SlackAdapter
from adapters.slack.worker.app import GatewayExited, Running, running, serve

__all__ = ["GatewayExited", "Http", "Running", "SlackAdapter", "running", "serve"]
