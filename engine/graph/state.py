"""The conversation thread's state.

Values are plain JSON-like data so checkpoints stay small and load without
custom types. Per-turn fields are set afresh by every new message
(``fresh_turn``, from the defaults in ``PER_TURN``), so a thread's state does
not grow with its history; only ``history`` carries over, and it is trimmed.
Nodes read the state through ``engine.graph.view.TurnView``.
"""

from __future__ import annotations

import copy
from typing import Annotated, Any, TypedDict

from pydantic import BaseModel

from engine.agents.context import ClarificationItem, HistoryItem

RESET: dict[str, Any] = {"kind": "reset"}
"""Leads the ``outcomes`` a new message starts with: the turn's outcomes start empty."""


def add_outcomes(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``outcomes`` reducer: a node's outcomes follow the turn's so far; a list led by ``RESET``
    (``fresh_turn``) replaces them. Only the list is checkpointed, as before the reducer."""
    if new and new[0] == RESET:
        return list(new[1:])
    return [*old, *new]


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
    read: dict[str, Any] | None
    """What code read of a log before any model: ``complete`` and ``parsed`` (a ``ParserOutput``)."""
    small_talk: str
    """``greeting`` or ``thanks`` when the message is only that: answered by code."""
    code_plan: bool
    """Code read the question well enough to plan it: no Planner call on the first round."""
    domains: list[str]
    parsed: dict[str, Any] | None
    """ParserOutput of the last parse."""
    answers: list[ClarificationItem]
    clarify_rounds: int
    declined: bool
    cancelled: bool
    ask: dict[str, Any] | None
    """The pending question's ``AskPayload`` (becomes an ``Ask``)."""
    ask_origin: str
    """``log`` or ``query``: where an answered question resumes."""
    outcomes: Annotated[list[dict[str, Any]], add_outcomes]
    """Outcomes of this turn, as data: a node returns only its own (``emit``)."""
    halt: bool
    """Set when the turn ended early with a notice (e.g. an impossible date)."""
    # --- per turn, query flow ---
    shape: dict[str, Any] | None
    """QuestionShape: what code read from the question."""
    language: str
    """``en`` or ``ko``: the question's language, which the answer and its values are written in."""
    refs: dict[str, Any] | None
    """RefTable: the values an answer may refer to ({F3}), built by RETRIEVE."""
    articles: list[dict[str, Any]]
    """ArticleNote per knowledge-base section RETRIEVE found (``K1``, values as ``{A2}``)."""
    domain_expansion_history: list[str]
    expansion_request: list[str]
    is_partial: bool
    plan: dict[str, Any] | None
    plan_rounds: int
    retrieval: dict[str, Any] | None
    """RetrievalResult: entry ids and every attempt."""
    facts: list[dict[str, Any]]
    analysis: dict[str, Any] | None
    user_responses: dict[str, str]
    """``"<gap> — <question>"`` (or the question) -> the person's answer (:func:`engine.interrupts.keep_answers`)."""
    fallback: str
    """What to do instead, when the person declined a question."""
    draft: dict[str, Any] | None
    """SynthesizerOutput of the last attempt."""
    answered_by_code: bool
    """The answer was written by code with no model call (nothing for the model to check)."""
    by_code_text: str
    """That answer's text."""
    evaluation: dict[str, Any] | None
    """Code's check of the draft: ``verdict`` (pass or fail) and ``feedback`` for a re-ask."""
    feedback: str
    eval_retries: int
    # --- per turn, task formation and approval ---
    task: dict[str, Any] | None
    """The TaskSheet (with its Patch) awaiting approval, or the WorkPlan shown."""
    decision: str
    """approve / revise / cancel, once the person decided."""
    revision_feedback: str
    revisions: int
    # --- kept across turns ---
    history: list[HistoryItem]


PER_TURN = State(
    intent="",
    also_query=False,
    read=None,
    small_talk="",
    code_plan=False,
    domains=[],
    parsed=None,
    answers=[],
    clarify_rounds=0,
    declined=False,
    cancelled=False,
    ask=None,
    ask_origin="",
    outcomes=[RESET],
    halt=False,
    shape=None,
    language="en",
    refs=None,
    articles=[],
    domain_expansion_history=[],
    expansion_request=[],
    is_partial=False,
    plan=None,
    plan_rounds=0,
    retrieval=None,
    facts=[],
    analysis=None,
    user_responses={},
    fallback="",
    draft=None,
    answered_by_code=False,
    by_code_text="",
    evaluation=None,
    feedback="",
    eval_retries=0,
    task=None,
    decision="",
    revision_feedback="",
    revisions=0,
)
"""Every per-turn field and the value a new message starts it with, declared once (``fresh_turn``;
a test checks that every ``State`` field is either here or in ``HEADER`` / ``KEPT``)."""
HEADER = ("turn_id", "conversation", "user", "text", "today", "timezone")
"""Fields the message itself sets (``fresh_turn``'s arguments)."""
KEPT = ("history",)
"""Fields that outlive a turn."""


def fresh_turn(*, turn_id: str, conversation: str, user: str, text: str, today: str, timezone: str) -> State:
    """The input of a new message: every per-turn field reset (``outcomes`` too, through ``RESET``)."""
    header = State(turn_id=turn_id, conversation=conversation, user=user, text=text, today=today, timezone=timezone)
    # Copied, so no turn's writes can reach the shared defaults.
    return State(**copy.deepcopy(PER_TURN), **header)


# --------------------------------------------------------------------------- writes
# Fields hold plain JSON so checkpoints stay portable; ``engine.graph.view.TurnView`` gives them back as models.


def dump(model: BaseModel) -> dict[str, Any]:
    """A model as the plain JSON a state field holds."""
    return model.model_dump(mode="json")


def emit(*outcomes: BaseModel) -> dict[str, Any]:
    """The state update that adds outcomes to this turn's (``add_outcomes`` appends them)."""
    return {"outcomes": [dump(o) for o in outcomes]}
