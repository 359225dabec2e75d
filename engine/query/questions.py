"""Reading a question's shape in code: comparison, progress, named day, terms.

The Planner proposes a retrieval; these deterministic readings make it safe
for a small model (the seed's "Improve Retrieval Strategy Ordering"): a
comparison or progress question always gets a date range, a named day always
disables widening, and terms are normalized through the vocabulary so an
English question finds a Korean log.
"""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, ConfigDict

from engine.language.dates import DateMention, resolve_date
from engine.domains.registry import ActiveDomainContext
from engine.language.vocab import Vocabulary

DEFAULT_DAYS = 7
TREND_DAYS = 30


class QuestionShape(BaseModel):
    """What code can tell about a question without the model."""

    model_config = ConfigDict(frozen=True)

    intents: list[str]
    """Keys of the domains' ``query_keywords`` that appear (``comparison``, ``progress``, …)."""
    terms: list[str]
    """Canonical vocabulary terms in the question."""
    date: DateMention | None
    """A named day, if any (``last Monday``, ``어제``, ``2026-11-20``)."""

    @property
    def is_comparison(self) -> bool:
        return "comparison" in self.intents or "progress" in self.intents

    @property
    def is_trend(self) -> bool:
        return "progress" in self.intents

    @property
    def default_days(self) -> int:
        return TREND_DAYS if self.is_trend else DEFAULT_DAYS


def _keyword_vocab(ctx: ActiveDomainContext) -> Vocabulary:
    merged: dict[str, list[str]] = {}
    for domain in ctx.domains:
        for intent, words in domain.query_keywords.items():
            merged.setdefault(intent, []).extend(w for w in words if w not in merged.get(intent, []))
    return Vocabulary(merged)


def read_question(text: str, ctx: ActiveDomainContext, today: date) -> QuestionShape:
    """Read a question's intents, terms and named day."""
    intents = _keyword_vocab(ctx).terms(text)
    return QuestionShape(intents=intents, terms=ctx.vocabulary.terms(text), date=resolve_date(text, today))
