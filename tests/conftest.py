"""Shared fixtures: the offline guard, a fake Ollama over real HTTP, engines on both checkpointers, and a
throwaway PostgreSQL with a fresh database per test."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from pydantic import SecretStr

from engine.config import EngineConfig, LLMConfig
from engine.engine import Engine
from engine.store.db import Database
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import network, pg_template, postgres


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs offline: a connection past loopback fails it."""
    network.install(monkeypatch)


@pytest.fixture(autouse=True)
def _umask() -> Iterator[None]:
    """A test that runs ``bot.__main__.main`` in-process sets the bot's private umask; the next test
    starts with the one it had."""
    before = os.umask(0o022)
    os.umask(before)
    yield
    os.umask(before)


@pytest.fixture
def fake() -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        yield server


def engine_config(data_dir: Path, fake: FakeOllama, **overrides: Any) -> EngineConfig:
    llm = LLMConfig(host=fake.url, timeout_s=overrides.pop("timeout_s", 5.0), max_retries=2)
    return EngineConfig(data_dir=data_dir, llm=llm, default_timezone=overrides.pop("tz", "Asia/Seoul"), **overrides)


class OpenEngine:
    """``async with open_engine() as engine`` — a real engine on the fake model; ``config()`` — its settings.

    With the SQLite checkpointer a second ``open_engine()`` on the same
    directory is a restart; the in-memory saver is shared across opens so a
    "restart" keeps the thread there too. On Postgres everything (threads,
    entries, turns) is in the test's own database, and ``config()`` points
    the test's own reads and imports at it.
    """

    def __init__(self, data_dir: Path, fake: FakeOllama, kind: str, read_in_code: bool, url: str | None) -> None:
        self.data_dir, self.fake, self.kind, self.read_in_code, self.url = data_dir, fake, kind, read_in_code, url
        self.memory = InMemorySaver()

    def config(self, **overrides: Any) -> EngineConfig:
        overrides.setdefault("read_in_code", self.read_in_code)
        if self.url:
            overrides.setdefault("database_url", SecretStr(self.url))
        return engine_config(self.data_dir, self.fake, **overrides)

    async def database(self) -> Database:
        """The engine's database, opened beside it (the test closes it)."""
        config = self.config()
        return await Database.open_either(config.database, config.entries_db)

    @asynccontextmanager
    async def __call__(self, **overrides: Any) -> AsyncIterator[Engine]:
        saver = self.memory if self.kind == "memory" else None
        async with Engine.open(self.config(**overrides), checkpointer=saver) as engine:
            yield engine


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def checkpointer_kind(request: pytest.FixtureRequest) -> str:
    """Where the engine keeps its threads: in memory (the tests' own), SQLite, or Postgres — with everything else."""
    return str(request.param)


OpenDb = Callable[..., Awaitable[Database]]


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """The storage suites run on both engines: SQLite files, and Postgres (``DATABASE_URL``)."""
    return str(request.param)


@pytest.fixture
def database_url(request: pytest.FixtureRequest, backend: str) -> str | None:
    """``DATABASE_URL`` for this test's backend: a fresh migrated Postgres database, or None (SQLite files)."""
    return str(request.getfixturevalue("pg_database")) if backend == "postgres" else None


@pytest.fixture
def open_db(database_url: str | None, tmp_path: Path) -> OpenDb:
    """``await open_db()`` — the application database on this test's backend (a second call is a reopen)."""

    async def _open(path: Path | None = None) -> Database:
        return await Database.open_either(database_url, path or tmp_path / "a.db")

    return _open


@pytest.fixture(scope="session")
def postgres_template(postgres_server: str) -> str:
    """The test server, with a migrated template database that each test's database is copied from."""
    pg_template.make_template(postgres_server)
    return postgres_server


@pytest.fixture
def pg_database(postgres_template: str) -> Iterator[str]:
    """A fresh, migrated Postgres database for one test (its URL); dropped after."""
    url = postgres.create_database(postgres_template, template=pg_template.TEMPLATE)
    yield url
    postgres.drop_database(url)


@pytest.fixture
def read_in_code(request: pytest.FixtureRequest) -> bool:
    """Code reads messages first (the default), unless the module is marked ``model_reads``.

    Suites about the model path's mechanics (failures, timeouts, retries, ordering, clarification)
    script the Router and Parser for every turn: they drive that path, as READ_IN_CODE=false does
    and as every message code cannot read does.
    """
    return request.node.get_closest_marker("model_reads") is None


@pytest.fixture
def open_engine(
    request: pytest.FixtureRequest, tmp_path: Path, fake: FakeOllama, checkpointer_kind: str, read_in_code: bool
) -> OpenEngine:
    """A real engine on the fake model, on each checkpointer (`OpenEngine`)."""
    url = request.getfixturevalue("pg_database") if checkpointer_kind == "postgres" else None
    return OpenEngine(tmp_path / "data", fake, checkpointer_kind, read_in_code, url)


@pytest.fixture
def sqlite_engine(tmp_path: Path, fake: FakeOllama, read_in_code: bool) -> OpenEngine:
    """Like ``open_engine`` but always on the SQLite checkpointer."""
    return OpenEngine(tmp_path / "data", fake, "sqlite", read_in_code, None)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server on loopback (its maintenance database), for the whole session.

    ``ALMANAC_TEST_POSTGRES`` names a running server (CI starts one with ``.ci/postgres``); without it a
    throwaway cluster starts here when ``initdb`` is on PATH, and the Postgres suites skip otherwise.
    """
    url = os.environ.get("ALMANAC_TEST_POSTGRES")
    if url:
        try:
            postgres.require_loopback(url)
        except postgres.ClusterError as error:
            pytest.fail(f"ALMANAC_TEST_POSTGRES: {error}")
        yield url
        return
    if postgres.initdb_path() is None:
        pytest.skip("no PostgreSQL: initdb is not on PATH and ALMANAC_TEST_POSTGRES is not set")
    cluster = postgres.Cluster.start()
    try:
        yield cluster.server_url
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(postgres_server: str) -> Iterator[str]:
    """A fresh empty database (a copy of template1) on the session's server, dropped after the test."""
    url = postgres.create_database(postgres_server)
    yield url
    postgres.drop_database(url)
