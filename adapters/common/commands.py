"""The command map: what a command's name means, written once for every platform.

Each platform reads a command its own way — Telegram ``/export@almanac_bot
json``, a console line ``/export json``, a Slack slash command ``/almanac
export json`` — and hands the name and the argument to `read_command`, which
says what it asks for: a turn for the engine, or something the adapter
answers itself in its own words (/start and /help whatever follows them, a
usage hint when a command in `NEEDS_ARGUMENT` came without one, the
confirmation of a command in `CONFIRM_FIRST`, an unknown command).
`command_turn` is the turn alone, for a command already confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Final, Literal

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
        "next": "next",
        "chart": "chart",
        "summary": "summary",
        "quiet": "quiet",
        "remind": "remind",
        "reminders": "reminders",
    }
)
"""Every command that becomes a `Control` turn, by its canonical name."""

ALIASES: Final = MappingProxyType({"tz": "timezone"})
"""Other names a command answers to."""

MESSAGE_COMMANDS: Final = ("log", "ask")
"""Commands whose argument is a message for the engine (``/log bench 55kg 10x5``)."""

NEEDS_ARGUMENT: Final = frozenset({"log", "ask", "timezone", "next", "remind"})
"""Commands that mean nothing without an argument; an adapter may show a usage hint instead."""

CONFIRM_FIRST: Final = frozenset({"forget"})
"""Commands that delete data: the adapter asks first (a button, ``/forget yes``) and sends the turn only after a yes."""

USAGE: Final = MappingProxyType(
    {
        "log": "/log bench 55kg 10x5",
        "ask": "/ask is my bench better than last week?",
        "timezone": "/timezone Asia/Seoul",
        "next": "/next bench",
        "remind": "/remind in 10m stretch",
    }
)
"""An example of each command in `NEEDS_ARGUMENT`, for the usage hint."""

OWN: Final = frozenset({"start", "help"})
"""Commands each adapter answers with its own text, whatever follows them (``/help extra`` is /help)."""

Own = Literal["start", "help", "usage", "confirm", "unknown"]


@dataclass(frozen=True)
class CommandRead:
    """What a typed command asks for: a turn for the engine, or the adapter's own answer."""

    name: str
    """The canonical name (``timezone`` for ``/TZ``)."""
    turn: Control | Message | None = None
    """The turn to send, when the engine handles it."""
    own: Own | None = None
    """What the adapter answers itself: its start or help text, the usage hint (`usage`), the
    confirmation it asks before a `CONFIRM_FIRST` command, or "I don't know that command"."""

    @property
    def usage(self) -> str:
        """``Usage: /timezone Asia/Seoul`` (plain text; empty unless ``own == "usage"``)."""
        return f"Usage: {USAGE[self.name]}" if self.own == "usage" and self.name in USAGE else ""


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
    at: datetime | None = None,
    message_id: str | None = None,
) -> Control | Message | None:
    """The turn a command becomes (every platform alike: /log and /ask are messages everywhere).

    Args:
        name: the command as typed, with or without the slash, in any case; aliases allowed.
        argument: the rest of the line, already stripped (the zone for /timezone, ``json`` for /export).
        conversation: the engine's conversation key.
        user: the engine's user key.
        at: when the platform received it; now when None.
        message_id: the platform's message id (only a `Message` carries one).

    Returns:
        A `Message` for /log and /ask, a `Control` for the commands in `CONTROLS`,
        None for anything else (unknown, or answered by the adapter itself such as
        /start and /help). For a command in `CONFIRM_FIRST`, call this only after
        the person confirmed.
    """
    canonical = command_name(name)
    stamp = {"at": at} if at is not None else {}
    if canonical in MESSAGE_COMMANDS:
        return Message(conversation=conversation, user=user, text=argument, message_id=message_id, **stamp)
    action = CONTROLS.get(canonical)
    if action is None:
        return None
    return Control(conversation=conversation, user=user, action=action, argument=argument, **stamp)


def read_command(
    name: str,
    argument: str,
    *,
    conversation: str,
    user: str,
    at: datetime | None = None,
    message_id: str | None = None,
) -> CommandRead:
    """What a command asks for, the same on every platform (see `CommandRead`).

    ``/help extra`` is help; ``/tz`` alone is the usage hint, not a time zone
    named ""; ``/forget`` asks first; the rest is `command_turn`.
    """
    canonical = command_name(name)
    if canonical in OWN:
        return CommandRead(canonical, own="start" if canonical == "start" else "help")
    if canonical in NEEDS_ARGUMENT and not argument.strip():
        return CommandRead(canonical, own="usage")
    if canonical in CONFIRM_FIRST:
        return CommandRead(canonical, own="confirm")
    turn = command_turn(canonical, argument.strip(), conversation=conversation, user=user, at=at, message_id=message_id)
    return CommandRead(canonical, turn=turn, own=None if turn is not None else "unknown")
