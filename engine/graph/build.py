"""The graph builder. Exported uncompiled: ``bot/`` compiles it with the SQLite
saver, tests with an in-memory one; nothing is compiled at import time."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from engine.graph.log_flow import Deps, LogNodes
from engine.graph.state import State
from engine.graph.steps import step


def build_graph(deps: Deps) -> StateGraph[State]:
    """The conversation graph, ready to ``compile(checkpointer=…)``."""
    n = LogNodes(deps)
    g: StateGraph[State] = StateGraph(State)
    for name, fn in (
        ("route", n.route),
        ("parse", n.parse),
        ("clarify", n.clarify),
        ("wait_user", n.wait_user),
        ("store", n.store),
        ("store_note", n.store_note),
        ("chat", n.chat),
        ("not_available", n.not_available),
        ("cancelled", n.cancelled),
        ("remember", n.remember),
    ):
        g.add_node(name, step(name, fn))
    g.add_edge(START, "route")
    g.add_conditional_edges("route", n.after_route)
    g.add_conditional_edges("parse", n.after_parse)
    g.add_edge("clarify", "wait_user")
    g.add_conditional_edges("wait_user", n.after_wait_user)
    for last in ("store", "store_note", "chat", "not_available", "cancelled"):
        g.add_edge(last, "remember")
    g.add_edge("remember", END)
    return g
