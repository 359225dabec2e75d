"""Fixtures of the Telegram tests: the fake Bot API (helpers live in ``tests/helpers/telegram.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.telegram_api import FakeTelegram


@pytest.fixture
def tg() -> Iterator[FakeTelegram]:
    """A fake Telegram Bot API on loopback, for the real python-telegram-bot client."""
    with FakeTelegram() as server:
        yield server
