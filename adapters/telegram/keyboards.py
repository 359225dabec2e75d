"""Inline keyboards and their callback data: what each button means, inside Telegram's 64 bytes.

A button's meaning is a `Press`: a `Pick` from ``adapters.common`` (what the
engine will read), one of the /forget confirmation's two buttons, or a reminder's
(`ReminderCard`: its action, the reminder and the instant it was shown for).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from adapters.common import Pick
from engine import Ask, ReminderAction, ReminderCard

CALLBACK_LIMIT = 64
"""Telegram's limit for a button's callback data, in bytes."""
_LABEL_LIMIT = 40

SKIP_LABEL = "Skip"

ForgetKind = Literal["forget_yes", "forget_no"]
ReminderKind = Literal["rem_confirm", "rem_cancel", "rem_done", "rem_snooze", "rem_delete"]
PressKind = Pick | ForgetKind | ReminderKind
_CODES: dict[PressKind, str] = {
    "choice": "a",
    "skip": "s",
    "approve": "p",
    "revise": "r",
    "cancel": "c",
    "forget_yes": "f:y",
    "forget_no": "f:n",
    "rem_confirm": "m:c",
    "rem_cancel": "m:x",
    "rem_done": "m:d",
    "rem_snooze": "m:s",
    "rem_delete": "m:r",
}
_KINDS = {code: kind for kind, code in _CODES.items()}
_ID = re.compile(r"[0-9A-Za-z_-]{1,56}\Z")


@dataclass(frozen=True)
class Press:
    """What a button means, decoded from its callback data.

    The scheme is ``<code>:<interrupt id>[:<choice>][:<owner>]`` (``a`` choice,
    ``s`` skip, ``p``/``r``/``c`` approve/revise/cancel) and ``f:y:<owner>`` /
    ``f:n:<owner>`` for the /forget confirmation, ``m:<action>:<reminder>-<epoch>:<owner>``
    for a reminder's buttons (``interrupt_id`` carries ``<reminder>-<epoch>``): 32 hex characters of
    interrupt id leave room for a choice index and a 16-digit user id inside
    the 64-byte limit.
    """

    kind: PressKind
    interrupt_id: str = ""
    index: int = -1
    owner: int | None = None
    """The only Telegram user who may press it; ``None`` = anyone in the chat."""

    @property
    def reminder(self) -> tuple[ReminderAction, str] | None:
        """A reminder button's action and the ``reminders`` control's argument (``snooze 3 1764129600``)."""
        if not self.kind.startswith("rem_"):
            return None
        rid, _, epoch = self.interrupt_id.partition("-")
        action: ReminderAction = self.kind.removeprefix("rem_")  # type: ignore[assignment]
        return action, f"{action} {rid} {epoch}"

    def data(self) -> str:
        """Encode as callback data; the owner is dropped if it would not fit."""
        parts = [_CODES[self.kind]]
        if not self.kind.startswith("forget"):
            parts.append(self.interrupt_id)
        if self.kind == "choice":
            parts.append(str(self.index))
        full = ":".join(parts + ([str(self.owner)] if self.owner is not None else []))
        if len(full.encode()) <= CALLBACK_LIMIT:
            return full
        short = ":".join(parts)
        if len(short.encode()) > CALLBACK_LIMIT or self.kind.startswith("forget"):
            raise ValueError(f"callback data over {CALLBACK_LIMIT} bytes: {short!r}")
        return short  # the engine still checks who answers

    @classmethod
    def parse(cls, data: str | None) -> Press | None:
        """Decode callback data; ``None`` for anything this adapter did not make."""
        if not data or len(data.encode()) > CALLBACK_LIMIT:
            return None
        head, _, rest = data.partition(":")
        if head in ("f", "m"):
            sub, _, rest = rest.partition(":")
            head = f"{head}:{sub}"
        kind = _KINDS.get(head)
        if kind is None:
            return None
        fields = rest.split(":") if rest else []
        try:
            if kind.startswith("forget"):
                (owner,) = fields
                return cls(kind=kind, owner=int(owner))
            iid, *more = fields
            if not _ID.match(iid):
                return None
            index = -1
            if kind == "choice":
                index, *more = int(more[0]), *more[1:]
            if len(more) > 1:
                return None
            return cls(kind=kind, interrupt_id=iid, index=index, owner=int(more[0]) if more else None)
        except (ValueError, IndexError):
            return None


def owner_id(user_key: str) -> int | None:
    """The Telegram user id in a ``tg:<id>`` user key."""
    prefix, _, raw = user_key.partition(":")
    return int(raw) if prefix == "tg" and raw.lstrip("-").isdigit() else None


def _label(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _LABEL_LIMIT else text[: _LABEL_LIMIT - 1] + "…"


def ask_keyboard(ask: Ask, owner: int | None) -> InlineKeyboardMarkup:
    """One button per choice of the first question, then Skip.

    A typed reply answers any question, so several questions still work: the
    buttons are a shortcut for the first one.
    """
    rows = [
        [InlineKeyboardButton(_label(opt), callback_data=Press("choice", ask.interrupt_id, i, owner).data())]
        for i, opt in enumerate(ask.questions[0].options)
    ]
    rows.append([InlineKeyboardButton(SKIP_LABEL, callback_data=Press("skip", ask.interrupt_id, owner=owner).data())])
    return InlineKeyboardMarkup(rows)


def approval_keyboard(interrupt_id: str, owner: int | None) -> InlineKeyboardMarkup:
    """Approve / Revise / Cancel in one row."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton("Approve", callback_data=Press("approve", interrupt_id, owner=owner).data()),
                InlineKeyboardButton("Revise", callback_data=Press("revise", interrupt_id, owner=owner).data()),
                InlineKeyboardButton("Cancel", callback_data=Press("cancel", interrupt_id, owner=owner).data()),
            ]
        ]
    )


def forget_keyboard(owner: int) -> InlineKeyboardMarkup:
    """The /forget confirmation: only the person who asked can press it."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton("Yes, delete everything", callback_data=Press("forget_yes", owner=owner).data()),
                InlineKeyboardButton("No, keep it", callback_data=Press("forget_no", owner=owner).data()),
            ]
        ]
    )


def reminder_keyboard(card: ReminderCard, owner: int | None) -> InlineKeyboardMarkup:
    """A reminder's buttons in one row, each its action on this reminder at this instant."""
    iid = f"{card.reminder_id}-{int(card.at.timestamp())}"
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(label, callback_data=Press(f"rem_{action}", iid, owner=owner).data())  # type: ignore[arg-type]
                for action, label in zip(card.actions, card.labels, strict=True)
            ]
        ]
    )
