"""A stall said by code: under "✓ logged" once per stall, and whenever the lift is asked about ("is my bench
stalling?", "벤치 정체야?", ``/next bench``). Numbers from :mod:`engine.facts.stalls`, no model call."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date

from engine import progress_texts
from engine.domains.registry import DomainRegistry
from engine.facts.model import Stall
from engine.facts.stalls import lift_stall, sessions_needed
from engine.facts.targets import is_lift
from engine.outcomes import Record
from engine.store.db import Database
from engine.store.lift_sessions import SessionStore

OPEN = re.compile(r"\b(?:how|why|what|which|should)\b|어떻게|왜|뭐|무엇|어떤|할까", re.I)
"""Words of an open request or question ("plan how to deload", "why did it stall"): the model's, with articles."""
PLATEAU = "plateau"
"""The strength vocabulary's term of a question about a stall ("stalling", "plateau", "정체")."""


def stall_question(text: str, terms: Sequence[str], registry: DomainRegistry) -> list[str]:
    """The lifts of a yes-or-no stall question ("is my bench stalling?", "벤치 정체야?"); empty for anything
    more ("why did my bench stall, and what is a deload?" is the model's, with the articles)."""
    lifts = [t for t in dict.fromkeys(terms) if is_lift(registry, t)]
    if PLATEAU not in terms or not lifts or set(terms) - {PLATEAU, *lifts} or OPEN.search(text):
        return []
    return lifts


async def stall_lines(
    db: Database, registry: DomainRegistry, user: str, lifts: Sequence[str], names: Mapping[str, str], lang: str
) -> list[str]:
    """A line for each lift that has stalled (none for the others): under a target."""
    lines = []
    for lift in lifts:
        found = await lift_stall(SessionStore(db), registry, user, lift)
        if found is not None and isinstance(found[0], Stall):
            lines.append(progress_texts.stall_line(found[0], names.get(lift, lift), found[1].deload_percent, lang))
    return lines


async def stall_answer(
    db: Database, registry: DomainRegistry, user: str, lifts: Sequence[str], names: Mapping[str, str], lang: str
) -> str:
    """The answer to "is my bench stalling?": the stall, or why there is none, for each lift."""
    lines = []
    for lift in lifts:
        name = names.get(lift, lift)
        found = await lift_stall(SessionStore(db), registry, user, lift)
        if found is None:
            lines.append(progress_texts.no_target_history(name, lang))
            continue
        verdict, rules = found
        if isinstance(verdict, Stall):
            lines.append(progress_texts.stall_line(verdict, name, rules.deload_percent, lang))
        else:
            lines.append(progress_texts.no_stall(verdict, name, sessions_needed(rules), lang))
    return "\n".join(lines)


async def logged_stalls(
    db: Database,
    registry: DomainRegistry,
    user: str,
    lifts: Sequence[str],
    entry_id: str,
    on: date,
    lang: str,
    names: Mapping[str, str],
) -> list[Record]:
    """The stalls the lifts of a just-logged entry are in, each said once ever (remembered as said here)."""
    store = SessionStore(db)
    out = []
    for lift in lifts:
        found = await lift_stall(store, registry, user, lift)
        if found is None or not isinstance(stall := found[0], Stall):
            continue
        rules = found[1]
        if await store.said(user, lift, stall.since, entry_id):
            continue
        await store.remember(user, lift, stall.since, entry_id, on)
        text = progress_texts.stall_line(stall, names.get(lift, lift), rules.deload_percent, lang)
        out.append(
            Record(
                kind="stall",
                subject=lift,
                value=stall.best.e1rm,
                unit=stall.unit,
                shown=f"{stall.rule}",
                previous_on=stall.best.on,
                text=text,
            )
        )
    return out
