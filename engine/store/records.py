"""Storing a logged entry with the records it set, said once ever (issue 24).

A LOG turn stores its entry here: one indexed query reads the bests before it
(per lift: heaviest set, most reps at each of its weights, best estimated 1RM,
best session volume; per sport: longest bout and fastest pace at its
distance), whether the lift or sport was logged before, the records already
announced, and the planned sessions of that day; code judges
(:mod:`engine.store.bests`); then one transaction stores the entry, the
records announced and the planned sessions it completes.

"Once" is kept in ``announced_records``, not derived from the history: an
``/undo`` or a correction takes an entry out of the history, and the same
value logged again would then beat what is left, so what was said must
outlive the entry. A record is said only when it beats both the active
history and every record announced for another entry that is still active,
and is not a value announced for an entry since taken back (so a 600 kg typo,
undone, is not said twice, yet does not hide every later record). The entry's
own rows are left out, so a replayed store says the same again. Imports never pass
here: they announce nothing, yet their sets are history that later logs must
beat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any

from engine.domains.bouts import ReadBout, metrics_of, read_bout
from engine.domains.registry import DomainRegistry
from engine.entries.model import NewEntry
from engine.outcomes import Record
from engine.store.bests import EPS, NEAR, Before, Judge, Prior, pace_at, working_sets
from engine.store.bouts import BoutStore
from engine.store.db import Database
from engine.store.derived import WORK_SET
from engine.store.entry_rows import INSERT_SQL, entry_id_for, insert_params

_SETS = "FROM entry_sets WHERE user_key = :u AND exercise = {l} AND entry_id != :id"
_WORK = _SETS + f" AND {WORK_SET}"
_BOUTS = (
    "FROM entry_bouts b JOIN entries e ON e.entry_id = b.entry_id AND e.status = 'active' "
    "WHERE b.user_key = :u AND b.sport = :s AND b.entry_id != :id"
)


# Typed NULLs: Postgres makes an untyped NULL of a subquery text, and then a union of it with a number fails.
_REAL, _INT, _TEXT = "CAST(NULL AS DOUBLE PRECISION)", "CAST(NULL AS INTEGER)", "CAST(NULL AS TEXT)"


def _one(select: str) -> str:
    return f"SELECT * FROM ({select} LIMIT 1) AS best"  # Postgres 15 wants every subquery named


def _lift_parts(i: int, lift: str, ats: dict[str, float | None], args: dict[str, Any]) -> list[str]:
    lp = f":l{i}"
    args[lp[1:]] = lift
    work = _WORK.format(l=lp)
    parts = [
        # Seen: a completed work set before. A first entry of only warm-ups or failed attempts says nothing,
        # so the first real working set still says "first time logged" (and is compared with nothing).
        f"SELECT 'seen', {lp}, '', {_REAL}, '', {_INT}, {_REAL}, {_TEXT} WHERE EXISTS (SELECT 1 {work})",
        _one(
            f"SELECT 'heaviest', {lp}, '', weight, unit, reps, weight_kg, occurred_on {work} "
            "AND weight_kg IS NOT NULL ORDER BY weight_kg DESC, reps DESC, occurred_on"
        ),
        # The best estimate and session volume set first: the earliest of those within EPS of the best, since
        # equal values from different sets may differ in their last bit (55 × 1 and 50 × 3 both estimate 55 kg),
        # and ordering by the float alone named the later one. Both steps are index ranges.
        _one(
            f"SELECT 'e1rm', {lp}, '', weight, unit, reps, e1rm_kg, occurred_on {work} AND e1rm_kg >= "
            f"(SELECT e1rm_kg {work} AND e1rm_kg IS NOT NULL ORDER BY e1rm_kg DESC LIMIT 1) - {EPS} "
            "ORDER BY occurred_on, e1rm_kg DESC"
        ),
        _one(
            f"SELECT 'volume', {lp}, '', {_REAL}, '', {_INT}, volume_kg, occurred_on FROM entry_volumes "
            f"WHERE user_key = :u AND exercise = {lp} AND entry_id != :id AND volume_kg >= "
            f"(SELECT volume_kg FROM entry_volumes WHERE user_key = :u AND exercise = {lp} AND entry_id != :id "
            f"ORDER BY volume_kg DESC LIMIT 1) - {EPS} ORDER BY occurred_on, volume_kg DESC"
        ),
    ]
    for j, (at, kg) in enumerate(ats.items()):
        ap, wp = f":a{i}_{j}", f":w{i}_{j}"
        args[ap[1:]], args[wp[1:]] = at, kg
        # Equality, not a range: the index then gives the rows in reps order (kg is computed alike here
        # and in the entry_sets trigger, so a weight in lb matches itself).
        where = "weight_kg IS NULL" if kg is None else f"weight_kg = {wp}"
        parts.append(
            _one(
                f"SELECT 'reps_at', {lp}, {ap}, weight, unit, reps, reps, occurred_on {work} AND {where} "
                "ORDER BY reps DESC, occurred_on"
            )
        )
    return parts


def _bout_parts(sport: str, b: ReadBout, at: str, by_kind: bool, args: dict[str, Any]) -> list[str]:
    args.update(s=sport, d=b.distance or 0.0, pa=at, bk=b.kind)
    kind = " AND b.kind = :bk" if by_kind else ""
    return [
        f"SELECT 'seen', :s, '', {_REAL}, '', {_INT}, {_REAL}, {_TEXT} WHERE EXISTS (SELECT 1 {_BOUTS})",
        _one(
            f"SELECT 'longest', :s, '', {_REAL}, '', {_INT}, b.distance, b.occurred_on {_BOUTS} "
            "AND b.distance IS NOT NULL ORDER BY b.distance DESC, b.occurred_on"
        ),
        _one(
            f"SELECT 'pace', :s, :pa, b.distance, '', {_INT}, b.pace, b.occurred_on {_BOUTS}{kind} AND b.pace IS NOT NULL "
            f"AND b.distance BETWEEN :d * {1 - NEAR} AND :d * {1 + NEAR} ORDER BY b.pace, b.occurred_on"
        ),
    ]


@dataclass(frozen=True, slots=True)
class Stored:
    """A logged entry as stored, and what it set."""

    entry_id: str
    records: list[Record]
    completed: int
    """Planned sessions of that day and exercise it completed."""


class RecordStore:
    """Logs entries and announces the records they set, once each."""

    def __init__(self, db: Database, domains: DomainRegistry) -> None:
        self._db = db
        self._domains = domains
        self._bouts = BoutStore(db, domains)

    async def log(self, user: str, entry: NewEntry, lang: str, names: Mapping[str, str] | None = None) -> Stored:
        """Store ``entry`` (idempotent by its ``source_key``), mark the planned sessions it does as
        completed, and return the records it set, each in the person's language ``lang`` (a lift by its
        name in ``names`` when there is one)."""
        entry_id = entry_id_for(user, entry.source_key)
        args: dict[str, Any] = {"u": user, "id": entry_id, "on": entry.occurred_on.isoformat()}
        subjects: list[str] = []
        parts = [f"SELECT 'planned', entry_id, terms, {_REAL}, '', {_INT}, {_REAL}, {_TEXT} FROM entries "
                 "WHERE user_key = :u AND status = 'active' AND kind = 'planned' AND occurred_on = :on"]  # fmt: skip
        announced = entry.kind == "parsed" and entry.source == "chat"
        lifts = working_sets(entry.data) if announced else {}
        for i, (lift, sets) in enumerate(lifts.items()):
            subjects.append(lift)
            parts += _lift_parts(i, lift, {s.at: s.kg for s in sets}, args)
        spec, bout = self._domains.bouts.get(entry.domain) if announced else None, None
        if spec is not None:
            # Bouts are read into entry_bouts lazily: bring it up to date before comparing.
            await self._bouts.sync(user)
            bout = read_bout(spec, entry.occurred_on, entry_id, metrics_of(entry.data))
            subjects.append(entry.domain)
            parts += _bout_parts(entry.domain, bout, pace_at(bout, spec), spec.pace_by_kind, args)
        if subjects:
            marks = ", ".join(f":x{i}" for i in range(len(subjects)))
            args.update({f"x{i}": s for i, s in enumerate(subjects)})
            # Said for an entry still active: a bar to beat. Said for one since undone or corrected: only
            # that same value is not said again (a typo's 600 kg, taken back, must not hide every later record).
            parts.append(
                "SELECT CASE WHEN e.status = 'active' THEN 'announced:' ELSE 'gone:' END || a.kind, a.subject, a.at, "
                f"{_REAL}, '', {_INT}, max(a.score), {_TEXT} FROM announced_records a "
                "LEFT JOIN entries e ON e.entry_id = a.entry_id "
                f"WHERE a.user_key = :u AND a.subject IN ({marks}) AND a.entry_id != :id "
                "GROUP BY a.subject, a.kind, a.at, e.status = 'active', CASE WHEN e.status = 'active' THEN 0 ELSE a.score END"
            )
        # One round trip: every part is a SELECT of the same eight columns (kind, subject, at, weight,
        # unit, reps, value, day).
        sql = " UNION ALL ".join(f"SELECT * FROM ({p}) AS part{i}" for i, p in enumerate(parts))
        async with self._db.lock:
            rows = await self._db.conn.execute_fetchall(sql, args)
            before, planned = _read(rows, entry.terms)
            judge = Judge(before, lang, names)
            for lift, sets in lifts.items():
                judge.lift(lift, sets)
            if spec is not None and bout is not None:
                labels = self._domains.labels(lang)
                judge.bout(entry.domain, labels.get(entry.domain, spec.noun) if lang != "en" else spec.noun, spec, bout)
            now = datetime.now(timezone.utc).isoformat()
            conn = self._db.conn
            await conn.execute(INSERT_SQL, insert_params(user, entry, now))
            if judge.found:
                await conn.executemany(
                    "INSERT INTO announced_records "
                    "(user_key, subject, kind, at, score, entry_id, occurred_on, announced_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    [
                        (user, f.record.subject, f.record.kind, f.at, f.score, entry_id, args["on"], now)
                        for f in judge.found
                    ],
                )
            if planned:
                await conn.executemany(
                    "UPDATE entries SET status = 'completed' WHERE entry_id = ?", [(p,) for p in planned]
                )
            await conn.commit()
        return Stored(entry_id, [f.record for f in judge.found], len(planned))


def _read(rows: Any, terms: list[str]) -> tuple[Before, list[str]]:
    before, planned = Before(), []
    for k, subject, at, weight, unit, reps, v, on in rows:
        if k == "planned":
            # A planned session of that day and exercise is now done.
            if terms and set(str(at).split("\n")) & set(terms):
                planned.append(str(subject))
        elif k == "seen":
            before.seen.add(subject)
        elif k.startswith("announced:"):
            before.announced[(k.split(":", 1)[1], subject, at)] = float(v)
        elif k.startswith("gone:"):
            before.gone.setdefault((k.split(":", 1)[1], subject, at), set()).add(float(v))
        elif v is not None and on is not None:
            before.bests[(k, subject, at)] = Prior(weight, unit or "", reps, float(v), date.fromisoformat(on))
    return before, planned
