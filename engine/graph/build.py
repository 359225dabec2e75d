"""The whole conversation graph on one screen: every node, every edge, each
conditional edge with its targets (ARCHITECTURE §3; drawn in ``graph.mmd``).

Exported uncompiled: ``Engine.open`` compiles it with the SQLite saver, tests
with an in-memory one; nothing is compiled at import time.
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from engine.graph.chat_node import ChatNode
from engine.graph.deps import Deps
from engine.graph.log_nodes import LogNodes
from engine.graph.query_nodes import QueryNodes
from engine.graph.routes import Routes
from engine.graph.state import State
from engine.graph.steps import step
from engine.graph.task_nodes import TaskNodes


def build_graph(deps: Deps) -> StateGraph[State]:
    """The conversation graph, ready to ``compile(checkpointer=…)``."""
    log, query, task = LogNodes(deps), QueryNodes(deps), TaskNodes(deps)
    r = Routes(max_retries=deps.max_retries, max_plan_rounds=deps.max_plan_rounds)
    g: StateGraph[State] = StateGraph(State)
    for name, node in {
        # every turn
        "route": log.route,
        "wait_user": log.wait_user,
        "cancelled": log.cancelled,
        "remember": log.remember,
        "chat": ChatNode(deps).chat,
        # LOG
        "parse": log.parse,
        "clarify": log.clarify,
        "store": log.store,
        "store_note": log.store_note,
        # QUERY
        "build_context": query.build_context,
        "plan": query.plan,
        "retrieve": query.retrieve,
        "analyze": query.analyze,
        "expand_domain": query.expand_domain,
        "clarify_query": query.clarify_query,
        "synthesize": query.synthesize,
        "evaluate": query.evaluate,
        "finish": query.finish,
        # TASK and CORRECTION
        "form_task": task.form_task,
        "approval": task.approval,
        "record_decision": task.record_decision,
        "execute": task.execute,
    }.items():
        g.add_node(name, step(name, node))

    g.add_edge(START, "route")
    g.add_conditional_edges("route", r.after_route, ["parse", "chat", "build_context"])
    # a pause for the person resumes where the question came from
    g.add_conditional_edges(
        "wait_user",
        r.after_wait_user,
        ["cancelled", "parse", "store_note", "analyze", "retrieve", "synthesize", "form_task"],
    )
    # LOG
    g.add_conditional_edges("parse", r.after_parse, ["store", "clarify", "store_note"])
    g.add_edge("clarify", "wait_user")
    g.add_conditional_edges("store", r.after_store, ["build_context", "remember"])
    # QUERY
    g.add_conditional_edges("build_context", r.after_build_context, ["plan", "form_task", "remember"])
    g.add_conditional_edges("plan", r.after_plan, ["retrieve", "expand_domain", "clarify_query", "synthesize"])
    g.add_edge("retrieve", "analyze")
    g.add_conditional_edges("analyze", r.after_analyze, ["expand_domain", "synthesize", "clarify_query", "plan"])
    g.add_conditional_edges("expand_domain", r.after_expand_domain, ["plan", "clarify_query", "retrieve", "synthesize"])
    g.add_conditional_edges("clarify_query", r.after_clarify_query, ["wait_user", "retrieve", "synthesize"])
    g.add_conditional_edges("synthesize", r.after_synthesize, ["evaluate", "finish"])
    g.add_conditional_edges("evaluate", r.after_evaluate, ["finish", "synthesize"])
    # TASK and CORRECTION
    g.add_conditional_edges("form_task", r.after_form_task, ["approval", "wait_user", "remember"])
    g.add_edge("approval", "record_decision")
    g.add_conditional_edges("record_decision", r.after_approval, ["execute", "form_task", "remember"])
    # every turn ends by remembering the exchange
    # CHAT about the person's data answers through the QUERY flow
    g.add_conditional_edges("chat", r.after_chat, ["remember", "build_context"])
    for last in ("store_note", "cancelled", "finish", "execute"):
        g.add_edge(last, "remember")
    g.add_edge("remember", END)
    return g
