"""What the turn core (controls, the backlog) needs of the engine, as a protocol.

`engine.engine.Engine` satisfies it; `engine.controls` and
`engine.runtime.backlog` are typed against it instead of importing
`Engine`, so the turn core sits below the class that assembles it and the
import picture has no circle (the floors test, ``tests/test_floors.py``).
"""

from __future__ import annotations

from typing import Any, Protocol

from langgraph.checkpoint.base import BaseCheckpointSaver

from engine.admission import Pending
from engine.outcomes import Closed, Outcome
from engine.runtime.locks import UserGate
from engine.store.db import Database
from engine.store.entries import EntryStore
from engine.store.inbox import Conversations, Inbox
from engine.store.patches import PatchStore
from engine.turns import Message


class Core(Protocol):
    """The engine as the commands and the backlog use it."""

    graph: Any
    """The compiled LangGraph graph."""
    checkpointer: BaseCheckpointSaver[str]
    db: Database
    entries: EntryStore
    inbox: Inbox
    conversations: Conversations
    patches: PatchStore
    users: UserGate

    def thread_config(self, thread: str, item: int | None = None) -> Any: ...

    def outcomes_of(self, values: Any, interrupts: Any) -> list[Outcome]: ...

    async def paused_on(self, thread: str) -> Pending | None: ...

    async def invoke(self, item: int, thread: str, graph_input: Any, closes: Closed | None = None) -> list[Outcome]: ...

    async def run_message(self, item: int, turn: Message, thread: str, timezone: str | None = None) -> list[Outcome]: ...

    async def timezone(self, user: str) -> str: ...
