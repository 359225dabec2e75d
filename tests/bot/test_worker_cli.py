"""``python -m bot worker`` and ``migrate``: what they need is said in one line; migrate reports what it did."""

from __future__ import annotations

import socket
from pathlib import Path

import psycopg

from tests.bot.test_one_line_errors import one_line, run_bot


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_worker_without_a_shared_database_says_what_to_set(tmp_path: Path) -> None:
    result = run_bot(
        tmp_path,
        "worker",
        TELEGRAM_BOT_TOKEN="123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
        DATA_DIR=str(tmp_path / "data"),
    )
    assert result.returncode == 2
    assert one_line(result).startswith("almanac: a worker runs turns from a shared database: set DATABASE_URL")


def test_a_database_url_that_is_not_postgres_is_refused(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "migrate", DATABASE_URL="mysql://x@127.0.0.1/db", DATA_DIR=str(tmp_path / "data"))
    assert result.returncode == 2
    line = one_line(result)
    assert "DATABASE_URL" in line and "postgresql://" in line


def test_an_unreachable_database_is_one_line_without_its_password(tmp_path: Path) -> None:
    url = f"postgresql://almanac:hunter2secret@127.0.0.1:{closed_port()}/almanac"
    result = run_bot(tmp_path, "migrate", DATABASE_URL=url, DATA_DIR=str(tmp_path / "data"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    line = result.stderr.strip().splitlines()[-1]  # after the log's start line
    assert line.startswith("almanac: cannot reach the database at DATABASE_URL")
    assert "hunter2secret" not in result.stderr + result.stdout


def test_migrate_on_sqlite_makes_the_files_tables(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "migrate", DATA_DIR=str(tmp_path / "data"))
    assert result.returncode == 0, result.stderr
    assert "is up to date (DATABASE_URL is not set)" in result.stdout
    assert (tmp_path / "data" / "almanac.db").exists()


def test_migrate_on_postgres_applies_once_then_finds_it_done(tmp_path: Path, pg_url: str) -> None:
    first = run_bot(tmp_path, "migrate", DATABASE_URL=pg_url, DATA_DIR=str(tmp_path / "data"))
    again = run_bot(tmp_path, "migrate", DATABASE_URL=pg_url, DATA_DIR=str(tmp_path / "data"))
    assert (first.returncode, again.returncode) == (0, 0), first.stderr + again.stderr
    assert first.stdout.startswith("applied migrations 1, 2, 3, 4, 5")
    assert again.stdout.strip() == "the database is up to date"
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT to_regclass('entries') IS NOT NULL").fetchone() == (True,)
