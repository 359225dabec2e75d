"""``worlds``: reminder worlds on one database file, closed at the end (an open aiosqlite thread keeps pytest alive)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import OpenDb
from tests.engine.reminders.helpers import Clock, Pushed, World, open_world, utc

Worlds = Callable[..., Awaitable[World]]


@pytest.fixture
async def worlds(open_db: OpenDb, tmp_path: Path) -> AsyncIterator[Worlds]:
    opened: list[World] = []

    async def make(clock: Clock | None = None, pushed: Pushed | None = None, **kw: Any) -> World:
        world = await open_world(
            await open_db(tmp_path / "a.db"), clock or Clock(utc(2026, 11, 26, 12, 0)), pushed or Pushed(), **kw
        )
        opened.append(world)
        return world

    yield make
    for world in opened:
        await world.db.close()
