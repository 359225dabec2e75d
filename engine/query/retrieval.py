"""Fetching a person's entries for a question, with progressive date widening.

An empty date range widens 7 → 14 → 30 → 90 days, each attempt recorded with
its ``expansion_tier``, stopping at the first tier that has entries. A named
day (``explicit_date``) never widens. When every tier is empty the search
falls back to normalized terms and says so.

Search terms are canonical and meaningful: the Planner's terms are read
through the vocabulary like the question (a family widened to its
variations), generic words (``workouts``, 운동) are dropped, and a keyword
search left with no term becomes a date range.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING, Literal

import structlog
from pydantic import BaseModel, Field

from engine.agents.schemas import RetrievalInstruction
from engine.entries.model import Entry
from engine.language.dates import resolve_date
from engine.query.questions import QuestionShape, search_terms
from engine.store.entries import EntryStore

if TYPE_CHECKING:
    from engine.domains.registry import ActiveDomainContext

log = structlog.get_logger("engine.retrieval")

TIERS = (7, 14, 30, 90)
EXHAUSTED_WARNING = "Progressive expansion exhausted, falling back to term search"
MAX_ENTRIES = 400


class RetrievalAttempt(BaseModel):
    """One query that was run."""

    strategy: Literal["date_range", "keyword", "recent", "explicit_date"]
    start: date | None = None
    end: date | None = None
    expansion_tier: int = 0
    """0 for the first range; 1, 2, 3 for each widening."""
    terms: list[str] = Field(default_factory=list)
    found: int = 0


class RetrievalResult(BaseModel):
    """What retrieval found and how."""

    entry_ids: list[str] = Field(default_factory=list)
    attempts: list[RetrievalAttempt] = Field(default_factory=list)
    expansion_exhausted: bool = False
    warnings: list[str] = Field(default_factory=list)


def _tiers_from(days: int) -> list[int]:
    """The widening ladder starting at ``days``: 7 → 7, 14, 30, 90; 30 → 30, 90."""
    return [days, *[t for t in TIERS if t > days]]


def _generic_word(word: str, shape: QuestionShape) -> bool:
    folded = " ".join(word.casefold().split())
    generic = {" ".join(g.casefold().split()) for g in shape.generic}
    return folded in generic or folded.removesuffix("s") in generic or f"{folded}s" in generic


def _meaningful(
    inst: RetrievalInstruction, shape: QuestionShape, ctx: ActiveDomainContext | None
) -> RetrievalInstruction:
    """The instruction with canonical, non-generic terms; a keyword search left with none reads a date range."""
    if not inst.terms:
        return inst
    if ctx is not None:
        terms = search_terms(inst.terms, ctx)
    else:
        terms = [t for t in inst.terms if t.strip() and not _generic_word(t, shape)]
    if not terms and inst.strategy == "keyword" and not shape.wanted:
        return RetrievalInstruction(strategy="date_range", days_back=shape.default_days)
    return inst.model_copy(update={"terms": terms})


def normalize_instructions(
    planned: Sequence[RetrievalInstruction],
    shape: QuestionShape,
    ctx: ActiveDomainContext | None = None,
    *,
    lists: bool = False,
) -> list[RetrievalInstruction]:
    """Make the Planner's retrieval safe: code's reading of the question wins where they differ.

    With no planned instructions this is the plan made in code.

    Args:
        planned: The Planner's instructions (none when code planned the question).
        shape: Code's reading of the question.
        ctx: The active domains; when given, the Planner's terms are read through
            the vocabulary (canonical, widened by family). Without it, only the
            question's generic words are dropped from them.
        lists: The question asks to see entries ("find/show/list all my X"): a
            keyword search of its terms over the whole history (within the period
            or day it names, when it names one).
    """
    planned = [_meaningful(inst, shape, ctx) for inst in planned]
    out: list[RetrievalInstruction] = []
    bounded = [p for p in shape.periods if not p.ever]
    if bounded:
        # A period the person named is what was asked: fetched as named (both of "this week vs last week"),
        # only its entries of the terms asked about, never widened.
        return [
            RetrievalInstruction(strategy="date_range", start=p.start, end=p.end, terms=shape.wanted) for p in bounded
        ]
    if shape.date is not None and shape.date.status == "ok":
        # A named day is what was asked: the Planner's keyword or recent searches would add other days.
        return [
            RetrievalInstruction(strategy="date_range", explicit_date=True, date=shape.date.phrase, terms=shape.wanted)
        ]
    if lists and shape.wanted:
        # "Show me all my bench workouts" lists them all, by term, whatever the Planner chose.
        return [RetrievalInstruction(strategy="keyword", terms=shape.wanted)]
    if shape.is_comparison:
        days = next((i.days_back for i in planned if i.strategy == "date_range" and i.days_back), None)
        out.append(
            RetrievalInstruction(strategy="date_range", days_back=days or shape.default_days, terms=shape.wanted)
        )
    for inst in planned:
        if (
            inst.strategy == "keyword"
            or (inst.strategy == "date_range" and not out)
            or (inst.strategy == "recent" and not any(o.strategy == "recent" for o in out))
        ):
            out.append(inst)
    if not out:
        # Nothing usable planned: terms when there are some, else the last week.
        if shape.wanted:
            out.append(RetrievalInstruction(strategy="keyword", terms=shape.wanted))
        else:
            out.append(RetrievalInstruction(strategy="date_range", days_back=shape.default_days))
    return out[:3]


Watch = Callable[[RetrievalAttempt], Awaitable[None]]
"""Hears of each attempt before it runs (``found`` still 0): the window or terms code is about to fetch."""


async def _nobody(attempt: RetrievalAttempt) -> None:
    """No one watches."""


class Retriever:
    """Runs retrieval instructions against the entry store."""

    def __init__(self, store: EntryStore) -> None:
        self._store = store

    async def run(
        self,
        user: str,
        instructions: Sequence[RetrievalInstruction],
        today: date,
        vocab_terms: Sequence[str],
        *,
        min_days: int = 1,
        canonical: Collection[str] = (),
        watch: Watch | None = None,
    ) -> tuple[RetrievalResult, list[Entry]]:
        """Run every instruction; entries are de-duplicated, oldest first.

        Args:
            min_days: a date range counts as found once its entries span this many
                distinct days; a comparison needs 2 (today's session and an earlier one).
            canonical: Terms that are canonical names: a keyword search finds entries naming
                them, not entries naming only a longer name ("seated overhead press").
            watch: Told of each attempt before it runs, so the person can see what is fetched.
        """

        result = RetrievalResult()
        found: dict[str, Entry] = {}
        for inst in instructions:
            entries = await self._one(user, inst, today, vocab_terms, result, min_days, canonical, watch or _nobody)
            for e in entries:
                found.setdefault(e.entry_id, e)
        ordered = sorted(found.values(), key=lambda e: (e.occurred_on, e.created_at))[-MAX_ENTRIES:]
        result.entry_ids = [e.entry_id for e in ordered]
        return result, ordered

    async def _one(
        self,
        user: str,
        inst: RetrievalInstruction,
        today: date,
        vocab_terms: Sequence[str],
        result: RetrievalResult,
        min_days: int,
        canonical: Collection[str],
        watch: Watch,
    ) -> list[Entry]:
        terms = list(dict.fromkeys([*inst.terms, *vocab_terms]))
        if inst.strategy == "keyword":
            await watch(RetrievalAttempt(strategy="keyword", terms=terms))
            entries = await self._store.search(user, terms, exact=canonical) if terms else []
            result.attempts.append(RetrievalAttempt(strategy="keyword", terms=terms, found=len(entries)))
            return entries
        if inst.strategy == "recent":
            await watch(RetrievalAttempt(strategy="recent"))
            entries = await self._store.recent(user, limit=20)
            result.attempts.append(RetrievalAttempt(strategy="recent", found=len(entries)))
            return entries
        if inst.start is not None and inst.end is not None:
            await watch(RetrievalAttempt(strategy="date_range", start=inst.start, end=inst.end, terms=inst.terms))
            entries = await self._store.between(user, inst.start, inst.end)
            if inst.terms:
                wanted = set(inst.terms)
                entries = [e for e in entries if wanted & set(e.terms)]
            result.attempts.append(
                RetrievalAttempt(
                    strategy="date_range", start=inst.start, end=inst.end, terms=inst.terms, found=len(entries)
                )
            )
            # A period the person named is what was asked; widening would answer another question.
            return entries
        if inst.explicit_date:
            mention = resolve_date(inst.date or "", today)
            if mention is not None and mention.status == "ok" and mention.on is not None:
                day = mention.on
                await watch(RetrievalAttempt(strategy="explicit_date", start=day, end=day, terms=inst.terms))
                entries = await self._store.between(user, day, day)
                result.attempts.append(
                    RetrievalAttempt(strategy="explicit_date", start=day, end=day, found=len(entries))
                )
                # A named day is what was asked; widening would answer another question.
                return entries
        for tier, days in enumerate(_tiers_from(inst.days_back or TIERS[0])):
            start = today - timedelta(days=days - 1)
            await watch(RetrievalAttempt(strategy="date_range", start=start, end=today, expansion_tier=tier))
            entries = await self._store.between(user, start, today)
            result.attempts.append(
                RetrievalAttempt(strategy="date_range", start=start, end=today, expansion_tier=tier, found=len(entries))
            )
            if len({e.occurred_on for e in entries}) >= min_days:
                return entries
        if entries:
            # Entries, but too few days to compare: use what the widest tier had.
            return entries
        result.expansion_exhausted = True
        result.warnings.append(EXHAUSTED_WARNING)
        log.warning("retrieval.exhausted", message=EXHAUSTED_WARNING)
        if terms:
            await watch(RetrievalAttempt(strategy="keyword", terms=terms))
        entries = await self._store.search(user, terms, exact=canonical) if terms else []
        result.attempts.append(RetrievalAttempt(strategy="keyword", terms=terms, found=len(entries)))
        return entries
