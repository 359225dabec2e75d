"""Outcomes as Telegram HTML: every engine string escaped before it meets a tag.

Pure: no network, no engine calls. The engine's strings are plain text;
questions and plans get their keyboards from `adapters.telegram.keyboards`.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from telegram import InlineKeyboardMarkup

from adapters.common.notes import entry_dates, notes_for, record_lines
from adapters.telegram.keyboards import approval_keyboard, ask_keyboard, reminder_keyboard
from engine import Answer, ApprovalRequest, Ask, Citation, Failure, Logged, Notice, Outcome, ReminderCard

CAPTION_LIMIT = 1024
"""Telegram's limit for a document's or a photo's caption, in characters (UTF-16 units, as it counts)."""


def esc(text: str) -> str:
    """Escape engine text for Telegram's HTML parse mode."""
    return html.escape(text, quote=False)


@dataclass(frozen=True)
class Rendered:
    """One outcome, ready to send: HTML text and, for questions and plans, a keyboard."""

    html: str
    keyboard: InlineKeyboardMarkup | None = None


def render(outcome: Outcome, owner: int | None = None) -> Rendered | None:
    """Render one outcome; ``None`` for a `Document` or a `Chart`, which go out as a file or a photo
    instead (`Turns`), and a `Closed` (`Turns` takes the closed question's buttons off instead).

    Args:
        outcome: what the engine returned.
        owner: the Telegram user id who may press the buttons (encoded in the
            callback data so that a foreign press is refused without a lookup).
    """
    if isinstance(outcome, Answer):
        return Rendered(_answer(outcome))
    if isinstance(outcome, Logged):
        return Rendered(
            "\n".join(
                "\n".join(
                    [
                        f"✓ {e.action.capitalize()} {e.on.isoformat()} · {esc(e.domain)} · {esc(e.summary)}",
                        *map(esc, record_lines(e)),
                    ]
                )
                for e in outcome.entries
            )
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
    if isinstance(outcome, ReminderCard):
        return Rendered(esc(outcome.text), reminder_keyboard(outcome, owner) if outcome.actions else None)
    return None


def _answer(answer: Answer) -> str:
    notes = notes_for(answer)
    parts = [esc(answer.text)]
    if answer.partial:
        parts.append(f"<i>({esc(notes.partial)})</i>")
    if dates := entry_dates(answer):
        parts.append(f"<i>{esc(notes.entries(dates))}</i>")
    sources = [c for c in answer.citations if c.on is None]
    if sources:
        parts.append(f"{notes.sources}:\n" + "\n".join(f"• {_citation(c)}" for c in sources))
    return "\n\n".join(parts)


def _citation(c: Citation) -> str:
    if c.url and c.url.startswith(("http://", "https://")):
        return f'<a href="{html.escape(c.url, quote=True)}">{esc(c.title)}</a>'
    # Where a person can read it (a file of the knowledge base), never the engine's own reference
    # ("domain:strength#R3", "article:deload#2").
    where = c.url or ""
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
