"""One progress line for the command-line tools (imports, notes): on a terminal only."""

from __future__ import annotations

import time
from typing import TextIO


class Progress:
    """``\\rimporting 120/480 rows`` on a terminal; nothing otherwise."""

    def __init__(self, stream: TextIO, enabled: bool | None = None, unit: str = "rows") -> None:
        self._stream = stream
        self._unit = unit
        self._enabled = stream.isatty() if enabled is None else enabled
        self._last = 0.0
        self._width = 0

    def show(self, label: str, done: int, total: int) -> None:
        if not self._enabled:
            return
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        text = f"\r{label} {done}/{total} {self._unit}"
        self._width = max(self._width, len(text))
        self._stream.write(text.ljust(self._width))
        self._stream.flush()

    def clear(self) -> None:
        if self._enabled and self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()
            self._width = 0
