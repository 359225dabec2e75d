"""Almanac's engine: the domain expert behind every chat platform (no platform inside).

This module is the one API adapters import (``from engine import …``)::

    outcomes = await engine.handle(turn, progress=callback_or_None)

and, to keep what a platform delivered until it is handled (``Delivery``):
``engine.receive`` / ``unfinished`` / ``finish`` / ``note`` (see ``adapters/common/intake.py``).
``engine.boundary`` lists every promise (``Handler``, ``DeliveryStore``).

Everything else under ``engine/`` is internal and may move.
"""

from typing import TYPE_CHECKING, Any

from engine.boundary import Delivery, DeliveryStore, Handler, Progress
from engine.config import EngineConfig, LLMConfig
from engine.conversation.typed import Typed, read_typed, visible
from engine.domains.registry import DomainFileError
from engine.knowledge.config import KnowledgeConfig
from engine.outcomes import (
    Answer,
    ApprovalRequest,
    Ask,
    Citation,
    Closed,
    Document,
    Failure,
    Logged,
    LoggedEntry,
    Notice,
    Outcome,
    Question,
)
from engine.store.db import DataDirError, check_writable
from engine.turns import ApprovalDecision, ClarificationAnswer, Control, ControlAction, Message, Resume, Turn

if TYPE_CHECKING:
    from engine.engine import Engine, outcomes_json


def __getattr__(name: str) -> Any:
    # The engine itself (LangGraph and the model clients, about a second to import) loads when first
    # used, so a process that only needs the turn and outcome types (the Slack gateway) starts quickly.
    if name in ("Engine", "outcomes_json"):
        from engine import engine as module

        return getattr(module, name)
    raise AttributeError(f"module 'engine' has no attribute {name!r}")

__all__ = [
    "Answer",
    "ApprovalDecision",
    "ApprovalRequest",
    "Ask",
    "Citation",
    "ClarificationAnswer",
    "Closed",
    "Control",
    "DataDirError",
    "Delivery",
    "DeliveryStore",
    "ControlAction",
    "Document",
    "DomainFileError",
    "Engine",
    "EngineConfig",
    "Failure",
    "Handler",
    "KnowledgeConfig",
    "LLMConfig",
    "Logged",
    "LoggedEntry",
    "Message",
    "Notice",
    "Outcome",
    "Progress",
    "Question",
    "Resume",
    "Turn",
    "Typed",
    "check_writable",
    "outcomes_json",
    "read_typed",
    "visible",
]
