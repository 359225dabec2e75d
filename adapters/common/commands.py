"""The command map: what a command's name means, written once for every platform.

Each platform reads a command its own way — Telegram ``/export@almanac_bot
json``, a console line ``/export json``, a Slack slash command ``/almanac
export json`` — and hands the name and the argument to `command_turn`, which
says which turn it is. What the adapter still decides itself: /start and
/help (its own texts), a usage hint when a command in `NEEDS_ARGUMENT` came
without one, and the confirmation of a command in `CONFIRM_FIRST`.
"""

from __future__ import annotations

from datetime import datetime
from types import MappingProxyType
from typing import Final

from engine import Control, ControlAction, Message

CONTROLS: Final = MappingProxyType[str, ControlAction](
    {
        "reset": "reset",
        "cancel": "cancel",
        "retry": "retry",
        "status": "status",
        "export": "export",
        "undo": "undo",
        "history": "history",
        "timezone": "timezone",
        "forget": "forget",
    }
)
"""Every command that becomes a `Control` turn, by its canonical name."""

ALIASES: Final = MappingProxyType({"tz": "timezone"})
"""Other names a command answers to."""

MESSAGE_COMMANDS: Final = ("log", "ask")
"""Commands whose argument is a message for the engine (``/log bench 55kg 10x5``)."""

NEEDS_ARGUMENT: Final = frozenset({"log", "ask", "timezone"})
"""Commands that mean nothing without an argument; an adapter may show a usage hint instead."""

CONFIRM_FIRST: Final = frozenset({"forget"})
"""Commands that delete data: the adapter asks first (a button, ``/forget yes``) and sends the turn only after a yes."""


def command_name(name: str) -> str:
    """The canonical name of a command as typed: no slash, lower case, aliases resolved (``/TZ`` → ``timezone``)."""
    name = name.removeprefix("/").lower()
    return ALIASES.get(name, name)


def control_action(name: str) -> ControlAction | None:
    """The `ControlAction` a command names (any spelling `command_name` accepts); None if it names none."""
    return CONTROLS.get(command_name(name))


def command_turn(
    name: str,
    argument: str,
    *,
    conversation: str,
    user: str,
    message_commands: bool,
    at: datetime | None = None,
    message_id: str | None = None,
) -> Control | Message | None:
    """The turn a command becomes.

    Args:
        name: the command as typed, with or without the slash, in any case; aliases allowed.
        argument: the rest of the line, already stripped (the zone for /timezone, ``json`` for /export).
        conversation: the engine's conversation key.
        user: the engine's user key.
        message_commands: whether /log and /ask are commands on this platform. Telegram
            passes True; the console passes False, where ``/log`` is an unknown command
            today. (Passing True everywhere is the one-line change that unifies them.)
        at: when the platform received it; now when None.
        message_id: the platform's message id (only a `Message` carries one).

    Returns:
        A `Message` for /log and /ask (when ``message_commands``), a `Control` for the
        commands in `CONTROLS`, None for anything else (unknown, or answered by the
        adapter itself such as /start and /help). For a command in `CONFIRM_FIRST`,
        call this only after the person confirmed.
    """
    canonical = command_name(name)
    stamp = {"at": at} if at is not None else {}
    if message_commands and canonical in MESSAGE_COMMANDS:
        return Message(conversation=conversation, user=user, text=argument, message_id=message_id, **stamp)
    action = CONTROLS.get(canonical)
    if action is None:
        return None
    return Control(conversation=conversation, user=user, action=action, argument=argument, **stamp)
