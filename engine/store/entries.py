"""A person's entries: stored per user key, found by date or by normalized term.

Storing is idempotent: every entry carries a ``source_key`` (the turn that
made it and its position), and a second store of the same key returns the
entry already there. Corrections add a new entry that supersedes the old one;
nothing is overwritten.

Planned is not done: ``between``, ``search``, ``recent`` and ``count`` leave
planned sessions out unless ``kinds`` asks for them (``ALL_KINDS``, or
``("planned",)`` for the plan alone), so "what did I do last?" is never
answered with a session that was only planned.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date, datetime, timezone
from typing import Any

from engine.entries.model import Entry, EntryKind, NewEntry
from engine.store.db import Database
from engine.store.entry_rows import (
    ALL_KINDS,
    COLUMNS,
    DONE_KINDS,
    INSERT_SQL,
    entry_id_for,
    fts_phrase,
    insert_params,
    kinds_sql,
    names_any,
    owner_token,
    row_to_entry,
)


class EntryStore:
    """Entries in the application database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @property
    def db(self) -> Database:
        """The database the entries live in (whole-history aggregates read it too)."""
        return self._db

    async def add(self, user_key: str, entries: Sequence[NewEntry]) -> list[Entry]:
        """Store entries in one transaction; ones whose ``source_key`` exists are returned as stored."""
        if not entries:
            return []
        now = datetime.now(timezone.utc).isoformat()
        conn = self._db.conn
        async with self._db.lock:
            await conn.executemany(INSERT_SQL, [insert_params(user_key, e, now) for e in entries])
            await conn.commit()
        return await self._by_source_keys(user_key, [e.source_key for e in entries])

    async def add_imported(
        self, user_key: str, entries: Sequence[NewEntry], *, replacing: Sequence[tuple[str, NewEntry]] = ()
    ) -> None:
        """Store a batch of an import in one transaction: each ``(old id, new)`` of ``replacing`` as
        :meth:`supersede` stores it, then ``entries`` as :meth:`add` does (a ``source_key`` already
        stored is left alone). Nothing is read back: an import has no use for the stored rows.

        Raises:
            KeyError: an old id that is no entry of this user (nothing is stored then).
        """
        if not entries and not replacing:
            return
        now = datetime.now(timezone.utc).isoformat()
        conn = self._db.conn
        olds = list(dict.fromkeys(old for old, _ in replacing))
        async with self._db.lock:
            found: set[str] = set()
            for i in range(0, len(olds), 500):  # SQLite caps bound parameters
                chunk = olds[i : i + 500]
                async with conn.execute(
                    f"SELECT entry_id FROM entries WHERE user_key = ? AND entry_id IN ({','.join('?' * len(chunk))})",
                    (user_key, *chunk),
                ) as cur:
                    found.update(str(row[0]) for row in await cur.fetchall())
            if missing := [old for old in olds if old not in found]:
                raise KeyError(missing[0])
            try:
                await conn.executemany(
                    INSERT_SQL, [insert_params(user_key, new, now, supersedes=old) for old, new in replacing]
                )
                await conn.executemany(
                    "UPDATE entries SET status = 'superseded' WHERE entry_id = ? AND user_key = ?",
                    [(old, user_key) for old in olds],
                )
                await conn.executemany(INSERT_SQL, [insert_params(user_key, e, now) for e in entries])
                await conn.commit()
            except BaseException:
                await conn.rollback()
                raise

    async def existing_source_keys(self, user_key: str, keys: Sequence[str]) -> set[str]:
        """Those of ``keys`` the user already has an entry for, whatever its status (what an import leaves alone)."""
        if not keys:
            return set()
        marks = ",".join("?" * len(keys))
        async with self._db.conn.execute(
            f"SELECT source_key FROM entries WHERE user_key = ? AND source_key IN ({marks})", (user_key, *keys)
        ) as cur:
            return {str(row[0]) for row in await cur.fetchall()}

    async def imported_workouts(self, user_key: str) -> dict[str, str]:
        """Workout identity (``app:workout id``) -> entry id, for the user's active imported entries."""
        async with self._db.conn.execute(
            "SELECT entry_id, json_extract(data, '$.import.app'), json_extract(data, '$.import.workout_id') "
            "FROM entries WHERE user_key = ? AND status = 'active' AND source = 'import'",
            (user_key,),
        ) as cur:
            rows = await cur.fetchall()
        return {f"{app}:{workout}": str(entry_id) for entry_id, app, workout in rows if app and workout}

    async def _by_source_keys(self, user_key: str, keys: list[str]) -> list[Entry]:
        marks = ",".join("?" * len(keys))
        found = await self._db.conn.execute_fetchall(
            f"SELECT {COLUMNS} FROM entries WHERE source_key IN ({marks}) AND user_key = ?",
            (*keys, user_key),
        )
        rows = {r["source_key"]: row_to_entry(r) for r in found}
        return [rows[k] for k in keys if k in rows]

    async def by_ids(self, user_key: str, entry_ids: Sequence[str]) -> list[Entry]:
        """Entries by id, in the order given (unknown ids and other users' entries are skipped)."""
        if not entry_ids:
            return []
        found: dict[str, Entry] = {}
        ids = list(entry_ids)
        # SQLite caps bound parameters; 500 per query is well under every build's limit.
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            marks = ",".join("?" * len(chunk))
            async with self._db.conn.execute(
                f"SELECT {COLUMNS} FROM entries WHERE entry_id IN ({marks}) AND user_key = ?",
                (*chunk, user_key),
            ) as cur:
                for row in await cur.fetchall():
                    found[row["entry_id"]] = row_to_entry(row)
        return [found[i] for i in ids if i in found]

    async def get(self, user_key: str, entry_id: str) -> Entry | None:
        async with self._db.conn.execute(
            f"SELECT {COLUMNS} FROM entries WHERE entry_id = ? AND user_key = ?",
            (entry_id, user_key),
        ) as cur:
            row = await cur.fetchone()
        return row_to_entry(row) if row else None

    async def supersede(self, user_key: str, old_id: str, new: NewEntry) -> Entry:
        """Store ``new`` in place of ``old_id``: the old entry stays, marked superseded.

        Idempotent by ``new.source_key``.

        Raises:
            KeyError: no active or already-superseded entry ``old_id`` of this user.
        """
        now = datetime.now(timezone.utc).isoformat()
        conn = self._db.conn
        async with self._db.lock:
            async with conn.execute(
                "SELECT status FROM entries WHERE entry_id = ? AND user_key = ?", (old_id, user_key)
            ) as cur:
                row = await cur.fetchone()
            if row is None:
                raise KeyError(old_id)
            await conn.execute(INSERT_SQL, insert_params(user_key, new, now, supersedes=old_id))
            await conn.execute(
                "UPDATE entries SET status = 'superseded' WHERE entry_id = ? AND user_key = ?",
                (old_id, user_key),
            )
            await conn.commit()
        stored = await self._by_source_keys(user_key, [new.source_key])
        return stored[0]

    async def between(
        self,
        user_key: str,
        start: date,
        end: date,
        *,
        domain: str | None = None,
        limit: int = 500,
        kinds: Sequence[EntryKind] = DONE_KINDS,
    ) -> list[Entry]:
        """Active entries with ``start <= occurred_on <= end``, oldest first (the newest ``limit`` of them).

        Args:
            kinds: Which kinds of entry; planned sessions only when asked for.
        """
        kind_sql, kind_args = kinds_sql(kinds)
        sql = (
            f"SELECT {COLUMNS} FROM entries WHERE user_key = ? AND status = 'active' "
            "AND occurred_on BETWEEN ? AND ?" + kind_sql
        )
        args: list[Any] = [user_key, start.isoformat(), end.isoformat(), *kind_args]
        if domain is not None:
            sql += " AND domain = ?"
            args.append(domain)
        # Newest first under the limit, so a crowded window drops its oldest
        # entries rather than the recent ones a comparison needs; then oldest first.
        sql += " ORDER BY occurred_on DESC, rowid DESC LIMIT ?"
        args.append(limit)
        async with self._db.conn.execute(sql, args) as cur:
            rows = await cur.fetchall()
        return [row_to_entry(r) for r in reversed(list(rows))]

    async def imported_on(self, user_key: str, days: Collection[date]) -> list[Entry]:
        """Active imported workouts (parsed) on these days, oldest first: what a new import may repeat.

        The ``entries_user_day`` index (user, status, day) answers it.
        """
        wanted = sorted({d.isoformat() for d in days})
        found: list[Entry] = []
        # SQLite caps bound parameters; 500 days per query is well under every build's limit.
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            async with self._db.conn.execute(
                f"SELECT {COLUMNS} FROM entries WHERE user_key = ? AND status = 'active' AND kind = 'parsed' "
                f"AND occurred_on IN ({','.join('?' * len(chunk))}) AND source = 'import' ORDER BY occurred_on, rowid",
                (user_key, *chunk),
            ) as cur:
                found.extend(row_to_entry(r) for r in await cur.fetchall())
        return found

    async def search(
        self,
        user_key: str,
        terms: Sequence[str],
        *,
        limit: int = 200,
        kinds: Sequence[EntryKind] = DONE_KINDS,
        exact: Collection[str] = (),
    ) -> list[Entry]:
        """Active entries whose text or normalized terms contain any of ``terms``, newest first.

        Args:
            exact: Those of ``terms`` that are canonical names (``overhead press``): they find
                entries naming them, never an entry only naming a longer one (``seated overhead press``).
        """
        wanted = [t for t in terms if t.strip()]
        if not wanted:
            return []
        kind_sql, kind_args = kinds_sql(kinds, "e.kind")
        columns = ", ".join("e." + c.strip() for c in COLUMNS.split(","))
        if self._db.dialect == "postgres":
            # The expression of the entries_fts index (engine/store/schema_pg.py); a phrase per term, as FTS5's.
            phrases = " || ".join("phraseto_tsquery('simple', ?)" for _ in wanted)
            statement = (
                f"SELECT {columns} FROM entries e WHERE e.user_key = ? "
                f"AND to_tsvector('simple', e.raw_text || ' ' || e.terms) @@ ({phrases}) "
                f"AND e.status = 'active'{kind_sql} ORDER BY e.occurred_on DESC, e.rowid DESC LIMIT ?"
            )
            args: tuple[object, ...] = (user_key, *wanted, *kind_args, limit)
        else:
            match = (
                f"owner:{owner_token(user_key)} AND ("
                + " OR ".join(f"{{raw_text terms}}:{fts_phrase(t)}" for t in wanted)
                + ")"
            )
            statement = (
                f"SELECT {columns} FROM entries_fts JOIN entries e ON e.rowid = entries_fts.rowid "
                f"WHERE entries_fts MATCH ? AND e.status = 'active'{kind_sql} "
                "ORDER BY e.occurred_on DESC, e.rowid DESC LIMIT ?"
            )
            args = (match, *kind_args, limit)
        async with self._db.conn.execute(statement, args) as cur:
            found = [row_to_entry(r) for r in await cur.fetchall()]
        strict = set(exact) & set(wanted)
        return [e for e in found if not strict or names_any(e, wanted, strict)]

    async def last_logged(self, user_key: str) -> Entry | None:
        """The user's latest entry logged in a chat (what ``/undo`` takes back when it is the latest change)."""
        async with self._db.conn.execute(
            f"SELECT {COLUMNS} FROM entries WHERE user_key = ? AND source = 'chat' AND status = 'active' "
            "ORDER BY created_at DESC, rowid DESC LIMIT 1",
            (user_key,),
        ) as cur:
            row = await cur.fetchone()
        return row_to_entry(row) if row is not None else None

    async def remove(self, user_key: str, entry_id: str) -> bool:
        """Mark one of the user's entries deleted (kept for the record, never shown or counted again)."""
        async with self._db.lock:
            cur = await self._db.conn.execute(
                "UPDATE entries SET status = 'deleted' WHERE user_key = ? AND entry_id = ? AND status = 'active'",
                (user_key, entry_id),
            )
            await self._db.conn.commit()
        return (cur.rowcount or 0) > 0

    async def recent(self, user_key: str, limit: int = 20, *, kinds: Sequence[EntryKind] = DONE_KINDS) -> list[Entry]:
        """The latest active entries, newest first (a session planned for next week is not the latest)."""
        kind_sql, kind_args = kinds_sql(kinds)
        rows = await self._db.conn.execute_fetchall(
            f"SELECT {COLUMNS} FROM entries WHERE user_key = ? AND status = 'active'{kind_sql} "
            "ORDER BY occurred_on DESC, rowid DESC LIMIT ?",
            (user_key, *kind_args, limit),
        )
        return [row_to_entry(r) for r in rows]

    async def delete_all(self, user_key: str) -> int:
        """Delete every row of a user's entries (``/forget``); returns how many they could see."""
        async with self._db.lock:
            async with self._db.conn.execute(
                "SELECT count(*) FROM entries WHERE user_key = ? AND status != 'deleted'", (user_key,)
            ) as cur:
                row = await cur.fetchone()
            await self._db.conn.execute("DELETE FROM entries WHERE user_key = ?", (user_key,))
            await self._db.conn.commit()
        return int(row[0]) if row else 0

    async def count(self, user_key: str, *, kinds: Sequence[EntryKind] = DONE_KINDS) -> int:
        """Active entries of these kinds."""
        kind_sql, kind_args = kinds_sql(kinds)
        async with self._db.conn.execute(
            "SELECT count(*) FROM entries WHERE user_key = ? AND status = 'active'" + kind_sql, (user_key, *kind_args)
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0


__all__ = ["ALL_KINDS", "DONE_KINDS", "EntryStore", "entry_id_for"]
