"""What code reads off a message before (or after) a model: a request to list
entries, a question about the person's own data, a reply that states it.

* "show me my bench workouts", "list my runs", "벤치 기록 보여줘": a list,
  fetched by term whatever the Planner chose.
* A question (a question mark or word) that names something logged or a
  query intent (best, how often, 기록, 몇 번) and speaks of the person's own
  ("my", "I", "내", "제"): about their data, so it goes through the query
  flow even when the Router called it chat.
* A question that asks for knowledge rather than numbers ("what is a
  deload", "why did my bench stall", "how much protein should I eat",
  "디로드가 뭐야", "왜 정체됐어"): the knowledge base's articles are searched
  too, whatever the Planner chose. "How many times did I squat" asks for a
  count of their own, not for an article.
* A chat reply that states a number about the person (a number beside an
  exercise, a query word, or "you" / "your" / 회원님): it would state their
  data unchecked, so the turn goes through the query flow instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.domains.registry import ActiveDomainContext, DomainRegistry
from engine.language.families import GENERIC
from engine.query.number_reading import numerals
from engine.query.questions import QuestionShape

_SHOW = re.compile(
    r"\b(?:show|list|give)\s+(?:me\s+)?(?:all\s+(?:of\s+)?)?(?:my|the)\b|\bshow me\b|보여\s?줘|보여\s?주|목록|리스트",
    re.IGNORECASE,
)
_QUESTION = re.compile(
    r"\?|^\s*(?:what|what's|whats|how|when|which|where|why|show|list|find|tell|give|compare)\b"
    r"|^\s*(?:did|do|does|have|has|is|was|were|am|are|can|could|should)\s+(?:i|my|you|we|it|that|this)\b"
    r"|몇|얼마|언제|어떻|어땠|어때|알려|보여|뭐|무엇|했나|했니|됐나|했어\?|인가|일까|나요|까요|찾아|비교",
    re.IGNORECASE,
)
_KNOWLEDGE = re.compile(
    r"\b(?:what(?:'s| is| are| does)(?!\s+(?:my|mine|i|the\s+\w+est\s+(?:i|my))\b)|why|explain|meaning of|difference between|tell me about"
    r"|how (?:much|many|often|long|hard|fast)\b(?![^?]{0,40}\b(?:did|have|has|was|were)\s+(?:i|my)\b)"
    r"|how (?:should|do|does|can|to)|should i|is it (?:ok|okay|good|bad|safe))\b"
    r"|뭐야|뭔가요|뭐예요|뭐에요|무엇인가|무엇이|이란|란\s?무엇|왜|어떻게\s?해|얼마나\s?(?:먹|해|자)|설명|차이",
    re.IGNORECASE,
)
_OWN = re.compile(r"\b(?:my|mine|i|i'm|i've|me)\b|(?<![가-힣])(?:내|나의|제|저의|내가|제가)(?![가-힣])", re.IGNORECASE)
_SECOND = re.compile(r"\b(?:your|you|you've|you're|yours)\b|당신|회원님|님의|님은|님이|님께서", re.IGNORECASE)


def asks(text: str) -> bool:
    """Whether a message (or a sentence of it) is a question: a question mark, a question word, or an
    auxiliary before a person ("did I", "is my"; a report such as "did some squats" is not)."""
    return _QUESTION.search(text) is not None


def shows_list(text: str) -> bool:
    """Whether the question asks to see entries ("show me my …", "…보여줘")."""
    return _SHOW.search(text) is not None


def asks_for_knowledge(text: str) -> bool:
    """Whether a message asks what something is, why, or how (see the module docstring)."""
    return _KNOWLEDGE.search(text) is not None


def asks_about_data(text: str, shape: QuestionShape) -> bool:
    """Whether a message asks about the person's own logged data (see the module docstring)."""
    return asks(text) and bool(shape.terms or shape.intents) and _OWN.search(text) is not None


def states_data(reply: str, ctx: ActiveDomainContext) -> bool:
    """Whether a model's reply states a number about the person's data."""
    if not numerals(reply):
        return False
    named = [m for m in ctx.question_vocabulary.find(reply) if m.canonical != GENERIC]
    return bool(named) or _SECOND.search(reply) is not None


def domains_for(shape: QuestionShape, registry: DomainRegistry) -> list[str]:
    """The domains whose vocabulary holds the terms a message names."""
    return domains_holding(shape.terms, registry)


def domains_holding(terms: Iterable[str], registry: DomainRegistry) -> list[str]:
    """The domains whose vocabulary holds any of ``terms`` (canonical terms)."""
    wanted = set(terms)
    return [name for name in registry.names if (d := registry.get(name)) is not None and wanted & set(d.vocabulary)]
