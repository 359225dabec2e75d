"""Cleaning incoming text before anything else sees it."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit, urlunsplit

# C0/C1 controls except tab and newline; they break terminals, logs and FTS.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Invisible characters that split a word without showing (zero-width space, non-joiner
# and joiner, word joiner, BOM, soft hyphen, Mongolian vowel separator): "벤\u200b치" must
# still be 벤치 to the vocabulary, and a message of only these is empty.
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e]")


def clean(text: str) -> str:
    """NFC-normalise, drop control and zero-width characters and undecodable bytes, trim.

    Lone surrogates (how Python carries invalid UTF-8 read with
    ``surrogateescape``) are replaced with U+FFFD rather than crashing SQLite.
    """
    text = text.encode("utf-8", "replace").decode("utf-8")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _INVISIBLE.sub("", _CONTROL.sub("", text))
    return unicodedata.normalize("NFC", text).strip()


def public_url(url: str) -> str:
    """A URL fit to show a person or a log: credentials in it (``user:pass@``) are masked."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, f"***@{host}", parts.path, parts.query, parts.fragment))
