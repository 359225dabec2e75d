"""Outcomes of a turn that closed an open question or plan (`engine.Closed` leads them)."""

from __future__ import annotations

from engine import ApprovalRequest, Ask, Closed, Outcome


def after_closing(outcomes: list[Outcome], pending: Ask | ApprovalRequest, label: str | None = None) -> list[Outcome]:
    """What the turn showed after closing ``pending``: asserts that its `Closed` comes first (with ``label``)."""
    assert outcomes, "the turn showed nothing"
    closed = outcomes[0]
    assert isinstance(closed, Closed) and closed.interrupt_id == pending.interrupt_id, outcomes
    assert label is None or closed.label == label, closed
    return outcomes[1:]
