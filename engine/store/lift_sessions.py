"""A lift's latest sessions, each by its best estimated 1RM and heaviest work set, for stall detection
(:mod:`engine.facts.stalls`), and the stalls already said when logging.

One reading of everything: the estimated 1RM is the ``e1rm_kg`` the ``entry_sets`` trigger stores (Epley,
:func:`engine.language.values.epley`), and a work set is what the records count (``done = 1 AND kind !=
'warmup'``: completed, not a warm-up, not a failed attempt; planned sessions never reach ``entry_sets``).
A session is a day the lift was trained, as in :meth:`engine.store.history.HistoryStore.last_session`; a day
that completed a deload planned by code (``purpose`` ``deload``) is left out: it is light on purpose.

A stall said when logging is kept in ``announced_records`` (kind ``stall``, ``at`` the day of the best it is
measured against), so each is said once, and ``/forget`` clears it with the records.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any

from engine.store.db import Database
from engine.store.derived import WORK_SET

_DELOADS = (
    "SELECT occurred_on FROM entries WHERE user_key = :u AND status = 'completed' AND kind = 'planned' "
    "AND json_extract(data, '$.purpose') = 'deload' AND json_extract(data, '$.exercises[0].name') = :x"
)
# A day that completed a planned deload of the lift is lighter on purpose: neither a stall nor a decline.
_DONE = f"user_key = :u AND exercise = :x AND {WORK_SET} AND weight_kg IS NOT NULL"
_WORK = f"{_DONE} AND e1rm_kg IS NOT NULL AND occurred_on NOT IN ({_DELOADS})"


@dataclass(frozen=True, slots=True)
class SessionBest:
    """One session of a lift: its best estimated 1RM (with the set it came from) and its heaviest work set."""

    on: date
    e1rm_kg: float
    top_kg: float
    """The heaviest completed work set's weight, in kg."""
    weight: float
    """The best-e1RM set's weight as logged."""
    unit: str
    reps: int


@dataclass(frozen=True, slots=True)
class LiftSessions:
    """A lift's latest sessions and what came before them."""

    exercise: str
    recent: list[SessionBest]
    """The latest sessions, oldest first."""
    best_before: SessionBest | None = None
    """The session with the best estimated 1RM before ``recent`` (the earliest of equals)."""
    top_before: float | None = None
    """The heaviest work set (kg) before ``recent``."""
    earlier: int = 0
    """Sessions before ``recent``."""


def summarize(exercise: str, sessions: list[SessionBest], last: int) -> LiftSessions:
    """The same reading from a whole history in memory (oldest first): tests and whole-history tables."""
    recent, before = sessions[-last:] if last else [], sessions[: max(0, len(sessions) - last)]
    best = max(before, key=lambda s: (s.e1rm_kg, -s.on.toordinal()), default=None)
    top = max((s.top_kg for s in before), default=None)
    return LiftSessions(exercise, recent, best, top, len(before))


def _session(rows: list[Any]) -> SessionBest:
    best = max(rows, key=lambda r: r["e1rm_kg"])
    return SessionBest(
        on=date.fromisoformat(best["occurred_on"]),
        e1rm_kg=float(best["e1rm_kg"]),
        top_kg=max(float(r["weight_kg"]) for r in rows),
        weight=float(best["weight"]),
        unit=best["unit"] or "",
        reps=int(best["reps"]),
    )


class SessionStore:
    """Reads a lift's latest sessions; remembers the stalls said."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def _rows(self, sql: str, args: dict[str, Any]) -> list[Any]:
        async with self._db.conn.execute(sql, args) as cur:
            return list(await cur.fetchall())

    async def recent(self, user: str, exercise: str, last: int) -> LiftSessions:
        """The latest ``last`` sessions of ``exercise`` with a completed weighted work set, and the bests before."""
        args: dict[str, Any] = {"u": user, "x": exercise.strip().lower(), "n": last}
        rows = await self._rows(
            f"SELECT occurred_on, weight, unit, reps, weight_kg, e1rm_kg FROM entry_sets WHERE {_WORK} "
            f"AND occurred_on IN (SELECT DISTINCT occurred_on FROM entry_sets WHERE {_WORK} "
            "ORDER BY occurred_on DESC LIMIT :n) ORDER BY occurred_on",
            args,
        )
        days: dict[str, list[Any]] = {}
        for r in rows:
            days.setdefault(r["occurred_on"], []).append(r)
        recent = [_session(day) for day in days.values()]
        if not recent:
            return LiftSessions(exercise, [])
        args["d"] = recent[0].on.isoformat()
        (head,) = await self._rows(
            f"SELECT (SELECT count(DISTINCT occurred_on) FROM entry_sets WHERE {_WORK} AND occurred_on < :d) AS n, "
            f"(SELECT max(weight_kg) FROM entry_sets WHERE {_WORK} AND occurred_on < :d) AS top, "
            f"(SELECT occurred_on FROM entry_sets WHERE {_WORK} AND occurred_on < :d "
            "ORDER BY e1rm_kg DESC, occurred_on LIMIT 1) AS best_on",
            args,
        )
        best = None
        if head["best_on"] is not None:
            args["b"] = head["best_on"]
            day = await self._rows(
                f"SELECT occurred_on, weight, unit, reps, weight_kg, e1rm_kg FROM entry_sets WHERE {_WORK} "
                "AND occurred_on = :b",
                args,
            )
            best = _session(day)
        top = float(head["top"]) if head["top"] is not None else None
        return LiftSessions(exercise, recent, best, top, int(head["n"] or 0))

    async def days(self, user: str, exercise: str, start: date, end: date) -> list[date]:
        """The days ``exercise`` was trained with a completed work set in ``[start, end]``, oldest first (deloads
        too: they are training days)."""
        rows = await self._rows(
            f"SELECT DISTINCT occurred_on FROM entry_sets WHERE {_DONE} "
            "AND occurred_on BETWEEN :a AND :b ORDER BY occurred_on",
            {"u": user, "x": exercise.strip().lower(), "a": start.isoformat(), "b": end.isoformat()},
        )
        return [date.fromisoformat(r["occurred_on"]) for r in rows]

    async def said(self, user: str, exercise: str, since: date, entry_id: str) -> bool:
        """Whether the stall measured against the best of ``since`` was said already, for another entry (a
        replayed store of the same entry says it again, as its records are)."""
        rows = await self._rows(
            "SELECT 1 FROM announced_records WHERE user_key = :u AND subject = :x AND kind = 'stall' AND at = :d "
            "AND entry_id != :id LIMIT 1",
            {"u": user, "x": exercise, "d": since.isoformat(), "id": entry_id},
        )
        return bool(rows)

    async def remember(self, user: str, exercise: str, since: date, entry_id: str, on: date) -> None:
        """Keep that the stall was said, with the entry whose log said it."""
        async with self._db.lock:
            await self._db.conn.execute(
                "INSERT INTO announced_records "
                "(user_key, subject, kind, at, score, entry_id, occurred_on, announced_at) "
                "VALUES (?, ?, 'stall', ?, 0, ?, ?, ?) ON CONFLICT DO NOTHING",
                (user, exercise, since.isoformat(), entry_id, on.isoformat(), datetime.now(timezone.utc).isoformat()),
            )
            await self._db.conn.commit()
