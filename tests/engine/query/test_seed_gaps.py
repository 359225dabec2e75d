"""Gaps left by the seed stories (ARCHITECTURE §3), each closed in code:

* story 5.2 AC3: a question declined before anything was fetched still fetches,
  then answers with the fallback;
* story 3.5 AC6: a named day retrieves that day only, whatever the Planner adds;
* AC5: "show me …" lists by term in code, not only because the prompt says so;
* story 6.3 AC5: after EXPAND_DOMAIN the question's words are read again with
  the merged vocabulary (단백질 reaches the Planner and retrieval as protein);
* WAIT_USER AC6: several answers to one gap are all kept, each with its
  question, and the gap counts as answered;
* Mid-Flow Domain Expansion: a gap whose domain is already loaded expands
  nothing and leaves a sufficient answer whole (not partial).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any

import pytest

from engine import interrupts
from engine.agents.schemas import RetrievalInstruction
from engine.engine import Engine
from engine.interrupts import AskQuestion
from engine.outcomes import Answer, Ask
from engine.turns import ClarificationAnswer, Message, Resume
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts
from tests.helpers.outcomes import after_closing

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


CONV = USER = "console:han"
NOW = datetime(2026, 11, 22, 1, 0, tzinfo=timezone.utc)  # Sunday 10:00 in Seoul
TODAY = date(2026, 11, 22)
DAYS = (0, 6, 7, 14, 21, 28)  # today, last Monday (11-16), and the Sundays before


def ask(text: str) -> Message:
    return Message(conversation=CONV, user=USER, text=text, at=NOW)


async def seed(engine: Engine) -> None:
    await engine.entries.add(
        USER, [scripts.bench_entry(TODAY - timedelta(days=d), 50 + d / 2, source_key=f"seed:{d}") for d in DAYS]
    )


def prompt(fake: FakeOllama, title: str, i: int = -1) -> str:
    return str(fake.calls(title)[i]["messages"][-1]["content"])


async def test_declined_before_fetching_still_fetches_and_answers_from_entries(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.script(scripts.planner("clarify"))
    fake.default(scripts.planner("retrieve"))
    fake.script(scripts.clarifier("Which lift do you mean?", ["Bench press", "Squat"]))
    fake.default(scripts.analyzer("sufficient"))
    fake.script("SynthesizerOutput", scripts.refer_claims(scripts.pick("list", "2026-11-22 ·")))
    async with open_engine() as engine:
        await seed(engine)
        (question,) = await engine.handle(ask("how is my bench going?"))
        assert isinstance(question, Ask)
        (answer,) = after_closing(
            await engine.handle(
                Resume(
                    conversation=CONV,
                    user=USER,
                    interrupt_id=question.interrupt_id,
                    answer=ClarificationAnswer(declined=True),
                )
            ),
            question,
        )
    assert isinstance(answer, Answer) and not answer.text.startswith("I have no entries")
    assert answer.text == "- 2026-11-22 · bench press 50 kg × 10 reps × 5 sets"
    # The entries were fetched after the decline, and the Synthesizer was told to use the fallback.
    assert "2026-11-22" in prompt(fake, "SynthesizerOutput")
    assert "The person skipped the question" in prompt(fake, "SynthesizerOutput")
    assert len(fake.calls("ClarifierOutput")) == 1  # never asked twice


async def test_a_named_day_retrieves_that_day_only(open_engine: OpenEngine, fake: FakeOllama) -> None:
    planner = scripts.planner("retrieve", "keyword", None, ["bench press"])
    planner.retrieval_instructions.append(RetrievalInstruction(strategy="recent", terms=[]))
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.script("PlannerOutput", planner)
    fake.script(scripts.analyzer("sufficient"))
    fake.script("SynthesizerOutput", scripts.refer_claims(scripts.pick("list", "2026-11-16 ·")))
    async with open_engine() as engine:
        await seed(engine)
        (answer,) = await engine.handle(ask("what did I do last Monday?"))
    entries = prompt(fake, "AnalyzerOutput").split("Entries:")[1]
    assert "2026-11-16" in entries
    assert not any(d in entries for d in ("2026-11-22", "2026-11-15", "2026-11-08", "2026-11-01", "2026-10-25"))
    assert isinstance(answer, Answer) and answer.text == "- 2026-11-16 · bench press 53 kg × 10 reps × 5 sets"


async def test_show_me_lists_by_term_whatever_the_planner_chose(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.script(scripts.planner("retrieve", "date_range", 7))  # the prompt asks for keyword
    fake.script(scripts.analyzer("sufficient"))
    # Asked to show them, the model lists them; code writes each line.
    every = scripts.pick("list", *(f"{TODAY - timedelta(days=d)} ·" for d in DAYS))
    fake.script("SynthesizerOutput", scripts.refer_claims(every))
    async with open_engine() as engine:
        await seed(engine)
        (answer,) = await engine.handle(ask("show me my bench press workouts"))
    entries = prompt(fake, "AnalyzerOutput").split("Entries:")[1]
    assert all((TODAY - timedelta(days=d)).isoformat() in entries for d in DAYS)
    assert isinstance(answer, Answer) and not answer.partial
    assert all(f"- {TODAY - timedelta(days=d)} · bench press" in answer.text for d in DAYS)


async def test_expanded_domain_reads_the_question_again(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.script(
        scripts.planner("expand_domain", expand=["nutrition"]),
        scripts.planner("retrieve", "keyword", None, []),  # search by the question's own terms
    )
    fake.script(scripts.analyzer("sufficient"))
    fake.script(
        "SynthesizerOutput", scripts.refer_claims(scripts.pick("record", "heaviest completed set of bench press"))
    )
    async with open_engine() as engine:
        await seed(engine)
        await engine.entries.add(USER, [scripts.bench_entry(TODAY, 50, source_key="unused")])
        (answer,) = await engine.handle(ask("단백질이 벤치프레스에 충분해?"))
        state = await engine.graph.aget_state(
            {"configurable": {"thread_id": await engine.conversations.thread_id(CONV)}}
        )
    assert "protein" not in prompt(fake, "PlannerOutput", 0)  # strength alone does not know 단백질
    assert "protein" in prompt(fake, "PlannerOutput", 1).split("Read by code:")[1]
    assert isinstance(answer, Answer)
    assert "protein" in state.values["shape"]["terms"]
    # Retrieval searched by the merged terms too.
    assert any("protein" in a["terms"] for a in state.values["retrieval"]["attempts"] if a["strategy"] == "keyword")


# --------------------------------------------------------------------------- WAIT_USER AC6

FELT = "how the session felt"


def two_questions(*questions: str) -> dict[str, Any]:
    return {
        "questions": [{"question": q, "gap_addressed": FELT, "options": []} for q in questions],
        "context_explanation": "How it felt decides whether to go heavier.",
        "fallback_action": "I'll answer from the numbers alone.",
    }


async def test_every_answer_to_one_gap_is_kept_with_its_question(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.default(scripts.planner())
    fake.script(
        scripts.analyzer("insufficient", [scripts.gap(FELT, "subjective")]),
        # The model names the gap again: it was answered, so it is not asked twice.
        scripts.analyzer("partial", [scripts.gap(FELT, "subjective")]),
    )
    fake.script("ClarifierOutput", two_questions("How hard was the last set?", "How did you sleep?"))
    fake.script("SynthesizerOutput", scripts.refer("Your latest bench: {e}.", e="2026-11-22 ·"))
    async with open_engine() as engine:
        await seed(engine)
        (question,) = await engine.handle(ask("should I go heavier on bench?"))
        assert isinstance(question, Ask) and len(question.questions) == 2
        out = after_closing(
            await engine.handle(
                Resume(
                    conversation=CONV,
                    user=USER,
                    interrupt_id=question.interrupt_id,
                    answer=ClarificationAnswer(answers=["Easy", "Badly"]),
                )
            ),
            question,
        )
        state = await engine.graph.aget_state(
            {"configurable": {"thread_id": await engine.conversations.thread_id(CONV)}}
        )
    assert isinstance(out[0], Answer)
    assert sorted(state.values["user_responses"].values()) == ["Badly", "Easy"]
    for agent in ("AnalyzerOutput", "SynthesizerOutput"):
        shown = prompt(fake, agent)
        assert "How hard was the last set?: Easy" in shown and "How did you sleep?: Badly" in shown
    assert len(fake.calls("ClarifierOutput")) == 1


def test_a_question_asked_again_keeps_both_answers() -> None:
    first = interrupts.keep_answers({}, [AskQuestion(text="Which lift?", gap="exercise name")], ["Bench"])
    again = interrupts.keep_answers(first, [AskQuestion(text="Which lift?", gap="exercise name")], ["Incline bench"])
    assert list(again.values()) == ["Bench", "Incline bench"]
    assert interrupts.keep_answers(again, [AskQuestion(text="Which lift?", gap="exercise name")], ["Bench"]) == again
    assert interrupts.answered("exercise name", again) and not interrupts.answered("exercise", again)
    # A question with no gap is keyed by its text alone.
    assert interrupts.keep_answers({}, [AskQuestion(text="Which day?")], ["Monday"]) == {"Which day?": "Monday"}


# --------------------------------------------------------------------------- Mid-Flow Domain Expansion


async def test_a_gap_of_a_loaded_domain_leaves_a_sufficient_answer_whole(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.default(scripts.planner())
    # The model says strength knowledge is missing while strength is the loaded domain.
    loaded_gap = scripts.gap("more strength", "expertise", True, "strength")
    fake.script(scripts.analyzer("sufficient", [loaded_gap]))
    fake.script("SynthesizerOutput", scripts.refer("Your latest bench: {e}.", e="2026-11-22 ·"))
    async with open_engine() as engine:
        await seed(engine)
        (answer,) = await engine.handle(ask("how is my bench going?"))
        state = await engine.graph.aget_state(
            {"configurable": {"thread_id": await engine.conversations.thread_id(CONV)}}
        )
    assert isinstance(answer, Answer) and not answer.partial
    assert state.values["is_partial"] is False
    assert state.values["domain_expansion_history"] == ["strength"]
    assert "outside what I know" not in prompt(fake, "SynthesizerOutput")
