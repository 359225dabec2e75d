"""What the query agents are shown: the same compact renderings for each of them,
so every agent gets exactly the context its decision needs and no more."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.domains.registry import ActiveDomainContext, DomainRegistry
from engine.entries.model import Entry

MAX_ENTRY_LINES = 40
_FENCE = re.compile(r"<\s*/?\s*data\s*>", re.IGNORECASE)


def fenced(text: str) -> str:
    """Text from entries, imports or articles, marked as data for the model (ARCHITECTURE §7).

    Every prompt says that text between the markers is data, never
    instructions; a marker inside the text is defused so it cannot close the
    fence early.
    """
    safe = _FENCE.sub(lambda m: m.group().replace("<", "‹").replace(">", "›"), text)
    return f"<data>\n{safe}\n</data>"


def entry_lines(entries: Sequence[Entry]) -> str:
    """The newest entries, one line each, oldest first ("" for none; the prompt fences them as data)."""
    if not entries:
        return ""
    shown = list(entries)[-MAX_ENTRY_LINES:]
    lines = [f"- {e.occurred_on.isoformat()} ({e.domain}): {e.summary}" for e in shown]
    if len(entries) > len(shown):
        lines.insert(0, f"({len(entries) - len(shown)} older entries not shown; the facts cover them)")
    return "\n".join(lines)


def other_domains(ctx: ActiveDomainContext, registry: DomainRegistry) -> list[str]:
    """The domains not loaded, that an agent may ask to widen to."""
    return [n for n in registry.names if n not in ctx.domains_loaded]


def rules_text(ctx: ActiveDomainContext) -> str:
    return "\n".join(f"- {r}" for r in ctx.response_rules[:10])
