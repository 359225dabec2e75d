"""From facts to the answer a person reads: the table of values, and the Answer.

The answer is composed from claims (:mod:`engine.query.claims`): the
model's that passed the check and code's own for what it read the question
to ask, each written by code (:mod:`engine.query.sentences`). With neither,
the facts themselves, written by code and marked partial (never unchecked
text, and never "I have no entries" while entries exist). Citations are the
entries the stated values rest on.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from engine import texts
from engine.agents.schemas import SynthesizerOutput
from engine.domains.registry import ActiveDomainContext
from engine.entries.model import Entry
from engine.facts import Fact
from engine.language.periods import Period
from engine.outcomes import Answer, Citation
from engine.query import articles as kb
from engine.query.articles import ArticleNote
from engine.query.by_code import chosen, written_by_code
from engine.query.claims import Kept, check_claims
from engine.query.number_reading import StatedValue, stated_values
from engine.query.questions import QuestionShape
from engine.query.references import RefTable, build_table
from engine.query.render import Language, Names, korean_names
from engine.query.sentences import compose
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


def names_for(table: RefTable, ctx: ActiveDomainContext, lang: Language) -> Names:
    """Exercise names in the person's language, for the terms the values are about, and the domains' labels."""
    if lang != "ko":
        return Names()
    return Names(korean_names({t for r in table.refs for t in r.terms}, ctx.vocabulary_map), ctx.registry.labels("ko"))


async def citations(store: EntryStore, user: str, ids: Sequence[str]) -> list[Citation]:
    """The entries cited, oldest first (at most :data:`MAX_CITATIONS`, the newest of them)."""
    entries = await store.by_ids(user, list(dict.fromkeys(ids)))
    entries = sorted(entries, key=lambda e: (e.occurred_on, e.created_at))[-MAX_CITATIONS:]
    return [
        Citation(title=f"{e.occurred_on.isoformat()} · {e.summary}", ref=f"entry:{e.entry_id}", on=e.occurred_on)
        for e in entries
    ]


def shown_to(draft: SynthesizerOutput, table: RefTable) -> RefTable:
    """The values the model was offered (its claims may cite only these); all of them for a draft
    that does not say (stored before the offer was kept)."""
    if not draft.offered:
        return table
    offered = set(draft.offered)
    return RefTable(refs=[r for r in table.refs if r.id in offered])


def gaps_for(table: RefTable, shape: QuestionShape) -> None:
    """Add a ``G`` value for each exercise the question names that nothing was found of (in its period)."""
    found = {t for r in table.refs if r.kind in ("fact", "entry") for t in r.terms}
    found |= {r.key.split(".", 1)[0] for r in table.of("fact")}
    period = shape.period
    scope = (period.start, period.end) if period is not None else None
    for term in shape.terms:
        if term in found or shape.families.get(term):
            continue
        where = f" in {scope[0].isoformat()} to {scope[1].isoformat()}" if scope else ""
        table.add("gap", f"no entries of {term}{where}", label="nothing found", terms=[term], scope=scope)


async def answer_outcome(
    store: EntryStore,
    user: str,
    table: RefTable,
    ctx: ActiveDomainContext,
    lang: str,
    draft: SynthesizerOutput | None,
    must: Sequence[Kept],
    *,
    partial: bool,
    articles: Sequence[ArticleNote] = (),
    wanted: Sequence[str] = (),
) -> Answer:
    """The Answer the person reads: the model's claims and code's, every sentence written by code.

    With no claim that passed and nothing code read the question to ask, code
    writes the answer from the facts (or quotes the articles), marked partial.

    Args:
        draft: The Synthesizer's claims (None when it was not asked).
        must: The claims code makes for what it read the question to ask.
        articles: The knowledge-base sections the model was shown.
        wanted: The exercises the question names (a code-written answer shows theirs first).
    """
    language: Language = "ko" if lang == "ko" else "en"
    names = names_for(table, ctx, language)
    now = datetime.now(UTC)
    check = check_claims(draft.claims, draft.remark, draft.sources, shown_to(draft, table)) if draft else None
    if check is not None and (check.usable or must):
        text, used_refs = compose(check.kept, must, check.remark, table, language, names)
        ids = [i for r in used_refs for i in r.entry_ids]
        named = [*check.sources, *(r.id for r in used_refs if r.kind in ("source", "article"))]
        cited = await citations(store, user, ids) + kb.cited(articles, table, "", named, now)
        return Answer(text=text, citations=cited, partial=partial or (not check.usable and not must), language=language)
    if must:
        text, used_refs = compose([], must, "", table, language, names)
        ids = [i for r in used_refs for i in r.entry_ids]
        return Answer(text=text, citations=await citations(store, user, ids), partial=partial, language=language)
    quoted, from_articles = kb.excerpts(articles, now)
    if quoted and not chosen(table):
        return Answer(
            text="\n".join([texts.articles_only_header(language), *quoted]),
            citations=from_articles,
            partial=True,
            language=language,
        )
    text, ids = written_by_code(table, language, names, texts.by_code_header(language), wanted)
    if quoted:
        text = "\n".join([text, "", texts.articles_header(language), *quoted])
    return Answer(
        text=text, citations=await citations(store, user, ids) + from_articles, partial=True, language=language
    )
