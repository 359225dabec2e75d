"""What an engine is made of, opened in order and closed in reverse (``Engine.open`` holds the stack)."""

from __future__ import annotations

from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph.state import CompiledStateGraph

from engine.agents.llm import LLM
from engine.charts.files import charts_dir
from engine.config import EngineConfig
from engine.domains.registry import DomainRegistry, DomainSelector
from engine.graph.build import build_graph
from engine.graph.deps import Deps
from engine.knowledge.library import Library
from engine.runtime.pg_threads import postgres_saver
from engine.runtime.threads import sqlite_saver
from engine.store.db import Database
from engine.store.entries import EntryStore
from engine.store.patches import PatchStore


@dataclass(frozen=True)
class Parts:
    graph: CompiledStateGraph[Any, Any, Any, Any]
    checkpointer: BaseCheckpointSaver[str]
    db: Database
    llm: LLM
    selector: DomainSelector
    library: Library


async def assemble(config: EngineConfig, checkpointer: BaseCheckpointSaver[str] | None, stack: AsyncExitStack) -> Parts:
    """Load the domains, open the stores, the model client and the knowledge base, and compile the graph.

    Raises:
        DomainFileError: a domain file is broken.
    """
    registry = DomainRegistry.load(config.domains_dir, increments=config.plate_increment)
    url = config.database
    db = await Database.open_either(url, config.entries_db)
    stack.push_async_callback(db.close)
    if checkpointer is None and url:
        checkpointer = await stack.enter_async_context(postgres_saver(url))
    elif checkpointer is None:
        checkpointer = await stack.enter_async_context(sqlite_saver(config.checkpoints_db))
    llm = LLM(config.llm)
    stack.push_async_callback(llm.aclose)
    selector = DomainSelector(registry)
    library = await Library.open(config.knowledge, registry)
    stack.push_async_callback(library.close)
    deps = Deps(
        llm=llm,
        entries=EntryStore(db),
        selector=selector,
        patches=PatchStore(db),
        history_turns=config.history_turns,
        max_retries=config.max_answer_retries,
        read_in_code=config.read_in_code,
        library=library,
        charts_dir=charts_dir(config.data_dir),
    )
    graph = build_graph(deps).compile(checkpointer=checkpointer)
    return Parts(graph=graph, checkpointer=checkpointer, db=db, llm=llm, selector=selector, library=library)
