"""Bringing history in from other apps, without the model.

An importer turns a file into ``NewEntry`` objects and a report of every row
left out, by line and reason (:mod:`engine.importers.strong`,
:mod:`engine.importers.hevy`, :mod:`engine.importers.fitnotes`, sharing
:mod:`engine.importers.common`; :func:`detect` tells them apart by the header
and :func:`parse_export` runs the right one); :func:`store_imported` stores them:

* an entry whose ``source_key`` the user already has is left alone
  ("already present"), so importing a file twice adds nothing;
* an entry for a workout the user imported before in another version (same
  app, start time and name, different sets: edited in the app since) replaces
  the old entry, which stays marked superseded (as :meth:`EntryStore.supersede`
  does), so it is not counted twice;
* an entry for a workout another source's import already holds (Strong and
  the daily notes of the same day, or Strong and Hevy: the same exercises and
  sets, as :mod:`engine.importers.overlap` defines it) is not stored, and is
  counted by that source, so a day's sets and volume count once;
* the rest is added in batches, one transaction per batch (the replacements
  of the batch too).

A file is read and stored a batch at a time (:mod:`engine.importers.files`
reads it, :func:`store_workouts` stores it), so an import's memory does not
grow with the file; :func:`store_imported` stores entries already in memory.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from engine.entries.model import Entry, NewEntry
from engine.importers.common import ImportResult, RowProblem, Workout, workout_identity
from engine.importers.detect import APPS, detect, parse_export
from engine.importers.overlap import has_lifts, holder, sources_text
from engine.store.db import Database
from engine.store.entries import EntryStore, entry_id_for

BATCH_SIZE = 500


@dataclass(frozen=True, slots=True)
class StoreReport:
    added: int
    """New workouts stored."""
    updated: int
    """Workouts that replaced an earlier import of the same workout."""
    present: int
    """Workouts already stored, unchanged."""
    duplicates: Mapping[str, int] = field(default_factory=dict)
    """Workouts left out because another source's import holds them: source (``strong``, ``notes``) -> how many."""

    def duplicates_text(self) -> str:
        """The sources holding the left-out workouts as a report names them: ``Strong``, ``Strong and notes``."""
        return sources_text(self.duplicates)


async def _imported_by_day(store: EntryStore, user_key: str, entries: Sequence[NewEntry]) -> dict[date, list[Entry]]:
    """The stored imports on the days of those entries that hold sets or cardio (the only ones that can repeat one)."""
    days = {e.occurred_on for e in entries if e.data.get("cardio") or has_lifts(e.data)}
    by_day: defaultdict[date, list[Entry]] = defaultdict(list)
    for entry in await store.imported_on(user_key, days):
        by_day[entry.occurred_on].append(entry)
    return by_day


class _Storing:
    """One import's stores, batch by batch, and its counts."""

    def __init__(self, db: Database, user_key: str, known: dict[str, str]) -> None:
        self._store = EntryStore(db)
        self._user_key = user_key
        self._known = known
        self.added = self.updated = self.present = 0
        self.duplicates: Counter[str] = Counter()

    @classmethod
    async def start(cls, db: Database, user_key: str) -> _Storing:
        return cls(db, user_key, await EntryStore(db).imported_workouts(user_key))

    async def batch(self, batch: Sequence[NewEntry]) -> None:
        """Store a batch in one transaction; see the module docstring for what counts as what."""
        user_key = self._user_key
        existing = await self._store.existing_source_keys(user_key, [e.source_key for e in batch])
        others = await _imported_by_day(self._store, user_key, [e for e in batch if e.source_key not in existing])
        fresh: list[NewEntry] = []
        replacing: list[tuple[str, NewEntry]] = []
        for entry in batch:
            if entry.source_key in existing:
                self.present += 1
                continue
            # Before the identity: a new version of a note that now reads as Strong's workout is no update either.
            if (source := holder(entry, others.get(entry.occurred_on, ()))) is not None:
                self.duplicates[source] += 1
                continue
            identity = workout_identity(entry)
            old = self._known.get(identity) if identity is not None else None
            if old is not None and identity is not None:
                replacing.append((old, entry))
                self._known[identity] = entry_id_for(user_key, entry.source_key)
            else:
                fresh.append(entry)
        await self._store.add_imported(user_key, fresh, replacing=replacing)
        self.added += len(fresh)
        self.updated += len(replacing)

    def report(self) -> StoreReport:
        return StoreReport(
            added=self.added, updated=self.updated, present=self.present, duplicates=dict(self.duplicates)
        )


async def store_imported(
    db: Database,
    user_key: str,
    entries: Sequence[NewEntry],
    *,
    batch_size: int = BATCH_SIZE,
    progress: Callable[[int, int], None] | None = None,
) -> StoreReport:
    """Store imported entries for ``user_key``, a batch per transaction; see the module docstring for what
    counts as what.

    Args:
        progress: Called with (entries done, entries total) after each batch.
    """
    storing = await _Storing.start(db, user_key)
    total = len(entries)
    for start in range(0, total, batch_size):
        await storing.batch(entries[start : start + batch_size])
        if progress is not None:
            progress(min(start + batch_size, total), total)
    return storing.report()


async def store_workouts(
    db: Database,
    user_key: str,
    workouts: Iterable[Workout],
    *,
    batch_size: int = BATCH_SIZE,
    progress: Callable[[int], None] | None = None,
) -> StoreReport:
    """Store workouts as they are read (:func:`engine.importers.files.read_export`), a batch per transaction.

    What counts as what is as for :func:`store_imported`. A batch holds the
    workouts of whole days (up to twice ``batch_size``), in the order an oldest-first file would give them
    (start, then line): a newest-first export stores a day's workouts in
    the same order as an oldest-first one.

    Args:
        progress: Called with the workouts read so far after each batch is stored.
    """
    storing = await _Storing.start(db, user_key)
    batch: list[Workout] = []
    done = 0

    async def flush() -> None:
        nonlocal done
        batch.sort(key=lambda w: (w.start, w.line))
        await storing.batch([w.entry for w in batch])
        done += len(batch)
        batch.clear()
        if progress is not None:
            progress(done)

    for workout in workouts:
        new_day = workout.entry.occurred_on != batch[-1].entry.occurred_on if batch else True
        # A day is split only past twice the batch (no one trains that often; a file could say so).
        if (len(batch) >= batch_size and new_day) or len(batch) >= 2 * batch_size:
            await flush()
        batch.append(workout)
    if batch:
        await flush()
    return storing.report()


__all__ = [
    "APPS",
    "BATCH_SIZE",
    "ImportResult",
    "RowProblem",
    "StoreReport",
    "Workout",
    "detect",
    "parse_export",
    "store_imported",
    "store_workouts",
]
