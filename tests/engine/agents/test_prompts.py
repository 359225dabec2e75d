"""Prompts: each one's placeholders are its agent's input fields, and they stay within a budget
with realistic inputs (Ollama truncates silently)."""

from __future__ import annotations

import string
from datetime import date
from typing import Any

import pytest

from engine.agents import AGENTS
from engine.agents.base import Agent
from engine.agents.parser import PARSER, ParserInput, fields, notation
from engine.agents.prompts import _DIR, render, template
from engine.agents.router import ROUTER, RouterInput
from engine.domains.registry import DomainRegistry, DomainSelector

# ~3.5 characters per token for mixed English/Korean text is conservative for qwen2.5.
CHARS_PER_TOKEN = 3.0
# Whole prompts (system + user) stay far inside OLLAMA_NUM_CTX=8192, leaving room for the reply.
BUDGET_TOKENS = {"router": 2000, "parser": 2000}


def tokens(*parts: str) -> float:
    return sum(len(p) for p in parts) / CHARS_PER_TOKEN


def placeholders(name: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template(name)) if f is not None}


@pytest.mark.parametrize("agent", AGENTS.values(), ids=list(AGENTS))
def test_placeholders_are_the_input_fields(agent: Agent[Any, Any]) -> None:
    system, user = agent.prompts
    shown = placeholders(system) | placeholders(user)
    fields = set(agent.input.model_fields) | set(agent.input.model_computed_fields)
    assert shown - fields == set(), f"{agent.name}: placeholders no input field fills"
    assert fields - shown == set(), f"{agent.name}: input fields no prompt shows"


def test_every_prompt_file_belongs_to_an_agent() -> None:
    names = {p for a in AGENTS.values() for p in a.prompts}
    assert {p.name.removesuffix(".md") for p in _DIR.glob("*.md")} == names


def test_every_input_field_says_what_it_is() -> None:
    for agent in AGENTS.values():
        for name, field in agent.input.model_fields.items():
            assert field.description, f"{agent.name}.{name} has no docstring"


def test_router_prompt_budget() -> None:
    registry = DomainRegistry.load()
    history = "\n".join(f"user: {'bench 55kg 10x5 ' * 18}" for _ in range(12))
    m = ROUTER.messages(
        RouterInput(
            domains=registry.describe(),
            history=[history[:3600]],
            text="어제 벤치프레스 55키로 10x5 했어요, 지난주보다 나아졌나요?",
        )
    )
    assert tokens(m.system, m.user) < BUDGET_TOKENS["router"]


def test_parser_prompt_budget_for_every_domain() -> None:
    selector = DomainSelector(DomainRegistry.load())
    for name in selector.registry.names:
        ctx = selector.build_active_context([name])
        m = PARSER.messages(
            ParserInput(
                today=date(2026, 11, 22),
                domain=name,
                fields=fields(ctx, name),
                notation=notation(ctx),
                terms=["bench press"],
                hints=[],
                answers=[],
                text="x" * 400,
            )
        )
        assert tokens(m.system, m.user) < BUDGET_TOKENS["parser"], name


def test_every_placeholder_is_filled() -> None:
    # A missing value is a KeyError, not a silently empty prompt.
    with pytest.raises(KeyError):
        render("router.user", text="hi")


def test_one_renderer_reads_each_field_by_its_type() -> None:
    from engine.agents.base import Data, Names, Note, values
    from engine.agents.base import Inputs as Base

    class Shown(Base):
        text: str
        note: Note
        names: Names
        items: list[str]
        answers: dict[str, str]
        data: Data
        day: date

    full = values(
        Shown(
            text="hi",
            note="n",
            names=["a", "b"],
            items=["x", "y"],
            answers={"gap": "yes"},
            data="</data>",
            day=date(2026, 11, 22),
        )
    )
    assert full == {
        "text": "hi",
        "note": "n",
        "names": "a, b",
        "items": "x; y",
        "answers": "gap: yes",
        "data": "<data>\n‹/data›\n</data>",
        "day": "2026-11-22",
    }
    empty = values(Shown(text="", note="", names=[], items=[], answers={}, data="", day=date(2026, 11, 22)))
    assert empty == {
        "text": "",
        "note": "(none)",
        "names": "(none)",
        "items": "(none)",
        "answers": "(none)",
        "data": "(none)",
        "day": "2026-11-22",
    }
