"""Telegram: updates in, ``engine.handle(...)``, outcomes out as HTML with inline keyboards.

One name to run it — `serve` — and the adapter itself. Inside, one job per file:

- ``adapter.py`` — handlers: a gate (duplicates, allowlist), then each update becomes a job in its conversation's queue
- ``intake.py`` — recorded before confirmed: updates reach the engine's inbox before Telegram hears they arrived
- ``jobs.py`` — the jobs an update starts; the update is done in the inbox when they end
- ``app.py`` — the python-telegram-bot application: build, start (replaying what a crash left), stop, `serve`
- ``turns.py`` — one turn: ``engine.handle`` with progress signs, then the outcomes on screen
- ``presses.py`` — button presses: choices, Skip, Approve / Revise / Cancel, the /forget confirmation
- ``chat.py`` — where a message belongs (chat, forum topic) and whether it is meant for Almanac
- ``render.py`` — outcomes as escaped HTML; ``keyboards.py`` — buttons and their callback data
- ``splitting.py`` — HTML split under the message limit, plain-text fallback
- ``send.py`` — send (a reply flood control holds back is kept), edit, delete, answer a press; ``retry.py`` — flood and network retries
- ``progress.py`` — typing and the status line; ``texts.py`` — what the adapter itself says
- ``errors.py`` — the one error handler
"""

from adapters.telegram.adapter import TelegramAdapter
from adapters.telegram.app import TelegramSetupError, Webhook, serve

__all__ = ["TelegramAdapter", "TelegramSetupError", "Webhook", "serve"]
