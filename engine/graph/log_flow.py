"""The LOG flow: ROUTE → PARSE → (CLARIFY → WAIT_USER)* → STORE (ARCHITECTURE §3).

Nodes change state; routing functions only read it. Side effects (storing)
live in their own nodes after any interrupt and are keyed by the turn, so a
node that re-runs when a thread resumes stores nothing twice.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from langgraph.types import interrupt
from pydantic import BaseModel, ConfigDict, ValidationError

from engine.agents.chat import chat
from engine.agents.clarifier import clarify
from engine.agents.parser import parse
from engine.agents.router import route
from engine.agents.schemas import ParserOutput
from engine.language.dates import resolve_date
from engine.agents.context import ClarificationItem, HistoryItem
from engine.graph.state import State
from engine.outcomes import Ask, Logged, LoggedEntry, Notice, Question
from engine.outcomes import Answer as AnswerOutcome
from engine.graph.deps import Deps
from engine.entries.model import NewEntry
from engine.entries.summaries import summarize

MAX_CLARIFY_ROUNDS = 2
FALLBACK_DOMAIN = "general_fitness"


class UserClarificationResponse(BaseModel):
    """The validated resume value of a clarification (strict: no coercion)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    answers: list[str] = []
    declined: bool = False
    cancelled: bool = False


def _dump(outcome: BaseModel) -> dict[str, Any]:
    return outcome.model_dump(mode="json")


class LogNodes:
    """Nodes of the LOG flow and the short CHAT / not-yet-available branches."""

    def __init__(self, deps: Deps) -> None:
        self.d = deps

    async def route(self, state: State) -> dict[str, Any]:
        out = await route(self.d.llm, self.d.selector.registry, state["text"], state.get("history", []))
        domains = out.domains
        if out.intent == "LOG" and not domains and self.d.selector.registry.get(FALLBACK_DOMAIN):
            domains = [FALLBACK_DOMAIN]
        return {"intent": out.intent, "also_query": out.also_query, "domains": domains}

    async def parse(self, state: State) -> dict[str, Any]:
        ctx = self.d.selector.build_active_context(state.get("domains"))
        out = await parse(
            self.d.llm, ctx, state["text"], date.fromisoformat(state["today"]), state.get("answers", [])
        )
        return {"parsed": out.model_dump(mode="json")}

    async def clarify(self, state: State) -> dict[str, Any]:
        ctx = self.d.selector.build_active_context(state.get("domains"))
        parsed = ParserOutput.model_validate(state["parsed"])
        out = await clarify(self.d.llm, ctx, state["text"], parsed.missing)
        payload = {
            "kind": "ask",
            "questions": [{"text": q.question, "options": q.options[:5], "gap": q.gap_addressed} for q in out.questions[:3]],
            "why": out.context_explanation,
            "if_declined": out.fallback_action or "I'll keep your message as a note, unparsed.",
            "asked_by": state["user"],
        }
        return {"ask": payload, "ask_origin": "log", "clarify_rounds": state.get("clarify_rounds", 0) + 1}

    async def wait_user(self, state: State) -> dict[str, Any]:
        """The pause for a person (LOG and QUERY flows); no side effects, since it re-runs on resume."""
        ask = state.get("ask") or {}
        raw = interrupt(ask)
        try:
            reply = UserClarificationResponse.model_validate(raw)
        except ValidationError:
            # A malformed resume is treated as a skip rather than guessed at.
            reply = UserClarificationResponse(declined=True)
        if reply.cancelled:
            return {"cancelled": True, "ask": None}
        if reply.declined or not any(a.strip() for a in reply.answers):
            return {"declined": True, "fallback": str(ask.get("if_declined", "")), "ask": None}
        questions = ask.get("questions", [])
        answers = [a.strip() for a in reply.answers]
        # One typed reply to several questions answers all of them.
        if len(answers) == 1 and len(questions) > 1:
            answers = answers * len(questions)
        items = [
            ClarificationItem(question=str(q.get("text", "")), answer=a) for q, a in zip(questions, answers) if a
        ]
        responses = dict(state.get("user_responses", {}))
        for q, a in zip(questions, answers):
            if a:
                responses[str(q.get("gap") or q.get("text", ""))] = a
        return {
            "answers": [*state.get("answers", []), *items],
            "user_responses": responses,
            "declined": False,
            "ask": None,
        }

    async def store(self, state: State) -> dict[str, Any]:
        parsed = ParserOutput.model_validate(state["parsed"])
        today = date.fromisoformat(state["today"])
        ctx = self.d.selector.build_active_context(state.get("domains"))
        on, date_notice = _occurred_on(parsed.date_text, state["text"], today)
        text = state["text"] + "".join(f"\n{a['answer']}" for a in state.get("answers", []))
        data = parsed.model_dump(mode="json", exclude={"status", "missing", "summary", "date_text"})
        entry = NewEntry(
            occurred_on=on,
            domain=parsed.domain,
            activity_type=parsed.activity_type,
            summary=summarize(parsed),
            data=data,
            raw_text=text,
            terms=ctx.vocabulary.terms(text),
            source_key=f"turn:{state['turn_id']}:0",
        )
        stored = await self.d.entries.add(state["user"], [entry])
        # A planned session of that day and exercise is now done.
        await self.d.entries.complete_planned(state["user"], on, entry.terms)
        outcomes = [_dump(_logged(stored))]
        if date_notice:
            outcomes.append(_dump(Notice(text=date_notice, code="date")))
        return {"outcomes": [*state.get("outcomes", []), *outcomes]}

    async def store_note(self, state: State) -> dict[str, Any]:
        today = date.fromisoformat(state["today"])
        ctx = self.d.selector.build_active_context(state.get("domains"))
        on, _ = _occurred_on("", state["text"], today)
        domain = (state.get("domains") or [FALLBACK_DOMAIN])[0]
        text = state["text"]
        entry = NewEntry(
            occurred_on=on,
            domain=domain,
            activity_type="note",
            kind="note",
            summary="note: " + _clip(text, 60),
            data={},
            raw_text=text,
            terms=ctx.vocabulary.terms(text),
            source_key=f"turn:{state['turn_id']}:0",
        )
        stored = await self.d.entries.add(state["user"], [entry])
        return {"outcomes": [*state.get("outcomes", []), _dump(_logged(stored))]}

    async def chat(self, state: State) -> dict[str, Any]:
        out = await chat(self.d.llm, state["text"])
        return {"outcomes": [*state.get("outcomes", []), _dump(AnswerOutcome(text=out.reply))]}

    async def not_available(self, state: State) -> dict[str, Any]:
        return {"outcomes": [*state.get("outcomes", []), _dump(_not_available(state.get("intent", "")))]}

    async def cancelled(self, state: State) -> dict[str, Any]:
        notice = Notice(text="Cancelled. Nothing was stored from that message.", code="cancelled")
        return {"outcomes": [*state.get("outcomes", []), _dump(notice)]}

    async def remember(self, state: State) -> dict[str, Any]:
        """Append the exchange to the trimmed history (the only state that outlives a turn)."""
        said = "; ".join(_outcome_line(o) for o in state.get("outcomes", [])) or "(nothing)"
        history = [
            *state.get("history", []),
            HistoryItem(role="user", text=_clip(state["text"], 300)),
            HistoryItem(role="assistant", text=_clip(said, 300)),
        ]
        keep = 2 * self.d.history_turns
        return {"history": history[-keep:] if keep else []}

    # --- routing: pure functions of the state ---

    @staticmethod
    def after_route(state: State) -> Literal["parse", "chat", "build_context", "not_available"]:
        intent = state.get("intent")
        if intent == "LOG":
            return "parse"
        if intent == "CHAT":
            return "chat"
        if intent in ("QUERY", "TASK", "CORRECTION"):
            return "build_context"
        return "not_available"

    @staticmethod
    def after_store(state: State) -> Literal["build_context", "remember"]:
        return "build_context" if state.get("also_query") else "remember"

    @staticmethod
    def after_parse(state: State) -> Literal["store", "clarify", "store_note"]:
        parsed = state.get("parsed") or {}
        if parsed.get("status") != "needs_clarification":
            return "store"
        if state.get("clarify_rounds", 0) < MAX_CLARIFY_ROUNDS:
            return "clarify"
        return "store_note"




def _occurred_on(date_text: str, text: str, today: date) -> tuple[date, str]:
    """The entry's date from the words, in code; a bad or future date is stored as today, with a note."""
    mention = (resolve_date(date_text, today) if date_text else None) or resolve_date(text, today)
    if mention is None:
        return today, ""
    if mention.status == "ok" and mention.on is not None:
        return mention.on, ""
    if mention.status == "invalid":
        return today, f"“{mention.phrase}” is not a date I can place, so I stored it for today ({today.isoformat()})."
    return today, f"“{mention.phrase}” is in the future, so I stored it for today ({today.isoformat()})."


def _logged(stored: list[Any]) -> Logged:
    return Logged(
        entries=[
            LoggedEntry(entry_id=e.entry_id, on=e.occurred_on, domain=e.domain, summary=e.summary) for e in stored
        ]
    )


def _not_available(intent: str) -> Notice:
    what = {
        "TASK": "Making plans",
        "CORRECTION": "Correcting entries",
    }.get(intent, "That")
    return Notice(
        text=f"{what} is not available yet in this version of Almanac. Logging works: tell me what you did.",
        code="not_available",
    )


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _outcome_line(o: dict[str, Any]) -> str:
    kind = o.get("kind")
    if kind == "logged":
        return "logged " + ", ".join(str(e.get("summary", "")) for e in o.get("entries", []))
    return str(o.get("text", kind))
