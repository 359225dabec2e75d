"""A next-session target asked for (``/next bench``, "what should I do on bench next time?", "다음에 벤치 몇
kg 해야 해?"), answered by code from the log with no model call (:mod:`engine.facts.targets`)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import texts
from engine.domains.registry import DomainRegistry
from engine.facts.targets import next_target, progression_of
from engine.store.history import HistoryStore

NEXT = "next"
"""The ``query_keywords`` intent of a question about the next session ("next time", "다음에")."""


def target_lifts(terms: Sequence[str], registry: DomainRegistry) -> list[str]:
    """The terms the progression rules cover (lifts), in the order named."""
    return [t for t in dict.fromkeys(terms) if progression_of(registry, t) is not None]


async def target_text(
    history: HistoryStore, registry: DomainRegistry, user: str, lifts: Sequence[str], lang: str
) -> str:
    """The target of each lift in the person's language (a line each), or that there is no session to build
    it from."""
    lines = []
    for lift in lifts:
        target = await next_target(history, registry, user, lift)
        lines.append(texts.next_target(target, lang) if target is not None else texts.no_target_history(lift, lang))
    return "\n".join(lines)
