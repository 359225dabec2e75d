"""The engine names commands as most platforms type them (``send /retry``); Slack shows them as typed there
(``/almanac retry``), with the slash command the settings name, and never touches a URL or a word."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.slack.render import render
from adapters.slack.text import as_typed
from engine import Answer, Ask, Failure, Notice, Question
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import Fail, FakeOllama
from tests.fakes.slack_api import FakeSlack
from tests.helpers.slack import running

CONV = "slack:T1:C1:1700000000.000100:U1"


@pytest.mark.parametrize(
    ("engine_text", "shown"),
    [
        ("Send /retry to try again.", "Send /almanac retry to try again."),
        ("(approve or cancel it; /status shows it again)", "(approve or cancel it; /almanac status shows it again)"),
        ("Hi! Tell me what you trained. (/help)", "Hi! Tell me what you trained. (/almanac help)"),
        (
            "/undo, /export, /forget and “/cancel”",
            "/almanac undo, /almanac export, /almanac forget and “/almanac cancel”",
        ),
        ("`/reset` or /tz Asia/Seoul", "`/almanac reset` or /almanac tz Asia/Seoul"),
    ],
)
def test_command_words_read_as_the_slash_command(engine_text: str, shown: str) -> None:
    assert as_typed(engine_text) == shown


@pytest.mark.parametrize(
    "text",
    [
        "See https://example.com/retry and http://example.com/help/",
        "docs at example.com/status or ~/notes/export",
        "/retrying, /retry.html, /retry/again, /frobnicate, and/or",
    ],
)
def test_urls_paths_and_other_words_are_untouched(text: str) -> None:
    assert as_typed(text) == text


def test_the_configured_command_is_used_with_or_without_its_slash() -> None:
    assert as_typed("send /retry", "/gym") == "send /gym retry"
    assert as_typed("send /retry", "gym") == "send /gym retry"


def test_every_text_outcome_reads_commands_as_typed_in_slack() -> None:
    ask = Ask(
        interrupt_id="i1",
        questions=[Question(text="Which one?")],
        why="Unclear.",
        if_declined="It stays open; /cancel drops it.",
    )
    outcomes = [
        Answer(text="Try /export."),
        Notice(text="Nothing to undo; /history shows more."),
        Failure(text="Send /retry to try again."),
        ask,
    ]
    shown = [str(m.blocks) for o in outcomes for m in render(o, CONV, "/gym")]
    assert "/gym export" in shown[0] and "/gym history" in shown[1] and "/gym retry" in shown[2]
    assert "/gym cancel" in shown[3]
    assert render(Failure(text="See https://example.com/retry"), CONV)[0].text == "⚠️ See https://example.com/retry"


@pytest.mark.model_reads
async def test_an_error_notice_says_the_slack_command_to_retry(
    sqlite_engine: OpenEngine, fake: FakeOllama, slack: FakeSlack, tmp_path: Path
) -> None:
    """Before: "Send /retry to try again" — a command Slack does not have (it would say "/retry is not a
    valid command")."""
    fake.default("RouterOutput", Fail(500, "model crashed"))
    async with sqlite_engine() as engine, running(slack, engine, tmp_path / "data") as ws:
        ts = await ws.mention("bench 55kg 10x5")
        (failure,) = ws.thread(ts)
        assert "/almanac retry" in failure.shown() and "/almanac retry" in failure.text, failure.shown()
        assert " /retry" not in failure.shown()
    assert slack.errors == []
