"""Small records the agents read: conversation history and earlier answers."""

from __future__ import annotations

from typing import TypedDict


class HistoryItem(TypedDict):
    role: str
    """``user`` or ``assistant``."""
    text: str


class ClarificationItem(TypedDict):
    question: str
    answer: str
