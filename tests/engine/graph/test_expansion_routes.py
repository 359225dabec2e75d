"""Mid-Flow Domain Expansion: ANALYZE's gaps expand only domains that are known and not loaded yet."""

from __future__ import annotations

from typing import Literal

from engine.agents.schemas import AnalyzerOutput, Gap
from engine.graph.routes import Routes, expansion_requests
from engine.graph.state import State, dump

KNOWN = {"strength", "running", "nutrition", "swimming", "general_fitness"}


def outside(domain: str | None) -> Gap:
    return Gap(
        description=f"needs {domain}", gap_type="expertise", outside_current_expertise=True, suspected_domain=domain
    )


def analyzed(
    verdict: Literal["sufficient", "partial", "insufficient"], *gaps: Gap, loaded: list[str] | None = None
) -> State:
    """A state after ANALYZE with ``loaded`` (strength by default) active and in the expansion history."""
    analysis = AnalyzerOutput(findings=[], gaps=list(gaps), verdict=verdict)
    domains = loaded or ["strength"]
    return State(analysis=dump(analysis), domains=domains, domain_expansion_history=list(domains))


def test_only_known_domains_not_loaded_are_requested_each_once() -> None:
    gaps = [
        outside("running"),
        outside("strength"),  # loaded already
        outside("astrology"),  # no such domain
        outside(None),  # no domain named
        Gap(description="protein", gap_type="expertise", suspected_domain="nutrition"),  # not outside
        outside("running"),
        outside("swimming"),
    ]
    assert expansion_requests(gaps, ["strength"], KNOWN) == ["running", "swimming"]
    assert expansion_requests(gaps, ["strength", "running", "swimming"], KNOWN) == []
    assert expansion_requests([], [], KNOWN) == []


async def test_a_gap_of_a_loaded_domain_does_not_expand_and_a_sufficient_answer_is_synthesized() -> None:
    routes = Routes()
    assert await routes.after_analyze(analyzed("sufficient", outside("strength"))) == "synthesize"
    # Loaded by an earlier expansion counts as loaded too.
    both = analyzed("sufficient", outside("running"), loaded=["strength", "running"])
    assert await routes.after_analyze(both) == "synthesize"


async def test_a_gap_of_a_domain_not_loaded_expands() -> None:
    routes = Routes()
    assert (
        await routes.after_analyze(analyzed("sufficient", outside("strength"), outside("running"))) == "expand_domain"
    )
    # A domain that is not there to load still goes to EXPAND_DOMAIN, which answers marked partial.
    assert await routes.after_analyze(analyzed("sufficient", outside("astrology"))) == "expand_domain"
    assert await routes.after_analyze(analyzed("sufficient", outside(None))) == "expand_domain"
