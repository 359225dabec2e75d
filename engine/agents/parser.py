"""The Parser: one log message into a structured entry.

Code reads what it can first (vocabulary terms, strength notation) and hands it
over as hints; after the model answers, code enforces the shape (sets equal the
set list, canonical exercise names) instead of trusting it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date
from typing import Annotated

from engine.agents.base import Agent, Dated, Lines, Names, Shown, ask
from engine.agents.context import ClarificationItem
from engine.agents.llm import LLM
from engine.agents.schemas import ParserOutput
from engine.domains.registry import ActiveDomainContext
from engine.entries.model import ExerciseLog
from engine.language.notation import read_strength
from engine.language.vocab import normalize_name


def fields(ctx: ActiveDomainContext, domain: str) -> list[str]:
    """The domain's log fields, one line each."""
    return [
        f"- {f.name} ({f.type}{', ' + f.unit if f.unit else ''}{', required' if f.required else ''}): {f.description}"
        for f in ctx.log_schemas.get(domain, [])
    ]


def notation(ctx: ActiveDomainContext) -> list[str]:
    """The active domains' notation, one line each."""
    return [f"- {n.pattern} = {n.meaning}. Example: {n.example}" for n in ctx.notation[:8]]


def _tidy(ex: ExerciseLog, ctx: ActiveDomainContext) -> ExerciseLog:
    # A name the vocabulary does not know is kept as its own canonical, spelled as imports spell it.
    name = ctx.vocabulary.canonical(ex.name) or normalize_name(ex.name)
    details = [d.model_copy(update={"set_num": i}) for i, d in enumerate(ex.set_details, start=1)]
    sets = len(details) if details else ex.sets
    return ex.model_copy(update={"name": name, "set_details": details, "sets": sets})


class ParserInput(Dated):
    """What the Parser is shown."""

    domain: str
    """The domain it parses in (the first loaded)."""
    fields: Annotated[list[str], Shown(join="\n", empty="(free form)")]
    """The domain's log fields (:func:`fields`)."""
    notation: Lines
    """The active domains' notation (:func:`notation`)."""
    terms: Names
    """Vocabulary terms code found in the message and its answers."""
    hints: list[str]
    """What code read of sets, reps and weights, one item an exercise."""
    answers: list[str]
    """The person's answers to the questions asked, ``question -> answer`` each."""
    text: str
    """The person's message."""


PARSER = Agent("parser", ParserInput, ParserOutput)


def parser_input(
    ctx: ActiveDomainContext, text: str, today: date, answers: Sequence[ClarificationItem] = ()
) -> ParserInput:
    """The Parser's input for a log message (plus any clarification answers) in the active domains.

    Code reads what it can first (vocabulary terms, strength notation) and hands it over as hints.
    """
    domain = ctx.domains_loaded[0] if ctx.domains_loaded else (ctx.registry.fallback or "")
    full_text = text + "".join(f"\n{a['answer']}" for a in answers)
    hints = read_strength(full_text, ctx.vocabulary, ctx.units)
    return ParserInput(
        today=today,
        domain=domain,
        fields=fields(ctx, domain),
        notation=notation(ctx),
        terms=list(ctx.vocabulary.terms(full_text)),
        hints=[
            f"{h.exercise or '?'}: weight={h.weight if h.weight is not None else '-'}"
            f"{h.unit or ''} reps={h.reps if h.reps is not None else '-'} sets={h.sets if h.sets is not None else '-'}"
            f"{' (order of reps and sets unclear)' if h.ambiguous else ''}"
            for h in hints
        ],
        answers=[f"{a['question']} -> {a['answer']}" for a in answers],
        text=text,
    )


async def parse(
    llm: LLM, ctx: ActiveDomainContext, inputs: ParserInput, known_domains: Collection[str] = ()
) -> ParserOutput:
    """Parse a log message; code then enforces the shape.

    Args:
        known_domains: Every domain there is: the parser's domain for what it
            parsed wins over the router's when it names one of them.
    """
    out = await ask(llm, PARSER, inputs)
    if out.domain not in ctx.domains_loaded and out.domain not in known_domains:
        out = out.model_copy(update={"domain": inputs.domain})
    return out.model_copy(update={"exercises": [_tidy(e, ctx) for e in out.exercises]})
