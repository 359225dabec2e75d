"""Whole-history runs and swims: how many, how far in total, the longest, the fastest.

Reading a logged duration ("25:30", "52분", "1h 5m") needs Python, so
``entry_bouts`` (:mod:`engine.store.derived`) is filled lazily: before a
question, the person's runs and swims stored since the last sync are read
into it (up to a per-user watermark of entry rowids). A delete clears a
person's rows by trigger; queries join the entry's current status, so a
superseded run no longer counts. Only entries of the domains whose file
gives a ``[bout]`` are read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

from engine.domains.bouts import metrics_of, read_bout
from engine.domains.registry import DomainRegistry
from engine.store.db import Database
from engine.store.history import EVER


@dataclass(frozen=True, slots=True)
class Bout:
    on: date
    entry_id: str
    distance: float | None
    seconds: float | None
    pace: float | None
    kind: str


@dataclass(frozen=True, slots=True)
class BoutHistory:
    sport: str
    count: int
    total_distance: float
    longest: Bout | None
    fastest: Bout | None


def _bout(row: Any) -> Bout:
    return Bout(
        date.fromisoformat(row["occurred_on"]),
        row["entry_id"],
        row["distance"],
        row["seconds"],
        row["pace"],
        row["kind"],
    )


class BoutStore:
    """Runs and swims over a person's whole history."""

    def __init__(self, db: Database, domains: DomainRegistry) -> None:
        """``domains`` says which domains hold bouts and how each is read."""
        self._db = db
        self._sports = domains.bouts

    async def _rows(self, sql: str, args: Any) -> list[Any]:
        async with self._db.conn.execute(sql, args) as cur:
            return list(await cur.fetchall())

    async def history(self, user: str, sport: str, start: date = EVER[0], end: date = EVER[1]) -> BoutHistory:
        """How many runs (or swims), their total distance, the longest and the fastest average pace."""
        await self._sync_bouts(user)
        args = {"u": user, "sport": sport, "a": start.isoformat(), "b": end.isoformat()}
        base = (
            "FROM entry_bouts b JOIN entries e ON e.entry_id = b.entry_id AND e.status = 'active' "
            "WHERE b.user_key = :u AND b.sport = :sport AND b.occurred_on BETWEEN :a AND :b"
        )
        cols = "b.occurred_on, b.entry_id, b.distance, b.seconds, b.pace, b.kind"
        (totals,) = await self._rows(f"SELECT count(*) AS n, coalesce(sum(b.distance), 0) AS d {base}", args)
        longest = await self._rows(
            f"SELECT {cols} {base} AND b.distance IS NOT NULL ORDER BY b.distance DESC, b.occurred_on LIMIT 1", args
        )
        fastest = await self._rows(
            f"SELECT {cols} {base} AND b.pace IS NOT NULL ORDER BY b.pace, b.occurred_on LIMIT 1", args
        )
        return BoutHistory(
            sport=sport,
            count=int(totals["n"]),
            total_distance=float(totals["d"]),
            longest=_bout(longest[0]) if longest else None,
            fastest=_bout(fastest[0]) if fastest else None,
        )

    async def sync(self, user: str) -> None:
        """Bring the person's ``entry_bouts`` up to date (before comparing a new bout with them)."""
        await self._sync_bouts(user)

    async def _sync_bouts(self, user: str) -> None:
        """Read the runs and swims stored since the last sync into ``entry_bouts``."""
        sports = {f"s{i}": name for i, name in enumerate(sorted(self._sports))}
        if not sports:
            return
        rows = await self._rows(
            "SELECT e.rowid AS rowid, e.entry_id, e.occurred_on, e.domain, e.data FROM entries e "
            f"WHERE e.user_key = :u AND e.domain IN ({', '.join(':' + k for k in sports)}) AND e.kind = 'parsed' "
            "AND e.rowid > coalesce((SELECT bouts_rowid FROM derived_sync WHERE user_key = :u), 0)",
            {"u": user, **sports},
        )
        if not rows:
            return
        out = []
        for r in rows:
            day, metrics = date.fromisoformat(r["occurred_on"]), metrics_of(json.loads(r["data"]))
            b = read_bout(self._sports[r["domain"]], day, r["entry_id"], metrics)
            out.append((b.entry_id, user, r["occurred_on"], r["domain"], b.kind, b.distance, b.seconds, b.pace))
        async with self._db.lock:
            await self._db.conn.executemany(
                "INSERT INTO entry_bouts (entry_id, user_key, occurred_on, sport, kind, distance, seconds, pace) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (entry_id) DO UPDATE SET user_key = excluded.user_key, "
                "occurred_on = excluded.occurred_on, sport = excluded.sport, kind = excluded.kind, "
                "distance = excluded.distance, seconds = excluded.seconds, pace = excluded.pace",
                out,
            )
            await self._db.conn.execute(
                "INSERT INTO derived_sync (user_key, bouts_rowid) VALUES (?, ?) "
                "ON CONFLICT (user_key) DO UPDATE SET bouts_rowid = CASE WHEN excluded.bouts_rowid > derived_sync.bouts_rowid "
                "THEN excluded.bouts_rowid ELSE derived_sync.bouts_rowid END",
                (user, max(r["rowid"] for r in rows)),
            )
            await self._db.conn.commit()
