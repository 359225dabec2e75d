"""The console's sign of work: the turn's current step on one line, rewritten in place.

Only on a terminal (``isatty``): ``\\r`` and "erase to the end of the line" (``ESC [K``) mean
nothing to a pipe or a file, where they would be noise in the transcript. There the steps are
silent, or, when asked (``--steps``), printed one per line. The line is erased before the answer
prints, so what stays on screen is the answer.
"""

from __future__ import annotations

from typing import TextIO

from engine import Step

ERASE = "\r\x1b[K"
"""Back to the line's start, and erase it."""


class StepLine:
    """The progress callback of a console turn (``engine.handle(turn, progress=line.step)``); `clear` after."""

    def __init__(self, out: TextIO, every_step: bool = False) -> None:
        self._out = out
        self._tty = _is_tty(out)
        self._every_step = every_step
        self._shown = False
        self._last = ""

    async def step(self, step: Step) -> None:
        if step.text == self._last:
            return
        self._last = step.text
        if self._tty:
            self._out.write(f"{ERASE}⏳ {step.text}…")
            self._shown = True
        elif self._every_step:
            self._out.write(f"· {step.text}…\n")
        else:
            return
        self._out.flush()

    def clear(self) -> None:
        """Erase the step line (nothing when none is shown)."""
        if self._shown:
            self._out.write(ERASE)
            self._out.flush()
            self._shown = False


def _is_tty(out: TextIO) -> bool:
    try:
        return bool(out.isatty())
    except (AttributeError, ValueError):  # a closed stream, an object with no isatty
        return False
