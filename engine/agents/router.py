"""The Router: what does this message want, and which domains is it about?"""

from __future__ import annotations

from collections.abc import Sequence

from engine.agents.briefing import fenced
from engine.agents.context import HistoryItem
from engine.agents.prompts import render
from engine.agents.schemas import RouterOutput
from engine.domains.registry import DomainRegistry
from engine.agents.llm import LLM


def format_history(history: Sequence[HistoryItem]) -> str:
    if not history:
        return "(none)"
    # Earlier replies quote entry summaries (imported names among them): data, never instructions.
    return fenced("\n".join(f"{h['role']}: {h['text']}" for h in history))


async def route(llm: LLM, registry: DomainRegistry, text: str, history: Sequence[HistoryItem]) -> RouterOutput:
    """Classify a message; domain names the model made up are dropped here."""
    out = await llm.structured(
        "router",
        RouterOutput,
        render("router.system", domains=registry.describe()),
        render("router.user", history=format_history(history), text=text),
    )
    known = [d for d in dict.fromkeys(out.domains) if registry.get(d) is not None]
    return out.model_copy(update={"domains": known})
