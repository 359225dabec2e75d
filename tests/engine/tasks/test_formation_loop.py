"""Issue 21: a formation loop that does not improve ends (the stagnation rule), rather than asking
the model the same again until ``max_attempts``."""

from __future__ import annotations

import pytest

from engine.agents.task_schemas import TaskFormationOutput
from engine.outcomes import Ask
from tests.conftest import OpenEngine
from tests.engine.tasks.test_task_flow import PLAN_REQUEST, WEEK, say, seed
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts

pytestmark = pytest.mark.model_reads


def plan(goal: str, status: str = "validated") -> TaskFormationOutput:
    claim = scripts.assumption("current working weight is 55 kg", status=status, source="2026-11-22")
    return scripts.former(goal=goal, operations=[scripts.op_plan(d) for d in WEEK], assumptions=[claim])


async def test_a_round_that_would_be_asked_the_same_is_not_run(open_engine: OpenEngine, fake: FakeOllama) -> None:
    unsure = scripts.former(
        next_step="investigate",
        operations=[scripts.op_plan(WEEK[0])],
        assumptions=[scripts.assumption("they can recover from 3 sessions", status="unresolved", source="")],
    )
    fake.script(scripts.router("TASK", ["strength"]))
    fake.default(unsure)
    async with open_engine() as engine:
        await seed(engine)
        (out,) = await engine.handle(say(PLAN_REQUEST))
    assert isinstance(out, Ask)
    # Before: three identical prompts (the wider window found nothing new), three identical plans.
    assert len(fake.calls("TaskFormationOutput")) == 1


async def test_the_same_proposal_again_ends_the_loop(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("TASK", ["strength"]))
    fake.default("TaskFormationOutput", plan("Bench 140 kg for 5"))  # a wording problem it never fixes
    async with open_engine() as engine:
        await seed(engine)
        await engine.handle(say(PLAN_REQUEST))
    # Round 2 was told what to fix and answered the same: a third round would too.
    assert len(fake.calls("TaskFormationOutput")) == 2


async def test_confidence_that_does_not_rise_ends_the_loop(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("TASK", ["strength"]))
    fake.script(
        "TaskFormationOutput", plan("Bench 140 kg for 5"), plan("Bench 150 kg for 5"), plan("Bench 160 kg for 5")
    )
    async with open_engine() as engine:
        await seed(engine)
        await engine.handle(say(PLAN_REQUEST))
    # A different plan, but no better: the same confidence and as many problems.
    assert len(fake.calls("TaskFormationOutput")) == 2


async def test_a_round_that_improves_goes_on(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("TASK", ["strength"]))
    two_problems = plan("Bench 140 kg for 5").model_copy(update={"steps": ["Add 2.5 kg a session"]})
    fake.script(two_problems, plan("Bench 140 kg for 5"), plan("Bench {Q1} for {Q2}"))
    async with open_engine() as engine:
        await seed(engine)
        (req,) = await engine.handle(say(PLAN_REQUEST))
    assert req.kind == "approval" and req.title == "Bench 70 kg for 5"  # type: ignore[union-attr]
    assert len(fake.calls("TaskFormationOutput")) == 3  # round 2 had fewer problems, round 3 none


def test_stagnated_reads_confidence_problems_and_repeats() -> None:
    from engine.tasks.formation import Round, stagnated

    first = Round(confidence=0.5, problems=1, proposal="a")
    assert not stagnated([first], delta_min=0.05)
    assert stagnated([first, Round(0.5, 1, "b")], delta_min=0.05)  # not better
    assert stagnated([first, Round(0.9, 0, "a")], delta_min=0.05)  # the same proposal again
    assert not stagnated([first, Round(0.6, 1, "b")], delta_min=0.05)  # more confident
    assert not stagnated([first, Round(0.5, 0, "b")], delta_min=0.05)  # fewer problems
