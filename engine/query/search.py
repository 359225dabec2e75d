"""How code reads a question and what retrieval finds, as JSON-ready data (``python -m bot search``).

No model is called: this is the code path a question takes before the Planner, shown whole so a
person can see why an answer used the entries it did.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from engine.domains.registry import ActiveDomainContext
from engine.entries.export import all_entries
from engine.entries.model import Entry
from engine.language.unknown import unknown_names
from engine.query.asking import shows_list
from engine.query.questions import read_question
from engine.query.retrieval import RetrievalResult, Retriever, normalize_instructions
from engine.store.entries import EntryStore


async def search_report(
    store: EntryStore | None, question: str, user: str, today: date, ctx: ActiveDomainContext, path: Path
) -> dict[str, Any]:
    """``question`` read on ``today`` in ``ctx``'s domains and retrieved from ``user``'s entries
    (``store`` None: nothing is stored yet at ``path``)."""
    result = RetrievalResult(warnings=[f"no entries are stored yet ({path} does not exist)"])
    found: list[Entry] = []
    own: list[str] = []
    if store is not None:
        # The person's own unknown names count as terms, so a question can name them.
        own = [u.name for u in unknown_names(await all_entries(store, user), ctx.vocabulary)]
    shape = read_question(question, ctx, today, known_names=own)
    instructions = normalize_instructions([], shape, ctx, lists=shows_list(question))
    if store is not None:
        result, found = await Retriever(store).run(
            user, instructions, today, shape.wanted, min_days=2 if shape.is_comparison else 1,
            canonical=ctx.vocabulary.canonicals,
        )  # fmt: skip
    wanted = set(shape.wanted)
    return {
        "question": question,
        "user": user,
        "today": today.isoformat(),
        "domains": ctx.domains_loaded,
        "reading": {
            "terms": shape.terms,
            "families": shape.families,
            "search_terms": shape.wanted,
            "generic_words_ignored": shape.generic,
            "intents": shape.intents,
            "named_day": shape.date.model_dump(mode="json") if shape.date is not None else None,
            "periods": [p.model_dump(mode="json") for p in shape.periods],
            "not_read": shape.unread,
        },
        "instructions": [i.model_dump(mode="json", exclude_defaults=True) for i in instructions],
        "attempts": [a.model_dump(mode="json") for a in result.attempts],
        "warnings": result.warnings,
        "entries": [
            {
                "date": e.occurred_on.isoformat(),
                "domain": e.domain,
                "summary": e.summary,
                "matched": [t for t in e.terms if t in wanted],
                "entry_id": e.entry_id,
            }
            for e in found
        ],
    }
