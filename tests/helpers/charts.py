"""Charts for adapter tests: a real PNG on disk, and an engine stand-in whose turns answer with one.

`Charting` plays the engine's part that matters here: it hands back a `Chart`
for every message, and a turn delivered again (same message id, as after a
restart) gets the outcomes it got the first time, read back from JSON as the
engine's inbox keeps them. The drawing itself is the engine's (not tested
here); the picture is a small PNG written with Pillow.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image
from pydantic import TypeAdapter

from engine import ApprovalRequest, Ask, Chart, Outcome, Turn

_OUTCOMES: TypeAdapter[list[Outcome]] = TypeAdapter(list[Outcome])


def write_png(path: Path, width: int = 64, height: int = 48) -> bytes:
    """A real PNG (a two-colour picture) at ``path``; returns its bytes."""
    image = Image.new("RGB", (width, height), (255, 255, 255))
    for x in range(width):
        image.putpixel((x, height - 1 - x * (height - 1) // max(1, width - 1)), (200, 30, 30))
    out = io.BytesIO()
    image.save(out, format="PNG")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out.getvalue())
    return out.getvalue()


def bench_chart(path: Path, caption: str = "", language: str = "en") -> Chart:
    """A chart outcome for ``path`` with figures a person would read (written here by hand)."""
    return Chart(
        path=str(path),
        title="Bench press: estimated 1RM per session" if language == "en" else "벤치프레스: 세션별 추정 1RM",
        caption=caption
        or "First 60 kg (2026-01-05) · latest 72.5 kg (2026-03-30) · best 75 kg (2026-03-16) · +12.5 kg",
        alt="A line rising from 60 to 75 kg between January and March, with a dip to 72.5 kg at the end.",
        language="ko" if language == "ko" else "en",
    )


class Charting:
    """An engine stand-in: every turn (a message, a command) is answered with ``outcomes``; a repeated
    message id gets its first outcomes back (through JSON), as the engine gives back a turn it already ran."""

    def __init__(self, *outcomes: Outcome) -> None:
        self.outcomes = list(outcomes)
        self.turns: list[Turn] = []
        self._done: dict[str, bytes] = {}

    async def handle(self, turn: Turn, progress: Any = None) -> list[Outcome]:
        self.turns.append(turn)
        key = turn.message_id or f"unnamed-{len(self.turns)}"
        if key not in self._done:
            self._done[key] = _OUTCOMES.dump_json(self.outcomes)
        return _OUTCOMES.validate_json(self._done[key])

    async def pending(self, conversation: str, user: str) -> Ask | ApprovalRequest | None:
        return None

    async def interrupted(self, conversation: str) -> list[Turn]:
        return []
