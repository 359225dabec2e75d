"""Which values one answer's prompt offers: sized to the question's terms and period, and to a budget.

Retrieval computes every fact it can (:mod:`engine.query.records`, the
retrieved window); the model needs far fewer. The offer keeps, in order,
until the values' share of the prompt budget is spent:

1. the facts that answer what code read the question to ask
   (:func:`engine.query.asked.answering`), always;
2. the question's own values, the periods it names and what code found
   nothing of (``Q``, ``D``, ``G``: a line each);
3. facts about the exercises the question names (all of them when it names
   none): whole-history and named-period facts before the retrieved
   window's, records and counts before dates and changes, a percentage after
   the change it restates, a single day's volume last;
4. the newest entries, each cut to the exercises the question names (before
   the facts when the question asks to see entries: "show me my bench").

Ids stay as retrieval gave them, so an id means one value all turn; the
schema's ``enum`` holds only the ids offered.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.agents.budget import tokens
from engine.query.by_code import rank
from engine.query.claims import Kept
from engine.query.entries_shown import cut_entry
from engine.query.questions import QuestionShape
from engine.query.references import Ref, RefTable

MAX_ENTRIES = 8


def _subject(ref: Ref) -> str:
    return ref.key.split(".", 1)[0]


def _order(ref: Ref, wanted: set[str]) -> tuple[int, int, int, int]:
    about = 0 if not wanted or _subject(ref) in wanted else 1
    window = 0 if ref.scope is not None else 1
    parts = ref.key.split(".")
    detail = 2 if parts[1:2] == ["volume"] else 1 if ref.key.endswith("_pct") else 0
    return about, window, detail, rank(ref.key)


def offer(table: RefTable, must: Sequence[Kept], shape: QuestionShape, budget: int, *, lists: bool = False) -> RefTable:
    """The values to offer, within ``budget`` tokens of prompt lines (see the module docstring).

    Args:
        lists: The question asks to see entries ("show me my bench sessions"): entries before facts.
    """
    wanted = {t.lower() for t in shape.wanted}
    chosen: dict[str, Ref] = {}
    spent = 0

    def take(ref: Ref, *, always: bool = False) -> bool:
        nonlocal spent
        if ref.id in chosen:
            return True
        cost = tokens(ref.line()) + 1
        if not always and spent + cost > budget:
            return False
        chosen[ref.id] = ref
        spent += cost
        return True

    for k in must:
        for ref in k.refs:
            take(ref, always=True)
    for ref in table.refs:
        if ref.kind in ("question", "date", "gap", "source", "article", "rule"):
            take(ref, always=True)
    facts = sorted((r for r in table.of("fact") if r.id not in chosen), key=lambda r: _order(r, wanted))
    entries = list(reversed([cut_entry(r, shape.wanted) for r in table.of("entry")][-MAX_ENTRIES:]))
    for group in (entries, facts) if lists else (facts, entries):
        for ref in group:
            if not take(ref):
                break
    # The table's order (facts, entries, the question's values, periods, articles) reads best in the prompt.
    return RefTable(refs=[chosen[r.id] for r in table.refs if r.id in chosen])
