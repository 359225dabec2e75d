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


def target_lift(terms: Sequence[str], registry: DomainRegistry) -> str | None:
    """The first term the progression rules cover (a lift), if any."""
    return next((t for t in terms if progression_of(registry, t) is not None), None)


async def target_text(history: HistoryStore, registry: DomainRegistry, user: str, lift: str, lang: str) -> str:
    """The target of ``lift`` in the person's language, or that there is no session to build it from."""
    target = await next_target(history, registry, user, lift)
    return texts.next_target(target, lang) if target is not None else texts.no_target_history(lift, lang)
