"""Wrapping graph nodes: one log event per step, and progress stages for adapters."""

from __future__ import annotations

import time
from contextvars import ContextVar
from typing import Any, Protocol

import structlog
from langgraph.errors import GraphInterrupt

from engine.boundary import Progress
from engine.graph.state import State

log = structlog.get_logger("engine.graph")

# A context variable, not graph config: config values end up in checkpoint
# metadata, and a callback has no business there.
current_progress: ContextVar[Progress | None] = ContextVar("almanac_progress", default=None)


class Node(Protocol):
    """A graph node: reads the state, returns the fields it changes."""

    async def __call__(self, state: State) -> dict[str, Any]: ...


STAGES = {
    "route": "routing",
    "parse": "parsing",
    "clarify": "clarifying",
    "store": "storing",
    "store_note": "storing",
    "chat": "replying",
    "build_context": "planning",
    "plan": "planning",
    "retrieve": "retrieving",
    "analyze": "analyzing",
    "expand_domain": "expanding",
    "clarify_query": "clarifying",
    "synthesize": "writing",
    "evaluate": "checking",
    "form_task": "planning",
    "execute": "saving",
}


def step(name: str, fn: Node) -> Node:
    """Wrap a node so that it reports its stage and logs its duration."""

    async def run(state: State) -> dict[str, Any]:
        progress = current_progress.get()
        stage = STAGES.get(name)
        if progress is not None and stage is not None:
            await progress(stage)
        started = time.perf_counter()
        outcome = "ok"
        try:
            return await fn(state)
        except GraphInterrupt:
            outcome = "interrupted"
            raise
        except Exception as exc:
            outcome = type(exc).__name__
            raise
        finally:
            log.info(
                "graph.step",
                node=name,
                outcome=outcome,
                duration_ms=round((time.perf_counter() - started) * 1000, 2),
            )

    run.__name__ = name
    return run
