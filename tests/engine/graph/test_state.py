"""The thread's state: every per-turn field is reset by a new message, outcomes gather through their
reducer, and a thread saved before the reducer still loads and resumes."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, TypedDict, cast, get_type_hints

from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

from engine.graph.state import HEADER, KEPT, PER_TURN, RESET, State, add_outcomes, emit, fresh_turn
from engine.outcomes import Notice
from engine.runtime.threads import sqlite_saver

NEW = {"turn_id": "2", "conversation": "c", "user": "u", "text": "hi", "today": "2026-11-26", "timezone": "UTC"}


def test_every_field_is_per_turn_header_or_kept() -> None:
    fields = set(get_type_hints(State))
    per_turn, header, kept = set(PER_TURN), set(HEADER), set(KEPT)
    # A new State field must say how a new message treats it: a default in PER_TURN, or HEADER / KEPT.
    assert fields == per_turn | header | kept
    assert not per_turn & header and not per_turn & kept and not header & kept


def test_fresh_turn_is_the_defaults_and_the_header() -> None:
    state = fresh_turn(**NEW)
    assert {k: state[k] for k in HEADER} == NEW  # type: ignore[literal-required]
    assert {k: v for k, v in state.items() if k not in HEADER} == PER_TURN
    # Each turn gets its own copies: a write into one never reaches the defaults.
    state["answers"].append({"question": "q", "answer": "a"})
    assert fresh_turn(**NEW)["answers"] == []


def test_outcomes_reducer_appends_and_a_reset_starts_empty() -> None:
    one, two = {"kind": "notice", "text": "1"}, {"kind": "notice", "text": "2"}
    assert add_outcomes([one], [two]) == [one, two]
    assert add_outcomes([one], []) == [one]
    assert add_outcomes([one, two], [RESET]) == []
    assert add_outcomes([one], [RESET, two]) == [two]


async def _ended(state: State) -> dict[str, Any]:
    return {}


async def test_fresh_turn_clears_every_per_turn_field_of_a_thread() -> None:
    """A thread whose every field was set by a turn: the next message leaves only the header and history."""
    from langgraph.checkpoint.memory import InMemorySaver

    g: StateGraph[State] = StateGraph(State)
    g.add_node("n", _ended)
    g.add_edge(START, "n")
    g.add_edge("n", END)
    graph = g.compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "t"}}
    used: dict[str, Any] = {}
    for name, default in PER_TURN.items():
        if isinstance(default, bool):
            used[name] = not default
        elif isinstance(default, int):
            used[name] = default + 3
        elif isinstance(default, str):
            used[name] = default + "x"
        elif isinstance(default, list):
            used[name] = [{"kind": "notice", "text": name}]
        else:  # None and dicts: a value a turn left behind
            used[name] = {"left": name}
    history = [{"role": "user", "text": "before"}]
    await graph.ainvoke(cast(State, {**fresh_turn(**{**NEW, "turn_id": "1"}), **used, "history": history}), config)
    before = (await graph.aget_state(config)).values
    assert all(before[k] != v for k, v in PER_TURN.items() if k != "outcomes")
    assert before["outcomes"] == used["outcomes"]

    after = await graph.ainvoke(fresh_turn(**NEW), config)
    assert {k: after[k] for k in HEADER} == NEW
    assert {k: after[k] for k in PER_TURN} == {**PER_TURN, "outcomes": []}
    assert after["history"] == history


# --------------------------------------------------------------------------- a thread saved before the reducer


class OldState(TypedDict, total=False):
    """The state as checkpointed before ``outcomes`` had a reducer: a plain list each node copied."""

    turn_id: str
    text: str
    outcomes: list[dict[str, Any]]


def _note(text: str) -> dict[str, Any]:
    return Notice(text=text, code="x").model_dump(mode="json")


async def _old_route(state: OldState) -> dict[str, Any]:
    return {"outcomes": [*state.get("outcomes", []), _note("routed")]}


async def _old_wait(state: OldState) -> dict[str, Any]:
    interrupt({"question": "which?"})
    return {"outcomes": [*state.get("outcomes", []), _note("old code answered")]}


async def _new_route(state: State) -> dict[str, Any]:
    return emit(Notice(text="routed", code="x"))


async def _new_wait(state: State) -> dict[str, Any]:
    answer = interrupt({"question": "which?"})
    return emit(Notice(text=f"answered {answer}", code="x"))


def _graph(schema: Any, route: Any, wait: Any) -> Any:
    g = StateGraph(schema)
    g.add_node("route", route)
    g.add_node("wait_user", wait)
    g.add_edge(START, "route")
    g.add_edge("route", "wait_user")
    g.add_edge("wait_user", END)
    return g


async def test_a_thread_saved_before_the_reducer_resumes(tmp_path: Path) -> None:
    """Paused by the old code (its ``fresh_turn`` input a raw dict with ``outcomes: []``), the thread
    resumes under the reducer with the turn's outcomes so far kept once, and the next turn starts empty."""
    config: Any = {"configurable": {"thread_id": "t"}}
    old_input = {"turn_id": "1", "text": "bench", "outcomes": []}
    async with sqlite_saver(tmp_path / "threads.db") as saver:
        old = _graph(OldState, _old_route, _old_wait).compile(checkpointer=saver)
        paused = await old.ainvoke(copy.deepcopy(old_input), config, durability="exit")
        assert paused["outcomes"] == [_note("routed")] and paused["__interrupt__"]
    async with sqlite_saver(tmp_path / "threads.db") as saver:
        new = _graph(State, _new_route, _new_wait).compile(checkpointer=saver)
        snapshot = await new.aget_state(config)
        assert snapshot.values["outcomes"] == [_note("routed")] and snapshot.next == ("wait_user",)
        done = await new.ainvoke(Command(resume="squat"), config, durability="exit")
        assert done["outcomes"] == [_note("routed"), _note("answered squat")]
        again = await new.ainvoke(fresh_turn(**NEW), config, durability="exit")
        assert again["outcomes"] == [_note("routed")] and again["__interrupt__"]
