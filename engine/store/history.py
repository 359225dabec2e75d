"""Whole-history aggregates: records, counts, first and last times, by indexed SQL.

Everything here reads the derived tables of :mod:`engine.store.derived`
(never a load of the person's entries), over their whole history or a period
``[start, end]``:

* per exercise: the heaviest completed set, the best estimated 1RM, the most
  reps in a bodyweight set, the heaviest failed attempt (0 reps or a set of
  kind ``failure``: never a record), sessions, the first and the latest
  session with their top sets, and the most reps done at a given weight;
* the exercises with the best estimated 1RMs ("my strongest lift");
* training days in a period, overall and per domain.

Runs and swims are in :mod:`engine.store.bouts`.

Ties go to the earliest day, when the record was set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from engine.domains.registry import DomainRegistry
from engine.facts.model import LB_TO_KG
from engine.language.periods import EVER as EVER  # the whole history, as periods define it
from engine.store.db import Database
from engine.store.derived import work_set

_SET = "s.id, s.exercise, s.occurred_on, s.entry_id, s.weight, s.unit, s.weight_kg, s.reps, s.e1rm_kg"
_SCOPE = "s.user_key = :u AND s.exercise = x.name AND s.occurred_on BETWEEN :a AND :b"
_WORK = work_set("s")
"""Records, volumes and estimates count working sets only, as the records said when logging do."""


@dataclass(frozen=True, slots=True)
class SetRecord:
    """One logged set."""

    exercise: str
    on: date
    entry_id: str
    weight: float | None
    unit: str
    weight_kg: float | None
    reps: int
    e1rm_kg: float | None


@dataclass(slots=True)
class LiftHistory:
    """What one exercise's sets say over a period."""

    exercise: str
    units: list[str]
    sessions: int
    first_on: date | None = None
    last_on: date | None = None
    """None in a brief reading (records only)."""
    heaviest: SetRecord | None = None
    best_e1rm: SetRecord | None = None
    most_reps: SetRecord | None = None
    failed: SetRecord | None = None
    first_top: SetRecord | None = None
    last_top: SetRecord | None = None
    first_e1rm: SetRecord | None = None
    last_e1rm: SetRecord | None = None
    reps_at: dict[tuple[float, str], SetRecord] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PeriodVolume:
    """One exercise's completed weight × reps over a period."""

    exercise: str
    volume: float
    unit: str
    sessions: int
    entry_ids: list[str]


@dataclass(frozen=True, slots=True)
class Sessions:
    """Training days in a period."""

    days: int
    by_domain: dict[str, int]
    first_on: date | None
    last_on: date | None
    recent_ids: list[str]


@dataclass(frozen=True, slots=True)
class WorkSet:
    """One work set of a session (not a warm-up or drop set), completed or missed."""

    entry_id: str
    on: date
    weight: float | None
    unit: str
    reps: int
    done: bool
    """Completed: reps > 0 and not marked a failure."""


def _set(row: Any) -> SetRecord:
    return SetRecord(
        exercise=row["exercise"],
        on=date.fromisoformat(row["occurred_on"]),
        entry_id=row["entry_id"],
        weight=row["weight"],
        unit=row["unit"],
        weight_kg=row["weight_kg"],
        reps=int(row["reps"] or 0),
        e1rm_kg=row["e1rm_kg"],
    )


class HistoryStore:
    """Indexed aggregates over a person's whole history."""

    def __init__(self, db: Database, domains: DomainRegistry) -> None:
        """``domains`` says which domains hold no training, meals."""
        self._db = db
        self._not_training = sorted(domains.not_training)

    @property
    def db(self) -> Database:
        """The database it reads (the stall reading shares it)."""
        return self._db

    async def _rows(self, sql: str, args: Any) -> list[Any]:
        async with self._db.conn.execute(sql, args) as cur:
            return list(await cur.fetchall())

    async def lifts(
        self,
        user: str,
        exercises: Sequence[str],
        start: date = EVER[0],
        end: date = EVER[1],
        weights: Sequence[tuple[float, str]] = (),
        *,
        brief: bool = False,
    ) -> list[LiftHistory]:
        """Records and history of each exercise the person logged (others are left out).

        Args:
            exercises: Canonical names, any case.
            weights: (weight, unit) pairs to find the most reps at (``100 kg``).
            brief: Only the records (heaviest set, best estimated 1RM, most reps) and sessions.
        """
        names = list(dict.fromkeys(x.strip().lower() for x in exercises if x.strip()))
        if not names:
            return []
        values = ", ".join(f"(:n{i})" for i in range(len(names)))
        args: dict[str, Any] = {"u": user, "a": start.isoformat(), "b": end.isoformat()}
        args.update({f"n{i}": n for i, n in enumerate(names)})
        # Records walk the weight or e1RM index from the top; "|| ''" keeps the day range off the index choice
        # (SQLite's "+column" does the same there, but is no operator on text in Postgres).
        top = (
            "SELECT s.id FROM entry_sets s WHERE s.user_key = :u AND s.exercise = x.name "
            "AND s.occurred_on || '' BETWEEN :a AND :b"
        )
        # ORDER BY … LIMIT 1 rather than min()/max() with a filter: it stops at the first row that qualifies.
        day = f"SELECT s.occurred_on FROM entry_sets s WHERE {_SCOPE}"
        done = f"AND {_WORK} AND s.weight_kg IS NOT NULL"
        history = (
            ""
            if brief
            else f""",
              ({top} AND s.done = 0 AND s.weight_kg IS NOT NULL ORDER BY s.weight_kg DESC, s.occurred_on LIMIT 1) AS failed,
              ({day} ORDER BY s.occurred_on LIMIT 1) AS first_on,
              ({day} ORDER BY s.occurred_on DESC LIMIT 1) AS last_on,
              ({day} {done} ORDER BY s.occurred_on LIMIT 1) AS first_done,
              ({day} {done} ORDER BY s.occurred_on DESC LIMIT 1) AS last_done"""
        )
        rows = await self._rows(
            f"""WITH x(name) AS (VALUES {values})
            SELECT x.name,
              ({top} {done} ORDER BY s.weight_kg DESC, s.reps DESC, s.occurred_on LIMIT 1) AS heaviest,
              ({top} AND s.e1rm_kg IS NOT NULL AND {_WORK} ORDER BY s.e1rm_kg DESC, s.occurred_on LIMIT 1) AS e1rm,
              ({top} AND {_WORK} AND s.weight_kg IS NULL ORDER BY s.reps DESC, s.occurred_on LIMIT 1) AS most_reps,
              (SELECT count(*) FROM (SELECT 1 FROM entry_sets s WHERE {_SCOPE} GROUP BY s.occurred_on) AS days) AS sessions,
              (SELECT group_concat(ux.unit) FROM user_exercises ux WHERE ux.user_key = :u AND ux.exercise = x.name
                 AND ux.unit != '') AS units{history}
            FROM x""",
            args,
        )
        found = [r for r in rows if r["sessions"]]
        if not found:
            return []
        keys = ("heaviest", "e1rm", "most_reps") if brief else ("heaviest", "e1rm", "most_reps", "failed")
        wanted = [r[k] for r in found for k in keys if r[k] is not None]
        sets = {r["id"]: _set(r) for r in await self._by_ids(wanted)}
        out: dict[str, LiftHistory] = {}
        ends: dict[str, tuple[date, date]] = {}
        for r in found:
            out[r["name"]] = LiftHistory(
                exercise=r["name"],
                units=sorted(set((r["units"] or "").split(",")) - {""}),
                sessions=r["sessions"],
                heaviest=sets.get(r["heaviest"]),
                best_e1rm=sets.get(r["e1rm"]),
                most_reps=sets.get(r["most_reps"]),
            )
            if brief:
                continue
            h = out[r["name"]]
            h.failed, h.first_on, h.last_on = (
                sets.get(r["failed"]),
                date.fromisoformat(r["first_on"]),
                date.fromisoformat(r["last_on"]),
            )
            if r["first_done"]:
                ends[r["name"]] = (date.fromisoformat(r["first_done"]), date.fromisoformat(r["last_done"]))
        if not brief:
            await self._ends(user, out, ends)
            for weight, unit in weights:
                await self._reps_at(user, out, weight, unit, args)
        return [out[n] for n in names if n in out]

    async def last_session(self, user: str, exercise: str) -> list[WorkSet]:
        """The work sets of the latest day ``exercise`` was trained, in the order logged (empty: never trained).

        Warm-ups and drop sets are left out; failed sets are kept (``done`` False), since a miss decides the
        next target.
        """
        work = "s.user_key = :u AND s.exercise = :x AND s.kind NOT IN ('warmup', 'drop')"
        rows = await self._rows(
            f"SELECT s.entry_id, s.occurred_on, s.weight, s.unit, s.reps, s.done FROM entry_sets s WHERE {work} "
            f"AND s.occurred_on = (SELECT s.occurred_on FROM entry_sets s WHERE {work} "
            # NULLS FIRST: SQLite's place for a set without a number; Postgres puts NULL last unless told.
            "ORDER BY s.occurred_on DESC LIMIT 1) ORDER BY s.entry_rowid, s.set_num NULLS FIRST, s.id",
            {"u": user, "x": exercise.strip().lower()},
        )
        return [
            WorkSet(
                entry_id=r["entry_id"],
                on=date.fromisoformat(r["occurred_on"]),
                weight=r["weight"],
                unit=r["unit"] or "",
                reps=int(r["reps"] or 0),
                done=bool(r["done"]),
            )
            for r in rows
        ]

    async def _by_ids(self, ids: Sequence[int]) -> list[Any]:
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        return await self._rows(f"SELECT {_SET} FROM entry_sets s WHERE s.id IN ({marks})", list(ids))

    async def _ends(self, user: str, lifts: dict[str, LiftHistory], done: dict[str, tuple[date, date]]) -> None:
        """The top set and best e1RM of each exercise's first and latest session with a completed weighted set."""
        pairs = [(x, d.isoformat()) for x, days in done.items() for d in set(days)]
        if not pairs:
            return
        marks = ", ".join("(?, ?)" for _ in pairs)
        # The days drive the join, one index search each (a row-value IN would scan every set of the person).
        rows = await self._rows(
            f"WITH p(x, d) AS (VALUES {marks}) SELECT {_SET} FROM p JOIN entry_sets s "
            "ON s.user_key = ? AND s.exercise = p.x AND s.occurred_on = p.d "
            "WHERE s.done = 1 AND s.weight_kg IS NOT NULL",
            [*(v for p in pairs for v in p), user],
        )
        for row in rows:
            s, h = _set(row), lifts[row["exercise"]]
            first, last = done[row["exercise"]]
            for day, top_attr, e1_attr in ((first, "first_top", "first_e1rm"), (last, "last_top", "last_e1rm")):
                if s.on != day:
                    continue
                top = getattr(h, top_attr)
                if top is None or ((s.weight_kg or 0.0), s.reps) > ((top.weight_kg or 0.0), top.reps):
                    setattr(h, top_attr, s)
                best = getattr(h, e1_attr)
                if s.e1rm_kg is not None and (best is None or s.e1rm_kg > (best.e1rm_kg or 0.0)):
                    setattr(h, e1_attr, s)

    async def _reps_at(
        self, user: str, lifts: dict[str, LiftHistory], weight: float, unit: str, args: dict[str, Any]
    ) -> None:
        kg = weight * LB_TO_KG if unit == "lb" else weight
        for name, h in lifts.items():
            # A narrow range of the record index, then the unit: a handful of rows.
            rows = await self._rows(
                f"SELECT {_SET} FROM entry_sets s WHERE s.user_key = :u AND s.exercise = :x AND {_WORK} "
                "AND s.weight_kg BETWEEN :lo AND :hi AND s.unit = :unit AND s.occurred_on BETWEEN :a AND :b "
                "ORDER BY s.reps DESC, s.occurred_on LIMIT 1",
                {**args, "u": user, "x": name, "unit": unit, "lo": kg - 0.01, "hi": kg + 0.01},
            )
            if rows:
                h.reps_at[(weight, unit)] = _set(rows[0])

    async def volumes(self, user: str, exercises: Sequence[str], start: date, end: date) -> list[PeriodVolume]:
        """Each exercise's completed weight × reps over a period (the ``entry_sets_day`` index), in the
        unit it was logged in, or in kg when it was logged in both."""
        names = list(dict.fromkeys(x.strip().lower() for x in exercises if x.strip()))
        if not names:
            return []
        marks = ", ".join(f":n{i}" for i in range(len(names)))
        args: dict[str, Any] = {"u": user, "a": start.isoformat(), "b": end.isoformat()}
        args.update({f"n{i}": n for i, n in enumerate(names)})
        rows = await self._rows(
            f"""SELECT s.exercise, sum(s.weight * s.reps) AS logged, sum(s.weight_kg * s.reps) AS kg,
                  group_concat(DISTINCT s.unit) AS units, count(DISTINCT s.occurred_on) AS days,
                  group_concat(DISTINCT s.entry_id) AS ids
               FROM entry_sets s
               WHERE s.user_key = :u AND s.exercise IN ({marks}) AND s.occurred_on BETWEEN :a AND :b
                 AND {_WORK} AND s.weight_kg IS NOT NULL
               GROUP BY s.exercise""",
            args,
        )
        out = {}
        for r in rows:
            units = sorted(set((r["units"] or "").split(",")) - {""})
            unit = units[0] if len(units) == 1 else "kg"
            value = float(r["logged"] if len(units) == 1 else r["kg"])
            out[r["exercise"]] = PeriodVolume(r["exercise"], value, unit, int(r["days"]), (r["ids"] or "").split(","))
        return [out[n] for n in names if n in out]

    async def strongest(self, user: str, start: date = EVER[0], end: date = EVER[1], limit: int = 5) -> list[str]:
        """The exercises with the best estimated 1RMs (in kg), best first."""
        rows = await self._rows(
            """SELECT exercise, best FROM (SELECT ux.exercise,
                 (SELECT s.e1rm_kg FROM entry_sets s WHERE s.user_key = :u AND s.exercise = ux.exercise
                    AND s.e1rm_kg IS NOT NULL AND s.kind != 'warmup' AND s.occurred_on BETWEEN :a AND :b
                    ORDER BY s.e1rm_kg DESC LIMIT 1) AS best
               FROM (SELECT DISTINCT exercise FROM user_exercises WHERE user_key = :u) AS ux) AS bests
               WHERE best IS NOT NULL ORDER BY best DESC LIMIT :n""",
            {"u": user, "a": start.isoformat(), "b": end.isoformat(), "n": limit},
        )
        return [r["exercise"] for r in rows]

    async def sessions(self, user: str, start: date = EVER[0], end: date = EVER[1]) -> Sessions:
        """Training days (one per domain per day; meals are no training) in a period."""
        skipped = {f"n{i}": name for i, name in enumerate(self._not_training)}
        args = {"u": user, "a": start.isoformat(), "b": end.isoformat(), **skipped}
        where = "user_key = :u AND status = 'active' AND kind = 'parsed' AND occurred_on BETWEEN :a AND :b"
        training = f" AND domain NOT IN ({', '.join(':' + k for k in skipped)})" if skipped else ""
        per = await self._rows(
            f"SELECT domain, count(DISTINCT occurred_on) AS days FROM entries WHERE {where} GROUP BY domain", args
        )
        (total,) = await self._rows(
            f"SELECT count(DISTINCT occurred_on) AS days, min(occurred_on) AS first, max(occurred_on) AS last "
            f"FROM entries WHERE {where}{training}",
            args,
        )
        recent = await self._rows(
            f"SELECT entry_id FROM entries WHERE {where}{training} ORDER BY occurred_on DESC LIMIT 5",
            args,
        )
        return Sessions(
            days=int(total["days"] or 0),
            by_domain={r["domain"]: int(r["days"]) for r in per if r["domain"] not in skipped.values()},
            first_on=date.fromisoformat(total["first"]) if total["first"] else None,
            last_on=date.fromisoformat(total["last"]) if total["last"] else None,
            recent_ids=[r["entry_id"] for r in reversed(recent)],
        )
