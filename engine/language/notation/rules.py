"""The module rules applied to a run of quantities: which numbers are weight, reps and sets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.language.notation.groups import _Elem, _is, _Qty, _qty


@dataclass(frozen=True, slots=True)
class _Chunk:
    kind: Literal["bare", "weighted", "fixed"]
    """``bare``/``weighted`` A x B pairs may join a per-set list; ``fixed`` never does."""
    first: int
    last: int
    start: int
    end: int
    weight: _Qty | None
    reps: int | None
    sets: int | None
    ambiguous: bool = False
    pair: tuple[_Qty, _Qty] | None = None


def _starts_pair(group: list[_Elem], index: int) -> bool:
    """Whether a weight at ``index`` opens its own x-notation ("60kg x 8", "60kg 8x3")."""
    if _is(group, index + 1, "x"):
        return True
    step = index + 2 if _is(group, index + 1, "at") else index + 1
    return _qty(group, step, "B") is not None and _is(group, step + 1, "x")


def _read_at(group: list[_Elem], i: int) -> _Chunk | None:
    """Apply the module rules to the notation starting at ``group[i]``."""
    a = _qty(group, i, "WB")
    if a is not None and _is(group, i + 1, "x"):
        b, c = _qty(group, i + 2, "B", whole=True), _qty(group, i + 4, "B", whole=True)
        if b and c and _is(group, i + 3, "x"):
            return _Chunk("fixed", i, i + 4, a.start, c.end, a, b.count, c.count)
    if a is not None and a.label == "W":
        j = i + 2 if _is(group, i + 1, "x") or _is(group, i + 1, "at") else i + 1
        b, c = _qty(group, j, "B", whole=True), _qty(group, j + 2, "B", whole=True)
        if b and c and _is(group, j + 1, "x"):
            # "55kg 10x5" is 10 reps x 5 sets, but "60kg 3x8" is 3 sets of 8 to many lifters: below 8 the order is unsure.
            unsure = b.count is not None and b.count != c.count and b.count < 8
            return _Chunk("fixed", i, j + 2, a.start, c.end, a, b.count, c.count, unsure)
    b = _qty(group, i + 2, "B", whole=True)
    if a is not None and b is not None and _is(group, i + 1, "x"):
        if a.label == "W" or a.count is None:
            return _Chunk("weighted", i, i + 2, a.start, b.end, a, b.count, 1, pair=(a, b))
        j = i + 4 if _is(group, i + 3, "at") else i + 3
        weight = _qty(group, j, "W")
        ambiguous = a.count != b.count
        if weight is not None and not _starts_pair(group, j):
            return _Chunk("fixed", i, j, a.start, weight.end, weight, a.count, b.count, ambiguous)
        return _Chunk("bare", i, i + 2, a.start, b.end, None, a.count, b.count, ambiguous, (a, b))
    return _read_labelled(group, i)


def _read_labelled(group: list[_Elem], i: int) -> _Chunk | None:
    found: dict[str, _Qty] = {}
    last, j = i, i
    while (qty := _qty(group, j, "WRS")) is not None and qty.label not in found:
        if qty.label == "W" and found and _starts_pair(group, j):
            break
        found[qty.label] = qty
        last, j = j, j + 1
        while j < len(group) and isinstance(group[j], str):
            j += 1
    if not found:
        return None
    first = group[i]
    assert isinstance(first, _Qty)
    end = max(qty.end for qty in found.values())
    reps, sets = found.get("R"), found.get("S")
    reps_count = reps.count if reps else None
    sets_count = sets.count if sets else None
    return _Chunk("fixed", i, last, first.start, end, found.get("W"), reps_count, sets_count)


def _rep_list(group: list[_Elem], i: int) -> list[_Chunk]:
    """A weight then two or more bare numbers split by commas: one set each ("60kg 8, 8, 6")."""
    weight = _qty(group, i, "W")
    if weight is None or _starts_pair(group, i):
        return []
    reps: list[tuple[int, _Qty]] = []
    j = i + 1
    while (b := _qty(group, j, "B", whole=True)) is not None and not _is(group, j + 1, "x"):
        reps.append((j, b))
        if not _is(group, j + 1, "sep"):
            break
        j += 2
    if len(reps) < 2:
        return []
    return [_Chunk("fixed", k, k, b.start, b.end, weight, b.count, 1) for k, b in reps]


def _read_group(group: list[_Elem]) -> list[_Chunk]:
    chunks: list[_Chunk] = []
    i = 0
    while i < len(group):
        listed = _rep_list(group, i)
        if listed:
            chunks.extend(listed)
            i = listed[-1].last + 1
            continue
        chunk = _read_at(group, i)
        if chunk is None:
            i += 1
            continue
        chunks.append(chunk)
        i = chunk.last + 1
    return _per_set_lists(group, chunks)


def _per_set_lists(group: list[_Elem], chunks: list[_Chunk]) -> list[_Chunk]:
    """Reread runs of two or more adjacent ``A x B`` pairs as one set each."""
    runs: list[list[int]] = []
    for index, chunk in enumerate(chunks):
        if chunk.kind == "fixed":
            continue
        if (
            runs
            and runs[-1][-1] == index - 1
            and all(group[k] == "sep" for k in range(chunks[index - 1].last + 1, chunk.first))
        ):
            runs[-1].append(index)
        else:
            runs.append([index])
    out = list(chunks)
    for run in runs:
        if len(run) < 2:
            continue
        units = [chunk.weight.unit for chunk in (chunks[k] for k in run) if chunk.weight]
        unit = next((unit for unit in units if unit), None)
        for k in run:
            pair = chunks[k].pair
            assert pair is not None
            weight, reps = pair
            out[k] = _Chunk(
                "weighted",
                chunks[k].first,
                chunks[k].last,
                chunks[k].start,
                chunks[k].end,
                _Qty(weight.value, "W", weight.unit or unit, weight.start, weight.end),
                reps.count,
                1,
            )
    return out
