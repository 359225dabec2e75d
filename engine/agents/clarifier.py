"""The Clarifier: turn what is missing into at most three questions."""

from __future__ import annotations

from typing import Annotated

from engine.agents.base import Agent, Inputs, Lines, Shown
from engine.agents.schemas import ClarifierOutput
from engine.domains.registry import ActiveDomainContext


def patterns(ctx: ActiveDomainContext) -> list[str]:
    """The active domains' clarification patterns, one line each."""
    return [
        f'- when {p.when}: ask "{p.question}"' + (f" options {p.options}" if p.options else "")
        for p in ctx.clarification_patterns[:8]
    ]


class ClarifierInput(Inputs):
    """What the Clarifier is shown."""

    patterns: Lines
    """How the active domains ask (:func:`patterns`)."""
    text: str
    """The person's message."""
    missing: Annotated[list[str], Shown(join="\n", item="- {}", empty="- (unclear)")]
    """What is missing, one item each."""


CLARIFIER = Agent("clarifier", ClarifierInput, ClarifierOutput)
