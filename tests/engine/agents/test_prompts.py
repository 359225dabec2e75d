"""Prompts stay within a budget with realistic inputs (Ollama truncates silently)."""

from __future__ import annotations

from datetime import date

from engine.agents.parser import _fields, _notation
from engine.agents.prompts import render
from engine.domains.registry import DomainRegistry, DomainSelector

# ~3.5 characters per token for mixed English/Korean text is conservative for qwen2.5.
CHARS_PER_TOKEN = 3.0
# Whole prompts (system + user) stay far inside OLLAMA_NUM_CTX=8192, leaving room for the reply.
BUDGET_TOKENS = {"router": 2000, "parser": 2000}


def tokens(*parts: str) -> float:
    return sum(len(p) for p in parts) / CHARS_PER_TOKEN


def test_router_prompt_budget() -> None:
    registry = DomainRegistry.load()
    history = "\n".join(f"user: {'bench 55kg 10x5 ' * 18}" for _ in range(12))
    system = render("router.system", domains=registry.describe())
    user = render("router.user", history=history[:3600], text="어제 벤치프레스 55키로 10x5 했어요, 지난주보다 나아졌나요?")
    assert tokens(system, user) < BUDGET_TOKENS["router"]


def test_parser_prompt_budget_for_every_domain() -> None:
    selector = DomainSelector(DomainRegistry.load())
    for name in selector.registry.names:
        ctx = selector.build_active_context([name])
        system = render(
            "parser.system",
            today=date(2026, 11, 22).isoformat(),
            weekday="Sunday",
            domain=name,
            fields=_fields(ctx, name),
            notation=_notation(ctx),
        )
        user = render("parser.user", terms="bench press", hints="(none)", answers="(none)", text="x" * 400)
        assert tokens(system, user) < BUDGET_TOKENS["parser"], name


def test_every_placeholder_is_filled() -> None:
    # A missing value is a KeyError, not a silently empty prompt.
    import pytest

    with pytest.raises(KeyError):
        render("router.user", text="hi")
