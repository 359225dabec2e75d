"""The sentences of planning: a plan as shown, its evidence notes, and what happened to it.

The rest of what the engine says is in :mod:`engine.texts`; like it, nothing
here knows a chat platform.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from engine.tasks.model import TaskSheet, WorkPlan

TASK_ASK_WHY = "I need this to make the plan right before anything changes."
TASK_DECLINE_FALLBACK = "I'll show the plan without changing anything."
TOO_MANY_REVISIONS = (
    "That's as many revisions as I take for one plan; nothing was changed. Ask again with what you want."
)
PLAN_CANCELLED = "Cancelled. Nothing was changed."


PLAN_WORDING_LEFT_OUT = "Some of the plan's wording stated numbers I could not check, so it is left out."


def planning_out_of_time(seconds: float) -> str:
    return (
        f"Planning took longer than its {seconds:g} s budget, so I stopped; nothing was changed. "
        "Ask again, perhaps for something smaller."
    )


def log_shows(shown: str) -> str:
    """Evidence note: a claim about the person's data that their log contradicts."""
    return f"your log says otherwise: {shown}"


NOT_IN_LOG = "no entry or computed fact shows this"
NO_LINE_NAMED = "no expertise or rule line named"
NOT_IN_ARTICLE = "the article cited does not say this"


def nothing_to_plan(reason: str) -> str:
    return f"There's nothing for me to plan or change here: {reason}"


def committed(goal_lines: Sequence[str]) -> str:
    return "Done. " + ("; ".join(goal_lines) + ". " if goal_lines else "") + "Send /undo to revert it."


def nothing_changed(reasons: Sequence[str]) -> str:
    """A plan that, when carried out, found nothing to change (say so rather than "Done")."""
    return "Nothing changed: " + "; ".join(reasons[:3]) + ". Your entries are as they were."


def is_it_right(claim: str) -> str:
    return f"Is it right that {claim}?"


CONFIRM_OPTIONS = ("Yes", "No")
"""The answers offered to "Is it right that …?" (a press sends the option's text)."""
YOU_CONFIRMED = "you said it is right"
YOU_DENIED = "you said it is not right"


def you_wrote(day: date, words: str) -> str:
    """Evidence source: the person's own request."""
    return f"you, {day.isoformat()}: “{words}”"


def you_answered(day: date, answer: str, question: str) -> str:
    """Evidence source: the person's answer to a question."""
    return f"you, {day.isoformat()}: “{answer}” to “{question}”"


def you_wrote_otherwise(written: Sequence[str]) -> str:
    """Evidence note: a claim citing the person's values with a number they did not write."""
    return "you wrote " + ", ".join(written)


def denied(claim: str) -> str:
    """A problem for the planner's next round: the person said a claim is wrong."""
    return f"They said this is not right: {claim}"


def not_given(what: str, written: str) -> str:
    """A problem for the planner's next round: a number in an operation that is neither theirs nor their log's."""
    return f"{what}: “{written}” is neither in the request nor in the log"


def unknown_ids(what: str, ids: Sequence[str]) -> str:
    """A problem for the planner's next round: references to ids it was not offered."""
    return f"{what}: {', '.join(ids)} are not ids from the list"


def month_not_asked(what: str, written: str) -> str:
    """A problem for the planner's next round: a month their request does not name."""
    return f"{what}: “{written}” is not a date the request names"


def unit_not_logged(exercise: str, unit: str, logged: str) -> str:
    """A problem for the planner's next round: a planned weight in another unit than their log's."""
    return f"{exercise} is logged in {logged}, not {unit}"


def not_done(refused: Sequence[str]) -> str:
    return "Not done: " + "; ".join(refused) + "."


def plan_only(unsure: Sequence[str]) -> str:
    return (
        "Shown as a plan only, nothing was changed"
        + (f" — not confirmed: {'; '.join(unsure[:3])}" if unsure else "")
        + "."
    )


def plan_text(plan: WorkPlan, with_goal: bool = True) -> str:
    """A plan in plain lines (adapters format it further); an approval's title already is the goal."""
    lines = [f"Goal: {plan.goal}"] if plan.goal and with_goal else []
    lines += [f"{i}. {s}" for i, s in enumerate(plan.steps, start=1)]
    if isinstance(plan, TaskSheet) and plan.patch.ops:
        lines.append(f"Changes ({len(plan.patch.ops)}):")
        for op in plan.patch.ops[:12]:
            if op.op == "add_planned_session":
                what = f"{op.exercise} {op.sets}×{op.reps}" + (
                    f" @ {op.weight:g} {op.unit or ''}".rstrip() if op.weight else ""
                )
                lines.append(f"- plan {op.date}: {what}")
            elif op.op == "set_goal":
                lines.append(f"- set goal: {op.goal}")
            else:
                change = (
                    f"- correct {op.exercise or 'entry'} {op.field}: {op.old_value or 'as logged'} → {op.new_value}"
                )
                lines.append(change + (f" in {op.detail}" if op.detail else ""))
        if len(plan.patch.ops) > 12:
            lines.append(f"- … and {len(plan.patch.ops) - 12} more")
    if plan.risk_flags:
        lines.append("Risks: " + "; ".join(plan.risk_flags))
    if plan.note:
        lines.append(plan.note)
    return "\n".join(lines)
