"""What a question asks, read in code, and the facts that answer it.

The question's intents come from the one reading of it
(:func:`engine.query.questions.read_question`: the domains'
``query_keywords``). When code can tell what is asked, the fact that answers
it is stated in the answer by code, whatever the model chose
(:func:`answering`):

* a count ("how many times", "몇 번"): the sessions of each exercise named,
  else the training days, over the named period or the whole history;
* a record ("heaviest", "최고 기록"): each named exercise's heaviest set (its
  best estimated 1RM when an estimate is asked), over the named period or
  all of it;
* a volume of a named period ("my bench volume in March"): computed by SQL
  over exactly that period (:func:`asked_facts`);
* a comparison of two periods ("this week vs last week", "better than last
  week"): each period's heaviest set and volume by SQL, stated side by side
  with the direction code computed;
* the latest time ("last time", "마지막"): the latest session;
* entries to see ("show me my bench sessions"): the newest, cut to what it names.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date, timedelta

from engine.facts import Fact
from engine.facts.display import _fmt
from engine.facts.history import lift_facts, scope_words
from engine.language.periods import Period
from engine.query.claims import Kept, is_count, is_record, measure_of
from engine.query.entries_shown import cut_entry
from engine.query.questions import QuestionShape
from engine.query.references import Ref, RefTable
from engine.store.history import EVER, HistoryStore

MAX_STATED = 4
"""Facts code states on its own in one answer (each is a line the person reads)."""
MAX_TERMS = 3
MAX_LISTED = 10
"""Entries code lists for "show me my …" (the newest)."""


def compared_periods(shape: QuestionShape, today: date) -> tuple[Period, Period] | None:
    """The two periods a comparison question sets against each other, the newer first.

    Two named periods are those two. One named period in the past ("better
    than last week") is set against the span of the same length after it, up
    to today ("this week so far").
    """
    if not shape.is_comparison:
        return None
    bounded = [p for p in shape.periods if not p.ever]
    if len(bounded) >= 2:
        a, b = bounded[0], bounded[1]
        return (a, b) if a.end >= b.end else (b, a)
    if len(bounded) == 1 and bounded[0].end < today:
        old = bounded[0]
        length = old.end - old.start
        start = old.end + timedelta(days=1)
        newer = Period(phrase="", start=start, end=min(start + length, today))
        return newer, old
    return None


def _lifts(shape: QuestionShape, canonicals: Collection[str]) -> list[str]:
    return [t for t in shape.wanted if t in canonicals][:MAX_TERMS]


def _volume_fact(name: str, scope: tuple[date, date], volume: float, unit: str, ids: Sequence[str]) -> Fact:
    return Fact(
        key=f"{name}.period.volume",
        label=f"volume (weight × reps) of {name}, {scope_words(scope)}",
        value=volume,
        unit=f"{unit}·reps",
        display=f"{_fmt(volume)} {unit}".strip(),
        scope=scope,
        entry_ids=list(ids),
    )


async def asked_facts(
    history: HistoryStore, user: str, shape: QuestionShape, canonicals: Collection[str], today: date
) -> list[Fact]:
    """Facts the question asks for that the whole-history facts do not hold: a period's volume, two periods."""
    lifts = _lifts(shape, canonicals)
    if not lifts:
        return []
    pair = compared_periods(shape, today)
    scopes: list[tuple[date, date]]
    if pair is not None:
        scopes = [(p.start, p.end) for p in pair]
    elif "volume" in shape.intents and shape.period is not None:
        scopes = [(shape.period.start, shape.period.end)]
    else:
        return []
    out: list[Fact] = []
    for scope in scopes:
        if pair is not None:
            for h in await history.lifts(user, lifts, scope[0], scope[1], brief=True):
                out += [f for f in lift_facts(h, scope, brief=True) if f.key.endswith(".heaviest_set")]
        for v in await history.volumes(user, lifts, scope[0], scope[1]):
            out.append(_volume_fact(v.exercise, scope, v.volume, v.unit, v.entry_ids))
    return out


def _subject(ref: Ref) -> str:
    return ref.key.split(".", 1)[0]


def _in_scope(ref: Ref, scope: tuple[date, date]) -> bool:
    return ref.scope == scope


def _best(records: Sequence[Ref], subject: str, wanted: str | None) -> Ref | None:
    """A subject's record: the measure asked for, else its heaviest set, else its first record."""
    mine = [r for r in records if _subject(r) == subject]
    preferred = [wanted] if wanted else ["heaviest_set", "longest"]
    return next((r for m in preferred for r in mine if measure_of(r) == m), None) or next(iter(mine), None)


def answering(
    table: RefTable, shape: QuestionShape, today: date, sports: Collection[str], *, lists: bool = False
) -> list[Kept]:
    """The claims code states for what it read the question to ask (see the module docstring).

    Args:
        sports: The domains whose entries are bouts (runs, swims: ``DomainRegistry.bouts``).
        lists: The question asks to see entries ("show me my bench sessions"): the newest are listed,
            each cut to the exercises it names.
    """
    if lists and (entries := table.of("entry")):
        return [Kept("list", tuple(cut_entry(r, shape.wanted) for r in entries[-MAX_LISTED:]))]
    facts = [r for r in table.of("fact") if not r.change]
    subjects = list(dict.fromkeys(shape.wanted)) or []
    bounded = shape.period
    scope = (bounded.start, bounded.end) if bounded is not None else EVER
    out: list[Kept] = []
    pair = compared_periods(shape, today)
    if pair is not None:
        new, old = (pair[0].start, pair[0].end), (pair[1].start, pair[1].end)
        for subject in subjects:
            for measure in ("heaviest_set", "volume"):
                a = next(
                    (r for r in facts if _subject(r) == subject and measure_of(r) == measure and _in_scope(r, new)),
                    None,
                )
                b = next(
                    (r for r in facts if _subject(r) == subject and measure_of(r) == measure and _in_scope(r, old)),
                    None,
                )
                if a is not None and b is not None and a.unit == b.unit:
                    out.append(Kept("comparison", (a, b)))
    intents = set(shape.intents)
    if "volume" in intents and bounded is not None and pair is None:
        out += [
            Kept("value", (r,))
            for r in facts
            if measure_of(r) == "volume" and _in_scope(r, scope) and _subject(r) in subjects
        ]
    if "frequency" in intents:
        counts = [r for r in facts if is_count(r) and measure_of(r) in ("sessions", "count") and _in_scope(r, scope)]
        named = [r for r in counts if _subject(r) in subjects]
        out += [Kept("count", (r,)) for r in (named or [r for r in counts if _subject(r) == "all"])[:2]]
    if intents & {"record", "estimate"} and pair is None:
        wanted = "best_e1rm" if "estimate" in intents else None
        records = [r for r in facts if is_record(r) and _in_scope(r, scope) and "previous_best" not in r.key]
        picked = [b for subject in subjects if (b := _best(records, subject, wanted)) is not None]
        if not picked:
            # No record of a named exercise ("my strongest lift and longest run": "run" names a sport):
            # the strongest lift's record, and each sport's.
            found = list(dict.fromkeys(_subject(r) for r in records))
            chosen = [*found[:1], *(n for n in found[1:] if n in sports)]
            picked = [b for subject in chosen if (b := _best(records, subject, wanted)) is not None]
        out += [Kept("record", (r,)) for r in picked]
    if "recent" in intents and not out:
        out += [Kept("value", (r,)) for r in facts if r.key.endswith(".all_time.last") and _subject(r) in subjects]
    seen: set[tuple[str, ...]] = set()
    unique = []
    for k in out:
        ids = tuple(r.id for r in k.refs)
        if ids not in seen:
            seen.add(ids)
            unique.append(k)
    return unique[:MAX_STATED]
