"""Values by reference: the table of values code computed, each with an id a
model writes in braces (``{F3}``) instead of a number.

Ids are a letter and a number, flat and short, because a 7B model copies
them reliably from one example:

* ``F<n>`` a fact computed in code (a record, a count, a change, …);
* ``E<n>`` an entry (its date and what was logged);
* ``Q<n>`` a value the person wrote in the question (``7 days``, ``100 kg``);
* ``D<n>`` a day or period the question names (``last Monday``, ``March 2021``);
* ``A<n>`` a value from a knowledge-base article (``4 to 6 weeks``), written
  with the article it comes from (:mod:`engine.query.articles`);
* ``K<n>`` a knowledge-base article itself: written as its title, cited with its source;
* ``R<n>`` a line of the domain's expertise or rules (task formation cites them);
* ``G<n>`` something the question asked about that code found nothing of
  (``no entries of squat in March 2021``), for an answer to say so.

Code renders each reference with its unit and date in the person's language
(:mod:`engine.query.render`); the grounding check
(:mod:`engine.query.grounding`) fails text that states a value itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from engine.entries.model import Entry
from engine.facts import Fact

RefKind = Literal["fact", "entry", "question", "date", "article", "source", "rule", "gap"]
PREFIX: dict[RefKind, str] = {
    "fact": "F",
    "entry": "E",
    "question": "Q",
    "date": "D",
    "article": "A",
    "source": "K",
    "rule": "R",
    "gap": "G",
}

REF = re.compile(r"[{\[]\s*([A-Za-z])\s*(\d{1,4})\s*[}\]]")
"""A reference as models write it: ``{F3}``, also ``[F3]``, ``{ f3 }``."""

MAX_FACTS = 60
MAX_ENTRIES = 15


class Ref(BaseModel):
    """One value a model may refer to."""

    id: str
    kind: RefKind
    label: str = ""
    """What it is, in English, for the prompt (``best estimated 1RM of bench press``)."""
    text: str
    """The value as English text (``80 kg``, ``55 kg × 10 reps × 5 sets``, ``7 days``)."""
    key: str = ""
    """The fact's key, the entry's id, the rule's domain, or the article chunk's id (``A`` and ``K``)."""
    value: float | None = None
    unit: str = ""
    on: date | None = None
    scope: tuple[date, date] | None = None
    """For periods and whole-history facts: the days they cover."""
    found: int | None = None
    """For a fact of only the entries a search fetched: how many (its label says so)."""
    found_span: tuple[date, date] | None = None
    """Those entries' first and last day."""
    change: bool = False
    """A difference between two values: its sign is what direction words must agree with."""
    lower_is_better: bool = False
    """For changes: a fall is an improvement (pace, time)."""
    entry_ids: list[str] = Field(default_factory=list)
    terms: list[str] = Field(default_factory=list)
    """Canonical terms the value is about (exercise names), for rendering names."""
    url: str | None = None
    """For an article (``K``): where a person can read it."""

    def line(self) -> str:
        """The prompt line: ``F3: best estimated 1RM of bench press = 80 kg (2024-01-15)``."""
        when = f" ({self.on.isoformat()})" if self.on is not None and self.unit != "date" else ""
        sign = ""
        if self.change and self.value is not None:
            sign = " (an increase)" if self.value > 0 else " (a decrease)" if self.value < 0 else " (no change)"
        if self.kind == "source":
            return f"{self.id}: the article “{self.text}”"
        if self.kind == "entry" or not self.label:
            return f"{self.id}: {self.text}"
        return f"{self.id}: {self.label} = {self.text}{when}{sign}"


class RefTable(BaseModel):
    """The values one answer may use, in the order they are offered."""

    refs: list[Ref] = Field(default_factory=list)

    def get(self, ref_id: str) -> Ref | None:
        wanted = ref_id.upper()
        return next((r for r in self.refs if r.id == wanted), None)

    def of(self, kind: RefKind) -> list[Ref]:
        return [r for r in self.refs if r.kind == kind]

    def add(self, kind: RefKind, text: str, **fields: object) -> Ref:
        """Append a value of ``kind``; its id is the next free one of that letter."""
        ref = Ref.model_validate(
            {"id": f"{PREFIX[kind]}{len(self.of(kind)) + 1}", "kind": kind, "text": text, **fields}
        )
        self.refs.append(ref)
        return ref

    def prompt(self, kinds: Iterable[RefKind] | None = None) -> str:
        wanted = set(kinds) if kinds is not None else None
        lines = [r.line() for r in self.refs if wanted is None or r.kind in wanted]
        return "\n".join(lines) or "(none)"

    @property
    def has_data(self) -> bool:
        """Whether anything about the person's data is in the table."""
        return any(r.kind in ("fact", "entry") for r in self.refs)


def used(text: str) -> list[str]:
    """The ids a text refers to, in order, upper-cased (known or not)."""
    return [f"{m.group(1).upper()}{int(m.group(2))}" for m in REF.finditer(text)]


def fact_ref(table: RefTable, fact: Fact) -> Ref:
    subject = fact.key.split(".", 1)[0]
    return table.add(
        "fact",
        fact.display,
        label=fact.label,
        key=fact.key,
        value=fact.value,
        unit=fact.unit,
        on=fact.on,
        scope=fact.scope,
        found=fact.found,
        found_span=fact.found_span,
        change=fact.change,
        lower_is_better=fact.lower_is_better,
        entry_ids=list(fact.entry_ids),
        terms=[subject] if subject not in ("all",) else [],
    )


def build_table(
    facts: Sequence[Fact],
    entries: Sequence[Entry] = (),
    stated: Sequence[str] = (),
    days: Sequence[tuple[str, date, date]] = (),
) -> RefTable:
    """The values an answer may refer to.

    Args:
        facts: Facts in order of relevance (the first :data:`MAX_FACTS` are offered).
        entries: Retrieved entries, oldest first (the newest :data:`MAX_ENTRIES` are offered).
        stated: Values the person wrote in the question, as written.
        days: Days or periods the question names: (words, first day, last day).
    """
    table = RefTable()
    for fact in facts[:MAX_FACTS]:
        fact_ref(table, fact)
    for e in [e for e in entries if e.status == "active"][-MAX_ENTRIES:]:
        table.add(
            "entry",
            f"{e.occurred_on.isoformat()} · {e.summary}",
            key=e.entry_id,
            on=e.occurred_on,
            entry_ids=[e.entry_id],
            terms=list(e.terms),
        )
    for words in dict.fromkeys(stated):
        table.add("question", words, label="a value the person wrote")
    for words, first, last in days:
        label = "the day the question names" if first == last else "the period the question names"
        text = first.isoformat() if first == last else f"{first.isoformat()} to {last.isoformat()}"
        table.add("date", text, label=f"{label} ({words})", on=first if first == last else None, scope=(first, last))
    return table
