"""The ingest manifest: which files were ingested, with which content hash, into which chunks.

It lives in the BM25 index's SQLite file (table ``sources``) and shares its
connection and lock.
"""

from __future__ import annotations

import json
import sqlite3
import threading


class Source:
    """One ingested file, as the manifest remembers it."""

    __slots__ = ("chunk_ids", "content_hash", "domain", "origin")

    def __init__(self, origin: str, domain: str, content_hash: str, chunk_ids: list[str]) -> None:
        self.origin = origin
        self.domain = domain
        self.content_hash = content_hash
        self.chunk_ids = chunk_ids


class Manifest:
    """Reads and writes the ``sources`` table."""

    def __init__(self, db: sqlite3.Connection, lock: threading.Lock) -> None:
        self._db = db
        self._lock = lock

    def source(self, origin: str) -> Source | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM sources WHERE origin = ?", (origin,)).fetchone()
        if row is None:
            return None
        return Source(row["origin"], row["domain"], row["content_hash"], json.loads(row["chunk_ids"]))

    def sources(self) -> list[Source]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM sources ORDER BY origin").fetchall()
        return [Source(r["origin"], r["domain"], r["content_hash"], json.loads(r["chunk_ids"])) for r in rows]

    def record(self, source: Source, ingested_at: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO sources (origin, domain, content_hash, chunk_ids, ingested_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (origin) DO UPDATE SET domain = excluded.domain,"
                " content_hash = excluded.content_hash, chunk_ids = excluded.chunk_ids,"
                " ingested_at = excluded.ingested_at",
                (source.origin, source.domain, source.content_hash, json.dumps(source.chunk_ids), ingested_at),
            )

    def forget(self, origin: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM sources WHERE origin = ?", (origin,))
