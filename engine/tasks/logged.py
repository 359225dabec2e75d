"""The values in a person's log a claim or an operation may be checked against, and the numbers a claim states.

Values come from their entries (each set's weight and reps, each exercise's
set count) and from the facts computed over them, each with its kind (kg,
lb, reps, sets, sessions, km, m, %) and the entry or fact it comes from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.entries.model import Entry
from engine.facts import Fact
from engine.outcomes import Citation

_QUANTITY = re.compile(
    r"(?<![\w.])(\d+(?:[.,]\d+)?)\s*(kgs?|kilos?|키로|킬로|lbs?|pounds?|reps?|회|sets?|세트|km|m|meters?|times|sessions?|번|%)?"
    r"(?![A-Za-z])",
    re.IGNORECASE,
)
_KINDS = {
    "kg": "kg", "kgs": "kg", "kilo": "kg", "kilos": "kg", "키로": "kg", "킬로": "kg", "lb": "lb", "lbs": "lb",
    "pound": "lb", "pounds": "lb", "rep": "reps", "reps": "reps", "회": "reps", "set": "sets", "sets": "sets",
    "세트": "sets", "km": "km", "m": "m", "meter": "m", "meters": "m", "times": "sessions", "session": "sessions",
    "sessions": "sessions", "번": "sessions", "%": "%",
}  # fmt: skip
_FACT_KINDS = {
    "kg": "kg",
    "lb": "lb",
    "reps": "reps",
    "sets": "sets",
    "sessions": "sessions",
    "days": "sessions",
    "sessions/week": "sessions",
    "days/week": "sessions",
    "km": "km",
    "m": "m",
    "%": "%",
}
CONFLICT_KINDS = frozenset({"kg", "lb", "km", "m"})


@dataclass(frozen=True, slots=True)
class LoggedValue:
    """One value of their log: a set's weight or reps, an exercise's set count, a computed fact."""

    value: float
    kind: str
    """kg, lb, reps, sets, sessions, km, m, %, or "" (no unit written: any kind)."""
    where: str
    """What it is, for a note: ``bench press 52.5 kg on 2026-11-15``."""
    source: Citation


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")

Quantity = tuple[float, float, str]
"""A number in a claim: (value, half a unit of its last digit, kind)."""


def numbers_in(claim: str) -> list[Quantity]:
    """Numbers in a claim, dates left out: (value, half a unit of its last digit, kind)."""
    out = []
    for m in _QUANTITY.finditer(_ISO_DAY.sub(" ", claim)):
        digits = m.group(1).replace(",", ".")
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        out.append((float(digits), 0.5 * 10.0**-decimals, _KINDS.get((m.group(2) or "").lower(), "")))
    return out


def entry_citation(e: Entry, now: datetime) -> Citation:
    return Citation(
        title=f"{e.occurred_on.isoformat()} · {e.summary}",
        ref=f"entry:{e.entry_id}",
        retrieved_at=now,
        on=e.occurred_on,
    )


def entry_values(entries: Sequence[Entry], subjects: set[str], now: datetime) -> list[LoggedValue]:
    out = []
    for e in entries:
        if e.status != "active" or e.kind != "parsed":
            continue
        for ex in e.data.get("exercises") or ():
            name = str(ex.get("name") or "").strip().lower()
            if subjects and name not in subjects:
                continue
            unit, cite = ex.get("weight_unit") or "", entry_citation(e, now)
            details = ex.get("set_details") or []
            out.append(LoggedValue(float(ex.get("sets") or len(details)), "sets", f"{name} on {e.occurred_on}", cite))
            for s in details:
                if s.get("weight") is not None and unit:
                    where = f"{name} {s['weight']:g} {unit} on {e.occurred_on.isoformat()}"
                    out.append(LoggedValue(float(s["weight"]), unit, where, cite))
                if s.get("reps") is not None:
                    out.append(LoggedValue(float(s["reps"]), "reps", f"{name} on {e.occurred_on}", cite))
    return out


def fact_values(facts: Sequence[Fact], subjects: set[str], now: datetime) -> list[LoggedValue]:
    out = []
    for f in facts:
        subject = f.key.split(".", 1)[0]
        if subjects and subject not in subjects and subject != "all":
            continue
        kind = _FACT_KINDS.get(f.unit)
        if kind is None:
            continue
        cite = Citation(title=f"{f.label}: {f.display}", ref=f"fact:{f.key}", retrieved_at=now, on=f.on)
        out.append(LoggedValue(abs(f.value), kind, f"{f.label}: {f.display}", cite))
    return out


def logged_values(entries: Sequence[Entry], facts: Sequence[Fact]) -> list[tuple[float, str]]:
    """Every value of their entries and computed facts, with its kind (what an operation's text may repeat)."""
    now = datetime.min
    return [(v.value, v.kind) for v in [*entry_values(entries, set(), now), *fact_values(facts, set(), now)]]


def matches(pool: Sequence[LoggedValue], value: float, half: float, kind: str) -> list[LoggedValue]:
    return [v for v in pool if (not kind or v.kind == kind) and value - half - 1e-9 <= v.value < value + half - 1e-9]
