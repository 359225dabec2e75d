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
  the old entry through :meth:`EntryStore.supersede`, so it is not counted
  twice;
* an entry for a workout another source's import already holds (Strong and
  the daily notes of the same day, or Strong and Hevy: the same exercises and
  sets, as :mod:`engine.importers.overlap` defines it) is not stored, and is
  counted by that source, so a day's sets and volume count once;
* the rest is added in batches, one transaction per batch.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from engine.importers.common import ImportResult, RowProblem, workout_identity
from engine.importers.detect import APPS, detect, parse_export
from engine.importers.overlap import holder, lifts
from engine.store.db import Database
from engine.store.entries import EntryStore
from engine.entries.model import Entry, NewEntry

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


async def _existing_keys(db: Database, user_key: str, keys: Sequence[str]) -> set[str]:
    if not keys:
        return set()
    marks = ",".join("?" * len(keys))
    async with db.conn.execute(
        f"SELECT source_key FROM entries WHERE user_key = ? AND source_key IN ({marks})", (user_key, *keys)
    ) as cur:
        return {str(row[0]) for row in await cur.fetchall()}


async def _imported_workouts(db: Database, user_key: str) -> dict[str, str]:
    """Workout identity -> entry id, for the user's active imported entries."""
    async with db.conn.execute(
        "SELECT entry_id, json_extract(data, '$.import.app'), json_extract(data, '$.import.workout_id') "
        "FROM entries WHERE user_key = ? AND status = 'active' AND source = 'import'",
        (user_key,),
    ) as cur:
        rows = await cur.fetchall()
    return {f"{app}:{workout}": str(entry_id) for entry_id, app, workout in rows if app and workout}


async def _imported_by_day(store: EntryStore, user_key: str, entries: Sequence[NewEntry]) -> dict[date, list[Entry]]:
    """The stored imports on the days of those entries that hold sets or cardio (the only ones that can repeat one)."""
    days = {e.occurred_on for e in entries if e.data.get("cardio") or any(lifts(e.data).values())}
    by_day: defaultdict[date, list[Entry]] = defaultdict(list)
    for entry in await store.imported_on(user_key, days):
        by_day[entry.occurred_on].append(entry)
    return by_day


async def store_imported(
    db: Database,
    user_key: str,
    entries: Sequence[NewEntry],
    *,
    batch_size: int = BATCH_SIZE,
    progress: Callable[[int, int], None] | None = None,
) -> StoreReport:
    """Store imported entries for ``user_key``; see the module docstring for what counts as what.

    Args:
        progress: Called with (entries done, entries total) after each batch.
    """
    store = EntryStore(db)
    known = await _imported_workouts(db, user_key)
    added = updated = present = 0
    duplicates: Counter[str] = Counter()
    total = len(entries)
    for start in range(0, total, batch_size):
        batch = entries[start : start + batch_size]
        existing = await _existing_keys(db, user_key, [e.source_key for e in batch])
        others = await _imported_by_day(store, user_key, [e for e in batch if e.source_key not in existing])
        fresh: list[NewEntry] = []
        for entry in batch:
            if entry.source_key in existing:
                present += 1
                continue
            # Before the identity: a new version of a note that now reads as Strong's workout is no update either.
            if (source := holder(entry, others.get(entry.occurred_on, ()))) is not None:
                duplicates[source] += 1
                continue
            identity = workout_identity(entry)
            old = known.get(identity) if identity is not None else None
            if old is not None and identity is not None:
                stored = await store.supersede(user_key, old, entry)
                known[identity] = stored.entry_id
                updated += 1
            else:
                fresh.append(entry)
        await store.add(user_key, fresh)
        added += len(fresh)
        if progress is not None:
            progress(min(start + batch_size, total), total)
    return StoreReport(added=added, updated=updated, present=present, duplicates=dict(duplicates))


__all__ = [
    "APPS",
    "BATCH_SIZE",
    "ImportResult",
    "RowProblem",
    "StoreReport",
    "detect",
    "parse_export",
    "store_imported",
]
