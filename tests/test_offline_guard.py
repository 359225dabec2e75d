"""The offline guard itself: it must stop a real client before any packet leaves."""

from __future__ import annotations

import socket

import httpx
import pytest

from tests.fakes.ollama_server import FakeOllama
from tests.helpers.network import NetworkAccessError


def test_a_connection_past_loopback_fails_the_test() -> None:
    with pytest.raises(NetworkAccessError):
        socket.create_connection(("192.0.2.1", 80), timeout=1)  # TEST-NET-1: never routed


def test_a_name_lookup_past_loopback_fails_the_test() -> None:
    with pytest.raises(NetworkAccessError):
        httpx.get("https://api.telegram.org/", timeout=1)


def test_loopback_still_works(fake: FakeOllama) -> None:
    assert httpx.get(f"{fake.url}/api/tags", timeout=5).status_code == 200
