"""The rows a chart is made from, by indexed SQL over the derived tables (:mod:`engine.store.derived`).

A lift's working sets use the ``entry_sets_day`` index and exactly the
records' filter (``done = 1 AND kind != 'warmup'``, :mod:`engine.store.records`);
runs and swims are ``entry_bouts`` joined to their entry's current status, as
:mod:`engine.store.bouts` reads them; training days are counted as
:meth:`engine.store.history.HistoryStore.sessions` counts them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from engine.charts.model import BoutPoint
from engine.charts.series import SetRow
from engine.domains.registry import DomainRegistry
from engine.language.values import parse_number
from engine.store.bouts import BoutStore
from engine.store.db import Database
from engine.store.derived import work_set

_WORK = f"{work_set('s')} AND s.weight_kg IS NOT NULL"
BODYWEIGHT = "bodyweight"
"""The metric a weigh-in is logged in (general_fitness's vocabulary and log schema)."""


class ChartReads:
    """Reads a person's rows for charts; no row of another person ever."""

    def __init__(self, db: Database, registry: DomainRegistry) -> None:
        self._db = db
        self._registry = registry
        self._bouts = BoutStore(db, registry)

    async def _rows(self, sql: str, args: Any) -> list[Any]:
        async with self._db.conn.execute(sql, args) as cur:
            return list(await cur.fetchall())

    async def work_sets(self, user: str, lifts: Sequence[str], end: date, start: date | None = None) -> list[SetRow]:
        """The lifts' working sets up to ``end`` (from ``start``; from the first ever when None), oldest first."""
        if not lifts:
            return []
        marks = ", ".join(f":x{i}" for i in range(len(lifts)))
        args: dict[str, Any] = {"u": user, "a": (start or date.min).isoformat(), "b": end.isoformat()}
        args.update({f"x{i}": x for i, x in enumerate(lifts)})
        rows = await self._rows(
            "SELECT s.exercise, s.occurred_on, s.weight_kg, s.unit, s.reps, s.e1rm_kg FROM entry_sets s "
            f"WHERE s.user_key = :u AND s.exercise IN ({marks}) AND s.occurred_on BETWEEN :a AND :b AND {_WORK} "
            "ORDER BY s.occurred_on, s.entry_rowid, s.set_num NULLS FIRST, s.id",  # SQLite's NULL order on both
            args,
        )
        return [
            SetRow(r[0], date.fromisoformat(r[1]), float(r[2]), r[3] or "", int(r[4] or 0), float(r[5] or 0.0))
            for r in rows
        ]

    async def daily_volumes(
        self, user: str, lifts: Sequence[str], start: date, end: date
    ) -> tuple[list[tuple[str, date, float]], set[str]]:
        """Each lift's working sets' weight × reps per day in kg (summed by SQL: a day is one row, not
        its sets), oldest first, and the units the sets were logged in."""
        if not lifts:
            return [], set()
        marks = ", ".join(f":x{i}" for i in range(len(lifts)))
        args: dict[str, Any] = {"u": user, "a": start.isoformat(), "b": end.isoformat()}
        args.update({f"x{i}": x for i, x in enumerate(lifts)})
        rows = await self._rows(
            "SELECT s.exercise, s.occurred_on, sum(s.weight_kg * s.reps), group_concat(DISTINCT s.unit) "
            f"FROM entry_sets s WHERE s.user_key = :u AND s.exercise IN ({marks}) "
            f"AND s.occurred_on BETWEEN :a AND :b AND {_WORK} GROUP BY s.exercise, s.occurred_on "
            "ORDER BY s.occurred_on",
            args,
        )
        units = {u for r in rows for u in (r[3] or "").split(",")}
        return [(r[0], date.fromisoformat(r[1]), float(r[2])) for r in rows], units

    async def top_lifts(self, user: str, start: date, end: date, limit: int = 4) -> list[str]:
        """The lifts with the most volume in the period (for a volume chart that names none)."""
        rows = await self._rows(
            "SELECT s.exercise FROM entry_sets s WHERE s.user_key = :u AND s.occurred_on BETWEEN :a AND :b "
            f"AND {_WORK} GROUP BY s.exercise ORDER BY sum(s.weight_kg * s.reps) DESC LIMIT :n",
            {"u": user, "a": start.isoformat(), "b": end.isoformat(), "n": limit},
        )
        return [r[0] for r in rows]

    async def training_days(self, user: str, start: date, end: date) -> list[date]:
        """Days with any active logged entry of a training domain (meals are no training)."""
        skipped = {f"n{i}": name for i, name in enumerate(sorted(self._registry.not_training))}
        training = f" AND domain NOT IN ({', '.join(':' + k for k in skipped)})" if skipped else ""
        rows = await self._rows(
            "SELECT DISTINCT occurred_on FROM entries WHERE user_key = :u AND status = 'active' AND kind = 'parsed' "
            f"AND occurred_on BETWEEN :a AND :b{training} ORDER BY occurred_on",
            {"u": user, "a": start.isoformat(), "b": end.isoformat(), **skipped},
        )
        return [date.fromisoformat(r[0]) for r in rows]

    async def bouts(self, user: str, sport: str, start: date, end: date) -> list[BoutPoint]:
        """The sport's runs or swims in the period (their entries still active), oldest first."""
        await self._bouts.sync(user)
        rows = await self._rows(
            "SELECT b.occurred_on, b.distance, b.pace FROM entry_bouts b "
            "JOIN entries e ON e.entry_id = b.entry_id AND e.status = 'active' "
            "WHERE b.user_key = :u AND b.sport = :s AND b.occurred_on BETWEEN :a AND :b ORDER BY b.occurred_on",
            {"u": user, "s": sport, "a": start.isoformat(), "b": end.isoformat()},
        )
        return [BoutPoint(date.fromisoformat(r[0]), r[1], r[2]) for r in rows]

    async def weigh_ins(self, user: str, start: date, end: date) -> list[tuple[date, float, str]]:
        """Logged bodyweights in the period (value, ``kg`` or ``lb``), oldest first."""
        if self._db.dialect == "postgres":
            metrics = (
                "SELECT e.occurred_on, m.value ->> 'value', m.value ->> 'unit' FROM entries e, "
                "jsonb_array_elements(CASE WHEN jsonb_typeof(e.data::jsonb -> 'metrics') = 'array' "
                "THEN e.data::jsonb -> 'metrics' ELSE '[]'::jsonb END) m "
                "WHERE lower(m.value ->> 'name') = :m AND "
            )
        else:
            metrics = (
                "SELECT e.occurred_on, json_extract(m.value, '$.value'), json_extract(m.value, '$.unit') "
                "FROM entries e, json_each(e.data, '$.metrics') m WHERE lower(json_extract(m.value, '$.name')) = :m AND "
            )
        rows = await self._rows(
            metrics + "e.user_key = :u AND e.status = 'active' AND e.kind = 'parsed' "
            "AND e.occurred_on BETWEEN :a AND :b ORDER BY e.occurred_on, e.rowid",
            {"u": user, "a": start.isoformat(), "b": end.isoformat(), "m": BODYWEIGHT},
        )
        out = []
        for on, value, unit in rows:
            number = parse_number(str(value))
            said = str(unit or "").lower()
            if number is not None:
                out.append((date.fromisoformat(on), number, "lb" if said.startswith("lb") else "kg"))
        return out
