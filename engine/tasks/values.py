"""The values a plan may use, sized to the request: its terms, its period, each value once.

A 7B model reads a short prompt better, and every token is a wait on a CPU
(MODEL-NOTES). So task formation is offered:

* the facts a plan for the exercises the request names rests on (how often
  and how long ago, the heaviest set, the best estimated 1RM, the biggest
  session), and how often the domain is trained; not a row per session or
  per week (the entries show those), nor latest-vs-previous comparisons;
* the entries that hold those exercises, each cut down to them, newest last;
* the person's own values (``Q``): those of the request, then of each
  answer they gave (:mod:`engine.tasks.said`);
* an article's value once, however often the article states it
  (:func:`article_values_once`).

A request that names no exercise of theirs (a correction, "plan my week")
gets the domain's facts and its latest entries whole. Evidence is still
checked against everything the loop read, not only what was offered.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import date, timedelta

from engine.entries.model import Entry
from engine.entries.summaries import summary_of
from engine.facts import Fact
from engine.language.periods import read_periods
from engine.query.articles import ArticleNote
from engine.query.number_reading import stated_values
from engine.query.references import REF, RefTable, fact_ref
from engine.tasks.said import Said

PLAN_FACTS = frozenset({"sessions", "days_since_last", "heaviest_set", "best_e1rm", "best_volume", "most_reps",
                        "best_total_reps", "total_distance", "longest", "best_pace"})  # fmt: skip
"""What a plan rests on, per exercise (a fact's key is ``<exercise>.<what>``)."""
DOMAIN_FACTS = frozenset({"sessions_per_week"})
MAX_ENTRIES = 10
"""Entries of the exercises named (a few weeks of two or three sessions a week)."""
MAX_WHOLE_ENTRIES = 5
"""Whole entries when the request names no exercise: a whole strength session is a long line."""
REQUEST_LABEL = "a value the person wrote"
ANSWER_LABEL = "a value the person answered"


_PAST = re.compile(r"(?:the\s+)?(?:last|past|previous)\b|지난|최근|저번", re.IGNORECASE)
"""A period that names history to plan from; "this week" names the time the plan is for."""


def window(request: str, today: date, days: int) -> tuple[date, date]:
    """The days to read: a past period the request names ("based on the last 2 weeks"), else the last ``days``."""
    past = [p for p in read_periods(request, today) if p.end < today or _PAST.match(p.phrase)]
    if past:
        return min(p.start for p in past), min(max(p.end for p in past), today)
    return today - timedelta(days=days - 1), today


def subjects_of(terms: Iterable[str], entries: Sequence[Entry], exercises: Iterable[str]) -> list[str]:
    """The exercises a request names: its terms that are exercises (of the domain, or as they logged them)."""
    logged = {str(x.get("name") or "").lower() for e in entries for x in e.data.get("exercises") or ()}
    known = logged | set(exercises)
    return [t for t in dict.fromkeys(terms) if t in known]


def _kept(fact: Fact, subjects: set[str], domains: set[str]) -> bool:
    subject, _, what = fact.key.partition(".")
    if fact.change:
        return False
    if subject in subjects:
        return what in PLAN_FACTS
    return subject in domains and (what in DOMAIN_FACTS or (not subjects and what in PLAN_FACTS))


def _cut(entry: Entry, subjects: set[str]) -> str:
    """An entry's line, holding only the exercises named (its whole summary when none are)."""
    if subjects:
        exercises = [x for x in entry.data.get("exercises") or () if str(x.get("name") or "").lower() in subjects]
        return f"{entry.occurred_on.isoformat()} · {summary_of({'exercises': exercises}, entry.summary)}"
    return f"{entry.occurred_on.isoformat()} · {entry.summary}"


def formation_table(
    facts: Sequence[Fact],
    entries: Sequence[Entry],
    *,
    subjects: Sequence[str],
    domains: Sequence[str],
    said: Said,
) -> RefTable:
    """The values offered to the planner (see the module docstring).

    Args:
        facts: Facts computed over what the loop read (those a plan rests on are offered).
        entries: Entries the loop may show, oldest first (empty when it may not read entries).
        subjects: The exercises the request names.
        domains: The domains in play (how often each is trained).
        said: The request and the answers, whose values become ``Q`` ids.
    """
    table = RefTable()
    named, active = set(subjects), set(domains)
    seen: set[str] = set()
    for fact in facts:
        said_so = f"{fact.label} = {fact.display}"
        if _kept(fact, named, active) and said_so not in seen:
            seen.add(said_so)
            fact_ref(table, fact)
    shown = [e for e in entries if e.status == "active"]
    if named:
        shown = [e for e in shown if named & {str(x.get("name") or "").lower() for x in e.data.get("exercises") or ()}]
        shown = shown[-MAX_ENTRIES:]
    else:
        shown = [e for e in shown if not active or e.domain in active][-MAX_WHOLE_ENTRIES:]
    lines: set[str] = set()
    for e in shown:
        line = _cut(e, named)
        if line not in lines:
            lines.add(line)
            table.add("entry", line, key=e.entry_id, on=e.occurred_on, entry_ids=[e.entry_id], terms=list(e.terms))
    own: set[str] = set()
    for words in (v.text for v in stated_values(said.request)):
        if words not in own:
            own.add(words)
            table.add("question", words, label=REQUEST_LABEL, key="request")
    for n, reply in enumerate(said.replies, start=1):
        for words in (v.text for v in stated_values(reply.answer)):
            if words not in own:
                own.add(words)
                table.add("question", words, label=ANSWER_LABEL, key=f"answer:{n}")
    return table


def article_values_once(table: RefTable, notes: Sequence[ArticleNote]) -> list[ArticleNote]:
    """The articles' values each offered once: a value an article states again ("one" block … "one"
    quality) is referred to by its first id, and its own id is dropped from ``table``."""
    first: dict[tuple[str, str], str] = {}
    again: dict[str, str] = {}
    for ref in table.of("article"):
        kept = first.setdefault((ref.label, ref.text), ref.id)
        if kept != ref.id:
            again[ref.id] = kept
    if not again:
        return list(notes)
    table.refs = [r for r in table.refs if r.id not in again]

    def once(m: re.Match[str]) -> str:
        ref_id = f"{m.group(1).upper()}{int(m.group(2))}"
        return "{" + again[ref_id] + "}" if ref_id in again else m.group()

    return [n.model_copy(update={"shown": REF.sub(once, n.shown)}) for n in notes]
