"""What graph nodes work with, handed in when the graph is built."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.agents.llm import LLM
from engine.domains.registry import DomainSelector
from engine.knowledge.library import Library
from engine.store.entries import EntryStore
from engine.store.patches import PatchStore


@dataclass(frozen=True)
class Deps:
    llm: LLM
    entries: EntryStore
    selector: DomainSelector
    patches: PatchStore
    history_turns: int = 6
    """Exchanges kept in the thread's history."""
    max_retries: int = 2
    """Answer re-writes after a failed evaluation; at the limit the answer is marked partial."""
    max_plan_rounds: int = 3
    """Planner rounds per question (re-plans after thin retrieval, domain expansion)."""
    read_in_code: bool = True
    """Code reads each message first; the model fills only what code could not read."""
    library: Library | None = None
    """The knowledge base's articles; None: answers come from the person's data alone."""
    charts_dir: Path | None = None
    """Where chart PNGs are written (``DATA_DIR/charts``); None: trend questions get no picture."""
