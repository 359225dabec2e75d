"""Wrapping graph nodes: one log event per step, and the `Step` s adapters show while a turn runs.

Each wrapped node reports its stage (``retrieving`` as "Fetching your entries"); a node that knows
more reports it itself with `report` ("Fetching your bench press entries for 2026-11-01 – 2026-11-26").
"""

from __future__ import annotations

import time
from contextvars import ContextVar
from typing import Any, Protocol

import structlog
from langgraph.errors import GraphInterrupt

from engine.boundary import Progress, Step
from engine.graph.state import State
from engine.query.render import language_of
from engine.step_texts import stage_text, writing_again

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


async def report(stage: str, text: str) -> None:
    """Tell the turn's adapter what is being done now (nothing when no one listens).

    A listener that fails is logged and forgotten: showing progress must never fail a turn.
    """
    progress = current_progress.get()
    if progress is None:
        return
    try:
        await progress(Step(stage=stage, text=text))
    except Exception as exc:  # an adapter's sign of work, not the turn
        log.warning("graph.progress_failed", stage=stage, error=repr(exc))


def lang_of(state: State) -> str:
    """The person's language for steps: the question's, once read, else the message's own."""
    language = state.get("language")
    if state.get("shape") and language in ("en", "ko"):
        return str(language)
    return language_of(state.get("text", ""))


def step(name: str, fn: Node) -> Node:
    """Wrap a node so that it reports its stage and logs its duration."""

    async def run(state: State) -> dict[str, Any]:
        stage = STAGES.get(name)
        if stage is not None:
            lang = lang_of(state)
            again = name == "synthesize" and state.get("eval_retries")  # the check sent the draft back
            await report(stage, writing_again(lang) if again else stage_text(stage, lang))
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
