"""What a person sees when something below the engine fails: one clear line, never a traceback or a secret."""

from __future__ import annotations

import re
import sqlite3

from engine import texts
from engine.outcomes import Failure

_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^\s/@:]*(?::[^\s/@]*)?@")


def hide_credentials(text: str) -> str:
    """Mask the user info of every URL in ``text`` (``http://user:pass@host`` → ``http://***@host``).

    Error texts can quote a URL that came from settings (``OLLAMA_HOST`` behind
    an authenticating proxy) or from a server's own error message; neither may
    reach a person.
    """
    return _URL_CREDENTIALS.sub(r"\1***@", text)


def storage_failure(exc: BaseException) -> Failure:
    """A database or file error as one line that says what to do."""
    reason = str(exc).lower()
    if "full" in reason or getattr(exc, "errno", None) == 28:  # ENOSPC
        text = texts.DISK_FULL
    elif "readonly" in reason or "read-only" in reason or isinstance(exc, PermissionError):
        text = texts.STORAGE_READ_ONLY
    elif isinstance(exc, sqlite3.Error):
        text = texts.storage_failed(hide_credentials(str(exc))[:200])
    else:
        text = texts.storage_failed(hide_credentials(getattr(exc, "strerror", None) or str(exc))[:200])
    return Failure(text=text, code="storage", retryable=True)
