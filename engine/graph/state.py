"""The conversation thread's state.

Values are plain JSON-like data so checkpoints stay small and load without
custom types. Per-turn fields are set afresh by every new message
(``fresh_turn``), so a thread's state does not grow with its history; only
``history`` carries over, and it is trimmed.
"""

from __future__ import annotations

from typing import Any, TypedDict

from engine.agents.context import ClarificationItem, HistoryItem


class State(TypedDict, total=False):
    # --- per turn ---
    turn_id: str
    """The inbox id of the message that started the turn; keys idempotent side effects."""
    conversation: str
    user: str
    text: str
    today: str
    """The user's local date (ISO) when the turn started."""
    timezone: str
    intent: str
    also_query: bool
    domains: list[str]
    parsed: dict[str, Any] | None
    """ParserOutput of the last parse."""
    answers: list[ClarificationItem]
    clarify_rounds: int
    declined: bool
    cancelled: bool
    ask: dict[str, Any] | None
    """The pending question's payload (becomes an ``Ask``)."""
    outcomes: list[dict[str, Any]]
    """Outcomes of this turn, as data."""
    # --- kept across turns ---
    history: list[HistoryItem]


def fresh_turn(
    *, turn_id: str, conversation: str, user: str, text: str, today: str, timezone: str
) -> State:
    """The input of a new message: every per-turn field reset."""
    return State(
        turn_id=turn_id,
        conversation=conversation,
        user=user,
        text=text,
        today=today,
        timezone=timezone,
        intent="",
        also_query=False,
        domains=[],
        parsed=None,
        answers=[],
        clarify_rounds=0,
        declined=False,
        cancelled=False,
        ask=None,
        outcomes=[],
    )
