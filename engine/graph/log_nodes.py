"""Nodes of the LOG flow: ROUTE → PARSE → (CLARIFY → WAIT_USER)* → STORE (ARCHITECTURE §3),
plus the shared WAIT_USER pause and REMEMBER (CHAT is in ``query_nodes``: a chat about the
person's data answers through the query flow).

Nodes change state; the routers in ``routes.py`` only read it. Side effects (storing)
live in their own nodes after any interrupt and are keyed by the turn, so a
node that re-runs when a thread resumes stores nothing twice.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from langgraph.types import interrupt

from engine import interrupts, texts
from engine.agents.base import ask
from engine.agents.clarifier import CLARIFIER, ClarifierInput, patterns
from engine.agents.context import ClarificationItem, HistoryItem
from engine.agents.parser import parse, parser_input
from engine.agents.router import RouterInput, history_lines, route
from engine.agents.schemas import ParserOutput
from engine.entries.model import NewEntry
from engine.entries.summaries import summarize
from engine.facts.targets import progression_of
from engine.graph.deps import Deps
from engine.graph.state import State, dump, emit
from engine.graph.view import TurnView
from engine.interrupts import AskQuestion, Cancelled
from engine.language.dates import resolve_date
from engine.outcomes import Logged, LoggedEntry, Notice
from engine.query.render import korean_names, language_of
from engine.query.stalls import logged_stalls
from engine.reading.message import keep_read, parsed_from, read_message
from engine.store.bests import working_sets
from engine.store.records import RecordStore
from engine.tasks.coded import OFFERED, read_request

EMPTY_PARSE = "what was done"
"""The gap of a parse that read nothing."""
EXERCISE = "which exercise"
"""The gap of sets and reps read with no exercise ("did 5x5 today")."""


def _missing_exercise(code: ParserOutput | None, lifts: str) -> ParserOutput:
    base = code or ParserOutput(activity_type=lifts, domain=lifts, summary="", status="parsed")
    return base.model_copy(update={"status": "needs_clarification", "missing": [EXERCISE]})


class LogNodes:
    """Nodes of the LOG flow, the pause for a person, and the end of every turn."""

    def __init__(self, deps: Deps) -> None:
        self.d = deps
        self._record_store: RecordStore | None = None

    @property
    def _records(self) -> RecordStore:
        if self._record_store is None:
            self._record_store = RecordStore(self.d.entries.db, self.d.selector.registry)
        return self._record_store

    async def route(self, state: State) -> dict[str, Any]:
        registry = self.d.selector.registry
        t = TurnView(state, self.d)
        if self.d.read_in_code and (read := self._read(t)) is not None:
            return read
        out = await route(
            self.d.llm,
            registry,
            RouterInput(domains=registry.describe(), history=history_lines(t.history), text=t.text),
        )
        domains = out.domains
        if out.intent == "LOG" and not domains and (fallback := registry.fallback):
            domains = [fallback]
        return {"intent": out.intent, "also_query": out.also_query, "domains": domains}

    def _read(self, t: TurnView) -> dict[str, Any] | None:
        """The route code reads (a log, a question it can plan, small talk), or None: the Router decides."""
        registry = self.d.selector.registry
        reading = read_message(t.text, registry, t.everything, t.today)
        if reading.kind in ("greeting", "thanks"):
            return {"intent": "CHAT", "small_talk": reading.kind}
        if reading.kind == "log" and reading.log is not None:
            # Notation is a log whatever else the words say: no Router.
            domains = reading.domains or ([fallback] if (fallback := registry.fallback) else [])
            # Sets and reps with no exercise ("did 5x5 today"): only the person knows which; code asks.
            log = reading.log
            unnamed = log.has_notation and not (log.exercises or log.sport or log.names_a_lift or log.metrics)
            return {
                "intent": "LOG",
                "also_query": reading.also_query,
                "domains": domains,
                "read": {
                    "complete": reading.log.complete,
                    "parsed": dump(parsed_from(reading.log)),
                    "unnamed": unnamed,
                },
            }
        if reading.kind == "query":
            return {"intent": "QUERY", "domains": reading.domains, "code_plan": reading.planned}
        if reading.kind == "unknown" and (req := read_request(t.text, t.everything, registry)) is not None:
            # "plan my next bench session", "디로드 주 계획해줘": a plan code forms (engine.tasks.coded).
            lifting = [n for n in registry.by_precedence if (d := registry.get(n)) is not None and d.progression]
            found = progression_of(registry, req.lifts[0]) if req.lifts else None
            return {"intent": "TASK", "domains": [found[0].name] if found else lifting[:1]}
        return None

    async def parse(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        read = t.read
        code = ParserOutput.model_validate(read["parsed"]) if read.get("parsed") else None
        if code is not None and read.get("complete"):
            # Code read every part of the message: stored as read, no model call.
            return {"parsed": dump(code)}
        if read.get("unnamed"):
            named = self._named(t)
            if named is not None:
                return {"parsed": dump(named)}
            if not t.answers:
                # The sets were read; which exercise is the one thing missing, and only the person knows it.
                lifts = self.d.selector.registry.with_role("lifts")
                return {"parsed": dump(_missing_exercise(code, lifts[0] if lifts else ""))}
        ctx = t.ctx
        registry = self.d.selector.registry
        out = await parse(
            self.d.llm,
            ctx,
            parser_input(ctx, t.text, t.today, t.answers),
            known_domains=registry.names,
        )
        if code is not None:
            # What code read for certain stays as read: the model fills the rest, never changes it.
            out = keep_read(out, code)
        if is_empty(out):
            # A schema-valid reply that read nothing is no entry: ask what was meant (see `clarify`).
            out = out.model_copy(update={"status": "needs_clarification", "missing": [EMPTY_PARSE]})
        return {"parsed": dump(out)}

    def _named(self, t: TurnView) -> ParserOutput | None:
        """The message read again with the exercise the person named ("bench" + "did 5x5 today"), when
        code then reads all of it."""
        answers = [a["answer"] for a in t.answers if str(a.get("answer", "")).strip()]
        if not answers:
            return None
        reading = read_message(f"{answers[-1]} {t.text}", self.d.selector.registry, t.everything, t.today)
        if reading.kind == "log" and reading.log is not None and reading.log.complete and reading.log.exercises:
            return parsed_from(reading.log)
        return None

    async def _recent_exercises(self, user: str, limit: int = 4) -> list[str]:
        names: list[str] = []
        for entry in await self.d.entries.recent(user, limit=20):
            for ex in entry.data.get("exercises") or []:
                name = str(ex.get("name", "")) if isinstance(ex, dict) else ""
                if name and name not in names:
                    names.append(name)
        return names[:limit]

    async def clarify(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        parsed = t.parsed
        asked = {"ask_origin": "log", "clarify_rounds": t.clarify_rounds + 1}
        if parsed is not None and parsed.missing == [EXERCISE]:
            payload = interrupts.ask(
                [AskQuestion(text=texts.WHICH_EXERCISE, options=await self._recent_exercises(t.user), gap=EXERCISE)],
                why=texts.SETS_WITHOUT_EXERCISE_WHY,
                if_declined=texts.LOG_DECLINE_FALLBACK,
                asked_by=t.user,
            )
            return {"ask": dump(payload), **asked}
        if parsed is not None and is_empty(parsed):
            # Nothing was read, so there is nothing for the Clarifier to be specific about: ask in code.
            payload = interrupts.ask(
                [AskQuestion(text=texts.what_was_meant(t.text), gap=EMPTY_PARSE)],
                why=texts.EMPTY_PARSE_WHY,
                if_declined=texts.EMPTY_PARSE_DECLINED,
                asked_by=t.user,
            )
            return {"ask": dump(payload), **asked}
        ctx = t.ctx
        out = await ask(
            self.d.llm,
            CLARIFIER,
            ClarifierInput(patterns=patterns(ctx), text=t.text, missing=parsed.missing if parsed else []),
        )
        payload = interrupts.ask(
            [AskQuestion(text=q.question, options=q.options, gap=q.gap_addressed) for q in out.questions],
            why=out.context_explanation,
            if_declined=out.fallback_action or texts.LOG_DECLINE_FALLBACK,
            asked_by=t.user,
        )
        return {"ask": dump(payload), **asked}

    async def wait_user(self, state: State) -> dict[str, Any]:
        """The pause for a person (LOG and QUERY flows); no side effects, since it re-runs on resume."""
        t = TurnView(state)
        ask = t.ask or interrupts.ask([], why="", if_declined="", asked_by=t.user)
        reply = interrupts.read_clarification(interrupt(dump(ask)))
        if isinstance(reply, Cancelled):
            return {"cancelled": True, "ask": None}
        if reply.declined or not any(a.strip() for a in reply.answers):
            return {"declined": True, "fallback": ask.if_declined, "ask": None}
        questions = ask.questions
        answers = [a.strip() for a in reply.answers]
        # One typed reply to several questions answers all of them.
        if len(answers) == 1 and len(questions) > 1:
            answers = answers * len(questions)
        items = [ClarificationItem(question=q.text, answer=a) for q, a in zip(questions, answers, strict=False) if a]
        return {
            "answers": [*t.answers, *items],
            # Keyed per question: two questions about one gap, or one asked in two rounds, keep both answers.
            "user_responses": interrupts.keep_answers(t.user_responses, questions, answers),
            "declined": False,
            "ask": None,
        }

    async def store(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        parsed = t.parsed
        assert parsed is not None, "STORE runs after PARSE"
        # The parser's domain is what the entry is; its vocabulary finds the entry's terms.
        ctx = t.context_of([parsed.domain, *(d for d in t.domains if d != parsed.domain)])
        on, date_notice = _occurred_on(parsed.date_text, t.text, t.today)
        text = t.text + "".join(f"\n{a['answer']}" for a in t.answers)
        data = parsed.model_dump(mode="json", exclude={"status", "missing", "summary", "date_text"})
        entry = NewEntry(
            occurred_on=on,
            domain=parsed.domain,
            activity_type=parsed.activity_type,
            summary=summarize(parsed),
            data=data,
            raw_text=text,
            # Exercise names count as terms too, so a name the vocabulary lacks is still found by it.
            terms=list(dict.fromkeys([*ctx.vocabulary.terms(text), *(e.name for e in parsed.exercises)])),
            source_key=f"turn:{t.turn_id}:0",
        )
        # Stored with the records it set (said once ever), completing a planned session of that day.
        lang = language_of(t.text)
        names = korean_names(entry.terms, ctx.vocabulary_map) if lang == "ko" else None
        stored = await self._records.log(t.user, entry, lang, names)
        # A lift that has stalled is said under its records, once per stall (as records are said once).
        lifts = list(working_sets(entry.data)) if entry.source == "chat" else []
        registry = self.d.selector.registry
        stalls = await logged_stalls(self.d.entries.db, registry, t.user, lifts, stored.entry_id, on, lang, names or {})
        for stall in stalls:
            await self.d.patches.record_event(t.conversation, t.user, OFFERED, f"deload {stall.subject}")
        logged = Logged(
            entries=[
                LoggedEntry(
                    entry_id=stored.entry_id,
                    on=on,
                    domain=entry.domain,
                    summary=entry.summary,
                    records=[*stored.records, *stalls],
                )
            ]
        )
        if date_notice:
            return emit(logged, Notice(text=date_notice, code="date"))
        return emit(logged)

    async def store_note(self, state: State) -> dict[str, Any]:
        t = TurnView(state, self.d)
        on, _ = _occurred_on("", t.text, t.today)
        domain = (t.domains or [self.d.selector.registry.fallback or ""])[0]
        text = t.text
        entry = NewEntry(
            occurred_on=on,
            domain=domain,
            activity_type="note",
            kind="note",
            summary="note: " + _clip(text, 60),
            data={},
            raw_text=text,
            terms=t.ctx.vocabulary.terms(text),
            source_key=f"turn:{t.turn_id}:0",
        )
        stored = await self.d.entries.add(t.user, [entry])
        return emit(_logged(stored))

    async def cancelled(self, state: State) -> dict[str, Any]:
        return emit(Notice(text=texts.CANCELLED_MESSAGE, code="cancelled"))

    async def remember(self, state: State) -> dict[str, Any]:
        """Append the exchange to the trimmed history (the only state that outlives a turn)."""
        t = TurnView(state)
        said = "; ".join(_outcome_line(o) for o in t.outcomes) or "(nothing)"
        history = [
            *t.history,
            HistoryItem(role="user", text=_clip(t.text, 300)),
            HistoryItem(role="assistant", text=_clip(said, 300)),
        ]
        keep = 2 * self.d.history_turns
        return {"history": history[-keep:] if keep else []}


def is_empty(parsed: ParserOutput) -> bool:
    """No exercise, no measure and no note: the parse says nothing that could be stored."""
    return not parsed.exercises and not parsed.metrics and not parsed.notes.strip()


def _occurred_on(date_text: str, text: str, today: date) -> tuple[date, str]:
    """The entry's date from the words, in code; a bad or future date is stored as today, a guessed one
    (a bare ``10/5``) on that date, each with a note saying which date was used."""
    mention = (resolve_date(date_text, today) if date_text else None) or resolve_date(text, today)
    if mention is None:
        return today, ""
    if mention.status == "ok" and mention.on is not None:
        return mention.on, texts.date_read_as(mention.phrase, mention.on) if mention.ambiguous else ""
    if mention.status == "invalid":
        return today, texts.date_not_placed(mention.phrase, today)
    return today, texts.date_in_future(mention.phrase, today)


def _logged(stored: list[Any]) -> Logged:
    return Logged(
        entries=[LoggedEntry(entry_id=e.entry_id, on=e.occurred_on, domain=e.domain, summary=e.summary) for e in stored]
    )


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _outcome_line(o: dict[str, Any]) -> str:
    kind = o.get("kind")
    if kind == "logged":
        return "logged " + ", ".join(str(e.get("summary", "")) for e in o.get("entries", []))
    return str(o.get("text", kind))
