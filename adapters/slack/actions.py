"""What a button carries: which press it is, for which question or plan, in which conversation, for whom.

``action_id`` says the kind (``almanac:approve``, ``almanac:choice:1``); the
``value`` carries ``<interrupt id>|<owner>|<conversation>``. The owner is in
the button so that a foreign press is refused without a database look-up,
and the conversation so that a press finds its thread even when the message
it sits on was sent before a restart. Both stay far below Slack's limits
(255 and 2,000 characters). The value comes back inside the request, so it
is a claim, never an identity: the press acts as the member who pressed.

A reminder's button (``almanac:reminder:<action>``) carries, in place of an
interrupt id, the ``reminders`` control's argument (`engine.ReminderCard.command`:
``done 3 1764129600``): the engine refuses it as stale when the reminder moved on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

from engine import ReminderAction

PREFIX = "almanac:"
ACTION_PATTERN = re.compile(r"^almanac:")
"""Matches every action id of ours (bolt routes presses with it)."""

PressKind = Literal["choice", "skip", "approve", "revise", "cancel", "forget", "reminder"]
_KINDS: tuple[PressKind, ...] = ("choice", "skip", "approve", "revise", "cancel", "forget", "reminder")
_REMINDER_ACTIONS: tuple[str, ...] = get_args(ReminderAction)


@dataclass(frozen=True)
class Press:
    """One button: what it does and whose question or plan it answers.

    Attributes:
        kind: choice / skip / approve / revise / cancel, forget (the /almanac forget confirmation), or
            reminder (a `engine.ReminderCard`'s button).
        interrupt_id: the pending question's or plan's id ("" for forget); for a reminder, the ``reminders``
            control's argument (``done 3 1764129600``).
        owner: the Slack member id allowed to press ("" = no one named). It only narrows: a press always
            acts as the member who pressed (`adapters.slack.place.Place.of_press`).
        conversation: the engine's conversation key (it must be the presser's own).
        index: which choice (choice only).
    """

    kind: PressKind
    interrupt_id: str
    owner: str
    conversation: str
    index: int = 0

    @property
    def action_id(self) -> str:
        """Unique within its message, as Slack requires."""
        if self.kind == "reminder":
            return f"{PREFIX}reminder:{self.interrupt_id.partition(' ')[0]}"
        return f"{PREFIX}{self.kind}" + (f":{self.index}" if self.kind == "choice" else "")

    @property
    def value(self) -> str:
        """The button's value: interrupt id, owner and conversation."""
        return f"{self.interrupt_id}|{self.owner}|{self.conversation}"

    @classmethod
    def parse(cls, action_id: str, value: str) -> Press | None:
        """The press a button's ``action_id`` and ``value`` describe; None if they are not ours or malformed."""
        if not action_id.startswith(PREFIX):
            return None
        kind, _, index = action_id.removeprefix(PREFIX).partition(":")
        parts = value.split("|", 2)
        if kind not in _KINDS or len(parts) != 3 or not parts[2].startswith("slack:"):
            return None
        if kind == "choice" and not index.isdigit():
            return None
        if kind == "reminder" and (index not in _REMINDER_ACTIONS or parts[0].partition(" ")[0] != index):
            return None
        return cls(kind, parts[0], parts[1], parts[2], int(index) if index.isdigit() else 0)


def owner_of(user_key: str) -> str:
    """The Slack member id in a user key (``slack:<team>:<user>`` → ``<user>``); "" when there is none."""
    return user_key.rsplit(":", 1)[-1] if user_key.startswith("slack:") else ""
