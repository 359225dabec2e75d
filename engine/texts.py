"""Every sentence the engine says to a person, in one place.

Adapters render these as they are; nothing here knows a chat platform. Keeping
them together keeps the voice consistent and makes translation one file's work.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from engine.tasks.model import TaskSheet, WorkPlan

# --------------------------------------------------------------------------- admission

EMPTY_MESSAGE = "That message was empty. Tell me what you did, e.g. “bench 55kg 10x5”."
QUESTION_FOR_SOMEONE_ELSE = (
    "I'm waiting for an answer to a question I asked someone else here. They can answer it, or anyone can /cancel it."
)
PLAN_PENDING = "A plan is waiting for your decision: approve, revise or cancel it first (/cancel drops it)."
STALE = "That question is no longer open (already answered or replaced)."
NOT_YOURS = "Only the person who was asked can answer that."
WRONG_BUTTON = "That button does not belong to what is pending."


def too_long(length: int, limit: int) -> str:
    return f"That message is {length:,} characters long; I take at most {limit:,}. Please send it in shorter parts. Nothing was stored."


# --------------------------------------------------------------------------- failures

INTERNAL_ERROR = "Something went wrong on my side (it is logged). Your message is kept; send /retry to try again."

# --------------------------------------------------------------------------- conversation controls

RESET = "Started a fresh conversation. Your logged entries are kept."
NOTHING_TO_CANCEL = "Nothing to cancel."
NOTHING_WAITING = "Nothing is waiting for you."
NOTHING_TO_RETRY = "Nothing to retry: every message so far was handled."
ANSWER_FIRST = "Answer or /cancel the open question first, then /retry."

# --------------------------------------------------------------------------- data controls

NO_ENTRIES_TO_EXPORT = "You have no entries yet, so there is nothing to export."
NOTHING_TO_UNDO = "Nothing to undo: no approved plan or correction of yours is in effect."
NO_PLANNING_EVENTS = "No planning events in this conversation yet."


def bad_timezone(name: str) -> str:
    return f"“{name}” is not a time zone I know. Use a name like Asia/Seoul or Europe/Berlin."


def timezone_set(name: str) -> str:
    return f"Time zone set to {name}. “Yesterday” now means yesterday there."


def undone(lines: Sequence[str]) -> str:
    body = "\n".join(f"- {line}" for line in lines[:10])
    return "Undone:\n" + body if body else "Undone."


def forgotten(removed: int, with_conversation: bool) -> str:
    what = "entries and this conversation" if with_conversation else "entries"
    return f"Done: deleted {removed} {what}. Nothing of yours is kept."


def export_caption(count: int) -> str:
    return f"{count} {'entry' if count == 1 else 'entries'}"


# --------------------------------------------------------------------------- LOG flow

LOG_DECLINE_FALLBACK = "I'll keep your message as a note, unparsed."
CANCELLED_MESSAGE = "Cancelled. Nothing was stored from that message."


def date_not_placed(phrase: str, today: date) -> str:
    return f"“{phrase}” is not a date I can place, so I stored it for today ({today.isoformat()})."


def date_in_future(phrase: str, today: date) -> str:
    return f"“{phrase}” is in the future, so I stored it for today ({today.isoformat()})."


# --------------------------------------------------------------------------- QUERY flow

QUERY_DECLINE_FALLBACK = "I'll answer with what your entries show."


def not_on_calendar(phrase: str) -> str:
    return f"“{phrase}” is not a date on the calendar. Which day did you mean?"


def no_entries_for(terms: Sequence[str]) -> str:
    what = ", ".join(terms) or "that"
    return f"I have no entries for {what} yet, so I can't answer from your logs. Log a session and ask again."


# --------------------------------------------------------------------------- TASK flow

TASK_ASK_WHY = "I need this to make the plan right before anything changes."
TASK_DECLINE_FALLBACK = "I'll show the plan without changing anything."
TOO_MANY_REVISIONS = (
    "That's as many revisions as I take for one plan; nothing was changed. Ask again with what you want."
)
PLAN_CANCELLED = "Cancelled. Nothing was changed."


def nothing_to_plan(reason: str) -> str:
    return f"There's nothing for me to plan or change here: {reason}"


def committed(goal_lines: Sequence[str]) -> str:
    return "Done. " + ("; ".join(goal_lines) + ". " if goal_lines else "") + "Send /undo to revert it."


def is_it_right(claim: str) -> str:
    return f"Is it right that {claim}?"


def not_done(refused: Sequence[str]) -> str:
    return "Not done: " + "; ".join(refused) + "."


def plan_only(unsure: Sequence[str]) -> str:
    return "Shown as a plan only, nothing was changed" + (f" — not confirmed: {'; '.join(unsure[:3])}" if unsure else "") + "."


def plan_text(plan: WorkPlan, with_goal: bool = True) -> str:
    """A plan in plain lines (adapters format it further); an approval's title already is the goal."""
    lines = [f"Goal: {plan.goal}"] if plan.goal and with_goal else []
    lines += [f"{i}. {s}" for i, s in enumerate(plan.steps, start=1)]
    if isinstance(plan, TaskSheet) and plan.patch.ops:
        lines.append(f"Changes ({len(plan.patch.ops)}):")
        for op in plan.patch.ops[:12]:
            if op.op == "add_planned_session":
                what = f"{op.exercise} {op.sets}×{op.reps}" + (f" @ {op.weight:g} {op.unit or ''}".rstrip() if op.weight else "")
                lines.append(f"- plan {op.date}: {what}")
            elif op.op == "set_goal":
                lines.append(f"- set goal: {op.goal}")
            else:
                lines.append(f"- correct {op.exercise or 'entry'} {op.field}: {op.old_value} → {op.new_value}")
        if len(plan.patch.ops) > 12:
            lines.append(f"- … and {len(plan.patch.ops) - 12} more")
    if plan.risk_flags:
        lines.append("Risks: " + "; ".join(plan.risk_flags))
    if plan.note:
        lines.append(plan.note)
    return "\n".join(lines)


# --------------------------------------------------------------------------- the model


def model_timeout(timeout_s: float) -> str:
    return (
        f"The language model did not answer within {timeout_s:g} s. "
        "It may still be loading; send /retry in a moment, or raise OLLAMA_TIMEOUT_S."
    )


def model_unreachable(host: str) -> str:
    return (
        f"I can't reach the language model at {host}. Start Ollama "
        f"(`ollama serve`), then send /retry — your message is kept."
    )


def model_missing(model: str) -> str:
    return (
        f"The model {model} is not installed in Ollama. Run `ollama pull {model}` "
        "on the Ollama machine, then send /retry — your message is kept."
    )


def model_failed(status: int, error: str) -> str:
    return f"The language model failed ({status}: {error[:200]}). Send /retry to try again."


def model_connection_failed(host: str, error: str) -> str:
    return f"The connection to the language model at {host} failed ({error}). Send /retry once it is back — your message is kept."
