"""A short conversational reply for CHAT messages."""

from __future__ import annotations

from engine.agents.base import Agent, Inputs
from engine.agents.schemas import ChatOutput


class ChatInput(Inputs):
    """What the chat agent is shown."""

    text: str
    """The person's message."""


CHAT = Agent("chat", ChatInput, ChatOutput)
