"""Reciprocal rank fusion: merging ranked lists without comparing their scores."""

from __future__ import annotations

from collections.abc import Sequence

RRF_K = 60
"""The constant of Cormack, Clarke and Buettcher (SIGIR 2009): damps the weight of the very top ranks."""


def reciprocal_rank_fusion(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> list[tuple[str, float]]:
    """Fuse ranked id lists: each id scores the sum of ``1 / (k + rank)`` over the lists that have it.

    Args:
        rankings: Lists of ids, best first (rank 1 is the first item).
        k: The fusion constant.

    Returns:
        ``(id, score)`` pairs, best first; ties keep the order in which ids
        first appeared (the first list wins).
    """
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    order = {item: i for i, item in enumerate(scores)}
    return sorted(scores.items(), key=lambda pair: (-pair[1], order[pair[0]]))
