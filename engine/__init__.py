"""Almanac's engine: the domain expert behind every chat platform (no platform inside).

This module is the one API adapters import (``from engine import …``)::

    outcomes = await engine.handle(turn, progress=callback_or_None)

and, to keep what a platform delivered until it is handled (``Delivery``):
``engine.receive`` / ``unfinished`` / ``finish`` / ``note`` (see ``adapters/common/intake.py``).
``engine.boundary`` lists every promise (``Handler``, ``DeliveryStore``).

Everything else under ``engine/`` is internal and may move.
"""

from typing import TYPE_CHECKING, Any

from engine.boundary import Delivery, DeliveryStore, Handler, Progress, Push, Reminding, SharedDeliveries, Step
from engine.config import EngineConfig, LLMConfig
from engine.conversation.typed import Typed, read_typed, visible
from engine.domains.registry import DomainFileError
from engine.knowledge.config import KnowledgeConfig
from engine.outcomes import (
    Answer,
    ApprovalRequest,
    Ask,
    Chart,
    Citation,
    Closed,
    Document,
    Failure,
    Logged,
    LoggedEntry,
    Notice,
    Outcome,
    Question,
    Record,
    ReminderAction,
    ReminderCard,
)
from engine.store.db import DataDirError, check_writable
from engine.turns import ApprovalDecision, ClarificationAnswer, Control, ControlAction, Message, Resume, Turn

if TYPE_CHECKING:
    from engine.agents import AGENTS
    from engine.engine import Engine, outcomes_json
    from engine.importers.common import ImportFormatError
    from engine.knowledge import EmbeddingError, KnowledgeStoreError
    from engine.language.text import public_url
    from engine.logbook import Logbook
    from engine.migrations import migrate_storage, storage_report

# Front door 2, for work without a conversation (bot/'s import, export, search, vocabulary and knowledge
# commands), and the errors it raises: loaded when first used, as the engine is.
_OFFLINE = {
    "Logbook": "engine.logbook",
    "migrate_storage": "engine.migrations",  # python -m bot migrate
    "storage_report": "engine.migrations",  # python -m bot doctor
    "ImportFormatError": "engine.importers.common",
    "EmbeddingError": "engine.knowledge",
    "KnowledgeStoreError": "engine.knowledge",
    # The agents by name (what OLLAMA_AGENT_MODELS may name), for the settings check.
    "AGENTS": "engine.agents",
    # A server's address without its credentials, for the doctor's lines.
    "public_url": "engine.language.text",
}


def __getattr__(name: str) -> Any:
    # The engine itself (LangGraph and the model clients, about a second to import) loads when first
    # used, so a process that only needs the turn and outcome types (the Slack gateway) starts quickly.
    if name in ("Engine", "outcomes_json"):
        from engine import engine as module

        return getattr(module, name)
    if name in _OFFLINE:
        import importlib

        return getattr(importlib.import_module(_OFFLINE[name]), name)
    raise AttributeError(f"module 'engine' has no attribute {name!r}")


__all__ = [
    "AGENTS",
    "public_url",
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
    "SharedDeliveries",
    "ControlAction",
    "Chart",
    "Document",
    "DomainFileError",
    "EmbeddingError",
    "Engine",
    "EngineConfig",
    "Failure",
    "Handler",
    "ImportFormatError",
    "KnowledgeConfig",
    "KnowledgeStoreError",
    "LLMConfig",
    "Logbook",
    "migrate_storage",
    "storage_report",
    "Logged",
    "LoggedEntry",
    "Record",
    "Message",
    "Notice",
    "Outcome",
    "Progress",
    "Step",
    "Push",
    "Reminding",
    "ReminderAction",
    "ReminderCard",
    "Question",
    "Resume",
    "Turn",
    "Typed",
    "check_writable",
    "outcomes_json",
    "read_typed",
    "visible",
]
