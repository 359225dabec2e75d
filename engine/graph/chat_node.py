"""The CHAT node: small talk answered by the chat agent, unless the message needs checked numbers or articles.

A question about the person's own data, a what / why / how question the
knowledge base can answer, or a reply that would state their numbers
unchecked goes to the query flow instead (``intent`` becomes QUERY), where
values travel by reference and articles are cited.
"""

from __future__ import annotations

from typing import Any

import structlog

from engine import texts
from engine.agents.base import ask
from engine.agents.chat import CHAT, ChatInput
from engine.graph.deps import Deps
from engine.graph.state import State, emit
from engine.graph.view import TurnView
from engine.outcomes import Answer
from engine.query.asking import asks_about_data, domains_for, states_data
from engine.query.lookup import answers_from_articles, domains_named
from engine.query.questions import read_question
from engine.query.render import language_of

log = structlog.get_logger("engine.query")


class ChatNode:
    def __init__(self, deps: Deps) -> None:
        self.d = deps

    async def chat(self, state: State) -> dict[str, Any]:
        """A CHAT reply; a question about the person's data, or a reply stating it, goes to the query flow."""
        t = TurnView(state, self.d)
        if t.small_talk:
            # A greeting or thanks alone: answered by code, never sent through the query flow.
            return emit(Answer(text=texts.small_talk(t.small_talk, language_of(t.text))))
        registry = self.d.selector.registry
        everything = t.everything
        shape = read_question(t.text, everything, t.today)
        if asks_about_data(t.text, shape):
            log.info("chat.rerouted", reason="asks about their data")
            return {"intent": "QUERY", "domains": domains_for(shape, registry)}
        if answers_from_articles(self.d.library, registry, t.text):
            log.info("chat.rerouted", reason="asks for knowledge the articles hold")
            return {"intent": "QUERY", "domains": domains_for(shape, registry) or domains_named(registry, t.text)}
        out = await ask(self.d.llm, CHAT, ChatInput(text=t.text))
        if states_data(out.reply, everything):
            # The reply would state their numbers unchecked: answer through the query flow instead.
            log.info("chat.rerouted", reason="reply states their data")
            return {"intent": "QUERY", "domains": domains_for(shape, registry)}
        return emit(Answer(text=out.reply))
