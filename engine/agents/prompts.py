"""Agent prompts: one Markdown file per agent in ``prompts/``, with named placeholders.

Files are read on first use and cached, never at import time.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "prompts"


@cache
def template(name: str) -> str:
    """The prompt template of an agent."""
    return (_DIR / f"{name}.md").read_text(encoding="utf-8").strip()


def render(name: str, **values: Any) -> str:
    """Fill an agent's template; a missing placeholder is a bug and raises KeyError."""
    return template(name).format_map(values)
