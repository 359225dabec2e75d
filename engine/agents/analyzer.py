"""The Analyzer: do the facts and entries answer the question, and what is missing?"""

from __future__ import annotations

from engine.agents.base import Agent, Data, Inputs, Names
from engine.agents.schemas import AnalyzerOutput


class AnalyzerInput(Inputs):
    """What the Analyzer is shown."""

    domains: Names
    """The domains loaded for this question."""
    expertise: str
    """The loaded domains' expertise."""
    other_domains: Names
    """The domains it may ask to widen to."""
    question: str
    """The person's question."""
    facts: Data
    """The facts code computed (:func:`engine.facts.facts_text`)."""
    entries: Data
    """The newest entries found, one line each (:func:`engine.agents.briefing.entry_lines`)."""
    responses: dict[str, str]
    """The person's answers to earlier questions, by the gap they answered."""
    notes: list[str]
    """Retrieval's warnings and what the knowledge base found."""


ANALYZER = Agent("analyzer", AnalyzerInput, AnalyzerOutput)
