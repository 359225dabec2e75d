"""Which whole-history facts a question needs, computed by indexed SQL aggregates.

Retrieval reads a window of recent entries for comparisons; records, counts
over a named period, first and last times and progressions come from the
person's whole history instead (:mod:`engine.store.history`), so "my
heaviest bench ever" or "how often did I train in March 2021" is answered
from all of it, never from the last 90 days:

* every exercise the question names (a family widened to its variations,
  each kept apart and named): records, sessions, first and latest session,
  progression, the most reps at a weight the question states;
* no exercise named but a record asked for ("my strongest lift", "역대 최고"):
  the exercises with the best estimated 1RMs, their two records each;
* a named period, a frequency question, or one naming nothing and asking no
  record: training days;
* runs and swims when their domain is active: count, total, longest, fastest.

A bounded period the question names ("in 2021") scopes all of it; "ever"
or no period means the whole history.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from engine.domains.registry import DomainRegistry
from engine.facts import Fact
from engine.facts.history import bout_facts, lift_facts, session_facts
from engine.language.periods import Period
from engine.query.by_code import rank
from engine.query.number_reading import StatedValue
from engine.query.questions import QuestionShape
from engine.store.bouts import BoutStore
from engine.store.history import EVER, HistoryStore

_WEIGHT_UNITS = {"kg": "kg", "kgs": "kg", "키로": "kg", "킬로": "kg", "lb": "lb", "lbs": "lb"}
_RECORD_INTENTS = frozenset({"record", "estimate"})
# Record words the domains' keywords may not hold ("strongest lift"), read in code.
_RECORD_WORDS = re.compile(
    r"\b(?:strongest|heaviest|best|records?|pr|prs|pb|max|maximum|personal (?:best|record))\b"
    r"|최고|기록|최대|제일 무거운|가장 무거운|가장 센|제일 센|맥스",
    re.IGNORECASE,
)
# Window facts that a whole-history fact of the same subject replaces ("best" over 90 days is no record).
_REPLACED = (
    "heaviest_set",
    "best_e1rm",
    "best_set",
    "best_volume",
    "most_reps",
    "best_total_reps",
    "sessions",
    "longest",
    "best_pace",
    "total_distance",
    "sessions_per_week",
    "days_since_last",
    "previous_best",
    "vs_previous_best",
)


def scope_of(periods: Sequence[Period]) -> tuple[date, date]:
    """The bounded period a question names, else the whole history."""
    bounded = next((p for p in periods if not p.ever), None)
    return (bounded.start, bounded.end) if bounded is not None else EVER


async def history_facts(
    history: HistoryStore,
    bouts: BoutStore,
    user: str,
    question: str,
    shape: QuestionShape,
    periods: Sequence[Period],
    stated: Sequence[StatedValue],
    domains: Sequence[str],
    today: date,
    registry: DomainRegistry,
) -> list[Fact]:
    """The whole-history facts the question needs (see the module docstring), records first.

    ``registry`` says which domains hold lifts and which bouts.
    """
    scope = scope_of(periods)
    weights = [(v.number, _WEIGHT_UNITS[v.unit]) for v in stated if v.unit in _WEIGHT_UNITS]
    facts: list[Fact] = []
    lifts = await history.lifts(user, shape.wanted, scope[0], scope[1], weights)
    for h in lifts:
        facts += lift_facts(h, scope)
    wants_records = (
        bool(_RECORD_INTENTS & set(shape.intents))
        or any(p.ever for p in periods)
        or bool(_RECORD_WORDS.search(question))
    )
    if not lifts and wants_records and (any(d in domains for d in registry.with_role("lifts")) or not shape.wanted):
        strongest = await history.strongest(user, scope[0], scope[1])
        for h in await history.lifts(user, strongest, scope[0], scope[1], brief=True):
            facts += lift_facts(h, scope, brief=True)
    if scope != EVER or "frequency" in shape.intents or not (shape.wanted or wants_records):
        facts += session_facts(await history.sessions(user, scope[0], scope[1]), scope, today)
    for sport in registry.bouts:
        if sport in domains:
            facts += bout_facts(await bouts.history(user, sport, scope[0], scope[1]), scope, registry)
    return sorted(facts, key=lambda f: rank(f.key))


def merge(history: Sequence[Fact], window: Sequence[Fact]) -> list[Fact]:
    """Whole-history facts first, then the window's, minus the window "bests" history replaces
    (and a window "last session" that is not the last of all).

    With any whole-history fact, the window's own frequency (sessions in the
    retrieved days) is left out too: the question is about more than them.
    """
    subjects = {f.key.split(".", 1)[0] for f in history}
    # The window's "last session" stays only when it is the last one of all (it carries the sets done).
    lasts = {f.key.split(".", 1)[0]: f.on for f in history if f.key.endswith(".all_time.last")}

    def replaced(f: Fact) -> bool:
        subject, _, rest = f.key.partition(".")
        measure = rest.split(".")[0]
        if measure == "last" and subject in lasts:
            return f.on != lasts[subject]
        return (subject in subjects and measure in _REPLACED) or (
            bool(history) and measure in ("sessions", "sessions_per_week") and subject not in subjects
        )

    return [*history, *(f for f in window if not replaced(f))]
