"""What a window of fetched entries covers, for the labels of the facts computed over it.

A search fetches some of the person's entries (the last 30 days, or the ones
a keyword found). A best, a count, the last session or how often, computed
over them, is true of them only: "heaviest set of deadlift" read as a
lifetime record when the all-time one was heavier, and two answers a minute
apart disagreed. So those facts name the entries they cover, "in the 38
entries found (2026-10-27 to 2026-11-25)", and carry the count and the days
in ``Fact.found`` and ``Fact.found_span`` for code that writes labels itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from engine.entries.model import Entry


@dataclass(frozen=True, slots=True)
class _Found:
    """The entries facts are computed over: how many, and their first and last day."""

    count: int
    first: date
    last: date

    @property
    def span(self) -> tuple[date, date]:
        return self.first, self.last

    @property
    def words(self) -> str:
        """``in the 38 entries found (2026-10-27 to 2026-11-25)``, to end a label."""
        first, last = self.first.isoformat(), self.last.isoformat()
        days = first if first == last else f"{first} to {last}"
        return f"in the {self.count} entr{'y' if self.count == 1 else 'ies'} found ({days})"


def _found(entries: Sequence[Entry]) -> _Found | None:
    """The entries that count (active, parsed: the ones facts read), or None when none does."""
    days = [e.occurred_on for e in entries if e.status == "active" and e.kind == "parsed"]
    return _Found(len(days), min(days), max(days)) if days else None
