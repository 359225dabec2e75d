"""The Clarifier: turn what is missing into at most three questions."""

from __future__ import annotations

from collections.abc import Sequence

from engine.agents.prompts import render
from engine.agents.schemas import ClarifierOutput
from engine.domains.registry import ActiveDomainContext
from engine.agents.llm import LLM


async def clarify(llm: LLM, ctx: ActiveDomainContext, text: str, missing: Sequence[str]) -> ClarifierOutput:
    patterns = "\n".join(
        f"- when {p.when}: ask \"{p.question}\"" + (f" options {p.options}" if p.options else "")
        for p in ctx.clarification_patterns[:8]
    ) or "(none)"
    out = await llm.structured(
        "clarifier",
        ClarifierOutput,
        render("clarifier.system", patterns=patterns),
        render("clarifier.user", text=text, missing="\n".join(f"- {m}" for m in missing) or "- (unclear)"),
    )
    return out
