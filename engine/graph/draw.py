"""The graph drawn as Mermaid, from the compiled graph itself.

``python -m engine.graph.draw`` rewrites ``engine/graph/graph.mmd``; a test fails
when the committed drawing differs from what the code builds.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import cast

from engine.agents.llm import LLM
from engine.config import LLMConfig
from engine.domains.registry import DomainSelector
from engine.graph.build import build_graph
from engine.graph.deps import Deps
from engine.store.entries import EntryStore
from engine.store.patches import PatchStore

DRAWING = Path(__file__).with_name("graph.mmd")


def mermaid() -> str:
    """The compiled graph in Mermaid; nodes are only constructed, so no store is needed."""
    deps = Deps(
        llm=LLM(LLMConfig()),
        entries=cast(EntryStore, None),
        selector=cast(DomainSelector, None),
        patches=cast(PatchStore, None),
    )
    return build_graph(deps).compile().get_graph().draw_mermaid()


def main() -> None:
    """Write the drawing beside the builder (``--check``: exit 1 when it is stale)."""
    drawn = mermaid()
    if "--check" in sys.argv[1:]:
        raise SystemExit(0 if DRAWING.read_text(encoding="utf-8") == drawn else 1)
    DRAWING.write_text(drawn, encoding="utf-8")
    print(f"wrote {DRAWING}")


if __name__ == "__main__":
    main()
