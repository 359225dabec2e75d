"""Cleaning incoming text before anything else sees it."""

from __future__ import annotations

import re
import unicodedata

# C0/C1 controls except tab and newline; they break terminals, logs and FTS.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """NFC-normalise, drop control characters and undecodable bytes, trim.

    Lone surrogates (how Python carries invalid UTF-8 read with
    ``surrogateescape``) are replaced with U+FFFD rather than crashing SQLite.
    """
    text = text.encode("utf-8", "replace").decode("utf-8")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", text)
    return unicodedata.normalize("NFC", text).strip()
