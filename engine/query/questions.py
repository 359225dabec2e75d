"""Reading a question's shape in code: comparison, progress, named day, terms.

The Planner proposes a retrieval; these deterministic readings make it safe
for a small model (the seed's "Improve Retrieval Strategy Ordering"): a
comparison or progress question always gets a date range, a named day always
disables widening, and terms are normalized through the vocabulary so an
English question finds a Korean log.

Terms follow movement families: a lift's name ("overhead press") searches
that lift only; a family word ("presses", "overhead press variations",
"all my squats", "스쿼트 종류") searches every variation in the family
(seated, push press, dumbbell …). Generic
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
from engine.language.dates import DateMention
from engine.language.families import GENERIC, family_named
from engine.language.periods import Period, read_when
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
    """A named day outside every period, if any (``last Monday``, ``어제``, ``2026-11-20``)."""
    periods: list[Period] = Field(default_factory=list)
    """The periods the question names, in order (``February 2019``, ``the last two weeks``, ``ever``)."""
    unread: list[str] = Field(default_factory=list)
    """Words that look like a period but were not read; the answer says how it took them."""
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
    def period(self) -> Period | None:
        """The bounded period the question is about (the first one named), if any."""
        return next((p for p in self.periods if not p.ever), None)

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


def read_question(text: str, ctx: ActiveDomainContext, today: date, known_names: Iterable[str] = ()) -> QuestionShape:
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
    source = unicodedata.normalize("NFC", text)
    matches = ctx.question_vocabulary.find(source)
    named: list[str] = []
    whole: list[str] = []
    for m in matches:
        if m.canonical == GENERIC:
            continue
        family = family_named(m.canonical)
        term = family or m.canonical
        named.append(term)
        if family or (ctx.families.is_family(term) and _names_kind(source, m)):
            whole.append(term)
    named = list(dict.fromkeys(named))
    own = [n for n in dict.fromkeys(known_names) if n.strip() and ctx.vocabulary.canonical(n) is None]
    if own:
        named.extend(t for t in Vocabulary({n: [] for n in own}).terms(text) if t not in named)
    families = {t: list(ctx.families.members(t)) for t in dict.fromkeys(whole) if ctx.families.is_family(t)}
    when = read_when(text, today)
    return QuestionShape(
        intents=intents,
        terms=named,
        date=when.day,
        periods=when.periods,
        unread=when.unread,
        search_terms=ctx.families.expand(named, families),
        families=families,
        generic=list(dict.fromkeys(m.spelling for m in matches if m.canonical == GENERIC)),
    )


_KIND_AFTER = re.compile(r"\s*(?:variations?|variants?|family|families|types?|kinds?|종류|계열|류|변형)(?![\w])", re.I)
_KIND_BEFORE = re.compile(
    r"(?:\b(?:all|every|any|each)\s+(?:(?:of\s+)?(?:my|the)\s+)?(?:(?:types?|kinds?|variations?|variants?)\s+of\s+)?"
    r"|\b(?:types?|kinds?|variations?|variants?)\s+of\s+(?:my\s+|the\s+)?|(?:모든|전체|각종)\s*)$",
    re.I,
)


def _names_kind(text: str, m: Match) -> bool:
    """Whether a lift's name is used as a kind ("squat variations", "all my squats", "스쿼트 종류")."""
    return bool(_KIND_AFTER.match(text, m.end)) or _KIND_BEFORE.search(text[max(0, m.start - 40) : m.start]) is not None


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
    terms (a family word widened to its members) and generic words are dropped. A word the
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
        for m in matches:
            if m.canonical == GENERIC:
                continue
            family = family_named(m.canonical)
            # A lift's name is that lift; only a family word widens, as in a question.
            for term in ctx.families.members(family) if family else (m.canonical,):
                out.setdefault(term, None)
    return list(out)
