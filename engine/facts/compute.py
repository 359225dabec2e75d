"""The entry point: every fact the answer may use, from one pass over the entries."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from engine.domains.registry import DomainRegistry
from engine.entries.model import Entry
from engine.facts.cardio import _bout_facts
from engine.facts.compare import _compare
from engine.facts.found import _found
from engine.facts.frequency import _frequency
from engine.facts.lifts import _lifts
from engine.facts.model import Fact
from engine.facts.scan import _scan
from engine.facts.strength import _lift_facts


def compute_facts(
    entries: Sequence[Entry],
    *,
    exercises: Sequence[str] | None = None,
    today: date | None = None,
    domains: DomainRegistry,
) -> list[Fact]:
    """Every fact the answer may use, from one pass over the entries.

    Args:
        entries: The person's entries, any order; inactive and non-parsed ones are skipped.
        exercises: When given, exercise facts only for these (canonical, case-insensitive),
            plus the latest-vs-previous comparison for each, since naming an
            exercise usually means asking how it went.
        today: End of the frequency period and base for "days since".
        domains: Which domains hold bouts (runs, swims) and which no training: the engine's registry.

    Returns:
        Frequency facts, then per exercise (alphabetical), then runs and swims.
        Those true of these entries only (bests, counts, the last session,
        how often) say so in their label and carry ``found``.
    """
    found = _found(entries)
    if found is None:
        return []
    wanted = frozenset(x.strip().lower() for x in exercises) if exercises is not None else None
    scan = _scan(entries, wanted, domains=domains)
    out = _frequency(scan.sessions, today, found)
    for lift in _lifts(entries, scan):
        out += _lift_facts(lift, today, found)
        if wanted is not None:
            out += _compare(lift, found)
    for domain in sorted(scan.bouts):
        out += _bout_facts(domain, domains.bouts[domain], scan.bouts[domain], found)
    return out
