"""The console on the default path: what the README shows, with no model running at all."""

from __future__ import annotations

import io

from adapters.console import ConsoleChat
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama


async def test_a_log_and_a_greeting_with_the_model_down(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.stop()  # no model at all: code reads these
    out = io.StringIO()
    async with open_engine() as engine:
        lines = "hello\nbench 55kg 10x5\n스쿼트 100키로 5x5\n"
        await ConsoleChat(engine, "kim", stdin=io.StringIO(lines), stdout=out).run()
        assert await engine.entries.count("console:kim") == 2
    shown = out.getvalue()
    assert "Hi!" in shown
    assert "bench press 55 kg × 10 reps × 5 sets" in shown and "squat 100 kg × 5 reps × 5 sets" in shown
    assert "can't reach" not in shown
