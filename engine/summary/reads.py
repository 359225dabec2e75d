"""The rows of a week, by indexed SQL over the same tables the records and charts read.

* Planned sessions: days with a ``planned`` entry (waiting ``active`` or ``completed``), a day counted
  once however many lifts were planned for it; a planned day is done when a log completed one of its
  planned entries (:mod:`engine.store.records` completes them when the day's log names the exercise).
* Training days: as :meth:`engine.store.history.HistoryStore.sessions` counts them (meals are no training).
* Volume: ``entry_volumes``, the records' one reading of a session's volume (working sets only: done,
  not warm-ups, weighted; in kg).
* Records: ``announced_records`` said for entries still active (an undone entry's record is no record),
  except ``first`` (no record) and ``stall`` (no progress).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date
from typing import Any

from engine.store.db import Database


@dataclass(frozen=True, slots=True)
class PlannedDay:
    """A day with planned sessions."""

    on: date
    done: bool
    """A log completed at least one of the day's planned entries."""


@dataclass(frozen=True, slots=True)
class AnnouncedPR:
    """A personal record said when it was logged."""

    subject: str
    kind: str
    at: str
    """The weight (kg) of ``reps_at``, the distance of ``pace``; else empty."""
    score: float
    on: date


@dataclass(frozen=True, slots=True)
class Unlogged:
    """A planned entry of a day that no log completed."""

    entry_id: str
    on: date
    summary: str


class WeekReads:
    """Reads one person's rows of a period; never another person's."""

    def __init__(self, db: Database, not_training: Collection[str]) -> None:
        self._db = db
        self._not_training = sorted(not_training)

    async def _rows(self, sql: str, args: Any) -> list[Any]:
        async with self._db.conn.execute(sql, args) as cur:
            return list(await cur.fetchall())

    async def planned_days(self, user: str, start: date, end: date) -> list[PlannedDay]:
        """Days in ``start``–``end`` with a planned session, oldest first."""
        rows = await self._rows(
            "SELECT occurred_on, max(CASE WHEN status = 'completed' THEN 1 ELSE 0 END) FROM entries WHERE user_key = :u AND kind = 'planned' "
            "AND status IN ('active', 'completed') AND occurred_on BETWEEN :a AND :b "
            "GROUP BY occurred_on ORDER BY occurred_on",
            {"u": user, "a": start.isoformat(), "b": end.isoformat()},
        )
        return [PlannedDay(date.fromisoformat(r[0]), bool(r[1])) for r in rows]

    async def training_days(self, user: str, start: date, end: date) -> list[date]:
        """Days with an active logged entry of a training domain."""
        skipped = {f"n{i}": name for i, name in enumerate(self._not_training)}
        training = f" AND domain NOT IN ({', '.join(':' + k for k in skipped)})" if skipped else ""
        rows = await self._rows(
            "SELECT DISTINCT occurred_on FROM entries WHERE user_key = :u AND status = 'active' AND kind = 'parsed' "
            f"AND occurred_on BETWEEN :a AND :b{training} ORDER BY occurred_on",
            {"u": user, "a": start.isoformat(), "b": end.isoformat(), **skipped},
        )
        return [date.fromisoformat(r[0]) for r in rows]

    async def unlogged(self, user: str, day: date) -> list[Unlogged]:
        """The day's planned entries still waiting (no log completed them)."""
        rows = await self._rows(
            "SELECT entry_id, occurred_on, summary FROM entries WHERE user_key = :u AND kind = 'planned' "
            "AND status = 'active' AND occurred_on = :d ORDER BY rowid",
            {"u": user, "d": day.isoformat()},
        )
        return [Unlogged(r[0], date.fromisoformat(r[1]), r[2]) for r in rows]

    async def volume_kg(self, user: str, start: date, end: date) -> float:
        """Working sets' weight × reps in kg over the period (every lift)."""
        rows = await self._rows(
            "SELECT coalesce(sum(volume_kg), 0) FROM entry_volumes WHERE user_key = :u AND occurred_on BETWEEN :a AND :b",
            {"u": user, "a": start.isoformat(), "b": end.isoformat()},
        )
        return float(rows[0][0])

    async def lifts(self, user: str, start: date, end: date) -> list[str]:
        """The lifts with a completed work set in the period, most volume first (bodyweight lifts last)."""
        rows = await self._rows(
            "SELECT exercise FROM entry_sets WHERE user_key = :u AND occurred_on BETWEEN :a AND :b "
            "AND done = 1 AND kind != 'warmup' GROUP BY exercise "
            "ORDER BY coalesce(sum(weight_kg * reps), 0) DESC, exercise",
            {"u": user, "a": start.isoformat(), "b": end.isoformat()},
        )
        return [r[0] for r in rows]

    async def records(self, user: str, start: date, end: date) -> list[AnnouncedPR]:
        """Records said for logs of the period whose entries are still active, in the order a log says them."""
        rows = await self._rows(
            "SELECT a.subject, a.kind, a.at, a.score, a.occurred_on FROM announced_records a "
            "JOIN entries e ON e.entry_id = a.entry_id AND e.status = 'active' "
            "WHERE a.user_key = :u AND a.occurred_on BETWEEN :a AND :b AND a.kind NOT IN ('first', 'stall') "
            "ORDER BY a.occurred_on, a.announced_at, a.subject, "
            "CASE a.kind WHEN 'heaviest' THEN 0 WHEN 'reps_at' THEN 1 WHEN 'e1rm' THEN 2 WHEN 'volume' THEN 3 ELSE 4 END, a.at",
            {"u": user, "a": start.isoformat(), "b": end.isoformat()},
        )
        return [AnnouncedPR(r[0], r[1], r[2], float(r[3]), date.fromisoformat(r[4])) for r in rows]
