"""Outcomes as Telegram HTML: escaping, splitting under the length limit, keyboards.

Everything here is pure: no network, no engine. The engine's strings are
plain text, so every one of them is escaped before it meets a tag; splitting
happens after escaping and counts UTF-16 code units, as Telegram does.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Literal

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine import Answer, ApprovalRequest, Ask, Citation, Document, Failure, Logged, Notice, Outcome

MESSAGE_LIMIT = 4096
"""Telegram's limit for one message, in UTF-16 code units."""
CAPTION_LIMIT = 1024
CALLBACK_LIMIT = 64
"""Telegram's limit for a button's callback data, in bytes."""
_LABEL_LIMIT = 40

SKIP_LABEL = "Skip"
REVISE_PROMPT = "What should change?"


def esc(text: str) -> str:
    """Escape engine text for Telegram's HTML parse mode."""
    return html.escape(text, quote=False)


def utf16_len(text: str) -> int:
    """Length as Telegram counts it: characters outside the BMP (most emoji) are two units."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


# ----------------------------------------------------------------------- rendering


@dataclass(frozen=True)
class Rendered:
    """One outcome, ready to send: HTML text and, for questions and plans, a keyboard."""

    html: str
    keyboard: InlineKeyboardMarkup | None = None


def render(outcome: Outcome, owner: int | None = None) -> Rendered | None:
    """Render one outcome; ``None`` for a `Document`, which is sent as a file instead.

    Args:
        outcome: what the engine returned.
        owner: the Telegram user id who may press the buttons (encoded in the
            callback data so that a foreign press is refused without a lookup).
    """
    if isinstance(outcome, Answer):
        return Rendered(_answer(outcome))
    if isinstance(outcome, Logged):
        return Rendered(
            "\n".join(f"✓ Logged {e.on.isoformat()} · {esc(e.domain)} · {esc(e.summary)}" for e in outcome.entries)
            or "✓ Logged."
        )
    if isinstance(outcome, Ask):
        return Rendered(_ask(outcome), ask_keyboard(outcome, owner))
    if isinstance(outcome, ApprovalRequest):
        return Rendered(_approval(outcome), approval_keyboard(outcome.interrupt_id, owner))
    if isinstance(outcome, Failure):
        return Rendered(f"⚠️ {esc(outcome.text)}")
    if isinstance(outcome, Notice):
        return Rendered(esc(outcome.text))
    assert isinstance(outcome, Document)
    return None


def _answer(answer: Answer) -> str:
    parts = [esc(answer.text)]
    if answer.partial:
        parts.append("<i>(partial answer: I could not check all of it)</i>")
    dates = list(dict.fromkeys(c.on.isoformat() for c in answer.citations if c.on is not None))
    if dates:
        parts.append(f"<i>From your entries of {', '.join(dates)}</i>")
    sources = [c for c in answer.citations if c.on is None]
    if sources:
        parts.append("Sources:\n" + "\n".join(f"• {_citation(c)}" for c in sources))
    return "\n\n".join(parts)


def _citation(c: Citation) -> str:
    if c.url and c.url.startswith(("http://", "https://")):
        return f'<a href="{html.escape(c.url, quote=True)}">{esc(c.title)}</a>'
    where = c.url or (c.ref if not c.ref.startswith("entry:") else "")
    return esc(c.title) + (f" — {esc(where)}" if where else "")


def _ask(ask: Ask) -> str:
    lines = []
    numbered = len(ask.questions) > 1
    for i, q in enumerate(ask.questions, start=1):
        lines.append(f"<b>{f'{i}. ' if numbered else ''}{esc(q.text)}</b>")
    if ask.why:
        lines.append(f"<i>{esc(ask.why)}</i>")
    hint = "Tap a choice or type your own answer." if ask.questions[0].options else "Type your answer."
    if ask.if_declined:
        hint += f" If you skip: {esc(ask.if_declined)}"
    lines.append(hint)
    return "\n".join(lines)


def _approval(req: ApprovalRequest) -> str:
    lines = [f"<b>Plan: {esc(req.title)}</b>", esc(req.summary), f"Confidence: {req.confidence:.0%}"]
    if req.evidence:
        lines.append("Sources:")
        lines.extend(f"• {_citation(c)}" for c in req.evidence)
    lines.append("Nothing changes until you approve.")
    return "\n".join(lines)


def decided(original_html: str, decision: str) -> str:
    """A question or plan after it was answered: the text, then the decision (escaped here)."""
    return f"{original_html}\n\n<i>{esc(decision)}</i>"


# ----------------------------------------------------------------------- callback data

PressKind = Literal["choice", "skip", "approve", "revise", "cancel", "forget_yes", "forget_no"]
_CODES: dict[PressKind, str] = {
    "choice": "a",
    "skip": "s",
    "approve": "p",
    "revise": "r",
    "cancel": "c",
    "forget_yes": "f:y",
    "forget_no": "f:n",
}
_KINDS = {code: kind for kind, code in _CODES.items()}
_ID = re.compile(r"[0-9A-Za-z_-]{1,56}\Z")


@dataclass(frozen=True)
class Press:
    """What a button means, decoded from its callback data.

    The scheme is ``<code>:<interrupt id>[:<choice>][:<owner>]`` (``a`` choice,
    ``s`` skip, ``p``/``r``/``c`` approve/revise/cancel) and ``f:y:<owner>`` /
    ``f:n:<owner>`` for the /forget confirmation: 32 hex characters of
    interrupt id leave room for a choice index and a 16-digit user id inside
    the 64-byte limit.
    """

    kind: PressKind
    interrupt_id: str = ""
    index: int = -1
    owner: int | None = None
    """The only Telegram user who may press it; ``None`` = anyone in the chat."""

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
        if head == "f":
            sub, _, rest = rest.partition(":")
            head = f"f:{sub}"
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


# ----------------------------------------------------------------------- splitting

_TOKEN = re.compile(r"<[^>]*>|&(?:#\d+|#x[0-9A-Fa-f]+|[A-Za-z]+);|.", re.S)
_TAG = re.compile(r"<(/?)([A-Za-z][\w-]*)[^>]*>")


def split_html(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split HTML into messages of at most ``limit`` UTF-16 units each.

    Cuts fall between tokens (a tag, an entity such as ``&amp;`` or one
    character, so never inside a surrogate pair), preferably at a line break,
    else at a space. Tags open at a cut are closed at the end of one part and
    reopened at the start of the next, so every part parses on its own.
    """
    if utf16_len(text) <= limit:
        return [text] if text.strip() else []
    parts: list[str] = []
    buf: list[str] = []
    size = 0
    stack: list[tuple[str, str]] = []  # (name, opening tag) of open tags
    newline: tuple[int, int, list[tuple[str, str]]] | None = None  # (index, size, stack) after a "\n"
    space: tuple[int, int, list[tuple[str, str]]] | None = None

    def closing(tags: list[tuple[str, str]]) -> str:
        return "".join(f"</{name}>" for name, _ in reversed(tags))

    for token in _TOKEN.findall(text):
        units = utf16_len(token)
        after = _apply(stack, token)
        if buf and size + units + utf16_len(closing(after)) > limit:
            # Prefer the last line break, then the last space, if it keeps the part at least half full.
            cut = next((c for c in (newline, space) if c is not None and c[1] >= limit // 2), None)
            at, tags = (cut[0], cut[2]) if cut else (len(buf), stack)
            parts.append("".join(buf[:at]) + closing(tags))
            reopen = "".join(tag for _, tag in tags)
            buf = [reopen, *buf[at:]]
            size = sum(utf16_len(t) for t in buf)
            newline = space = None
        buf.append(token)
        size += units
        stack = after
        if token == "\n":
            newline = (len(buf), size, list(stack))
        elif token == " ":
            space = (len(buf), size, list(stack))
    parts.append("".join(buf))
    return [p for p in parts if _visible(p)]


def _apply(stack: list[tuple[str, str]], token: str) -> list[tuple[str, str]]:
    m = _TAG.match(token) if token.startswith("<") else None
    if m is None:
        return stack
    name = m.group(2).lower()
    if not m.group(1):
        return [*stack, (name, token)]
    for i in range(len(stack) - 1, -1, -1):
        if stack[i][0] == name:
            return stack[:i] + stack[i + 1 :]
    return stack


def _visible(part: str) -> bool:
    return bool(html.unescape(re.sub(r"<[^>]*>", "", part)).strip())


def to_plain(text: str) -> str:
    """The same message without markup: what is sent when Telegram rejects the HTML."""
    return html.unescape(re.sub(r"<[^>]*>", "", text))
