"""Answers composed from typed claims: the model chooses, code states.

The Synthesizer does not write the answer's sentences about the person's
data. It fills a schema built for this turn (:func:`schema_for`): a list of
claims, each a *kind* and the *ids* it rests on, the ids drawn from an
``enum`` of the values offered this turn, so constrained decoding cannot
produce an unknown id. Code then checks each claim (:func:`check_claims`):

* the ids must fit the kind: a ``count`` cites counts (sessions, days, runs),
  a ``record`` a record (heaviest set, best estimated 1RM, longest run, …;
  never a failed attempt), a ``comparison`` two values of one measure and
  unit, a ``trend`` a change, a ``list`` entries, an ``absence`` a gap code
  found, an ``article`` a knowledge-base article (and values of that article);
* the model's own words (each claim's ``note``, the answer's ``remark``) may
  carry no number, date, count, direction or order: code writes those
  (:mod:`engine.query.free_text` says what counts).

A claim whose ids do not fit is dropped; a note that breaks the rule is
dropped and its claim kept. Then :mod:`engine.query.sentences` writes every
kept claim as a sentence in the person's language, with the numbers, dates
and directions computed in code, so no field the model fills can state a
number code did not compute.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args

from pydantic import BaseModel

from engine.agents.schemas import Claim, SynthesizerOutput
from engine.query.free_text import data_note_problem, free_problem
from engine.query.references import REF, Ref, RefTable

ClaimKind = Literal["value", "record", "count", "comparison", "trend", "list", "absence", "advice", "article"]
KINDS: tuple[str, ...] = get_args(ClaimKind)
MAX_CLAIMS = 6
MAX_IDS = 6

RECORD_MEASURES = frozenset({
    "heaviest_set", "best_e1rm", "best_set", "best_volume", "most_reps", "best_total_reps", "longest", "best_pace",
})  # fmt: skip
COUNT_MEASURES = frozenset({"sessions", "count", "sessions_per_week", "days_since_last"})
_QUALIFIERS = frozenset(
    {
        "all_time",
        "period",
        "latest",
        "previous",
        "previous_best",
        "vs_previous",
        "vs_previous_best",
        "progress",
        "first_top",
        "latest_top",
    }
)
_DAY_OR_WEEK = re.compile(r"^\d{4}-(?:\d{2}-\d{2}(?:#\d+)?|W\d{2})$")


def _described(model: type[BaseModel], name: str) -> str:
    return model.model_fields[name].description or ""


def schema_for(table: RefTable) -> dict[str, Any]:
    """The Synthesizer's JSON schema for this turn: claim kinds and ids as ``enum`` s of what is offered.

    Sent as Ollama's ``format``; its title is the agent's (the fake model answers by title).
    """
    ids = [r.id for r in table.refs]
    id_schema: dict[str, Any] = {"type": "string", "enum": ids} if ids else {"type": "string", "enum": ["-"]}
    claim = {
        "type": "object",
        "title": "Claim",
        "properties": {
            "kind": {"type": "string", "enum": list(KINDS), "description": _described(Claim, "kind")},
            "ids": {"type": "array", "items": id_schema, "maxItems": MAX_IDS, "description": _described(Claim, "ids")},
            "note": {"type": "string", "description": _described(Claim, "note")},
        },
        "required": ["kind", "ids"],
    }
    sources = [r.id for r in table.of("source")]
    props: dict[str, Any] = {
        "claims": {"type": "array", "items": claim, "minItems": 1, "maxItems": MAX_CLAIMS},
        "remark": {"type": "string", "description": _described(SynthesizerOutput, "remark")},
    }
    if sources:
        props["sources"] = {"type": "array", "items": {"type": "string", "enum": sources}, "maxItems": 6}
    return {"title": "SynthesizerOutput", "type": "object", "properties": props, "required": ["claims"]}


# ------------------------------------------------------------------ what a value is


def measure_of(ref: Ref) -> str:
    """What a fact measures, read off its key (``bench press.all_time.heaviest_set`` -> ``heaviest_set``).

    Qualifiers (scope, latest/previous, a day or week) are skipped; a volume
    on a day or in a week is ``volume``; ``_pct`` stays, so a percentage
    never compares with a weight.
    """
    parts = ref.key.split(".")[1:]
    if parts[:1] in (["volume"], ["week_volume"]):
        return "volume"
    named = [p for p in parts if p not in _QUALIFIERS and not _DAY_OR_WEEK.match(p)]
    return named[0] if named else (parts[-1] if parts else "")


def is_record(ref: Ref) -> bool:
    parts = ref.key.split(".")
    return ref.kind == "fact" and not ref.change and (measure_of(ref) in RECORD_MEASURES or "previous_best" in parts)


def is_count(ref: Ref) -> bool:
    return ref.kind == "fact" and not ref.change and measure_of(ref) in COUNT_MEASURES


def _when(ref: Ref) -> Any:
    if ref.on is not None:
        return ref.on
    return ref.scope[1] if ref.scope is not None else None


# ------------------------------------------------------------------ the check


@dataclass(frozen=True, slots=True)
class Kept:
    """A claim that passed: its kind, its values in the order code states them, and the model's note."""

    kind: ClaimKind
    refs: tuple[Ref, ...]
    note: str = ""


@dataclass(slots=True)
class ClaimCheck:
    """What the check kept and why the rest was dropped."""

    kept: list[Kept] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    """Claims dropped, each with the reason (for the log and a re-ask)."""
    notes_dropped: list[str] = field(default_factory=list)
    """The model's words left out (the claim itself kept)."""
    remark: str = ""
    sources: list[str] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        return bool(self.kept)

    def feedback(self) -> str:
        """What to fix, in words for the model's next attempt."""
        parts = [*self.dropped, *self.notes_dropped]
        return " ".join(parts) or "Give at least one claim that cites ids from the list."


def _fit(kind: str, refs: list[Ref], table: RefTable) -> tuple[tuple[Ref, ...], str]:
    """The refs ordered as the sentence states them, or an empty tuple and why they do not fit ``kind``."""
    facts = [r for r in refs if r.kind == "fact"]
    if kind == "record":
        ok = [r for r in refs if is_record(r)]
        return (tuple(ok), "") if ok and len(ok) == len(refs) else ((), "a record claim cites only records")
    if kind == "count":
        ok = [r for r in refs if is_count(r)]
        return (tuple(ok), "") if ok and len(ok) == len(refs) else ((), "a count claim cites only counts")
    if kind == "trend":
        ok = [r for r in refs if r.kind == "fact" and r.change]
        return (tuple(ok), "") if ok and len(ok) == len(refs) else ((), "a trend claim cites only changes")
    if kind == "comparison":
        if len(refs) != 2 or len(facts) != 2 or any(r.change for r in facts):
            return (), "a comparison cites exactly two values (not changes)"
        a, b = facts
        if a.unit != b.unit or measure_of(a) != measure_of(b) or a.value is None or b.value is None:
            return (), f"{a.id} and {b.id} are not values of one measure and unit"
        wa, wb = _when(a), _when(b)
        if wa is not None and wb is not None and wb > wa:
            a, b = b, a  # the newer first: the direction is the newer against the older
        return (a, b), ""
    if kind == "list":
        ok = [r for r in refs if r.kind == "entry"]
        return (tuple(ok), "") if ok and len(ok) == len(refs) else ((), "a list claim cites only entries (E ids)")
    if kind == "absence":
        ok = [r for r in refs if r.kind == "gap"]
        return (tuple(ok), "") if ok and len(ok) == len(refs) else ((), "an absence claim cites only gaps (G ids)")
    if kind == "value":
        ok = [r for r in refs if r.kind in ("fact", "entry", "question", "date") and not r.change]
        return (tuple(ok), "") if ok and len(ok) == len(refs) else ((), "a value claim cites values (not changes)")
    if kind == "article":
        sources = [r for r in refs if r.kind == "source"]
        if not sources:
            return (), "an article claim cites its article (K id)"
        return tuple(sources), ""
    if kind == "advice":
        return tuple(r for r in refs if r.kind in ("rule", "source")), ""
    return (), f"unknown claim kind {kind!r}"


def _article_note(note: str, sources: Sequence[Ref], table: RefTable) -> bool:
    """An article note may refer to values of the articles it cites ({A2}, labelled "from K1"); no other id."""
    labels = {f"from {s.id}" for s in sources}
    for m in REF.finditer(note):
        ref = table.get(f"{m.group(1)}{int(m.group(2))}")
        if ref is None or ref.kind != "article" or ref.label not in labels:
            return False
    return True


def check_claims(claims: Sequence[Claim], remark: str, sources: Sequence[str], table: RefTable) -> ClaimCheck:
    """Keep each claim whose ids fit its kind; drop notes and a remark that state what code must state.

    Args:
        claims: The model's claims, as sent.
        remark: The model's closing sentence.
        sources: Article ids it lists (``K1``); unknown ones are dropped.
        table: The values offered this turn.
    """
    out = ClaimCheck()
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for i, claim in enumerate(claims[:MAX_CLAIMS], 1):
        kind = claim.kind.strip().lower()
        refs: list[Ref] = []
        unknown = []
        for ref_id in claim.ids[:MAX_IDS]:
            ref = table.get(ref_id)
            (refs.append(ref) if ref is not None else unknown.append(ref_id))
        if unknown:
            out.dropped.append(f"Claim {i}: {', '.join(unknown)} not in the list.")
            continue
        if kind not in KINDS:
            out.dropped.append(f"Claim {i}: unknown kind {claim.kind!r}.")
            continue
        if not refs and kind not in ("advice",):
            out.dropped.append(f"Claim {i} ({kind}) cites no id.")
            continue
        fitted, why = _fit(kind, refs, table)
        if why:
            out.dropped.append(f"Claim {i} ({kind}): {why}.")
            continue
        note = claim.note.strip()
        if note:
            problem: str | None
            if kind == "article":
                problem = (
                    free_problem(REF.sub(" ", note))
                    if _article_note(note, fitted, table)
                    else "it refers to a value of another article"
                )
            elif kind == "advice":
                problem = free_problem(note)
            else:
                problem = data_note_problem(note)
            if problem:
                out.notes_dropped.append(f"Claim {i}'s note left out: {problem}.")
                note = ""
        if kind in ("advice", "article") and not note:
            # Its words are all it says: code writes nothing for an article or advice on its own.
            out.dropped.append(f"Claim {i} ({kind}) has no words left.")
            continue
        key = (kind, tuple(r.id for r in fitted))
        if key in seen and not note:
            continue
        seen.add(key)
        out.kept.append(Kept(cast(ClaimKind, kind), fitted, note))
    text = remark.strip()
    if text:
        problem = free_problem(text)
        if problem:
            out.notes_dropped.append(f"The remark left out: {problem}.")
        else:
            out.remark = text
    out.sources = [s.upper() for s in sources if (r := table.get(s)) is not None and r.kind == "source"]
    return out
