"""What a message is, read in code before any model: a log, a question, small talk, or unknown.

* A reminder request ("remind me to stretch at 9pm", "매일 아침 7시에 운동
  알려줘"; :mod:`engine.reminders.request`): never a log, never the model's.
* Small talk: a greeting or thanks alone ("hello", "thanks!", "안녕하세요",
  "고마워요") is answered by code, never by a model whose reply could name
  an example log and be taken for data.
* A request or a correction ("plan my next 4 weeks", "that was 60kg, not
  55", "짜줘", "수정") is for the Router and task formation: unknown here.
* A log: strength notation, or a run or swim with its distance, and no
  question. Read completely, it is stored as read (no model); read in part,
  the Parser reads the rest and code's part stays fixed.
* A log followed by a question ("bench 55kg 10x5 — better than last
  week?"): stored as read, then answered, when the log part reads completely.
* A report in words with no notation ("walked home, about 40 minutes",
  "오늘 요가 한시간 했어"): a log for the Parser alone, no Router.
* A question code can plan: it names exercises, a family, generic words
  ("workouts") or a query intent, or asks what / why / how about a domain
  term; its period is read by :mod:`engine.language.periods`.
* Anything else is unknown: the Router decides.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from engine.agents.schemas import ParserOutput
from engine.domains.registry import ActiveDomainContext, DomainRegistry
from engine.language.logs import LogReading, LogWords, read_log
from engine.language.vocab import Vocabulary
from engine.query.asking import asks, asks_for_knowledge, domains_for, domains_holding, shows_list
from engine.query.lookup import domains_named
from engine.query.questions import QuestionShape, read_question
from engine.reminders.request import is_reminder_request

Kind = Literal["log", "query", "greeting", "thanks", "reminder", "unknown"]

_SMALL = r"[\s!.~^,?ㅎㅋㅠㅜ:)(\-😀-🙏❤👍💪🔥]*"
_GREETING = re.compile(
    rf"^{_SMALL}(?:hi|hello|hey|hiya|yo|hey there|hi there|good (?:morning|afternoon|evening)|morning"
    rf"|안녕|안녕하세요|안뇽|하이|헬로|ㅎㅇ|반가워|반가워요|반갑습니다|좋은 아침|굿모닝)(?:\s+almanac)?{_SMALL}$",
    re.I,
)
_THANKS = re.compile(
    rf"^{_SMALL}(?:thanks?(?: a lot| so much)?|thank you(?: so much| very much)?|thx|ty|cheers|great,? thanks"
    rf"|고마워|고마워요|고맙습니다|감사|감사해요|감사합니다|땡큐|ㄱㅅ|ㄳ)(?:\s+almanac)?{_SMALL}$",
    re.I,
)
_REQUEST = re.compile(
    r"\b(?:plan|program|programme|schedule|routine|make me|create|build me|design|set (?:a |my )?goal|goal"
    r"|remind|change|correct|fix|update|delete|remove|undo|wrong|mistake|actually|should have been|instead of"
    r"|not \d|was \d+\s*(?:kg|lb|lbs|키로)?,? not)\b"
    r"|짜\s?줘|짜\s?주|계획|프로그램|루틴|목표|수정|고쳐|바꿔|잘못|틀렸|아니라|아니고|지워|삭제|알려\s?줘\s*(?:매일|아침)",
    re.I,
)
# Intents every domain's words share ("how many times", "compare"): they name no domain by themselves.
_SHARED_INTENTS = frozenset({"frequency", "comparison", "progress", "recent", "chart"})
# A report of something done, in words: a past-tense activity verb, or a duration or distance.
_REPORT = re.compile(
    r"\b(?:did|ran|walked|swam|cycled|biked|rode|hiked|lifted|trained|played|stretched|rowed|jogged|climbed"
    r"|went (?:for|to)|worked out|finished|completed)\b"
    r"|\b\d+(?:[.,]\d+)?\s*(?:min|mins|minutes|hours?|hrs?|km|k|mi|miles|steps)\b|(?:한|두|세)?\s?시간|\d+\s*(?:분|시간|걸음)"
    r"|했어|했다|했음|했습니다|다녀왔|걸었|탔다|탔어|뛰었|달렸|수영했|등산",
    re.I,
)
# Query words too common in reports to make a question alone ("오늘 마지막 세트", "latest run felt good",
# "next time go heavier").
_WEAK_INTENTS = frozenset({"recent", "next"})
# Where a log ends and a question about it begins ("bench 55kg 10x5 — is it better than last week?").
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\s+[—–-]+\s+|\n|,\s*(?=(?:is|was|how|did|am|are|what|compare)\b)", re.I)


@dataclass
class Reading:
    """What code read of one message."""

    kind: Kind = "unknown"
    domains: list[str] = field(default_factory=list)
    """The domains the message is about, as code read them."""
    log: LogReading | None = None
    """The log part, for a log."""
    also_query: bool = False
    """A log followed by a question about it."""
    shape: QuestionShape | None = None
    """The question's shape, for a question."""
    planned: bool = False
    """Code can plan the question (terms, period and intent read): no Planner call."""


def read_message(text: str, registry: DomainRegistry, everything: ActiveDomainContext, today: date) -> Reading:
    """Read one message in code (see the module docstring).

    Args:
        text: The message.
        registry: Every domain.
        everything: The context of every domain (its vocabularies).
        today: The person's day.
    """
    source = unicodedata.normalize("NFC", text).strip()
    if _GREETING.match(source):
        return Reading(kind="greeting")
    if _THANKS.match(source):
        return Reading(kind="thanks")
    if is_reminder_request(source):
        return Reading(kind="reminder")
    if _REQUEST.search(source):
        return Reading()
    words = log_words(registry, everything)
    parts = [p for p in _SENTENCES.split(source) if p and p.strip()]
    asking = [p for p in parts if asks(p)]
    told = [p for p in parts if p not in asking]
    log = read_log(" ".join(told) if asking else source, words, today) if told else None
    if log is not None and log.has_notation:
        if not asking:
            return Reading(kind="log", domains=[log.domain] if log.domain else [], log=log)
        if log.complete:
            shape = read_question(" ".join(asking), everything, today)
            return Reading(kind="log", domains=[log.domain], log=log, also_query=True, shape=shape)
        return Reading()
    shape = read_question(source, everything, today)
    if not asking and not shows_list(source) and not set(shape.intents) - _WEAK_INTENTS:
        # No question word and no query word ("heaviest", "vs", "볼륨"): a report in words is the Parser's
        # alone ("walked home, about 40 minutes", "오늘 요가 한시간 했어"); anything else the Router's.
        if _REPORT.search(source):
            named = domains_holding(everything.vocabulary.terms(source), registry)
            return Reading(kind="log", domains=named, log=LogReading())
        return Reading()
    knowledge = asks_for_knowledge(source) and bool(domains_named(registry, source))
    if not (shape.terms or shape.generic or shape.intents or shape.periods or knowledge):
        return Reading()
    return Reading(kind="query", domains=_query_domains(shape, registry, source), shape=shape, planned=True)


def _query_domains(shape: QuestionShape, registry: DomainRegistry, text: str) -> list[str]:
    """The domains a question is about: those of its terms in the order it names them, then those whose
    query words it uses ("my strongest lift and longest run": strength for "strongest", running for "run")."""
    holding = domains_for(shape, registry) or domains_named(registry, text)
    order = {t: i for i, t in enumerate(shape.terms)}

    def first_term(name: str) -> int:
        domain = registry.get(name)
        return min((order[t] for t in order if domain is not None and t in domain.vocabulary), default=len(order))

    named = sorted(holding, key=first_term)
    # Query words a domain already named uses too ("최고", "max") name no other domain: every domain
    # has records, and loading them all would put five domains' rules in a bench question's prompt.
    said = {w.lower() for name in named if (d := registry.get(name)) for ws in d.query_keywords.values() for w in ws}
    for name in registry.names:
        domain = registry.get(name)
        if domain is None or name in named or not domain.query_keywords:
            continue
        found = Vocabulary({k: list(v) for k, v in domain.query_keywords.items()}).find(text)
        own = [
            m for m in found if m.canonical not in _WEAK_INTENTS | _SHARED_INTENTS and m.spelling.lower() not in said
        ]
        if own:
            named.append(name)
            said |= {w.lower() for ws in domain.query_keywords.values() for w in ws}
    return named


def log_words(registry: DomainRegistry, everything: ActiveDomainContext) -> LogWords:
    """What the log reader needs of the domains: lifts (family members), bodyweight lifts, run and swim words."""
    lifts: set[str] = set()
    bodyweight: set[str] = set()
    sports: dict[str, str] = {}
    lift_domain = ""
    modifiers: set[str] = set()
    for name in registry.names:
        domain = registry.get(name)
        if domain is None:
            continue
        if domain.families and domain.import_role == "lifts":
            lifts.update(m for members in domain.families.values() for m in members)
            bodyweight.update(domain.bodyweight)
            lift_domain = lift_domain or domain.name
            modifiers.update(t for t in domain.vocabulary if t not in lifts)
        elif domain.bout is not None:
            sports.update({term: domain.name for term in domain.vocabulary})
    # The log reader reads two kinds of bout in code, a run and a swim, each into the domain whose file says so.
    read: dict[str, str] = {}
    for name, bout in registry.bouts.items():
        if bout.read_in_code:
            read.setdefault(bout.read_in_code, name)
    return LogWords(
        everything.vocabulary,
        everything.units,
        frozenset(lifts),
        frozenset(bodyweight),
        sports,
        lift_domain,
        modifiers=frozenset(modifiers),
        run_domain=read.get("run", ""),
        swim_domain=read.get("swim", ""),
    )


def parsed_from(log: LogReading) -> ParserOutput:
    """The entry code read, in the shape the Parser gives (so storing it is the same step)."""
    return ParserOutput(
        activity_type=log.domain or log.lift_domain,
        domain=log.domain,
        exercises=log.exercises,
        metrics=log.metrics,
        date_text=log.day.phrase if log.day is not None else "",
        summary="",
        status="parsed",
    )


def keep_read(parsed: ParserOutput, code: ParserOutput) -> ParserOutput:
    """The Parser's reading with code's sure reading put back: the model adds, never changes what code read.

    An exercise code read replaces the model's exercise of that name (or is added);
    a run's or swim's distance and time code read replace the model's.
    """
    if not code.exercises and not code.metrics:
        return parsed
    ours = {e.name: e for e in code.exercises}
    exercises = [ours.pop(ex.name, ex) for ex in parsed.exercises]
    exercises.extend(ours.values())
    read = {m.name for m in code.metrics}
    metrics = [*code.metrics, *(m for m in parsed.metrics if m.name not in read)]
    return parsed.model_copy(
        update={"exercises": exercises, "metrics": metrics, "domain": code.domain, "activity_type": code.activity_type}
    )
