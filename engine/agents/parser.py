"""The Parser: one log message into a structured entry.

Code reads what it can first (vocabulary terms, strength notation) and hands it
over as hints; after the model answers, code enforces the shape (sets equal the
set list, canonical exercise names) instead of trusting it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date

from engine.agents.context import ClarificationItem
from engine.agents.prompts import render
from engine.entries.model import ExerciseLog
from engine.agents.schemas import ParserOutput
from engine.domains.registry import ActiveDomainContext, builtin_registry
from engine.agents.llm import LLM
from engine.language.notation import read_strength
from engine.language.vocab import normalize_name


def _fields(ctx: ActiveDomainContext, domain: str) -> str:
    fields = ctx.log_schemas.get(domain, [])
    return "\n".join(
        f"- {f.name} ({f.type}{', ' + f.unit if f.unit else ''}{', required' if f.required else ''}): {f.description}"
        for f in fields
    ) or "(free form)"


def _notation(ctx: ActiveDomainContext) -> str:
    return "\n".join(f"- {n.pattern} = {n.meaning}. Example: {n.example}" for n in ctx.notation[:8]) or "(none)"


def _answers(answers: Sequence[ClarificationItem]) -> str:
    return "; ".join(f"{a['question']} -> {a['answer']}" for a in answers) or "(none)"


def _tidy(ex: ExerciseLog, ctx: ActiveDomainContext) -> ExerciseLog:
    # A name the vocabulary does not know is kept as its own canonical, spelled as imports spell it.
    name = ctx.vocabulary.canonical(ex.name) or normalize_name(ex.name)
    details = [d.model_copy(update={"set_num": i}) for i, d in enumerate(ex.set_details, start=1)]
    sets = len(details) if details else ex.sets
    return ex.model_copy(update={"name": name, "set_details": details, "sets": sets})


async def parse(
    llm: LLM,
    ctx: ActiveDomainContext,
    text: str,
    today: date,
    answers: Sequence[ClarificationItem],
    known_domains: Collection[str] = (),
) -> ParserOutput:
    """Parse a log message (plus any clarification answers) in the active domains.

    Args:
        known_domains: Every domain there is: the parser's domain for what it
            parsed wins over the router's when it names one of them.
    """
    domain = ctx.domains_loaded[0] if ctx.domains_loaded else (builtin_registry().fallback or "")
    full_text = text + "".join(f"\n{a['answer']}" for a in answers)
    hints = read_strength(full_text, ctx.vocabulary, ctx.units)
    hint_text = "; ".join(
        f"{h.exercise or '?'}: weight={h.weight if h.weight is not None else '-'}"
        f"{h.unit or ''} reps={h.reps if h.reps is not None else '-'} sets={h.sets if h.sets is not None else '-'}"
        f"{' (order of reps and sets unclear)' if h.ambiguous else ''}"
        for h in hints
    ) or "(none)"
    out = await llm.structured(
        "parser",
        ParserOutput,
        render(
            "parser.system",
            today=today.isoformat(),
            weekday=today.strftime("%A"),
            domain=domain,
            fields=_fields(ctx, domain),
            notation=_notation(ctx),
        ),
        render(
            "parser.user",
            terms=", ".join(ctx.vocabulary.terms(full_text)) or "(none)",
            hints=hint_text,
            answers=_answers(answers),
            text=text,
        ),
    )
    if out.domain not in ctx.domains_loaded and out.domain not in known_domains:
        out = out.model_copy(update={"domain": domain})
    return out.model_copy(update={"exercises": [_tidy(e, ctx) for e in out.exercises]})
