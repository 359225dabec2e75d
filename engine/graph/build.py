"""The graph builder. Exported uncompiled: ``bot/`` compiles it with the SQLite
saver, tests with an in-memory one; nothing is compiled at import time."""

from __future__ import annotations

from functools import partial

from langgraph.graph import END, START, StateGraph

from engine.graph import query_flow as q
from engine.graph.deps import Deps
from engine.graph.log_flow import LogNodes
from engine.graph.state import State
from engine.graph.steps import Node, step
from engine.graph.task_flow import TaskNodes, route_after_approval, route_after_form_task


def build_graph(deps: Deps) -> StateGraph[State]:
    """The conversation graph, ready to ``compile(checkpointer=…)``."""
    n = LogNodes(deps)
    qn = q.QueryNodes(deps)
    tn = TaskNodes(deps)
    g: StateGraph[State] = StateGraph(State)
    nodes: dict[str, Node] = {
        "route": n.route,
        "parse": n.parse,
        "clarify": n.clarify,
        "wait_user": n.wait_user,
        "store": n.store,
        "store_note": n.store_note,
        "chat": n.chat,
        "not_available": n.not_available,
        "cancelled": n.cancelled,
        "remember": n.remember,
        "build_context": qn.build_context,
        "plan": qn.plan,
        "retrieve": qn.retrieve,
        "analyze": qn.analyze,
        "expand_domain": qn.expand_domain,
        "clarify_query": qn.clarify_query,
        "synthesize": qn.synthesize,
        "evaluate": qn.evaluate,
        "finish": qn.finish,
        "form_task": tn.form_task,
        "clarify_task": tn.clarify_task,
        "approval": tn.approval,
        "record_decision": tn.record_decision,
        "execute": tn.execute,
    }
    for name, fn in nodes.items():
        g.add_node(name, step(name, fn))

    g.add_edge(START, "route")
    g.add_conditional_edges("route", n.after_route)
    # LOG
    g.add_conditional_edges("parse", n.after_parse)
    g.add_edge("clarify", "wait_user")
    g.add_conditional_edges("wait_user", q.route_after_wait_user)
    g.add_conditional_edges("store", n.after_store)
    # QUERY
    g.add_conditional_edges("build_context", q.route_after_build_context)
    g.add_conditional_edges("plan", q.route_after_planner)
    g.add_edge("retrieve", "analyze")
    g.add_conditional_edges("analyze", partial(q.route_after_analyzer, max_plan_rounds=deps.max_plan_rounds))
    g.add_conditional_edges("expand_domain", q.route_after_expand_domain)
    g.add_conditional_edges("clarify_query", q.route_after_clarify)
    g.add_conditional_edges("synthesize", q.route_after_synthesize)
    g.add_conditional_edges(
        "evaluate",
        partial(q.route_after_evaluate, max_retries=deps.max_retries, max_plan_rounds=deps.max_plan_rounds),
    )
    # TASK and CORRECTION
    g.add_conditional_edges("form_task", route_after_form_task)
    g.add_edge("clarify_task", "wait_user")
    g.add_edge("approval", "record_decision")
    g.add_conditional_edges("record_decision", route_after_approval)
    for last in ("store_note", "chat", "not_available", "cancelled", "finish", "execute"):
        g.add_edge(last, "remember")
    g.add_edge("remember", END)
    return g
