"""Exercise names a person logged that the vocabulary does not know.

An unknown name is never lost or folded into another exercise: the entry keeps
it as its own canonical term (normalized spelling), retrieval finds it by its
raw text, and this listing shows what to add to a domain's vocabulary.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from engine.entries.model import Entry
from engine.language.vocab import Vocabulary, normalize_name


@dataclass
class UnknownName:
    """One exercise name outside the vocabulary, over every entry that used it."""

    name: str
    """The name as stored (normalized)."""
    entries: int = 0
    """How many entries used it."""
    first: date | None = None
    last: date | None = None
    sources: list[str] = field(default_factory=list)
    """Spellings it came from (an export's ``Zercher Squat (Kettlebell)``), as written."""
    contains: list[str] = field(default_factory=list)
    """Known canonical terms inside the name: a hint at the family it belongs to."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "entries": self.entries,
            "first": self.first.isoformat() if self.first else None,
            "last": self.last.isoformat() if self.last else None,
            "sources": self.sources,
            "contains": self.contains,
        }


def _logged_names(data: Mapping[str, Any]) -> Iterable[tuple[str, str]]:
    """(name, as written) of every exercise and cardio item of an entry's data."""
    for key in ("exercises", "cardio"):
        items = data.get(key)
        if not isinstance(items, list):
            continue
        for item in items:
            if isinstance(item, Mapping) and isinstance(item.get("name"), str) and item["name"].strip():
                source = item.get("source_name")
                yield item["name"], source if isinstance(source, str) and source.strip() else item["name"]


def unknown_names(entries: Iterable[Entry], vocabulary: Vocabulary) -> list[UnknownName]:
    """Names in ``entries`` that are not canonical terms of ``vocabulary``.

    Args:
        entries: A person's entries (any order).
        vocabulary: The vocabulary of every domain.

    Returns:
        One item per unknown name, most used first, then by name.
    """
    known = {normalize_name(c) for c in vocabulary.canonicals}
    found: dict[str, UnknownName] = {}
    for entry in entries:
        seen_here: set[str] = set()
        for name, source in _logged_names(entry.data):
            key = normalize_name(name)
            if key in known or vocabulary.canonical(name) is not None:
                continue
            item = found.setdefault(key, UnknownName(name=key))
            if key not in seen_here:
                seen_here.add(key)
                item.entries += 1
                day = entry.occurred_on
                item.first = day if item.first is None or day < item.first else item.first
                item.last = day if item.last is None or day > item.last else item.last
            if source not in item.sources:
                item.sources.append(source)
    for item in found.values():
        item.contains = vocabulary.terms(item.name)
    return sorted(found.values(), key=lambda u: (-u.entries, u.name))
