"""A throwaway PostgreSQL cluster on loopback, for the tests and for CI.

One implementation for both: the ``postgres_server`` fixture calls :meth:`Cluster.start`, and
``.ci/postgres`` runs ``python -m tests.helpers.postgres start DIR`` (it prints the server URL) and
``... stop DIR``. The server settings therefore live once, in :data:`SETTINGS`.

initdb refuses to run as root, so as root every server command runs as the ``postgres`` user
(``runuser``) in a directory that user owns; as anyone else the commands run directly.
"""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from tests.helpers import network

# A test cluster lives for one session and is deleted afterwards, so durability buys nothing: no fsync,
# no waiting for the WAL flush at commit, no full-page images after a checkpoint. A crash loses a
# database nobody needs. This is what makes creating a database per test cheap.
SETTINGS: dict[str, str] = {
    "listen_addresses": "127.0.0.1",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    # A test may open pools (the checkpoint saver's, the store's), and one it leaves open holds its
    # connections until the test's database is dropped WITH (FORCE); the default of 100 leaves little room.
    "max_connections": "300",
}

# Trust: only this machine can connect (see SETTINGS), and a password would be one more thing to pass
# around. No sync: the files are deleted after the session. C.UTF-8: byte-order collation, the same on
# every machine, with UTF-8 character classes, so lower() and ILIKE still work on non-ASCII text.
_INITDB_OPTIONS = ["-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"]

# Below this much free space in /dev/shm (Docker's default is 64 MB) the cluster goes to the temp dir:
# a cluster is ~40 MB, each test database another ~8 MB, and WAL comes in 16 MB segments.
_SHM_MIN_FREE = 1 << 30

# Binding port 0 and closing the socket leaves a window in which another process may take the port;
# a start that fails on it tries again on a new one.
_START_ATTEMPTS = 3


class ClusterError(RuntimeError):
    """The cluster could not be created or started (the message carries initdb's output or the server's
    log), or a server URL points past loopback."""


def initdb_path() -> str | None:
    """Where ``initdb`` is: on PATH, else in Debian's and Ubuntu's versioned folder (the newest); None when
    this machine has no PostgreSQL server binaries."""
    return _server_program("initdb")


def _server_program(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    versions = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if p.parent.name.isdigit()]
    folders = sorted(versions, key=lambda p: int(p.parent.name), reverse=True)
    return next((str(f / name) for f in folders if _runnable(f / name)), None)


def _runnable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


@dataclass(frozen=True)
class Cluster:
    """A running throwaway cluster: everything of it (data, socket, log) lives in ``directory``."""

    directory: Path
    """Owned by the server's user; removed by :meth:`stop`."""
    port: int
    """The TCP port on 127.0.0.1."""

    @property
    def server_url(self) -> str:
        """The maintenance database as superuser (trust authentication: no password)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    @classmethod
    def start(cls, directory: Path | None = None) -> Cluster:
        """Create a cluster in ``directory`` (a new temporary one when None) and start it.

        Raises:
            ClusterError: initdb is missing or failed, or the server did not start.
        """
        initdb = initdb_path()
        if initdb is None:
            raise ClusterError("initdb is not on PATH (install the PostgreSQL server binaries)")
        if directory is None:
            directory = Path(tempfile.mkdtemp(prefix="almanac-pg-", dir=scratch_parent()))
        else:
            directory.mkdir(parents=True, exist_ok=True)
            if any(directory.iterdir()):
                raise ClusterError(f"{directory} is not empty")
        (directory / "socket").mkdir()
        _give_to_server_user(directory)
        try:
            _run([initdb, "-D", str(directory / "data"), *_INITDB_OPTIONS], cwd=directory)
            port = _start_server(directory)
        except BaseException:
            shutil.rmtree(directory, ignore_errors=True)
            raise
        return cls(directory=directory, port=port)

    def stop(self) -> None:
        """Stop the server at once (no checkpoint: nothing is kept) and remove its directory."""
        stop(self.directory)


def stop(directory: Path) -> None:
    """Stop the cluster in ``directory`` (if it still runs) and remove the directory."""
    pg_ctl = _server_program("pg_ctl")
    if pg_ctl is not None and (directory / "data" / "postmaster.pid").exists():
        # A server that already died is no reason to keep its files: removing them is the point.
        subprocess.run(
            _as_server_user([pg_ctl, "-D", str(directory / "data"), "-m", "immediate", "-w", "stop"]),
            cwd=directory,
            capture_output=True,
            check=False,
        )
    shutil.rmtree(directory, ignore_errors=True)


def create_database(server_url: str, template: str = "template1") -> str:
    """Create a new database (a copy of ``template``, by default empty) on the server and return its URL."""
    name = f"t_{secrets.token_hex(8)}"
    # FILE_COPY copies template1's files and checkpoints, which costs little with fsync off; the default
    # WAL_LOG writes the whole template through WAL and measured a little slower. (STRATEGY: PostgreSQL 15+.)
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {} STRATEGY FILE_COPY").format(
                sql.Identifier(name), sql.Identifier(template)
            )
        )
    return with_database(server_url, name)


def drop_database(database_url: str) -> None:
    """Drop the database the URL names, closing any connection a test left open on it."""
    name = urlsplit(database_url).path.lstrip("/")
    with psycopg.connect(with_database(database_url, "postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def require_loopback(url: str) -> None:
    """Refuse a server URL whose host is not this machine: the offline guard cannot see libpq's sockets.

    Raises:
        ClusterError: a host (or hostaddr) past loopback.
    """
    params = conninfo_to_dict(url)
    for key in ("host", "hostaddr"):
        for host in str(params.get(key) or "").split(","):
            # An empty host or a directory is a Unix socket on this machine.
            if host and not host.startswith("/") and not network.is_loopback(host):
                raise ClusterError(f"the test PostgreSQL must be on loopback, not {host!r}")


def with_database(url: str, name: str) -> str:
    """The same server URL naming another database (user, host, port and options kept)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _start_server(directory: Path) -> int:
    pg_ctl = _server_program("pg_ctl")
    if pg_ctl is None:
        raise ClusterError("pg_ctl is not on PATH beside initdb")
    log = directory / "server.log"
    failure = ""
    for _ in range(_START_ATTEMPTS):
        port = _free_port()
        settings = {**SETTINGS, "port": str(port), "unix_socket_directories": str(directory / "socket")}
        options = " ".join(f"-c {name}={shlex.quote(value)}" for name, value in settings.items())
        started = subprocess.run(
            _as_server_user([pg_ctl, "-D", str(directory / "data"), "-l", str(log), "-o", options, "-w", "start"]),
            cwd=directory,
            capture_output=True,
            text=True,
            check=False,
        )
        if started.returncode == 0:
            return port
        failure = started.stderr
    tail = log.read_text(errors="replace")[-2000:] if log.exists() else failure
    raise ClusterError(f"PostgreSQL did not start in {directory}:\n{tail}")


def scratch_parent() -> str:
    """Where a cluster's directory should go: /dev/shm when it is a roomy tmpfs, else the temp dir.

    fsync is off, but every test database is still ~8 MB of files copied from template1 and then
    deleted, and a disk is slower at that than memory: measured on the development machine, create+drop
    took a median 15 ms in /dev/shm and 95 ms on disk (a plain copy of such a directory: 15 vs 50 ms).
    """
    shm = "/dev/shm"
    try:
        stats = os.statvfs(shm)
    except OSError:
        return tempfile.gettempdir()
    roomy = stats.f_bavail * stats.f_frsize >= _SHM_MIN_FREE
    return shm if roomy and os.access(shm, os.W_OK | os.X_OK) else tempfile.gettempdir()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


def _give_to_server_user(directory: Path) -> None:
    if os.geteuid() != 0:
        return
    for path in (directory, directory / "socket"):
        shutil.chown(path, user="postgres")


def _run(command: list[str], cwd: Path) -> None:
    done = subprocess.run(_as_server_user(command), cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ClusterError(f"{shlex.join(command)} failed:\n{done.stdout}{done.stderr}")


def main(argv: list[str]) -> int:
    """``start DIR`` prints the server URL of a new cluster in DIR; ``stop DIR`` stops and removes it;
    ``scratch`` prints the directory to make DIR in (:func:`scratch_parent`)."""
    if argv == ["scratch"]:
        print(scratch_parent())
        return 0
    if len(argv) != 2 or argv[0] not in {"start", "stop"}:
        print("usage: python -m tests.helpers.postgres start DIR | stop DIR | scratch", file=sys.stderr)
        return 2
    action, directory = argv[0], Path(argv[1]).resolve()
    if action == "stop":
        stop(directory)
        return 0
    try:
        print(Cluster.start(directory).server_url)
    except ClusterError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
