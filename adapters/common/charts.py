"""A `Chart` on its way out, the same on every platform: its bytes, its caption, and the words when it is gone.

The engine writes the PNG under ``DATA_DIR/charts/`` and hands back its path;
the outcome is kept as JSON (checkpoints, the inbox), so a turn delivered
again after a restart carries the same path and the picture is read again
from it. A file that is gone by then (a cleaned-up data folder) is not a
failure: the person gets the caption as text, with a short note saying the
picture is not there any more.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Callable
from pathlib import Path

import structlog

from engine import Chart

log = structlog.get_logger("adapters.charts")

ELLIPSIS = "…"

_GONE = {
    "en": "(The chart picture is no longer available; here are its figures.)",
    "ko": "(차트 그림을 더 이상 찾을 수 없어 수치만 보내요.)",
}
_IN_DMS = {
    "en": "Your chart is in your direct messages with me.",
    "ko": "차트는 저와의 DM으로 보냈어요.",
}


_PATH_LABEL = {"en": "Chart", "ko": "차트"}


def path_label(chart: Chart) -> str:
    """What names the PNG's path where only the path can be shown (the console)."""
    return _PATH_LABEL.get(chart.language, _PATH_LABEL["en"])


def _read(path: str) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError as exc:  # gone, or unreadable: the caption still goes out
        log.warning("chart.unreadable", path=path, reason=exc.strerror or type(exc).__name__)
        return None


async def read_png(chart: Chart) -> bytes | None:
    """The chart's file, read off the event loop; None when it is gone or unreadable."""
    return await asyncio.to_thread(_read, chart.path)


async def read_png_base64(chart: Chart) -> str | None:
    """`read_png`, as base64 text: bytes cannot cross the Slack worker↔gateway pipe, which carries JSON."""

    def read() -> str | None:
        data = _read(chart.path)
        return None if data is None else base64.b64encode(data).decode("ascii")

    return await asyncio.to_thread(read)


def filename(chart: Chart) -> str:
    """The name the picture is sent under (the file's own name; ``chart.png`` when the path has none)."""
    return Path(chart.path).name or "chart.png"


def caption_text(chart: Chart) -> str:
    """What goes under the picture: the title, then the figures (the title once, if the caption repeats it)."""
    title, caption = chart.title.strip(), chart.caption.strip()
    if not title or caption.startswith(title):
        return caption
    return f"{title}\n{caption}" if caption else title


def gone_text(chart: Chart) -> str:
    """The caption sent alone, as text, when the picture is gone: a note, the title, the figures."""
    return f"{_GONE.get(chart.language, _GONE['en'])}\n{caption_text(chart)}".rstrip()


def in_dms_note(chart: Chart) -> str:
    """Said where a chart that could not be shown there went to the member's direct messages instead."""
    return _IN_DMS.get(chart.language, _IN_DMS["en"])


def cut(text: str, limit: int, size: Callable[[str], int] = len) -> str:
    """``text`` if it fits in ``limit`` (as ``size`` counts), else cut at a line or word break with "…".

    Never cuts inside a character: Telegram counts UTF-16 units, and a Korean syllable or an emoji
    must arrive whole or not at all.
    """
    if size(text) <= limit:
        return text
    room = limit - size(ELLIPSIS)
    # The longest prefix that fits (``size`` grows with the prefix; binary search over characters).
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if size(text[:mid]) <= room:
            lo = mid
        else:
            hi = mid - 1
    head = text[:lo]
    if not text[lo : lo + 1].isspace():  # the cut falls inside a word: back to the last break
        for sep in ("\n", " "):
            at = head.rfind(sep)
            if at >= lo // 2:  # a break in the second half: keep whole lines or words
                head = head[:at]
                break
    return head.rstrip() + ELLIPSIS
