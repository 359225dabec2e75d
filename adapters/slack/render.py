"""Outcomes as Block Kit messages: pure functions, no Slack client, no engine calls.

Answers go into a ``markdown`` block (standard Markdown, as the model writes
it) with the same text as the plain ``text`` fallback that notifications and
old clients show; a long answer becomes several messages, cut between
paragraphs. Whatever data or the model wrote has ``&``, ``<`` and ``>``
escaped (`adapters.slack.text.esc`) wherever Slack parses markup: the
``text`` fallback, ``mrkdwn`` (questions, plans, notices, context lines) and
the ``markdown`` block alike, so an imported ``<!channel>`` never pings and
``<https://…|click>`` is never a link. Button labels are ``plain_text``,
which Slack does not parse. Questions, plans and reminders carry their buttons
(`adapters.slack.actions.Press`). The commands engine text names (``send
/retry``) read as typed in Slack (``/almanac retry``: `adapters.slack.text.as_typed`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from adapters.common.notes import entry_dates, notes_for, record_lines
from adapters.slack.actions import Press, owner_of
from adapters.slack.text import COMMAND, MARKDOWN_LIMIT, SECTION_LIMIT, as_typed, esc, shorten, split
from engine import Answer, ApprovalRequest, Ask, Citation, Failure, Logged, Notice, Outcome, ReminderCard

Block = dict[str, Any]
BUTTON_LABEL = 75
"""Slack's limit for a button's text."""
MAX_BLOCKS = 50
SKIP_LABEL = "Skip"
REVISE_TITLE = "Revise the plan"
REVISE_PROMPT = "What should change?"


@dataclass(frozen=True)
class SlackMessage:
    """One message to post: the fallback text and its blocks."""

    text: str
    blocks: list[Block] = field(default_factory=list)


def render(outcome: Outcome, conversation: str, command: str = COMMAND) -> list[SlackMessage]:
    """The messages for one outcome (none for a `Document` or a `Chart`, which are uploaded as files, nor
    for `Closed`).

    Args:
        outcome: what the engine returned.
        conversation: the engine's conversation key, carried by buttons.
        command: the slash command, for the commands the engine's text names (``/retry``).
    """
    if isinstance(outcome, Answer):
        return answer(outcome.model_copy(update={"text": as_typed(outcome.text, command)}))
    if isinstance(outcome, Logged):
        lines = [
            line
            for e in outcome.entries
            for line in [f"✓ {e.action.capitalize()} {e.on.isoformat()} · {e.domain} · {e.summary}", *record_lines(e)]
        ] or ["✓ Logged."]
        return plain("\n".join(lines))
    if isinstance(outcome, Ask):
        said = {"why": as_typed(outcome.why, command), "if_declined": as_typed(outcome.if_declined, command)}
        return [ask(outcome.model_copy(update=said), conversation)]
    if isinstance(outcome, ApprovalRequest):
        return [approval(outcome, conversation)]
    if isinstance(outcome, Failure):
        return plain(f"⚠️ {as_typed(outcome.text, command)}")
    if isinstance(outcome, Notice):
        return plain(as_typed(outcome.text, command))
    if isinstance(outcome, ReminderCard):
        return [reminder(outcome.model_copy(update={"text": as_typed(outcome.text, command)}), conversation)]
    return []


def plain(text: str) -> list[SlackMessage]:
    """Plain text as ``section`` blocks, split under the block and message limits; escaped, ``text`` too."""
    sections = [_section(part) for part in split(esc(text), SECTION_LIMIT - 200) if part.strip()]
    chunks = [sections[i : i + MAX_BLOCKS] for i in range(0, len(sections), MAX_BLOCKS)]
    return [SlackMessage(text=esc(shorten(text, 3_000)), blocks=chunk) for chunk in chunks]


def answer(outcome: Answer) -> list[SlackMessage]:
    """An answer: one ``markdown`` block per message, cut between paragraphs; sources under the last part."""
    parts = split(esc(outcome.text), MARKDOWN_LIMIT) if outcome.text.strip() else ["…"]
    messages = [SlackMessage(text=part, blocks=[{"type": "markdown", "text": part}]) for part in parts]
    notes = _answer_notes(outcome)
    if notes:
        last = messages[-1]
        messages[-1] = SlackMessage(last.text, [*last.blocks, _context(notes)])
    return messages


def _answer_notes(outcome: Answer) -> str:
    words = notes_for(outcome)
    notes = []
    if outcome.partial:
        notes.append(f"_{esc(words.partial[:1].upper() + words.partial[1:])}._")
    if dates := entry_dates(outcome):
        notes.append(esc(words.entries(dates)))
    sources = [c for c in outcome.citations if c.on is None]
    if sources:
        notes.append(f"{words.sources}: " + " · ".join(citation(c) for c in sources))
    return shorten(" — ".join(notes), 2_000)


def citation(c: Citation) -> str:
    """A source in mrkdwn: a link when it has a web URL, else its title (and where to find it)."""
    title = esc(shorten(c.title, 200))
    if c.url and c.url.startswith(("http://", "https://")) and not any(ch in c.url for ch in "|<> "):
        return f"<{c.url}|{title}>"
    where = c.url or ""  # where a person can read it, never the engine's own reference ("domain:strength#R3")
    return f"{title} ({esc(shorten(where, 200))})" if where else title


def ask(outcome: Ask, conversation: str) -> SlackMessage:
    """A question: its text, why it is asked, a button per choice of the first question, and Skip."""
    numbered = len(outcome.questions) > 1
    lines = [f"*{f'{i}. ' if numbered else ''}{esc(q.text)}*" for i, q in enumerate(outcome.questions, start=1)]
    blocks = [_section(shorten_block("\n".join(lines)))]
    options = outcome.questions[0].options
    hint = "Press a choice or reply in this thread." if options else "Reply in this thread."
    if outcome.if_declined:
        hint += f" If you skip: {esc(outcome.if_declined)}"
    blocks.append(_context(shorten_block((f"_{esc(outcome.why)}_ " if outcome.why else "") + hint)))
    owner = owner_of(outcome.asked_by)
    buttons = [
        _button(label, Press("choice", outcome.interrupt_id, owner, conversation, i))
        for i, label in enumerate(options[:24])
    ]
    buttons.append(_button(SKIP_LABEL, Press("skip", outcome.interrupt_id, owner, conversation)))
    blocks.append({"type": "actions", "block_id": "almanac:ask", "elements": buttons})
    return SlackMessage(text=esc(shorten(outcome.questions[0].text, 3_000)), blocks=blocks)


def approval(outcome: ApprovalRequest, conversation: str) -> SlackMessage:
    """A plan: title and summary, a context line (confidence, sources), Approve / Revise / Cancel."""
    owner = owner_of(outcome.asked_by)
    body = f"*Plan: {esc(outcome.title)}*\n{esc(outcome.summary)}"
    context = f"Confidence {outcome.confidence:.0%}"
    if outcome.evidence:
        context += " · Sources: " + " · ".join(citation(c) for c in outcome.evidence[:10])
    context += " · Nothing changes until you approve."
    cancel = _button("Cancel", Press("cancel", outcome.interrupt_id, owner, conversation), style="danger")
    cancel["confirm"] = confirm("Cancel this plan?", "Nothing of it will be done.", "Cancel the plan", "Keep it")
    buttons = [
        _button("Approve", Press("approve", outcome.interrupt_id, owner, conversation), style="primary"),
        _button("Revise", Press("revise", outcome.interrupt_id, owner, conversation)),
        cancel,
    ]
    blocks = [
        _section(shorten_block(body)),
        _context(shorten_block(context)),
        {"type": "actions", "block_id": "almanac:plan", "elements": buttons},
    ]
    return SlackMessage(text=esc(shorten(f"Plan: {outcome.title}", 3_000)), blocks=blocks)


def reminder(card: ReminderCard, conversation: str) -> SlackMessage:
    """A reminder: its text, and a button per action (each the ``reminders`` control on this reminder at this
    instant, `ReminderCard.command`), pressable by its owner only; no buttons, no ``actions`` block."""
    owner = owner_of(card.asked_by)
    styles = {"confirm": "primary", "done": "primary"}
    buttons = [
        _button(label, Press("reminder", card.command(action), owner, conversation), style=styles.get(action))
        for action, label in zip(card.actions, card.labels, strict=True)
    ]
    blocks = [_section(shorten_block(esc(card.text)))]
    if buttons:
        blocks.append({"type": "actions", "block_id": "almanac:reminder", "elements": buttons})
    return SlackMessage(text=esc(shorten(card.text, 3_000)), blocks=blocks)


def forget_confirmation(user_key: str, conversation: str) -> SlackMessage:
    """The /almanac forget question: one danger button behind a confirm dialog."""
    text = (
        "*Delete everything Almanac keeps about you?*\n"
        "All your entries go for good. `/almanac export` first if you want a copy."
    )
    button = _button("Delete everything", Press("forget", "", owner_of(user_key), conversation), style="danger")
    button["confirm"] = confirm("Delete everything?", "This cannot be undone.", "Delete", "Keep it")
    return SlackMessage(
        text="Delete everything Almanac keeps about you?",
        blocks=[_section(text), {"type": "actions", "block_id": "almanac:forget", "elements": [button]}],
    )


def decided(blocks: list[Block], label: str, user: str, at: datetime) -> list[Block]:
    """A question or plan after a decision: its blocks without buttons, and who decided what and when."""
    stamp = int(at.timestamp())
    fallback = at.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    when = f"<!date^{stamp}^{{date_short_pretty}} at {{time}}|{fallback}>"
    who = f" by <@{user}>" if user else ""
    kept = [b for b in blocks if b.get("type") != "actions"]
    return [*kept, _context(f"{esc(label)}{who} · {when}")][-MAX_BLOCKS:]


def decided_message(blocks: list[Block], label: str, user: str, at: datetime) -> SlackMessage:
    """`decided` as the message that replaces the question or plan; its ``text`` is the label, escaped."""
    return SlackMessage(esc(label), decided(blocks, label, user, at))


def revise_modal(private_metadata: str) -> dict[str, Any]:
    """The Revise modal: one multi-line input; its submission carries the press in ``private_metadata``."""
    return {
        "type": "modal",
        "callback_id": "almanac:revise",
        "private_metadata": private_metadata,
        "title": {"type": "plain_text", "text": REVISE_TITLE},
        "submit": {"type": "plain_text", "text": "Send"},
        "close": {"type": "plain_text", "text": "Back"},
        "blocks": [
            {
                "type": "input",
                "block_id": "feedback",
                "label": {"type": "plain_text", "text": REVISE_PROMPT},
                # Optional on purpose: an empty submission reaches the app, which answers with an error.
                "optional": True,
                "element": {"type": "plain_text_input", "action_id": "text", "multiline": True, "max_length": 2000},
            }
        ],
    }


def confirm(title: str, text: str, yes: str, no: str) -> dict[str, Any]:
    """A Block Kit confirmation dialog."""
    return {
        "title": {"type": "plain_text", "text": title},
        "text": {"type": "plain_text", "text": text},
        "confirm": {"type": "plain_text", "text": yes},
        "deny": {"type": "plain_text", "text": no},
    }


def shorten_block(text: str) -> str:
    """Mrkdwn text cut to fit one section (a question or plan summary is never near it in practice)."""
    return text if len(text) <= SECTION_LIMIT else text[: SECTION_LIMIT - 1] + "…"


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _context(text: str) -> Block:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": text}]}


def _button(label: str, press: Press, style: str | None = None) -> Block:
    button: Block = {
        "type": "button",
        "text": {"type": "plain_text", "text": shorten(label, BUTTON_LABEL) or "…"},
        "action_id": press.action_id,
        "value": press.value,
    }
    if style:
        button["style"] = style
    return button
