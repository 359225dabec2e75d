"""Scripted agent replies for the fake Ollama: model instances of the real schemas
(``fake.script(scripts.router("LOG"))``, titled by the class). The parts of a reply (``op_plan``,
``assumption``, ``claim``, ``pick``) are dicts a test may bend before a builder validates them; a test
that scripts garbage writes a dict or a string itself.

Each model builder sets every field its dict used to hold, so :func:`plain` (``model_dump`` of the
fields set, whole numbers without a fraction, as the fake sends it) is that dict, byte for byte."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from pydantic import BaseModel

from engine.agents.schemas import (
    AnalyzerOutput,
    ChatOutput,
    ClarifierOutput,
    Gap,
    ParserOutput,
    PlannerOutput,
    RouterOutput,
    SynthesizerOutput,
)
from engine.agents.task_schemas import TaskFormationOutput
from engine.entries.model import NewEntry
from tests.fakes.ollama_server import model_reply


def plain(reply: BaseModel) -> dict[str, Any]:
    """A model reply as the dict a test or bench bends: the fields its builder set, as the fake sends them."""
    out: dict[str, Any] = model_reply(reply)
    return out


def router(intent: str, domains: list[str] | None = None, also_query: bool = False) -> RouterOutput:
    return RouterOutput.model_validate(
        {
            "reasoning": f"looks like {intent}",
            "domains": domains if domains is not None else (["strength"] if intent == "LOG" else []),
            "also_query": also_query,
            "intent": intent,
        }
    )


def strength(
    name: str,
    weight: float | None,
    reps: int,
    sets: int,
    unit: str | None = "kg",
    date_text: str = "",
) -> ParserOutput:
    return ParserOutput.model_validate(
        {
            "activity_type": "strength",
            "domain": "strength",
            "exercises": [
                {
                    "name": name,
                    "sets": sets,
                    "weight_unit": unit,
                    "set_details": [{"set_num": i, "weight": weight, "reps": reps} for i in range(1, sets + 1)],
                }
            ],
            "metrics": [],
            "date_text": date_text,
            "notes": "",
            "summary": f"{name} {weight}{unit} {reps}x{sets}",
            "missing": [],
            "status": "parsed",
        }
    )


def needs_exercise() -> ParserOutput:
    return ParserOutput.model_validate(
        {
            "activity_type": "strength",
            "domain": "strength",
            "exercises": [],
            "metrics": [],
            "date_text": "today",
            "notes": "5x5",
            "summary": "5x5 of something",
            "missing": ["exercise name"],
            "status": "needs_clarification",
        }
    )


def clarifier(question: str = "Which exercise was that?", options: list[str] | None = None) -> ClarifierOutput:
    return ClarifierOutput.model_validate(
        {
            "questions": [
                {
                    "question": question,
                    "gap_addressed": "exercise name",
                    "options": options if options is not None else ["Bench press", "Squat", "Deadlift"],
                }
            ],
            "context_explanation": "I need the exercise to store the sets correctly.",
            "fallback_action": "I'll keep your message as a note, unparsed.",
        }
    )


def chat(reply: str = "Hi! Tell me what you trained today.") -> ChatOutput:
    return ChatOutput(reply=reply)


def planner(
    next_action: str = "retrieve",
    strategy: str = "date_range",
    days_back: int | None = 7,
    terms: list[str] | None = None,
    expand: list[str] | None = None,
    explicit_date: bool = False,
    date: str | None = None,
) -> PlannerOutput:
    return PlannerOutput.model_validate(
        {
            "reasoning": "compare recent sessions",
            "sub_queries": [],
            "retrieval_instructions": [
                {
                    "strategy": strategy,
                    "days_back": days_back,
                    "date": date,
                    "explicit_date": explicit_date,
                    "terms": terms or [],
                }
            ],
            "domain_expansion_request": expand or [],
            "expansion_reasoning": "needs another domain" if expand else "",
            "next_action": next_action,
        }
    )


def gap(
    description: str,
    gap_type: str = "data",
    outside: bool = False,
    domain: str | None = None,
    severity: str = "low",
) -> Gap:
    return Gap.model_validate(
        {
            "description": description,
            "gap_type": gap_type,
            "severity": severity,
            "outside_current_expertise": outside,
            "suspected_domain": domain,
        }
    )


def analyzer(verdict: str = "sufficient", gaps: list[Gap] | None = None) -> AnalyzerOutput:
    return AnalyzerOutput.model_validate(
        {"findings": ["bench went up"], "patterns": [], "gaps": gaps or [], "verdict": verdict}
    )


def claim(kind: str, *ids: str, note: str = "") -> dict[str, Any]:
    """One claim of a Synthesizer reply: ``claim("record", "F1")``."""
    return {"kind": kind, "ids": [i.strip("{}") for i in ids], "note": note}


def claims(*items: dict[str, Any], remark: str = "", sources: list[str] | None = None) -> SynthesizerOutput:
    """A Synthesizer reply made of claims (code writes their sentences)."""
    out: dict[str, Any] = {"claims": list(items), "remark": remark}
    if sources:
        out["sources"] = sources
    return SynthesizerOutput.model_validate(out)


_KIND_OF = {"E": "list", "K": "article", "G": "absence", "A": "article", "R": "advice"}


def synthesizer(answer: str) -> SynthesizerOutput:
    """A reply as a model that reads ``"Your best is {F1}."`` would give it: each id a claim (an F, Q or D
    a value claim, an entry a list, an article an article claim); the words with no id the remark."""
    ids = re.findall(r"\{([A-Z]\d+)\}", answer)
    items = [claim(_KIND_OF.get(i[0], "value"), i) for i in dict.fromkeys(ids)]
    remark = "" if ids else answer
    return claims(*items, remark=remark)


def value_ids(body: dict[str, Any]) -> dict[str, str]:
    """The values offered in an agent's prompt: id -> its line (``F3`` -> ``F3: best … = 80 kg``)."""
    prompt = str(body["messages"][-1]["content"])
    return {m.group(1): m.group(0) for m in re.finditer(r"^([A-Z]\d+): .*$", prompt, re.MULTILINE)}


def refer(template: str, **wanted: str) -> Callable[[dict[str, Any]], SynthesizerOutput]:
    """A Synthesizer reply that refers to values by the ids the prompt gave them.

    ``refer("Best: {best}.", best="best estimated 1RM (Epley) of bench press")``
    fills ``{best}`` with ``{F2}`` when the prompt's line ``F2: …`` contains the text.
    """

    def reply(body: dict[str, Any]) -> SynthesizerOutput:
        lines = value_ids(body)
        ids = {name: "{" + _first_line_with(needle, lines) + "}" for name, needle in wanted.items()}
        return synthesizer(template.format(**ids))

    return reply


def _first_line_with(needle: str, lines: dict[str, str]) -> str:
    found = [i for i, line in lines.items() if needle in line]
    assert found, f"no value line contains {needle!r}: {list(lines.values())}"
    return found[0]


def pick(kind: str, *needles: str, note: str = "") -> dict[str, Any]:
    """A claim that picks its ids by text, for :func:`refer_claims`: ``pick("record", "heaviest completed set")``."""
    return {"kind": kind, "needles": needles, "note": note}


def refer_claims(
    *picked: dict[str, Any], remark: str = "", sources: list[str] | None = None
) -> Callable[[dict[str, Any]], SynthesizerOutput]:
    """A Synthesizer reply of claims whose ids are the first prompt lines containing each needle.

    ``refer_claims(pick("comparison", "heaviest set in the latest", "heaviest set in the previous"))``
    cites the two values the prompt offered under those words.
    """

    def reply(body: dict[str, Any]) -> SynthesizerOutput:
        lines = value_ids(body)
        items = [claim(c["kind"], *(_first_line_with(n, lines) for n in c["needles"]), note=c["note"]) for c in picked]
        return claims(*items, remark=remark, sources=sources)

    return reply


def op_plan(
    date: str, exercise: str = "bench press", sets: int = 5, reps: int = 5, weight: float = 60
) -> dict[str, Any]:
    return {
        "op": "add_planned_session",
        "date": date,
        "exercise": exercise,
        "sets": sets,
        "reps": reps,
        "weight": weight,
        "unit": "kg",
    }


def op_correct(old: str, new: str, exercise: str = "bench press", field: str = "weight") -> dict[str, Any]:
    return {"op": "correct_entry", "exercise": exercise, "field": field, "old_value": old, "new_value": new}


def former(
    next_step: str = "ready",
    operations: list[dict[str, Any]] | None = None,
    assumptions: list[dict[str, Any]] | None = None,
    questions: list[str] | None = None,
    goal: str = "Bench heavier, step by step",
    steps: list[str] | None = None,
) -> TaskFormationOutput:
    return TaskFormationOutput.model_validate(
        {
            "reasoning": "progressive overload from the current working weight",
            "goal": goal,
            "inputs": ["recent bench sessions"],
            "steps": steps
            if steps is not None
            else ["Add a small jump each session", "Test a heavy set at the end of the week"],
            "tools_required": ["entries"],
            "expected_output": "planned sessions for the coming week",
            "risk_flags": [],
            "assumptions": assumptions if assumptions is not None else [],
            "operations": operations or [],
            "questions_for_user": questions or [],
            "next_step": next_step,
        }
    )


def assumption(claim: str, status: str = "validated", source: str = "domain", critical: bool = True) -> dict[str, Any]:
    return {"claim": claim, "critical": critical, "status": status, "source": source}


def bench_entry(
    on: date, weight: float, reps: int = 10, sets: int = 5, raw: str | None = None, source_key: str | None = None
) -> NewEntry:
    """A stored bench-press entry in the shape the Parser produces, for seeding a user's history."""
    return NewEntry(
        occurred_on=on,
        domain="strength",
        activity_type="strength",
        summary=f"bench press {weight:g} kg × {reps} reps × {sets} sets",
        data={
            "activity_type": "strength",
            "domain": "strength",
            "exercises": [
                {
                    "name": "bench press",
                    "sets": sets,
                    "weight_unit": "kg",
                    "set_details": [{"set_num": i, "weight": weight, "reps": reps} for i in range(1, sets + 1)],
                }
            ],
            "metrics": [],
            "notes": "",
        },
        raw_text=raw or f"bench {weight:g}kg {reps}x{sets}",
        terms=["bench press"],
        source_key=source_key or f"seed:{on.isoformat()}:{weight:g}",
    )


def good_plan(
    weights: tuple[float, ...] = (57.5, 60, 62.5), logged_on: date = date(2026, 11, 22)
) -> TaskFormationOutput:
    """A plan for three bench sessions after ``logged_on``, resting on that day's 55 kg."""
    week = [(logged_on + timedelta(days=d)).isoformat() for d in (1, 3, 5)]
    return former(
        operations=[op_plan(d, weight=w) for d, w in zip(week, weights)],
        assumptions=[assumption("current working weight is 55 kg", source=logged_on.isoformat())],
    )


def cite(*picks: tuple[str, str], remark: str = "") -> Callable[[dict[str, Any]], SynthesizerOutput]:
    """Claims citing the values whose prompt lines contain each needle: ``cite(("record", "heaviest … of bench"))``."""

    def reply(body: dict[str, Any]) -> SynthesizerOutput:
        lines = value_ids(body)
        items = []
        for kind, needle in picks:
            found = [i for i, line in lines.items() if needle in line]
            assert found, f"no value line contains {needle!r}: {list(lines.values())}"
            items.append(claim(kind, found[0]))
        return claims(*items, remark=remark)

    return reply
