"""What the fake records and holds: calls, messages, scripted failures."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Call:
    """One Bot API request: method, parsed parameters, and ``time.monotonic()`` on arrival."""

    method: str
    params: dict[str, Any]
    at: float


@dataclass
class BotMessage:
    """A message in a chat as the fake holds it (the bot's, or a user's it built)."""

    chat_id: int
    message_id: int
    text: str
    """What the person sees (markup removed)."""
    html: str | None = None
    """The text as sent, when it was sent with ``parse_mode=HTML``."""
    from_bot: bool = True
    user_id: int | None = None
    reply_markup: dict[str, Any] | None = None
    thread_id: int | None = None
    reply_to: int | None = None
    deleted: bool = False
    edits: int = 0
    document: tuple[str, bytes] | None = None
    """An uploaded file: its name and bytes (sendDocument)."""
    photo: tuple[str, bytes] | None = None
    """An uploaded picture: its name and bytes (sendPhoto); ``text`` is its caption."""
    size: tuple[int, int] | None = None
    """The picture's width and height, read from its PNG header."""
    sent_at: float = field(default_factory=time.monotonic)
    date: int | None = None
    """The Unix time the message carries (a user's message may be dated; otherwise now)."""

    def buttons(self) -> list[dict[str, Any]]:
        """The inline keyboard's buttons, row by row, flattened."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [b for row in rows for b in row]


@dataclass
class Failure:
    """A scripted error answer for the next calls of one method."""

    method: str
    status: int
    description: str
    retry_after: int | None
    times: int
    when: Callable[[dict[str, Any]], bool] | None


class BadRequest(Exception):
    """A request the real Bot API would refuse with 400."""


@dataclass(frozen=True)
class Draft:
    """One ``sendMessageDraft`` the fake accepted: a message being composed in a private chat."""

    chat_id: int
    draft_id: int
    text: str
    """What the person sees (markup removed); empty shows the "Thinking…" placeholder."""
    html: str | None = None
    thread_id: int | None = None
    at: float = field(default_factory=time.monotonic)
