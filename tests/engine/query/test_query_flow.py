"""The QUERY flow end to end on both checkpointers, the fake model scripted by schema title.

Covers the seed stories "Improve Retrieval Strategy Ordering", "Implement
Mid-Flow Domain Expansion" and "Implement WAIT_USER State".
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any

import pytest
from structlog.testing import capture_logs

from engine.config import EngineConfig
from engine.engine import Engine
from engine.entries.model import NewEntry
from engine.interrupts import read_clarification
from engine.outcomes import Answer, Ask, Logged, Notice
from engine.turns import ClarificationAnswer, Message, Resume
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts
from tests.helpers.outcomes import after_closing

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


CONV = USER = "console:park"
# Sunday 2026-11-22, 10:00 in Seoul.
NOW = datetime(2026, 11, 22, 1, 0, tzinfo=timezone.utc)
TODAY = date(2026, 11, 22)
BENCH_TOP = scripts.refer_claims(scripts.pick("record", "heaviest completed set of bench press"))


def ask(text: str) -> Message:
    return Message(conversation=CONV, user=USER, text=text, at=NOW)


def bench(days_ago: int, weight: float, reps: int, sets: int, raw: str) -> NewEntry:
    return scripts.bench_entry(TODAY - timedelta(days=days_ago), weight, reps, sets, raw, f"seed:{days_ago}")


async def seed_month(engine: Engine) -> None:
    await engine.entries.add(
        USER,
        [
            bench(28, 45, 10, 5, "bench 45kg 10x5"),
            bench(21, 47.5, 10, 5, "벤치프레스 47.5키로 10x5"),
            bench(14, 50, 10, 5, "bench 50kg 10x5"),
            bench(7, 52.5, 10, 5, "벤치프레스 52.5kg 10회 5세트"),
        ],
    )


def system_prompt(fake: FakeOllama, title: str, i: int = -1) -> str:
    return str(fake.calls(title)[i]["messages"][0]["content"])


def user_prompt(fake: FakeOllama, title: str, i: int = -1) -> str:
    return str(fake.calls(title)[i]["messages"][1]["content"])


async def test_log_then_compare_story(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG", also_query=True))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    fake.script(scripts.planner("retrieve", "date_range", 7, ["bench press"]))
    fake.script(scripts.analyzer("sufficient"))
    fake.script(
        "SynthesizerOutput",
        scripts.refer_claims(
            scripts.pick(
                "comparison",
                "heaviest set in the previous bench press session",  # the older first: code orders them
                "heaviest set in the latest bench press session",
                note="A solid session.",
            ),
            scripts.pick("trend", "change in estimated 1RM of bench press, latest 2026-11-22 vs the previous session"),
        ),
    )
    async with open_engine() as engine:
        await seed_month(engine)
        out = await engine.handle(ask("Just did bench 55kg 10x5 — is it better than my previous workouts?"))
    logged, answered = out
    assert isinstance(logged, Logged) and isinstance(answered, Answer)
    # Code writes every value, date and direction; the latest session comes first, as code read "previous".
    assert answered.text == (
        "Latest session of bench press, all time: 2026-11-22.\n"
        "Heaviest set in the latest bench press session: 55 kg × 10 (2026-11-22); "
        "heaviest set in the previous bench press session: 52.5 kg × 10 (2026-11-15) — up by 2.5 kg. A solid session.\n"
        "Change in estimated 1RM of bench press, latest 2026-11-22 vs the previous session 2026-11-15: "
        "+3.3 kg (an increase)."
    )
    assert not answered.partial
    assert [c.on for c in answered.citations] == [date(2026, 11, 15), date(2026, 11, 22)]
    # The Planner got today's date in the user's zone.
    assert "Today is 2026-11-22 (Sunday)" in system_prompt(fake, "PlannerOutput")
    # Facts computed in code reached the Synthesizer: Epley 55 × (1 + 10/30) = 73.3, 52.5 → 70.0.
    facts = user_prompt(fake, "SynthesizerOutput")
    assert "73.3" in facts and "70" in facts
    assert "2,750" in facts or "2750" in facts  # today's volume 55 × 10 × 5
    # The comparison widened from 7 days (today only) to 14 (today and last week).
    analyzer_in = user_prompt(fake, "AnalyzerOutput")
    assert "2026-11-15" in analyzer_in and "2026-11-08" not in analyzer_in
    assert fake.unscripted == []


async def test_english_question_finds_korean_entries(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.script(scripts.planner("retrieve", "keyword", None, ["bench press"]))
    fake.script(scripts.analyzer("sufficient"))
    # Asked to show them, the model lists the two entries written in Korean.
    fake.script("SynthesizerOutput", scripts.refer_claims(scripts.pick("list", "2026-11-01 ·", "2026-11-15 ·")))
    async with open_engine() as engine:
        await seed_month(engine)
        (answer,) = await engine.handle(ask("show me my bench press workouts"))
    assert isinstance(answer, Answer) and not answer.partial
    entries = user_prompt(fake, "AnalyzerOutput")
    assert "2026-11-15" in entries and "2026-11-01" in entries  # both Korean-written entries
    # Code lists every bench press entry it found ("show me" reads as a list); the model's two are among them.
    assert answer.text == (
        "- 2026-10-25 · bench press 45 kg × 10 reps × 5 sets\n- 2026-11-01 · bench press 47.5 kg × 10 reps × 5 sets\n"
        "- 2026-11-08 · bench press 50 kg × 10 reps × 5 sets\n- 2026-11-15 · bench press 52.5 kg × 10 reps × 5 sets"
    )


async def test_an_unusable_reply_is_asked_again_once_with_feedback(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.script(scripts.planner())
    fake.script(scripts.analyzer("sufficient"))
    # Nothing in the first reply is usable: a kind that does not exist, a count resting on no count,
    # advice whose only words state numbers, and a remark stating its own.
    unusable = scripts.refer_claims(
        scripts.pick("verdict", "heaviest set in the latest bench press session"),
        scripts.pick("count", "heaviest set in the latest bench press session"),
        scripts.pick("advice", note="Add 2.5 kg next week."),
        remark="You benched 60 kg on 2026-11-15.",
    )
    fake.script(
        "SynthesizerOutput",
        unusable,
        scripts.refer_claims(scripts.pick("record", "heaviest completed set of bench press")),
    )
    async with open_engine() as engine:
        await seed_month(engine)
        (answer,) = await engine.handle(ask("how was my bench last week?"))
    assert isinstance(answer, Answer) and not answer.partial
    assert answer.text == "Heaviest completed set of bench press, 2026-11-09 to 2026-11-15: 52.5 kg × 10 (2026-11-15)."
    assert len(fake.calls("SynthesizerOutput")) == 2  # one re-ask, no more
    feedback = user_prompt(fake, "SynthesizerOutput", 1).split("Fix from the last attempt:")[1]
    assert "unknown kind 'verdict'" in feedback
    assert "a count claim cites only counts" in feedback
    assert "(advice) has no words left" in feedback and "“2.5”" in feedback
    assert "The remark left out: it states a number (“60”" in feedback
    assert "(first attempt)" in user_prompt(fake, "SynthesizerOutput", 0)


async def test_retry_limit_returns_the_answer_marked_partial(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.script(scripts.planner())
    fake.script(scripts.analyzer("sufficient"))
    fake.default(scripts.synthesizer("You benched 999 kg."))
    async with open_engine() as engine:
        await seed_month(engine)
        (answer,) = await engine.handle(ask("how was my bench?"))
    assert isinstance(answer, Answer) and answer.partial
    # The first try and its re-asks (max_answer_retries), then code writes the answer.
    assert len(fake.calls("SynthesizerOutput")) == 1 + EngineConfig.model_fields["max_answer_retries"].default
    # Never the unchecked text: the facts, written by code, with the entries they rest on.
    assert "999" not in answer.text and answer.text.startswith("I couldn't write a checked answer")
    assert "heaviest completed set of bench press, all time: 52.5 kg × 10 (2026-11-15)" in answer.text
    assert answer.citations and answer.citations[-1].on == date(2026, 11, 15)


async def test_missing_data_goes_back_to_planning(open_engine: OpenEngine, fake: FakeOllama) -> None:
    # The Analyzer, not a check of the answer, sends the turn back to PLAN when data is missing
    # (code's check of the claims only asks the Synthesizer again).
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.script(scripts.planner(days_back=7), scripts.planner(days_back=30))
    older = scripts.gap("need older data")
    fake.script(scripts.analyzer("insufficient", [older]), scripts.analyzer("sufficient"))
    window = scripts.pick("value", "last bench press session in the 4 entries found")
    fake.script("SynthesizerOutput", scripts.refer_claims(window))
    async with open_engine() as engine:
        await seed_month(engine)
        (answer,) = await engine.handle(ask("how has my bench gone?"))
    assert isinstance(answer, Answer) and not answer.partial
    assert len(fake.calls("PlannerOutput")) == 2 and len(fake.calls("SynthesizerOutput")) == 1
    assert "need older data" in user_prompt(fake, "PlannerOutput", 1)
    # The second plan reached further back: the oldest session, four weeks ago.
    assert "2026-10-25" not in user_prompt(fake, "AnalyzerOutput", 0).split("Entries:")[1]
    assert "2026-10-25" in user_prompt(fake, "AnalyzerOutput", 1).split("Entries:")[1]
    assert answer.text == (
        "Last bench press session in the 4 entries found (2026-10-25 to 2026-11-15): "
        "52.5 kg × 10 reps × 5 sets (2026-11-15)."
    )


async def test_no_entries_gets_an_honest_answer_without_invention(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.script(scripts.planner())
    fake.script(scripts.analyzer("insufficient", [scripts.gap("no bench entries")]))
    fake.default(scripts.planner())
    fake.default(scripts.analyzer("insufficient"))
    async with open_engine() as engine:
        (answer,) = await engine.handle(ask("is my bench press better than last week?"))
    assert isinstance(answer, Answer)
    assert answer.text.startswith("I have no entries for bench press")
    assert fake.calls("SynthesizerOutput") == []


async def test_impossible_date_gets_a_notice(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    async with open_engine() as engine:
        (notice,) = await engine.handle(ask("what did I do on February 30?"))
    assert isinstance(notice, Notice) and notice.code == "bad_date"
    assert fake.calls("PlannerOutput") == []


async def test_unknown_next_action_and_strategy_are_tolerated(open_engine: OpenEngine, fake: FakeOllama) -> None:
    weird = scripts.plain(scripts.planner())  # garbage the schema would refuse: sent as a dict
    weird["next_action"] = "dance"
    weird["retrieval_instructions"][0]["strategy"] = "vibes"
    fake.script(scripts.router("QUERY", ["strength", "astrology"]))
    fake.script("PlannerOutput", weird)
    fake.script(scripts.analyzer("sufficient"))
    fake.script("SynthesizerOutput", BENCH_TOP)
    async with open_engine() as engine:
        await seed_month(engine)
        (answer,) = await engine.handle(ask("how is my bench?"))
    assert isinstance(answer, Answer) and not answer.partial


# --------------------------------------------------------------------------- domain expansion


async def test_planner_expand_domain_rebuilds_context_and_replans(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.script(
        scripts.planner("expand_domain", expand=["nutrition"]),
        scripts.planner("retrieve"),
    )
    fake.script(scripts.analyzer("sufficient"))
    fake.script("SynthesizerOutput", BENCH_TOP)
    async with open_engine() as engine:
        await seed_month(engine)
        (answer,) = await engine.handle(ask("is my protein enough for my bench progress?"))
        state = await engine.graph.aget_state(
            {"configurable": {"thread_id": await engine.conversations.thread_id(CONV)}}
        )
    assert isinstance(answer, Answer)
    assert state.values["domain_expansion_history"] == ["strength", "nutrition"]
    assert state.values["domains"] == ["strength", "nutrition"]
    second = system_prompt(fake, "PlannerOutput", 1)
    assert "Active domains: strength, nutrition" in second and "[nutrition]" in second
    # Downstream agents see the merged expertise and rules with no change to their code.
    assert "[nutrition]" in system_prompt(fake, "AnalyzerOutput")
    nutrition_rule = engine.selector.registry.get("nutrition").response_rules[0]  # type: ignore[union-attr]
    assert nutrition_rule in system_prompt(fake, "SynthesizerOutput")


async def test_analyzer_outside_gap_of_any_severity_expands(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.default(scripts.planner())
    fake.script(
        scripts.analyzer("partial", [scripts.gap("running load", "expertise", True, "running", "low")]),
        scripts.analyzer("sufficient"),
    )
    fake.script("SynthesizerOutput", BENCH_TOP)
    async with open_engine() as engine:
        await seed_month(engine)
        (answer,) = await engine.handle(ask("does my running hurt my bench?"))
        state = await engine.graph.aget_state(
            {"configurable": {"thread_id": await engine.conversations.thread_id(CONV)}}
        )
    assert isinstance(answer, Answer) and not answer.partial
    assert state.values["domain_expansion_history"] == ["strength", "running"]
    assert len(fake.calls("PlannerOutput")) == 2  # EXPAND_DOMAIN returned to PLAN


async def test_domain_already_in_history_is_not_added_again_and_marks_partial(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    # The Planner asks for a domain that is already loaded (an Analyzer's gap naming a loaded domain
    # does not even reach EXPAND_DOMAIN: test_seed_gaps.py).
    fake.script(scripts.planner("expand_domain", expand=["strength"]))
    fake.default(scripts.planner())
    fake.default(scripts.analyzer("sufficient"))
    fake.script("SynthesizerOutput", BENCH_TOP)
    async with open_engine() as engine:
        await seed_month(engine)
        (answer,) = await engine.handle(ask("how is my bench?"))
        state = await engine.graph.aget_state(
            {"configurable": {"thread_id": await engine.conversations.thread_id(CONV)}}
        )
    assert isinstance(answer, Answer) and answer.partial
    assert state.values["domain_expansion_history"] == ["strength"]
    assert state.values["is_partial"] is True
    assert len(fake.calls("PlannerOutput")) == 1  # no loop back to PLAN


async def test_no_new_domain_with_user_only_gap_goes_to_clarify(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.default(scripts.planner())
    fake.script(
        scripts.analyzer(
            "partial",
            [
                scripts.gap("more strength", "expertise", True, "strength"),
                scripts.gap("how the session felt", "subjective"),
            ],
        ),
    )
    fake.script(scripts.clarifier("How did it feel?", ["Easy", "Hard"]))
    async with open_engine() as engine:
        await seed_month(engine)
        (question,) = await engine.handle(ask("was my bench session good?"))
    assert isinstance(question, Ask) and question.questions[0].text == "How did it feel?"


async def test_unknown_domains_are_skipped_valid_ones_load(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.script(scripts.planner("expand_domain", expand=["astrology", "nutrition"]), scripts.planner())
    fake.script(scripts.analyzer("sufficient"))
    fake.script("SynthesizerOutput", BENCH_TOP)
    async with open_engine() as engine:
        await seed_month(engine)
        with capture_logs() as logs:
            await engine.handle(ask("what should I eat for bench?"))
        state = await engine.graph.aget_state(
            {"configurable": {"thread_id": await engine.conversations.thread_id(CONV)}}
        )
    assert state.values["domain_expansion_history"] == ["strength", "nutrition"]
    assert any(e["event"] == "domain.expansion_unknown" and e["domain"] == "astrology" for e in logs)


async def test_missing_active_domains_count_as_none(open_engine: OpenEngine) -> None:
    from engine.graph.query_nodes import QueryNodes
    from engine.graph.routes import Routes

    async with open_engine() as engine:
        nodes = QueryNodes(_deps(engine))
        out = await nodes.expand_domain(
            {"expansion_request": ["running"], "text": "how far did I run?", "today": "2026-11-22"}  # type: ignore[typeddict-item]
        )
    assert out["domains"] == ["running"] and out["domain_expansion_history"] == ["running"]
    assert await Routes().after_analyze({}) == "synthesize"
    assert await Routes().after_expand_domain({"is_partial": True}) == "retrieve"


def _deps(engine: Engine) -> Any:
    from engine.graph.deps import Deps

    return Deps(llm=engine.llm, entries=engine.entries, selector=engine.selector, patches=engine.patches)


# --------------------------------------------------------------------------- WAIT_USER


async def test_subjective_gap_asks_and_answer_resumes_at_analyze(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.default(scripts.planner())
    fake.script(
        scripts.analyzer("insufficient", [scripts.gap("how the session felt", "subjective")]),
        scripts.analyzer("sufficient"),
    )
    fake.script(scripts.clarifier("How did it feel?", ["Easy", "Hard"]))
    fake.script(
        "SynthesizerOutput",
        scripts.refer_claims(
            scripts.pick("record", "heaviest completed set of bench press"),
            remark="Good that it felt easy.",
        ),
    )
    async with open_engine() as engine:
        await seed_month(engine)
        (question,) = await engine.handle(ask("should I go heavier on bench?"))
        assert isinstance(question, Ask)
        out = after_closing(
            await engine.handle(
                Resume(
                    conversation=CONV,
                    user=USER,
                    interrupt_id=question.interrupt_id,
                    answer=ClarificationAnswer(answers=["Easy"]),
                )
            ),
            question,
        )
        state = await engine.graph.aget_state(
            {"configurable": {"thread_id": await engine.conversations.thread_id(CONV)}}
        )
    assert isinstance(out[0], Answer)
    # Kept with its question (interrupts.keep_answers); both agents after the answer see it.
    assert state.values["user_responses"] == {"how the session felt — How did it feel?": "Easy"}
    assert "How did it feel?: Easy" in user_prompt(fake, "AnalyzerOutput", 1)
    assert "How did it feel?: Easy" in user_prompt(fake, "SynthesizerOutput")
    assert out[0].text == (
        "Heaviest completed set of bench press, all time: 52.5 kg × 10 (2026-11-15).\nGood that it felt easy."
    )
    assert len(fake.calls("PlannerOutput")) == 1  # resumed at ANALYZE, not PLAN


async def test_decline_resumes_at_synthesize_with_fallback(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("QUERY", ["strength"]))
    fake.default(scripts.planner())
    fake.script(scripts.analyzer("insufficient", [scripts.gap("how the session felt", "subjective")]))
    fake.script(scripts.clarifier("How did it feel?", ["Easy", "Hard"]))
    fake.script("SynthesizerOutput", BENCH_TOP)
    async with open_engine() as engine:
        await seed_month(engine)
        (question,) = await engine.handle(ask("should I go heavier on bench?"))
        assert isinstance(question, Ask)
        out = after_closing(
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
    assert isinstance(out[0], Answer)
    assert len(fake.calls("AnalyzerOutput")) == 1
    assert "I'll keep your message as a note, unparsed." in user_prompt(fake, "SynthesizerOutput")


def test_resume_value_is_validated_strictly() -> None:
    assert read_clarification({"answers": ["Easy"]}) == ClarificationAnswer(answers=["Easy"])
    # Anything not exactly the shape (no coercion, no extra keys) is a skip, never a guess.
    for bad in ({"answers": [5]}, {"answers": "Easy"}, {"declined": "yes"}, {"answers": [], "extra": 1}):
        assert read_clarification(bad) == ClarificationAnswer(declined=True)
