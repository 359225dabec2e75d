"""An agent, declared: its name, the model of what it is shown, the model of what it answers.

Each agent module declares an input model (one field per placeholder of its two
prompts, ``prompts/<name>.system.md`` and ``prompts/<name>.user.md``) and an
:class:`Agent` constant; :func:`ask` renders both prompts from the input with one
renderer and asks the model for the output model. A test holds each prompt's
placeholders equal to its input model's fields, both ways.

How a value reads in a prompt is decided by its field's type, once, here:

* ``str``: as it is (the person's message, a computed block of text);
* ``date``: ISO (``2026-11-22``);
* a list: its items joined by ``"; "``; a mapping: ``key: value`` items joined the same way;
* an empty list or mapping reads ``(none)``.

A field annotated with :class:`Shown` changes that: another separator or item
format, another text for "empty" (a ``str`` too then reads it when empty), or
fencing as data (text from entries, imports, articles: never instructions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, computed_field

from engine.agents.briefing import fenced
from engine.agents.llm import LLM
from engine.agents.prompts import render

I = TypeVar("I", bound=BaseModel)  # noqa: E741 - the brief's name for an agent's input
O = TypeVar("O", bound=BaseModel)  # noqa: E741 - and its output

NONE = "(none)"
"""How an empty value reads, unless its field says otherwise."""


@dataclass(frozen=True, slots=True)
class Shown:
    """How one input field reads in its prompt (see the module docstring).

    Attributes:
        join: What goes between a list's items.
        item: Each item's format (``"- {}"`` for a bulleted list).
        empty: What an empty value reads; ``None`` for the empty text itself
            (a ``str`` field reads itself when empty unless it is annotated).
        fence: Wrap the (non-empty) text as data (:func:`engine.agents.briefing.fenced`).
    """

    join: str = "; "
    item: str = "{}"
    empty: str | None = NONE
    fence: bool = False


Data = Annotated[str, Shown(fence=True)]
"""Text from entries, imports or articles: fenced as data, ``(none)`` when empty."""

AlwaysData = Annotated[str, Shown(fence=True, empty=None)]
"""Fenced as data even when empty (the model is always shown where the values go)."""

Note = Annotated[str, Shown()]
"""A short text, ``(none)`` when empty."""

Names = Annotated[list[str], Shown(join=", ")]
"""Names joined by commas, ``(none)`` when there are none."""

Lines = Annotated[list[str], Shown(join="\n")]
"""One item a line, ``(none)`` when there are none."""

_TEXT = Shown(empty=None)


class Inputs(BaseModel):
    """Base of every agent's input model: plain data, frozen, no unknown fields; a docstring per field."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


def _how(model: type[BaseModel], name: str, value: Any) -> Shown:
    for meta in model.model_fields[name].metadata:
        if isinstance(meta, Shown):
            return meta
    return _TEXT if isinstance(value, str) else Shown()


def show(value: Any, how: Shown) -> str:
    """One value as its prompt reads it."""
    if isinstance(value, date):
        text = value.isoformat()
    elif isinstance(value, str):
        text = value
    elif isinstance(value, Mapping):
        text = how.join.join(how.item.format(f"{k}: {v}") for k, v in value.items())
    elif isinstance(value, (list, tuple)):
        text = how.join.join(how.item.format(v) for v in value)
    else:
        text = str(value)
    if not text and how.empty is not None:
        return how.empty
    return fenced(text) if how.fence else text


def values(inputs: BaseModel) -> dict[str, str]:
    """Every placeholder's text: the input model's fields, then its computed fields."""
    model = type(inputs)
    out = {name: show(getattr(inputs, name), _how(model, name, getattr(inputs, name))) for name in model.model_fields}
    out.update({name: show(getattr(inputs, name), _TEXT) for name in model.model_computed_fields})
    return out


@dataclass(frozen=True, slots=True)
class Messages:
    """One call's two messages; equal messages get the same answer at temperature 0."""

    system: str
    user: str


@dataclass(frozen=True)
class Agent(Generic[I, O]):
    """One model call: ``input`` rendered into its prompts, an ``output`` back.

    Attributes:
        name: Picks the model (``OLLAMA_AGENT_MODELS``), names the prompts, appears in logs.
        input: What the agent is shown: one field per placeholder of its prompts.
        output: What it answers (its class name is the schema title).
    """

    name: str
    input: type[I]
    output: type[O]

    @property
    def prompts(self) -> tuple[str, str]:
        """The names of its system and user prompts (``prompts/<name>.md``)."""
        return f"{self.name}.system", f"{self.name}.user"

    def messages(self, inputs: I) -> Messages:
        """The prompts, rendered from ``inputs``."""
        shown = values(inputs)
        system, user = self.prompts
        return Messages(render(system, **shown), render(user, **shown))


async def ask(llm: LLM, agent: Agent[I, O], inputs: I, *, schema: dict[str, Any] | None = None) -> O:
    """Ask ``agent`` about ``inputs`` and return its validated answer.

    Args:
        schema: A schema built for this call, sent instead of the output's (see :meth:`LLM.structured`).
    """
    m = agent.messages(inputs)
    return await llm.structured(agent.name, agent.output, m.system, m.user, schema=schema)


class Dated(Inputs):
    """Inputs that tell the model what day it is."""

    today: date
    """The person's today."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def weekday(self) -> str:
        """Today's weekday, in English (``Sunday``)."""
        return self.today.strftime("%A")
