"""The agents: one model call each, declared as an :class:`engine.agents.base.Agent`.

:data:`AGENTS` names every one (the names ``OLLAMA_AGENT_MODELS`` may give a model
to). It is built on first use: importing ``engine.agents.schemas`` (floor 0) must not
import every agent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.agents.base import Agent

    AGENTS: dict[str, Agent[Any, Any]]


def __getattr__(name: str) -> Any:
    if name != "AGENTS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from engine.agents.analyzer import ANALYZER
    from engine.agents.chat import CHAT
    from engine.agents.clarifier import CLARIFIER
    from engine.agents.former import FORMER
    from engine.agents.parser import PARSER
    from engine.agents.planner import PLANNER
    from engine.agents.router import ROUTER
    from engine.agents.synthesizer import SYNTHESIZER

    agents: dict[str, Agent[Any, Any]] = {
        a.name: a for a in (ROUTER, PARSER, CLARIFIER, CHAT, PLANNER, ANALYZER, SYNTHESIZER, FORMER)
    }
    globals()["AGENTS"] = agents
    return agents
