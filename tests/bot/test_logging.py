"""Logs: structlog lines, JSON on request, secrets never written."""

from __future__ import annotations

import io
import json
import logging

import structlog

from bot.logs import configure_logging

TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ"
SLACK = "xoxb-1234567890-abcdefghijkl"


def test_secrets_are_masked_everywhere() -> None:
    buf = io.StringIO()
    configure_logging("json", "DEBUG", secrets=[TOKEN, SLACK, "hunter22"], stream=buf)
    log = structlog.get_logger("t")
    log.info("event with token", token=TOKEN, url=f"https://api.telegram.org/bot{TOKEN}/getMe")
    log.info(f"message carrying {SLACK}")
    log.info("password", value="my password is hunter22")
    logging.getLogger("httpx").warning("HTTP Request: POST https://api.telegram.org/bot%s/getUpdates", TOKEN)
    try:
        raise RuntimeError(f"failed with {TOKEN}")
    except RuntimeError:
        log.exception("boom")
    # A token shape we were not told about is masked too.
    log.info("pasted", text="987654321:ZZHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ")
    out = buf.getvalue()
    assert TOKEN not in out and SLACK not in out and "hunter22" not in out
    assert "ZZHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ" not in out
    assert out.count("***") >= 6
    for line in out.splitlines():
        json.loads(line)


def test_console_format_is_plain_text() -> None:
    buf = io.StringIO()
    configure_logging("console", "INFO", stream=buf)
    structlog.get_logger("t").info("hello", node="route")
    structlog.get_logger("t").debug("hidden")
    out = buf.getvalue()
    assert "hello" in out and "node=route" in out and "hidden" not in out
