"""A guard that fails any test reaching past loopback (python-telegram-bot's
``OfflineRequest`` in spirit): every real client in the tests talks to a local fake.

PostgreSQL is the exception it cannot see: psycopg resolves a host *name* through ``socket.getaddrinfo``
(guarded here), but libpq opens the connection in C, past the patched ``socket`` methods, and an IP
address is never resolved at all. So ``tests/helpers/postgres.py`` checks the server URL itself
(:func:`tests.helpers.postgres.require_loopback`) before any test connects."""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

import pytest


class NetworkAccessError(AssertionError):
    """A test tried to reach an address that is not this machine."""


_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", ""}


def is_loopback(host: object) -> bool:
    """True for a name or address of this machine (``localhost``, ``127.0.0.0/8``, ``::1``)."""
    if isinstance(host, bytes):
        host = host.decode()
    if not isinstance(host, str):
        return False
    if host in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _check(address: Any, family: int) -> None:
    if family == getattr(socket, "AF_UNIX", None):
        return
    host = address[0] if isinstance(address, tuple) and address else address
    if not is_loopback(host):
        raise NetworkAccessError(f"test tried to connect to {address!r}; only loopback is allowed")


def install(monkeypatch: pytest.MonkeyPatch) -> None:
    """Patch the socket layer for one test: connections and name lookups stay on loopback."""
    connect, connect_ex, getaddrinfo = socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo

    def guarded_connect(self: socket.socket, address: Any) -> None:
        _check(address, self.family)
        connect(self, address)

    def guarded_connect_ex(self: socket.socket, address: Any) -> int:
        _check(address, self.family)
        return connect_ex(self, address)

    def guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and not is_loopback(host):
            raise NetworkAccessError(f"test tried to resolve {host!r}; only loopback is allowed")
        return getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", guarded_connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", guarded_getaddrinfo)
