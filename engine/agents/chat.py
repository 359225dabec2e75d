"""A short conversational reply for CHAT messages."""

from __future__ import annotations

from engine.agents.prompts import render
from engine.agents.schemas import ChatOutput
from engine.agents.llm import LLM


async def chat(llm: LLM, text: str) -> ChatOutput:
    return await llm.structured("chat", ChatOutput, render("chat.system"), render("chat.user", text=text))
