"""An entry as an answer shows it: its line cut to the exercises the question names."""

from __future__ import annotations

from collections.abc import Sequence

from engine.query.references import Ref


def cut_entry(ref: Ref, wanted: Sequence[str]) -> Ref:
    """An entry's line with only the exercises the question names (all of it when none is in it)."""
    day, sep, summary = ref.text.partition(" · ")
    if not sep or not wanted:
        return ref
    parts = summary.split("; ")
    mine = [p for p in parts if any(p.lower().startswith(w.lower()) for w in wanted)]
    if not mine or len(mine) == len(parts):
        return ref
    return ref.model_copy(update={"text": f"{day} · {'; '.join(mine)}"})
