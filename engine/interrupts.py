"""Pauses for a person, typed: what a node hands ``interrupt()`` and what comes back.

A question (``AskPayload``) or a plan awaiting a decision (``ApprovalPayload``)
is stored in the checkpoint as plain JSON, becomes an ``Ask`` or an
``ApprovalRequest`` outcome for the adapter, and is resumed with the turn's own
``ClarificationAnswer`` or ``ApprovalDecision`` (or ``Cancelled`` from
``/cancel``). Every payload and resume value is built and read here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from engine.outcomes import ApprovalRequest, Ask, Citation, Closed, Outcome, Question
from engine.turns import ApprovalDecision, ClarificationAnswer

MAX_QUESTIONS = 3
MAX_OPTIONS = 5
MAX_EVIDENCE = 10


class AskQuestion(BaseModel):
    """One question in a pending ``Ask``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    options: list[str] = Field(default_factory=list)
    gap: str = ""
    """What the answer fills (the parser's missing piece or the analyzer's gap); with ``text``, keys
    ``user_responses`` (see ``keep_answers``)."""


class AskPayload(BaseModel):
    """A pending question, as stored in the checkpoint."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["ask"] = "ask"
    questions: list[AskQuestion]
    why: str = ""
    if_declined: str = ""
    asked_by: str = ""
    """The user key of the person asked; only they may answer."""


class ApprovalPayload(BaseModel):
    """A plan awaiting Approve / Revise / Cancel, as stored in the checkpoint."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["approval"] = "approval"
    title: str
    plan: dict[str, Any]
    """The ``TaskSheet`` as data."""
    summary: str
    confidence: float
    evidence: list[Citation] = Field(default_factory=list)
    asked_by: str = ""


Payload = Annotated[AskPayload | ApprovalPayload, Field(discriminator="kind")]
_payload: TypeAdapter[AskPayload | ApprovalPayload] = TypeAdapter(Payload)


class Cancelled(BaseModel):
    """The resume value of ``/cancel``: whatever was pending is dropped."""

    model_config = ConfigDict(strict=True, extra="forbid")

    cancelled: Literal[True] = True


CANCEL: dict[str, Any] = Cancelled().model_dump()


def ask(questions: list[AskQuestion], *, why: str, if_declined: str, asked_by: str) -> AskPayload:
    """A question payload, capped at three questions of five options each."""
    capped = [q.model_copy(update={"options": q.options[:MAX_OPTIONS]}) for q in questions[:MAX_QUESTIONS]]
    return AskPayload(questions=capped, why=why, if_declined=if_declined, asked_by=asked_by)


GAP_SEP = " — "
"""Between a gap and its question in a ``user_responses`` key: ``how the session felt — How did it feel?``."""


def keep_answers(
    responses: Mapping[str, str], questions: Sequence[AskQuestion], answers: Sequence[str]
) -> dict[str, str]:
    """``responses`` with each answered question added, keyed per question so no answer replaces another.

    The key is the gap and the question (``"<gap> — <question>"``; the question alone when it has no
    gap): an agent's prompt shows every question with its answer, and ``answered`` can still tell
    which gaps are filled. A question asked again with a different answer keeps both (``… (2)``).
    """
    kept = dict(responses)
    for question, answer in zip(questions, answers, strict=False):
        if not answer:
            continue
        base = f"{question.gap}{GAP_SEP}{question.text}" if question.gap else question.text
        key, n = base, 1
        while key in kept and kept[key] != answer:
            n += 1
            key = f"{base} ({n})"
        kept[key] = answer
    return kept


def answered(gap: str, responses: Mapping[str, str]) -> bool:
    """Whether any question about ``gap`` was answered (``responses`` as ``keep_answers`` keys them)."""
    # A bare gap key is how answers were kept before they were keyed per question (older checkpoints).
    return gap in responses or any(key.startswith(f"{gap}{GAP_SEP}") for key in responses)


def read_payload(value: object) -> AskPayload | ApprovalPayload | None:
    """The payload of a pending interrupt, or ``None`` when it is not one of ours."""
    try:
        return _payload.validate_python(value)
    except ValidationError:
        return None


def to_outcome(interrupt_id: str, payload: AskPayload | ApprovalPayload) -> Ask | ApprovalRequest:
    """What the adapter renders for a pending interrupt."""
    if isinstance(payload, ApprovalPayload):
        return ApprovalRequest(
            interrupt_id=interrupt_id,
            title=payload.title,
            plan=payload.plan,
            summary=payload.summary,
            confidence=payload.confidence,
            evidence=payload.evidence[:MAX_EVIDENCE],
            asked_by=payload.asked_by,
        )
    questions = [Question(text=q.text, options=q.options[:MAX_OPTIONS]) for q in payload.questions[:MAX_QUESTIONS]] or [
        Question(text="Could you say more?")
    ]
    return Ask(
        interrupt_id=interrupt_id,
        questions=questions,
        why=payload.why,
        if_declined=payload.if_declined,
        asked_by=payload.asked_by,
    )


_DECIDED = {"approve": "Approved", "revise": "Revised", "cancel": "Cancelled"}


def closed_by(interrupt_id: str, answer: ClarificationAnswer | ApprovalDecision | None) -> Closed:
    """The `Closed` outcome for a pause that ``answer`` resumed (``None``: /cancel dropped it)."""
    if answer is None:
        label = "Cancelled"
    elif isinstance(answer, ApprovalDecision):
        label = _DECIDED[answer.decision]
    else:
        label = "Skipped" if answer.declined else "Answered"
    return Closed(interrupt_id=interrupt_id, label=label)


def closing(closes: Closed | None, outcomes: list[Outcome]) -> list[Outcome]:
    """``outcomes`` of a run that resumed a pause, led by ``closes`` unless the same pause is shown again."""
    if closes is None or any(
        isinstance(o, (Ask, ApprovalRequest)) and o.interrupt_id == closes.interrupt_id for o in outcomes
    ):
        return outcomes
    return [closes, *outcomes]


def resume_value(answer: ClarificationAnswer | ApprovalDecision) -> dict[str, Any]:
    """What ``Command(resume=…)`` carries for a person's answer or decision."""
    return answer.model_dump(mode="json")


def read_clarification(raw: object) -> ClarificationAnswer | Cancelled:
    """A question's resume value, validated strictly; anything malformed counts as a skip."""
    try:
        return Cancelled.model_validate(raw)
    except ValidationError:
        pass
    try:
        return ClarificationAnswer.model_validate(raw, strict=True)
    except ValidationError:
        # A malformed resume is treated as a skip rather than guessed at.
        return ClarificationAnswer(declined=True)


def read_decision(raw: object) -> ApprovalDecision | Cancelled:
    """An approval's resume value, validated strictly; anything malformed cancels."""
    try:
        return Cancelled.model_validate(raw)
    except ValidationError:
        pass
    try:
        return ApprovalDecision.model_validate(raw, strict=True)
    except ValidationError:
        return ApprovalDecision(decision="cancel")
