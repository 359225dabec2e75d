"""structlog set-up: JSON or console lines, with secrets masked in every line.

Masking runs on the rendered line, after every other processor, so a secret is
caught wherever it hides: an event field, an exception message, or a URL that
a library logged (httpx logs request URLs, and Telegram's carry the bot token).
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable
from typing import Any, TextIO

import structlog

# Token shapes worth masking even when they are not ours (a user may paste one).
_TOKEN_SHAPES = re.compile(
    r"\b\d{6,12}:[A-Za-z0-9_-]{30,}\b"  # Telegram bot token
    r"|\bxox[abpers]-[A-Za-z0-9-]{10,}"  # Slack tokens
    r"|\bxapp-[A-Za-z0-9-]{10,}"  # Slack app-level token
)
# User info in any URL (``http://user:pass@host``, e.g. OLLAMA_HOST behind an authenticating proxy).
_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^\s/@:]*(?::[^\s/@]*)?@")


class SecretMasker:
    """Replaces known secret values and token-shaped strings with ``***``."""

    def __init__(self, secrets: Iterable[str]) -> None:
        values = sorted({s for s in secrets if len(s) >= 4}, key=len, reverse=True)
        self._known = re.compile("|".join(re.escape(s) for s in values)) if values else None

    def mask(self, line: str) -> str:
        if self._known is not None:
            line = self._known.sub("***", line)
        return _URL_CREDENTIALS.sub(r"\1***@", _TOKEN_SHAPES.sub("***", line))

    def __call__(self, logger: Any, method: str, rendered: Any) -> Any:
        if isinstance(rendered, str):
            return self.mask(rendered)
        if isinstance(rendered, bytes):
            return self.mask(rendered.decode("utf-8", "replace"))
        return rendered


def configure_logging(fmt: str, level: str, secrets: Iterable[str] = (), stream: TextIO | None = None) -> None:
    """Route structlog and the standard library's logging through one masked renderer.

    Args:
        fmt: ``json`` for one JSON object per line, ``console`` for people.
        level: the lowest level written.
        secrets: values that must never appear in a line.
        stream: where lines go (stderr by default; tests pass a buffer).
    """
    # A log line that cannot be written (a full disk) is dropped quietly: the logging
    # module would otherwise print a traceback into the terminal the console chats in.
    logging.raiseExceptions = False
    masker = SecretMasker(secrets)
    renderer: Any = (
        structlog.processors.JSONRenderer(ensure_ascii=False)
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            renderer,
            masker,
        ],
    )
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # Request lines of HTTP clients carry tokens in URLs and are noise at INFO.
    for noisy in ("httpx", "httpcore", "aiosqlite", "telegram.ext.ExtBot"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, logging.getLevelName(level)))
    structlog.configure(
        processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level)),
        cache_logger_on_first_use=False,
    )
