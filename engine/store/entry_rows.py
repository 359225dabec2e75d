"""Rows of the ``entries`` table: the columns, the insert, a row read back as an ``Entry``, and the
small SQL pieces the entry and patch stores share (``entries.py`` and ``patches.py`` run the queries)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

import aiosqlite

from engine.entries.model import Entry, EntryKind, NewEntry

DONE_KINDS: tuple[EntryKind, ...] = ("parsed", "note")
"""What was done (and said): the default of every read."""
ALL_KINDS: tuple[EntryKind, ...] = ("parsed", "note", "planned")
"""Done and planned alike (an export, the plan beside what was done)."""


def kinds_sql(kinds: Sequence[EntryKind], column: str = "kind") -> tuple[str, list[str]]:
    """`` AND kind IN (…)`` for the kinds asked (nothing when all are)."""
    wanted: list[str] = list(dict.fromkeys(kinds))
    if set(wanted) >= set(ALL_KINDS):
        return "", []
    return f" AND {column} IN ({','.join('?' * len(wanted))})", wanted


def entry_id_for(user_key: str, source_key: str) -> str:
    """Deterministic id, so a replayed store yields the same id; scoped by user like the key."""
    return "e" + hashlib.sha256(f"{user_key}\n{source_key}".encode()).hexdigest()[:15]


def owner_token(user_key: str) -> str:
    # Must match the trigger in db.SCHEMA: 'u' || hex(user_key), uppercase hex of UTF-8.
    return "u" + user_key.encode().hex().upper()


def fts_phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


COLUMNS = (
    "entry_id, user_key, occurred_on, domain, activity_type, kind, status, summary, data, "
    "raw_text, terms, source, source_key, supersedes, created_at"
)


INSERT_SQL = (
    "INSERT INTO entries (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT DO NOTHING"
)


def insert_params(user_key: str, e: NewEntry, now: str, supersedes: str | None = None) -> tuple[Any, ...]:
    """Parameters of ``INSERT_SQL`` for one entry (shared with the patch commit)."""
    return (
        entry_id_for(user_key, e.source_key),
        user_key,
        e.occurred_on.isoformat(),
        e.domain,
        e.activity_type,
        e.kind,
        e.summary,
        json.dumps(e.data, ensure_ascii=False),
        e.raw_text,
        "\n".join(e.terms),
        e.source,
        e.source_key,
        supersedes,
        now,
    )


def row_to_entry(row: aiosqlite.Row) -> Entry:
    return Entry(
        entry_id=row["entry_id"],
        user_key=row["user_key"],
        occurred_on=date.fromisoformat(row["occurred_on"]),
        domain=row["domain"],
        activity_type=row["activity_type"],
        kind=row["kind"],
        status=row["status"],
        summary=row["summary"],
        data=json.loads(row["data"]),
        raw_text=row["raw_text"],
        terms=[t for t in row["terms"].split("\n") if t],
        source=row["source"],
        source_key=row["source_key"],
        supersedes=row["supersedes"],
        created_at=datetime.fromisoformat(row["created_at"]),
    )


def names_any(entry: Entry, wanted: Sequence[str], strict: set[str]) -> bool:
    """Whether the entry names one of ``wanted`` itself, not only a longer name holding it.

    A full-text phrase match finds "overhead press" inside "seated overhead press";
    the lifter who asks about the overhead press means that lift. A ``strict``
    (canonical) term is found among the entry's terms, or in its text when no
    longer term of the entry holds it; any other term as the full-text search found it.
    """
    terms = set(entry.terms)
    text = entry.raw_text.casefold()
    for term in wanted:
        if term not in strict or term in terms:
            return True
        longer = any(term != t and term.casefold() in t.casefold() for t in terms)
        if not longer and term.casefold() in text:
            return True
    return False
