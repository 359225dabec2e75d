"""No credential reaches a person or a log line, whatever fails.

Before: with ``OLLAMA_HOST=http://user:pass@host`` (the usual form behind an
authenticating proxy) the password was shown to chat users whenever the model
was unreachable, and logged as it was.
"""

from __future__ import annotations

import io
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog

from bot.config import Settings
from bot.logs import SecretMasker, configure_logging
from engine.engine import Engine
from engine.graph.log_nodes import LogNodes
from engine.outcomes import Failure, Outcome
from engine.store.inbox import Inbox
from engine.turns import Message
from tests.fakes.ollama_server import Delay, Fail, FakeOllama
from tests.helpers import scripts

PASSWORD = "s3cr3t-proxy-pass"
TOKEN = "123456789:AAHsecretTokenValueForTests_0123456789"
CONV = USER = "console:kim"


@pytest.fixture
def logs() -> Iterator[io.StringIO]:
    buf = io.StringIO()
    yield buf
    structlog.reset_defaults()


def settings(tmp_path: Path, fake: FakeOllama) -> Settings:
    host = fake.url.replace("http://", f"http://almanac:{PASSWORD}@")
    return Settings(
        data_dir=tmp_path / "data",
        ollama_host=host,
        ollama_timeout_s=0.5,
        ollama_max_retries=0,
        telegram_bot_token=TOKEN,
    )


def failure_paths(fake: FakeOllama, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """Each way a turn can fail, as (name, set-up); the set-up runs before the turn."""

    def down() -> None:
        fake.stop()

    def slow() -> None:
        fake.script("RouterOutput", Delay(2.0, scripts.router("LOG")))

    def missing() -> None:
        fake.models.clear()

    def garbage() -> None:
        fake.script("RouterOutput", "{not json")

    def proxy_error() -> None:  # a proxy quoting the upstream URL, credentials and all
        fake.script("RouterOutput", Fail(502, f"upstream http://almanac:{PASSWORD}@10.0.0.5:11434 refused"))

    def crash() -> None:
        async def boom(self: LogNodes, state: Any) -> dict[str, Any]:
            raise RuntimeError(f"bug while talking to http://almanac:{PASSWORD}@10.0.0.5 with {TOKEN}")

        fake.script(scripts.router("LOG"))
        monkeypatch.setattr(LogNodes, "route", boom)

    def storage() -> None:
        async def full(*args: Any, **kw: Any) -> None:
            raise sqlite3.OperationalError(f"disk I/O error at http://almanac:{PASSWORD}@nas/almanac.db")

        monkeypatch.setattr(Inbox, "record", full)

    return [
        ("down", down),
        ("timeout", slow),
        ("missing", missing),
        ("invalid", garbage),
        ("proxy", proxy_error),
        ("crash", crash),
        ("storage", storage),
    ]


@pytest.mark.parametrize("path", range(7))
async def test_no_failure_path_shows_or_logs_a_credential(
    tmp_path: Path, fake: FakeOllama, monkeypatch: pytest.MonkeyPatch, logs: io.StringIO, path: int
) -> None:
    config = settings(tmp_path, fake)
    configure_logging("json", "DEBUG", config.secrets(), stream=logs)
    name, set_up = failure_paths(fake, monkeypatch)[path]
    async with Engine.open(config.engine_config()) as engine:
        set_up()
        structlog.get_logger("test").info("settings", ollama_host=config.ollama_host)  # settings do get logged
        # A message only the model can read (code stores "bench 55kg 10x5" with no model at all).
        out: list[Outcome] = await engine.handle(Message(conversation=CONV, user=USER, text="did some stretching"))
    assert out and isinstance(out[0], Failure), (name, out)
    shown = " ".join(o.model_dump_json() for o in out)
    for secret in (PASSWORD, TOKEN):
        assert secret not in shown, (name, shown)
        assert secret not in logs.getvalue(), name
    assert "Traceback" not in shown and "\n" not in out[0].text
    assert "***@" in logs.getvalue()  # the host was logged, masked


def test_log_masking_covers_credentials_in_any_url() -> None:
    masker = SecretMasker([])
    line = masker.mask("GET https://bob:hunter2@proxy.example/api and postgres://u:p@db:5432/x, plain http://host/")
    assert "hunter2" not in line and "u:p@" not in line and "http://host/" in line
