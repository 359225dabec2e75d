"""A next-session target asked for (``/next bench``, "what should I do on bench next time?", "다음에 벤치 몇
kg 해야 해?"), answered by code from the log with no model call (:mod:`engine.facts.targets`)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import progress_texts
from engine.domains.registry import ActiveDomainContext, DomainRegistry
from engine.facts.targets import is_lift, next_target
from engine.query.render import korean_names
from engine.query.stalls import stall_lines
from engine.store.history import HistoryStore

NEXT = "next"
"""The ``query_keywords`` intent of a question about the next session ("next time", "다음에")."""


def target_lifts(terms: Sequence[str], registry: DomainRegistry) -> list[str]:
    """The terms the progression rules cover (lifts), in the order named."""
    return [t for t in dict.fromkeys(terms) if is_lift(registry, t)]


async def target_text(
    history: HistoryStore, ctx: ActiveDomainContext, user: str, lifts: Sequence[str], lang: str
) -> str:
    """The target of each lift in the person's language (a line each, the lift by its name in that language),
    or that there is no session to build it from."""
    names = korean_names(lifts, ctx.vocabulary_map) if lang == "ko" else {}
    lines: list[str] = []
    planned: list[str] = []
    for lift in lifts:
        target = await next_target(history, ctx.registry, user, lift)
        name = names.get(lift, lift)
        if target is None:
            lines.append(progress_texts.no_target_history(name, lang))
            continue
        lines.append(progress_texts.next_target(target.model_copy(update={"exercise": name}), lang))
        # A stalled lift says so under its target, with the deload week it proposes.
        lines += await stall_lines(history.db, ctx.registry, user, [lift], names, lang)
        planned.append(name)
    if planned:
        lines.append(progress_texts.plan_hint(planned[0], lang))
    return "\n".join(lines)
