"""Shared fixtures: the offline guard, a fake Ollama over real HTTP, engines on both checkpointers, and a
throwaway PostgreSQL with a fresh database per test."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from engine.config import EngineConfig, LLMConfig
from engine.engine import Engine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import network, postgres


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


OpenEngine = Callable[..., Any]


@pytest.fixture(params=["memory", "sqlite"])
def checkpointer_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def read_in_code(request: pytest.FixtureRequest) -> bool:
    """Code reads messages first (the default), unless the module is marked ``model_reads``.

    Suites about the model path's mechanics (failures, timeouts, retries, ordering, clarification)
    script the Router and Parser for every turn: they drive that path, as READ_IN_CODE=false does
    and as every message code cannot read does.
    """
    return request.node.get_closest_marker("model_reads") is None


@pytest.fixture
def open_engine(tmp_path: Path, fake: FakeOllama, checkpointer_kind: str, read_in_code: bool) -> OpenEngine:
    """``async with open_engine() as engine`` — a real engine on the fake model.

    With the SQLite checkpointer a second ``open_engine()`` on the same
    directory is a restart; the in-memory saver is shared across opens so a
    "restart" keeps the thread there too.
    """
    memory = InMemorySaver()

    @asynccontextmanager
    async def _open(**overrides: Any) -> AsyncIterator[Engine]:
        overrides.setdefault("read_in_code", read_in_code)
        config = engine_config(tmp_path / "data", fake, **overrides)
        saver = memory if checkpointer_kind == "memory" else None
        async with Engine.open(config, checkpointer=saver) as engine:
            yield engine

    return _open


@pytest.fixture
def sqlite_engine(tmp_path: Path, fake: FakeOllama, read_in_code: bool) -> OpenEngine:
    """Like ``open_engine`` but always on the SQLite checkpointer."""

    @asynccontextmanager
    async def _open(**overrides: Any) -> AsyncIterator[Engine]:
        overrides.setdefault("read_in_code", read_in_code)
        async with Engine.open(engine_config(tmp_path / "data", fake, **overrides)) as engine:
            yield engine

    return _open


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
