"""Reading a question's shape in code: comparison, progress, named day, terms.

The Planner proposes a retrieval; these deterministic readings make it safe
for a small model (the seed's "Improve Retrieval Strategy Ordering"): a
comparison or progress question always gets a date range, a named day always
disables widening, and terms are normalized through the vocabulary so an
English question finds a Korean log.

Terms follow movement families: a question naming a family ("overhead
press") searches every variation in it (seated, push press, dumbbell …),
while one naming a variation ("push press") searches that one only. Generic
words ("workouts", 운동, 세션) are read but never become terms, so a question
made only of them reads recent entries by date instead of searching.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import date

from pydantic import BaseModel, ConfigDict, Field

from engine.domains.registry import ActiveDomainContext
from engine.language.dates import DateMention, resolve_date
from engine.language.families import GENERIC
from engine.language.vocab import Match, Vocabulary

DEFAULT_DAYS = 7
_LETTER_RUN = re.compile(r"[^\W\d_]{3,}")
TREND_DAYS = 30


class QuestionShape(BaseModel):
    """What code can tell about a question without the model."""

    model_config = ConfigDict(frozen=True)

    intents: list[str]
    """Keys of the domains' ``query_keywords`` that appear (``comparison``, ``progress``, …)."""
    terms: list[str]
    """Canonical terms as the question names them (``overhead press``), generic words left out."""
    date: DateMention | None
    """A named day, if any (``last Monday``, ``어제``, ``2026-11-20``)."""
    search_terms: list[str] = Field(default_factory=list)
    """What to search and compute facts for: ``terms`` with each family widened to its members."""
    families: dict[str, list[str]] = Field(default_factory=dict)
    """Each family the question names -> its members (the variations the answer should name)."""
    generic: list[str] = Field(default_factory=list)
    """Generic words the question used (``workouts``, ``운동``); never search terms."""

    @property
    def wanted(self) -> list[str]:
        """``search_terms``, or ``terms`` for a shape stored before families existed."""
        return self.search_terms or self.terms

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


def read_question(
    text: str, ctx: ActiveDomainContext, today: date, known_names: Iterable[str] = ()
) -> QuestionShape:
    """Read a question's intents, terms (widened by family), generic words and named day.

    Args:
        text: The question.
        ctx: The active domains (vocabulary, families, generic words).
        today: Base for relative dates.
        known_names: The person's own exercise names the vocabulary lacks
            (``zercher squat (kettlebell)``), so a question can name them too.

    Returns:
        The question's shape; ``terms`` (and ``search_terms``) are empty when
        it names only generic words.
    """
    intents = _keyword_vocab(ctx).terms(text)
    matches = ctx.question_vocabulary.find(text)
    named = list(dict.fromkeys(m.canonical for m in matches if m.canonical != GENERIC))
    own = [n for n in dict.fromkeys(known_names) if n.strip() and ctx.vocabulary.canonical(n) is None]
    if own:
        named.extend(t for t in Vocabulary({n: [] for n in own}).terms(text) if t not in named)
    families = {t: list(ctx.families.members(t)) for t in named if ctx.families.is_family(t)}
    return QuestionShape(
        intents=intents,
        terms=named,
        date=resolve_date(text, today),
        search_terms=ctx.families.expand(named),
        families=families,
        generic=list(dict.fromkeys(m.spelling for m in matches if m.canonical == GENERIC)),
    )


def _uncovered(word: str, matches: Sequence[Match]) -> bool:
    """Whether a run of three or more letters of ``word`` lies outside every match (particles are shorter)."""
    text = unicodedata.normalize("NFC", word)
    chars = list(text)
    for m in matches:
        chars[m.start : m.end] = [" "] * (m.end - m.start)
    return _LETTER_RUN.search("".join(chars)) is not None


def search_terms(words: Iterable[str], ctx: ActiveDomainContext) -> list[str]:
    """Terms another reader proposed (the Planner), made safe to search by.

    Each word is read like a question: vocabulary spellings become canonical
    terms widened by family and generic words are dropped. A word the
    vocabulary does not cover (``jefferson curl``: only ``curl`` is known) is
    kept as written instead, since it may be a name the person logged, found
    by its raw text.

    Args:
        words: Proposed terms, in any language.
        ctx: The active domains.

    Returns:
        Distinct terms, in order; empty when every word was generic.
    """
    out: dict[str, None] = {}
    for word in words:
        if not word.strip():
            continue
        matches = ctx.question_vocabulary.find(word)
        if not matches or _uncovered(word, matches):
            out.setdefault(word.strip(), None)
            continue
        named = [m.canonical for m in matches if m.canonical != GENERIC]
        for term in ctx.families.expand(named):
            out.setdefault(term, None)
    return list(out)
