"""The throwaway PostgreSQL the Postgres suites stand on: a real server on loopback, a fresh database per
test, and ``.ci/postgres`` for CI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.helpers import postgres

_ROOT = Path(__file__).resolve().parent.parent

# Outside the system schemas: what a test (or a migration) would have created.
_USER_TABLES = (
    "SELECT count(*) FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')"
)


def _scalar(url: str, query: str) -> object:
    with psycopg.connect(url) as conn:
        row = conn.execute(query).fetchone()
    assert row is not None
    return row[0]


@pytest.fixture
def second_pg_url(postgres_server: str) -> Iterator[str]:
    """Another fresh database, as ``pg_url`` makes it (a fixture is made once per test)."""
    url = postgres.create_database(postgres_server)
    yield url
    postgres.drop_database(url)


def test_the_server_answers_over_tcp_on_loopback(pg_url: str) -> None:
    with psycopg.connect(pg_url) as conn:
        row = conn.execute("SELECT 1, inet_server_addr()::text").fetchone()
    # inet_server_addr() is NULL over a Unix socket: this went through TCP to 127.0.0.1.
    assert row == (1, "127.0.0.1/32")


def test_the_server_listens_only_on_loopback(postgres_server: str) -> None:
    assert _scalar(postgres_server, "SHOW listen_addresses") == "127.0.0.1"


def test_two_test_databases_are_distinct_and_empty(pg_url: str, second_pg_url: str) -> None:
    assert _scalar(pg_url, "SELECT current_database()") != _scalar(second_pg_url, "SELECT current_database()")
    assert _scalar(pg_url, _USER_TABLES) == 0
    assert _scalar(second_pg_url, _USER_TABLES) == 0

    with psycopg.connect(pg_url) as conn:
        conn.execute("CREATE TABLE entries (id int)")
    assert _scalar(pg_url, _USER_TABLES) == 1
    assert _scalar(second_pg_url, _USER_TABLES) == 0


def test_a_dropped_database_is_gone_even_with_a_connection_left_open(postgres_server: str) -> None:
    url = postgres.create_database(postgres_server)
    name = _scalar(url, "SELECT current_database()")
    left_open = psycopg.connect(url)  # a test that forgot to close its pool
    try:
        postgres.drop_database(url)
    finally:
        left_open.close()

    assert _scalar(postgres_server, f"SELECT count(*) FROM pg_database WHERE datname = '{name}'") == 0
    with pytest.raises(psycopg.OperationalError, match="does not exist"):
        psycopg.connect(url).close()


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://postgres@127.0.0.1:5432/postgres",
        "postgresql://postgres@localhost/postgres",
        "postgresql://postgres@[::1]:5432/postgres",
        "postgresql:///postgres?host=/tmp/almanac-pg/socket",
    ],
)
def test_a_server_on_this_machine_is_accepted(url: str) -> None:
    postgres.require_loopback(url)


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://postgres@192.0.2.1:5432/postgres",
        "postgresql://postgres@db.example/postgres",
        "postgresql://postgres@127.0.0.1/postgres?host=192.0.2.1",
        "postgresql://postgres@localhost/postgres?hostaddr=192.0.2.1",
        "postgresql://postgres@127.0.0.1,192.0.2.1/postgres",
    ],
)
def test_a_server_past_loopback_is_refused(url: str) -> None:
    # libpq connects in C, out of the offline guard's sight: this check is all that stops it.
    with pytest.raises(postgres.ClusterError, match="loopback"):
        postgres.require_loopback(url)


@pytest.mark.skipif(postgres.initdb_path() is None, reason="no PostgreSQL: initdb is not on PATH")
def test_the_ci_script_starts_a_cluster_and_stops_it() -> None:
    # Not tmp_path: as root the server runs as `postgres`, which cannot enter pytest's private 0700 tree.
    parent = Path(tempfile.mkdtemp(prefix="almanac-ci-pg-"))
    parent.chmod(0o755)
    directory = parent / "cluster"
    script = str(_ROOT / ".ci" / "postgres")
    # This interpreter has psycopg; the worktree may have no .venv of its own.
    env = {**os.environ, "PYTHON": sys.executable}
    try:
        started = subprocess.run([script, "start", str(directory)], capture_output=True, text=True, env=env, timeout=60)
        assert started.returncode == 0, started.stderr
        url = started.stdout.strip()
        assert url.startswith("postgresql://postgres@127.0.0.1:")
        assert _scalar(url, "SELECT 1") == 1

        stopped = subprocess.run([script, "stop", str(directory)], capture_output=True, text=True, env=env, timeout=60)
        assert stopped.returncode == 0, stopped.stderr
        assert not directory.exists()
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(url, connect_timeout=2).close()
    finally:
        postgres.stop(directory)
        shutil.rmtree(parent, ignore_errors=True)
