"""The committed drawing of the graph is the graph the code builds."""

from __future__ import annotations

from engine.graph.draw import DRAWING, mermaid


def test_committed_drawing_is_current() -> None:
    # Regenerate with: python -m engine.graph.draw
    assert DRAWING.read_text(encoding="utf-8") == mermaid()


def test_drawing_shows_the_loops_that_matter() -> None:
    drawn = mermaid()
    assert "analyze -.-> plan;" in drawn  # thin retrieval: plan again
    assert "evaluate -.-> synthesize;" in drawn  # failed check: write again
    assert "wait_user -.-> analyze;" in drawn
    assert "analyze --> __end__" not in drawn and "evaluate --> __end__" not in drawn
    assert "not_available" not in drawn and "clarify_task" not in drawn
