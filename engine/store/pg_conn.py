"""One Postgres connection that the stores use as they use aiosqlite's: the same calls, the same SQL.

The stores are written once, against aiosqlite's connection (``execute`` as an
awaitable or ``async with``, ``execute_fetchall``, ``executemany``, ``commit``),
in the subset of SQL both engines read alike. This adapter makes a psycopg
connection answer those calls:

* **Placeholders.** ``?`` and ``:name`` become psycopg's ``%s`` and
  ``%(name)s``, outside quoted text; a literal ``%`` is doubled.
* **Transactions as the sqlite3 module makes them.** The connection is in
  autocommit; a statement that writes (INSERT, UPDATE, DELETE) opens a
  transaction first, and ``commit``/``rollback`` end it. A read outside one
  runs alone and holds no snapshot, so a worker idle between turns is never
  "idle in transaction".
* **Values as SQLite returns them.** A ``numeric`` (what ``sum`` of integers
  gives) comes back as ``int`` or ``float``, never ``Decimal``; dates and
  datetimes are sent as their ISO text (the columns hold text, as in SQLite);
  ``True``/``False`` as 1/0. Rows are read by position and by name, as
  ``sqlite3.Row`` is.
* **A connection the server closed is opened again** (a restart, a managed
  database's idle timeout), and a statement that was alone runs once more.

What the two engines spell differently is not translated here: the schema is
written for each (``engine/store/schema_pg.py``), and the few queries that
differ choose by `dialect` (full-text search, JSON arrays).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from functools import lru_cache
from types import TracebackType
from typing import Any

import psycopg
import structlog
from psycopg.adapt import Dumper, Loader

Params = Sequence[Any] | Mapping[str, Any]
log = structlog.get_logger(__name__)

_WRITES = re.compile(r"^\s*(?:WITH\b.*?\)\s*)?(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE | re.DOTALL)
_PARAM = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|::|\?|:[A-Za-z_]\w*|%")


@lru_cache(maxsize=1024)
def translate(statement: str) -> str:
    """SQLite's placeholders as psycopg's, leaving quoted text and ``::`` casts alone."""

    def one(m: re.Match[str]) -> str:
        token = m.group(0)
        if token[0] in "'\"":
            return token.replace("%", "%%")  # psycopg reads % everywhere in the text, quotes or not
        if token == "::":
            return token
        if token == "?":
            return "%s"
        if token == "%":
            return "%%"
        return f"%({token[1:]})s"

    return _PARAM.sub(one, statement)


class Row(tuple[Any, ...]):
    """A row read by position or by column name, like ``sqlite3.Row``."""

    _names: dict[str, int]

    def __new__(cls, values: Iterable[Any], names: dict[str, int]) -> Row:
        row = super().__new__(cls, values)
        row._names = names
        return row

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._names[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


def _row_factory(cursor: psycopg.AsyncCursor[Any]) -> Any:
    description = cursor.description or []
    names = {d.name: i for i, d in enumerate(description)}

    def make(values: Sequence[Any]) -> Row:
        return Row(values, names)

    return make


class _NumericLoader(Loader):
    """``numeric`` as SQLite would give it: an int when whole (``sum`` of integers), else a float."""

    def load(self, data: Any) -> int | float:
        text = bytes(data).decode()
        return float(text) if any(c in text for c in ".eEN") else int(text)


class _DateDumper(Dumper):
    """Dates go as ISO text of unknown type: the columns are text, as in SQLite."""

    oid = 0  # unknown: Postgres takes the column's type

    def dump(self, obj: Any) -> bytes:
        return str(obj.isoformat()).encode()


class _DatetimeDumper(_DateDumper):
    """Datetimes as the sqlite3 module's adapter writes them (a space between day and time)."""

    def dump(self, obj: Any) -> bytes:
        return str(obj.isoformat(" ")).encode()


class _BoolDumper(Dumper):
    """``True``/``False`` as 1/0: SQLite has no booleans, and our flag columns are integers."""

    oid = 0

    def dump(self, obj: Any) -> bytes:
        return b"1" if obj else b"0"


def configure(conn: psycopg.AsyncConnection[Any]) -> None:
    """Make a psycopg connection send and return values as the stores expect from SQLite."""
    conn.adapters.register_loader("numeric", _NumericLoader)
    conn.adapters.register_dumper(date, _DateDumper)
    conn.adapters.register_dumper(datetime, _DatetimeDumper)
    conn.adapters.register_dumper(bool, _BoolDumper)


class Cursor:
    """What a statement returned: its rows (already read), ``rowcount``."""

    def __init__(self, rows: list[Row], rowcount: int) -> None:
        self._rows = rows
        self._at = 0
        self.rowcount = rowcount

    async def fetchone(self) -> Row | None:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    async def fetchall(self) -> list[Row]:
        rest, self._at = self._rows[self._at :], len(self._rows)
        return rest

    async def __aenter__(self) -> Cursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Pending:
    """``conn.execute(...)``: awaited, or entered with ``async with``, as aiosqlite's is."""

    def __init__(self, conn: PgConnection, statement: str, params: Params | None) -> None:
        self._conn, self._statement, self._params = conn, statement, params

    def __await__(self) -> Any:
        return self._conn._run(self._statement, self._params).__await__()

    async def __aenter__(self) -> Cursor:
        return await self._conn._run(self._statement, self._params)

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None


class PgConnection:
    """An aiosqlite-shaped face on one psycopg connection (see the module doc)."""

    def __init__(self, conn: psycopg.AsyncConnection[Any], url: str = "") -> None:
        self.raw = conn
        self._url = url
        self._in_transaction = False

    @classmethod
    async def connect(cls, url: str) -> PgConnection:
        return cls(await _open(url), url)

    @property
    def in_transaction(self) -> bool:
        return self._in_transaction

    def execute(self, statement: str, params: Params | None = None) -> _Pending:
        return _Pending(self, statement, params)

    async def execute_fetchall(self, statement: str, params: Params | None = None) -> list[Row]:
        cur = await self._run(statement, params)
        return await cur.fetchall()

    async def executemany(self, statement: str, seq: Iterable[Params]) -> Cursor:
        await self._begin_if_writing(statement)
        async with self.raw.cursor() as cur:
            await cur.executemany(translate(statement), list(seq))
            return Cursor([], cur.rowcount)

    async def executescript(self, script: str) -> None:
        """Run several statements at once, as they are (no placeholders): DDL, or seeding in tests."""
        await self.raw.execute(script.encode())

    async def begin(self) -> None:
        """Open a transaction now (before a read or a ``SET LOCAL``), not at the first write."""
        if not self._in_transaction:
            await self.raw.execute("BEGIN")
            self._in_transaction = True

    async def commit(self) -> None:
        if self._in_transaction:
            self._in_transaction = False
            await self.raw.execute("COMMIT")

    async def rollback(self) -> None:
        if self._in_transaction:
            self._in_transaction = False
            await self.raw.execute("ROLLBACK")

    async def close(self) -> None:
        await self.raw.close()

    async def _begin_if_writing(self, statement: str) -> None:
        if not self._in_transaction and _WRITES.match(statement):
            await self.raw.execute("BEGIN")
            self._in_transaction = True

    async def _run(self, statement: str, params: Params | None) -> Cursor:
        alone = not self._in_transaction  # nothing of the caller's is at stake but this statement
        try:
            return await self._once(statement, params)
        except psycopg.OperationalError:
            if not (alone and self.raw.broken and self._url):
                raise
        # The server or a proxy closed the connection (a restart, an idle timeout of a managed database):
        # open it again and run the statement once more; it had opened its own transaction, if any.
        log.warning("db.reconnected")
        self.raw = await _open(self._url)
        return await self._once(statement, params)

    async def _once(self, statement: str, params: Params | None) -> Cursor:
        if self.raw.broken and not self._in_transaction and self._url:
            self.raw = await _open(self._url)
        await self._begin_if_writing(statement)
        async with self.raw.cursor(row_factory=_row_factory) as cur:
            try:
                await cur.execute(translate(statement), params)
            except psycopg.Error:
                if self._in_transaction:
                    # Postgres refuses every statement in a transaction after one failed, and this connection is
                    # the whole process's: end the transaction here, so one failure cannot stop the others.
                    self._in_transaction = False
                    if not self.raw.broken:
                        await self.raw.execute("ROLLBACK")
                raise
            rows = await cur.fetchall() if cur.description is not None else []
            return Cursor(rows, cur.rowcount)


KEEPALIVES: dict[str, Any] = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5, "keepalives_count": 3}
"""A dead server, or a network cut, is noticed in about half a minute, not hours (every connection of ours)."""


async def _open(url: str) -> psycopg.AsyncConnection[Any]:
    conn = await psycopg.AsyncConnection.connect(
        url,
        autocommit=True,
        prepare_threshold=None,  # no server-side prepared statements: poolers (PgBouncer) can't keep them
        **KEEPALIVES,
    )
    configure(conn)
    return conn
