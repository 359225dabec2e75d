"""From facts to the answer a person reads: the table of values, and the Answer.

The answer is the model's text with every reference rendered by code, when
that text passed the structural check; otherwise the facts themselves,
written by code and marked partial (never the unchecked text, and never "I
have no entries" while entries exist). Citations are the entries the values
rest on.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from engine import texts
from engine.domains.registry import ActiveDomainContext
from engine.entries.model import Entry
from engine.facts import Fact
from engine.outcomes import Answer, Citation
from engine.query import articles as kb
from engine.query.articles import ArticleNote
from engine.query.by_code import chosen, written_by_code
from engine.query.grounding import GroundingReport
from engine.query.number_reading import StatedValue, stated_values
from engine.language.periods import Period
from engine.query.questions import QuestionShape
from engine.query.references import RefTable, build_table, used
from engine.query.render import Language, korean_names, render_text
from engine.store.entries import EntryStore

MAX_CITATIONS = 10


def question_values(text: str, shape: QuestionShape, periods: Sequence[Period]) -> list[StatedValue]:
    """The values the question states itself, apart from the day and periods it names (offered as dates)."""
    for phrase in [shape.date.phrase if shape.date is not None else "", *(p.phrase for p in periods)]:
        if phrase:
            text = text.replace(phrase, " ")
    return list(stated_values(text))


def table_for(
    facts: Sequence[Fact],
    entries: Sequence[Entry],
    stated: Sequence[StatedValue],
    shape: QuestionShape,
    periods: Sequence[Period],
) -> RefTable:
    """The values an answer may refer to: facts, entries, the question's values, its day and periods."""
    days = []
    if shape.date is not None and shape.date.status == "ok" and shape.date.on is not None:
        days.append((shape.date.phrase, shape.date.on, shape.date.on))
    days += [(p.phrase, p.start, p.end) for p in periods if not p.ever]
    return build_table(facts, entries, [v.text for v in stated], days)


def names_for(table: RefTable, ctx: ActiveDomainContext, lang: Language) -> dict[str, str]:
    """Exercise names in the person's language, for the terms the values are about."""
    if lang != "ko":
        return {}
    return korean_names({t for r in table.refs for t in r.terms}, ctx.vocabulary_map)


async def citations(store: EntryStore, user: str, ids: Sequence[str]) -> list[Citation]:
    """The entries cited, oldest first (at most :data:`MAX_CITATIONS`, the newest of them)."""
    entries = await store.by_ids(user, list(dict.fromkeys(ids)))
    entries = sorted(entries, key=lambda e: (e.occurred_on, e.created_at))[-MAX_CITATIONS:]
    return [
        Citation(title=f"{e.occurred_on.isoformat()} · {e.summary}", ref=f"entry:{e.entry_id}", on=e.occurred_on)
        for e in entries
    ]


async def answer_outcome(
    store: EntryStore,
    user: str,
    table: RefTable,
    ctx: ActiveDomainContext,
    lang: str,
    draft: str,
    *,
    by_code: bool,
    report: GroundingReport | None,
    evaluation: dict[str, Any],
    partial: bool,
    articles: Sequence[ArticleNote] = (),
    sources: Sequence[str] = (),
) -> Answer:
    """The Answer the person reads (see the module docstring).

    Args:
        articles: The knowledge-base sections the model was shown.
        sources: The article ids the model said it drew on (``K1``).
    """
    language: Language = "ko" if lang == "ko" else "en"
    if by_code:
        return Answer(text=draft, partial=partial)
    names = names_for(table, ctx, language)
    now = datetime.now(UTC)
    if report is not None and report.ok and draft.strip():
        text = render_text(draft, table, language, names, report.attached)
        ids = [i for ref_id in used(draft) if (ref := table.get(ref_id)) is not None for i in ref.entry_ids]
        failed = bool(evaluation) and evaluation.get("verdict") != "pass"
        cited = await citations(store, user, ids) + kb.cited(articles, table, draft, sources, now)
        return Answer(text=text, citations=cited, partial=partial or failed)
    quoted, from_articles = kb.excerpts(articles, now)
    if quoted and not chosen(table):
        return Answer(text="\n".join([texts.articles_only_header(language), *quoted]), citations=from_articles,
                      partial=True)
    text, ids = written_by_code(table, language, names, texts.by_code_header(language))
    if quoted:
        text = "\n".join([text, "", texts.articles_header(language), *quoted])
    return Answer(text=text, citations=await citations(store, user, ids) + from_articles, partial=True)
