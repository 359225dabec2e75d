"""Scripted agent replies for the fake Ollama, shaped like the real schemas."""

from __future__ import annotations

from typing import Any


def router(intent: str, domains: list[str] | None = None, also_query: bool = False) -> dict[str, Any]:
    return {
        "reasoning": f"looks like {intent}",
        "domains": domains if domains is not None else (["strength"] if intent == "LOG" else []),
        "also_query": also_query,
        "intent": intent,
    }


def strength(
    name: str,
    weight: float | None,
    reps: int,
    sets: int,
    unit: str | None = "kg",
    date_text: str = "",
) -> dict[str, Any]:
    return {
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


def needs_exercise() -> dict[str, Any]:
    return {
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


def clarifier(question: str = "Which exercise was that?", options: list[str] | None = None) -> dict[str, Any]:
    return {
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


def chat(reply: str = "Hi! Tell me what you trained today.") -> dict[str, Any]:
    return {"reply": reply}
