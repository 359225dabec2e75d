"""Fixtures of the Slack tests: the fake Web API (helpers live in ``tests/helpers/slack.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.slack_api import FakeSlack


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    """A fake Slack Web API on loopback, for slack_sdk's real async client."""
    with FakeSlack() as server:
        yield server
