"""Model cost benchmark: what each kind of turn asks of the model, and how long a person would wait for it.

Run it from the repository root (it is a script, not a pytest test)::

    .venv/bin/python bench/model_cost.py            # tables and targets (~5 s)
    .venv/bin/python bench/model_cost.py --json     # the same figures as JSON
    .venv/bin/python bench/model_cost.py --dump /tmp/prompts   # and every call's prompt, one file each

Everything is real except the model: a real ``Engine`` (``Engine.open``) on a
temporary ``DATA_DIR`` with the knowledge base on (the built-in articles,
embedded through the fake's ``/api/embed``), holding a realistic month of
one person's training (``bench/month.py``: strength three or four times a
week, five exercises × four sets, one or two runs a week, ending on
2026-11-25), stored through ``EntryStore.add`` as tests seed entries. The
model is ``tests.fakes.ollama_server.FakeOllama`` on 127.0.0.1, answering
every schema title with a realistic reply (``tests/helpers/scripts.py``
shapes; the Synthesizer's claims cite the value ids their prompt offers, as a
model following the prompt would). Every title has
a default, so the bench keeps working whichever calls the engine makes.

One conversation, as a person would have it on 2026-11-25: LOG turns code
can read ("bench 55kg 10x5", "스쿼트 100키로 5x5") and ones that need the
model ("did some easy cardio after work"), QUERY turns (simple, comparison,
about a named period, about knowledge), TASK turns (a four-week plan, then
approving it) and CHAT, each kind three times, interleaved.

What is counted
---------------
From the fake's recorded requests, per turn: the ``/api/chat`` calls and
their schema titles; each call's prompt (the contents of all its messages:
system, user, and any re-ask) and the reply the fake sent. Embedding calls
are not counted (production embeds in-process by default). Tokens are
estimated, the same way for every text:

* every digit is one token (Qwen's and Llama 3's tokenizers split numbers
  into single digits or short groups; one each is the safe side);
* every Hangul syllable is one token (Korean runs about a token per syllable);
* every other run of characters is ``ceil(len / 4)`` tokens (English prose
  and JSON average about four characters a token).

The chat template's few tokens per message and the JSON schema (Ollama turns
it into a grammar, not prompt text) are left out.

A person's wait per turn is the sum over its calls of prompt tokens / prompt
rate + generated tokens / generation rate, at two stated rates: a desktop
CPU (60 prompt tok/s, 9 generated tok/s for a 7B model at 4 bits) and a GPU
(5,000 / 130). Model load time and Ollama's prompt cache are left out: the
cache helps only when a call begins with exactly the tokens of the one
before it.

Flags and targets
-----------------
Calls above 2,500 prompt tokens are flagged, and calls above 80 % of the
engine's ``num_ctx`` (``EngineConfig.llm.num_ctx``; Ollama silently drops
what does not fit). ``repeated`` is the share of a turn's prompt tokens in
lines an earlier call of the same turn already sent (a table of values sent
to two calls of one turn counts the second time).

Targets: a LOG code can read makes 0 calls; any LOG <= 1; a QUERY <= 2; a
TASK formation round <= 2; no call above 2,500 prompt tokens; a QUERY waits
<= 60 s at CPU rates and <= 2 s at GPU rates. The script exits with status 1
when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pydantic import BaseModel  # noqa: E402

from bench.month import describe, month  # noqa: E402
from bot.logs import configure_logging  # noqa: E402
from engine.agents import budget  # noqa: E402
from engine.agents.schemas import (  # noqa: E402
    AnalyzerOutput,
    ChatOutput,
    ClarifierOutput,
    ParserOutput,
    PlannerOutput,
    RouterOutput,
    SynthesizerOutput,
)
from engine.agents.task_schemas import TaskFormationOutput  # noqa: E402
from engine.config import EngineConfig, LLMConfig  # noqa: E402
from engine.engine import Engine  # noqa: E402
from engine.entries.model import NewEntry  # noqa: E402
from engine.knowledge.config import KnowledgeConfig  # noqa: E402
from engine.outcomes import ApprovalRequest, Ask, Outcome  # noqa: E402
from engine.turns import ApprovalDecision, ClarificationAnswer, Message, Resume  # noqa: E402
from tests.fakes.ollama_server import (  # noqa: E402
    DEFAULT_MODEL,
    TEXT_TITLE,
    FakeOllama,
    RecordedRequest,
    Reply,
    model_reply,
)
from tests.helpers import scripts  # noqa: E402

# --- the day, the rates, the targets --------------------------------------------

TODAY = date(2026, 11, 25)
NOW = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
"""19:00 in Seoul: after work on a Wednesday."""
TIMEZONE = "Asia/Seoul"
PERSON = "bench:model-cost"
EMBED_MODEL = "bge-m3"


@dataclass(frozen=True)
class Rates:
    """How fast a machine reads a prompt and writes a reply, in tokens per second."""

    name: str
    prompt_tps: float
    generate_tps: float

    def wait_s(self, prompt_tokens: int, generated_tokens: int) -> float:
        return prompt_tokens / self.prompt_tps + generated_tokens / self.generate_tps


CPU = Rates("desktop CPU", 60, 9)
GPU = Rates("GPU", 5000, 130)

FLAG_PROMPT_TOKENS = 2500
NEAR_CONTEXT = 0.8
TARGET_CODE_LOG_CALLS = 0
TARGET_LOG_CALLS = 1
TARGET_QUERY_CALLS = 2
TARGET_TASK_CALLS = 2
TARGET_QUERY_CPU_S = 60.0
TARGET_QUERY_GPU_S = 2.0
REPEAT_MIN_CHARS = 20
"""Shorter lines (a heading, ``(none)``) are not counted as repeated."""
MAX_FOLLOW_UPS = 3
"""Questions or plans answered after one message before the bench moves on."""


# --- token estimate -------------------------------------------------------------


def tokens(text: str) -> int:
    """Estimated tokens: the engine's own estimate (:func:`engine.agents.budget.tokens`)."""
    return budget.tokens(text)


# --- scripted replies --------------------------------------------------------------


def offered(body: dict[str, Any]) -> dict[str, str]:
    """The value lines (``F3: …``) of a call's first user message: what a reply may refer to."""
    users = [m for m in body.get("messages") or [] if m.get("role") == "user"]
    return scripts.value_ids({"messages": users[:1]}) if users else {}


@dataclass(frozen=True)
class Pick:
    """The first value line of a kind (``F``, ``E``, ``K``, ``A``) holding all ``words``; any of that kind else."""

    kind: str
    words: tuple[str, ...] = ()

    def find(self, lines: dict[str, str]) -> str | None:
        of_kind = [(i, line.lower()) for i, line in lines.items() if i.startswith(self.kind)]
        found = [i for i, line in of_kind if all(w.lower() in line for w in self.words)]
        chosen = found or [i for i, _ in of_kind]
        return chosen[0] if chosen else None


@dataclass(frozen=True)
class Says:
    """One claim a model following the prompt would make: its kind, the values it picks, its own words.

    ``note`` may hold ``{0}``, ``{1}`` … for ids of ``in_note`` (an article's values, ``{A2}``).
    """

    kind: str
    picks: tuple[Pick, ...]
    note: str = ""
    in_note: tuple[Pick, ...] = ()


def claimed(*says: Says, remark: str = "") -> Reply:
    """A Synthesizer reply made of claims citing the values its prompt offers (a claim whose picks find
    nothing is left out, as a model leaves out what it was not shown)."""

    def reply(body: dict[str, Any]) -> SynthesizerOutput:
        lines = offered(body)
        items = []
        for say in says:
            ids = [p.find(lines) for p in say.picks]
            extra = [p.find(lines) for p in say.in_note]
            if any(i is None for i in [*ids, *extra]):
                continue
            note = say.note.format(*("{" + str(i) + "}" for i in extra))
            items.append(scripts.claim(say.kind, *(str(i) for i in ids), note=note))
        return scripts.claims(*items, remark=remark)

    return reply


def latest_and_previous(exercise: str) -> tuple[Pick, Pick]:
    """The heaviest sets of the latest and the previous session: what "better than last week" compares."""
    return Pick("F", ("heaviest set in the latest", exercise)), Pick("F", ("heaviest set in the previous", exercise))


def planner(
    reasoning: str, strategy: str, days_back: int | None, terms: list[str], knowledge: str = ""
) -> dict[str, Any]:
    """A Planner reply as a 7B model writes one: a sentence, one instruction, the knowledge query if any."""
    out = scripts.plain(scripts.planner("retrieve", strategy, days_back, terms))
    out["reasoning"] = reasoning
    out["knowledge_query"] = knowledge
    return out


def routed(intent: str, domains: list[str], reasoning: str) -> dict[str, Any]:
    out = scripts.plain(scripts.router(intent, domains))
    out["reasoning"] = reasoning
    return out


def activity(kind: str, duration: str, intensity: str, notes: str, summary: str) -> dict[str, Any]:
    """A Parser reply for a general-fitness log (walks, yoga, cardio): the measures the domain's schema names."""
    metrics = [{"name": "activity", "value": kind, "unit": ""}]
    if duration:
        metrics.append({"name": "duration", "value": duration, "unit": "min"})
    if intensity:
        metrics.append({"name": "intensity", "value": intensity, "unit": ""})
    return {
        "activity_type": "general_fitness",
        "domain": "general_fitness",
        "exercises": [],
        "metrics": metrics,
        "date_text": "",
        "notes": notes,
        "summary": summary,
        "missing": [],
        "status": "parsed",
    }


def lifted(name: str, weight: float, reps: int, sets: int) -> dict[str, Any]:
    """A Parser reply for a strength log, with the summary line a model writes."""
    out = scripts.plain(scripts.strength(name, weight, reps, sets))
    out["summary"] = f"{name}, {weight:g} kg, {sets} sets of {reps}"
    return out


def latest_weight(entries: Sequence[NewEntry], exercise: str) -> float:
    """The working weight of the last session of ``exercise`` in the month (what a plan starts from)."""
    for e in reversed(entries):
        for ex in e.data.get("exercises") or ():
            if ex["name"] == exercise and ex["set_details"][0]["weight"] is not None:
                return float(ex["set_details"][0]["weight"])
    raise ValueError(f"no {exercise} in the month")


def four_week_plan(exercise: str, start_weight: float, step: float) -> dict[str, Any]:
    """A TaskFormation reply: two sessions a week for four weeks, ``step`` heavier each week.

    The claim it rests on has the month's working weight, which evidence
    checking finds in the entries, so the plan reaches the approval gate. Its weights are sent as
    the floats they are computed as (``65.0``), as they always were, so plan figures stay comparable.
    """
    monday = TODAY + timedelta(days=7 - TODAY.weekday())
    ops = [
        scripts.op_plan(
            (monday + timedelta(weeks=w, days=d)).isoformat(), exercise, 4, 5, start_weight + step * (w + 1)
        )
        for w in range(4)
        for d in (0, 3)
    ]
    plan = scripts.former(
        operations=ops,
        assumptions=[scripts.assumption(f"current {exercise} working weight is {start_weight:g} kg", source="")],
        goal=f"Add weight to the {exercise} over the coming weeks, step by step",
        steps=[
            f"{exercise.capitalize()} on Mondays and Thursdays",
            "Add a small jump each week while every set is done with good form",
            "If a week's sets are missed, repeat that weight the next week instead of adding",
            "Keep the other lifts as they are so recovery stays the same",
        ],
    )
    return plan.model_dump(mode="json", exclude_unset=True)


def defaults() -> dict[str, Reply]:
    """A reply for every title the engine may ask, so no call goes unanswered whatever the flow does."""
    return {
        RouterOutput.__name__: routed("CHAT", [], "a greeting"),
        ParserOutput.__name__: lifted("bench press", 55, 10, 5),
        ClarifierOutput.__name__: scripts.plain(scripts.clarifier()),
        ChatOutput.__name__: scripts.plain(scripts.chat()),
        PlannerOutput.__name__: planner("Look at the recent sessions.", "date_range", 30, []),
        AnalyzerOutput.__name__: {
            "findings": ["The sessions asked about are in the entries", "The facts cover the question"],
            "patterns": ["weights went up a little every week"],
            "gaps": [],
            "verdict": "sufficient",
        },
        SynthesizerOutput.__name__: claimed(Says("value", (Pick("F"),))),
        TaskFormationOutput.__name__: four_week_plan("bench press", 60, 2.5),
        TEXT_TITLE: "OK.",
    }


# --- the conversation ----------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One message of the conversation, its kind, and the replies (by title) a model would give it."""

    kind: str
    text: str
    replies: dict[str, Reply] = field(default_factory=dict)


LOG_CODE, LOG_MODEL = "LOG code-read", "LOG needs model"
Q_SIMPLE, Q_COMPARE, Q_PERIOD, Q_KNOWLEDGE = "QUERY simple", "QUERY comparison", "QUERY period", "QUERY knowledge"
TASK, CHAT = "TASK", "CHAT"


def conversation(entries: Sequence[NewEntry]) -> list[list[Turn]]:
    """Three rounds, each one turn of every kind, so history and data build up as in a real evening."""
    strength = ["strength"]
    r = RouterOutput.__name__
    p, s, f = PlannerOutput.__name__, SynthesizerOutput.__name__, TaskFormationOutput.__name__

    def log(text: str, name: str, weight: float, reps: int, sets: int) -> Turn:
        return Turn(
            LOG_CODE,
            text,
            {r: routed("LOG", strength, "reports sets done"), ParserOutput.__name__: lifted(name, weight, reps, sets)},
        )

    def vague(text: str, parsed: dict[str, Any]) -> Turn:
        return Turn(
            LOG_MODEL,
            text,
            {r: routed("LOG", ["general_fitness"], "reports an activity"), ParserOutput.__name__: parsed},
        )

    def ask(kind: str, text: str, domains: list[str], plan: dict[str, Any], answer: Reply) -> Turn:
        why = "asks a general training question" if kind == Q_KNOWLEDGE else "asks about their own training"
        return Turn(kind, text, {r: routed("QUERY", domains, why), p: plan, s: answer})

    def task(text: str, exercise: str, step: float) -> Turn:
        return Turn(
            TASK,
            text,
            {
                r: routed("TASK", strength, "asks for a plan"),
                f: four_week_plan(exercise, latest_weight(entries, exercise), step),
            },
        )

    def chat(text: str, reply: str) -> Turn:
        return Turn(
            CHAT, text, {r: routed("CHAT", [], "small talk"), ChatOutput.__name__: scripts.plain(scripts.chat(reply))}
        )

    def record(*words: str) -> Says:
        return Says("record", (Pick("F", words),))

    def compare(exercise: str) -> Says:
        return Says("comparison", latest_and_previous(exercise))

    deload = Says(
        "article",
        (Pick("K", ("deload",)),),
        "A deload is a planned lighter stretch, usually cutting sets by {0}, to let fatigue clear.",
        (Pick("A"),),
    )
    return [
        [
            log("bench 55kg 10x5", "bench press", 55, 10, 5),
            vague(
                "did some easy cardio after work, felt ok",
                activity("cardio", "", "easy", "after work, felt ok", "Easy cardio after work"),
            ),
            ask(
                Q_SIMPLE,
                "what's my heaviest bench?",
                strength,
                planner("Find the heaviest bench press set.", "keyword", None, ["bench press"]),
                claimed(
                    record("heaviest completed set", "bench press"),
                    record("best estimated 1rm", "bench press"),
                    remark="Solid pressing; keep the form tight on the heavy sets.",
                ),
            ),
            ask(
                Q_COMPARE,
                "is my bench better than last week?",
                strength,
                planner("Compare this week's bench press with last week's.", "date_range", 14, ["bench press"]),
                claimed(compare("bench press")),
            ),
            ask(
                Q_PERIOD,
                "how many times did I squat in the last two weeks?",
                strength,
                planner("Count squat sessions in the last two weeks.", "date_range", 14, ["squat"]),
                claimed(Says("count", (Pick("F", ("sessions of squat",)),))),
            ),
            ask(
                Q_KNOWLEDGE,
                "what is a deload?",
                strength,
                planner("A knowledge question about deloads.", "recent", None, [], "deload"),
                claimed(deload),
            ),
            task("plan my next 4 weeks of bench", "bench press", 2.5),
            chat("hello", "Hi! Tell me what you trained today, or ask about your training."),
        ],
        [
            log("스쿼트 100키로 5x5", "squat", 100, 5, 5),
            vague(
                "walked home from the office, about 40 minutes",
                activity("walking", "40", "", "walked home from the office", "Walk home, about 40 minutes"),
            ),
            ask(
                Q_SIMPLE,
                "what's my best squat?",
                strength,
                planner("Find the best squat.", "keyword", None, ["squat"]),
                claimed(record("heaviest completed set", "squat")),
            ),
            ask(
                Q_COMPARE,
                "is my squat better than last week?",
                strength,
                planner("Compare this week's squat with last week's.", "date_range", 14, ["squat"]),
                claimed(compare("squat")),
            ),
            ask(
                Q_PERIOD,
                "how far did I run this month?",
                ["running"],
                planner("Total running distance this month.", "date_range", 30, []),
                claimed(Says("value", (Pick("F", ("total run distance",)),))),
            ),
            ask(
                Q_KNOWLEDGE,
                "why do lifts stall?",
                strength,
                planner("A knowledge question about plateaus.", "recent", None, [], "why lifts stall plateau"),
                claimed(
                    Says(
                        "article",
                        (Pick("K"),),
                        "Plateaus usually come from too little sleep, food or recovery.",
                    ),
                    Says("advice", (), "Check sleep and protein first, then try a deload week."),
                ),
            ),
            task("plan my next 4 weeks of squat", "squat", 5),
            chat("thanks!", "You're welcome! Log your next session whenever you like."),
        ],
        [
            log("ohp 40kg 8x3", "overhead press", 40, 8, 3),
            vague("오늘 요가 한시간 했어", activity("yoga", "60", "", "요가", "Yoga for an hour")),
            ask(
                Q_SIMPLE,
                "데드 최고 기록 알려줘",
                strength,
                planner("Find the deadlift record.", "keyword", None, ["deadlift"]),
                claimed(record("heaviest completed set", "deadlift"), remark="꾸준한 훈련 덕분이에요."),
            ),
            ask(
                Q_COMPARE,
                "이번 주 벤치가 지난주보다 나아졌어?",
                strength,
                planner("Compare this week's bench press with last week's.", "date_range", 14, ["bench press"]),
                claimed(compare("bench press"), remark="좋은 흐름이에요."),
            ),
            ask(
                Q_PERIOD,
                "지난 2주 동안 벤치 몇 번 했어?",
                strength,
                planner("Count bench press sessions in the last two weeks.", "date_range", 14, ["bench press"]),
                claimed(Says("count", (Pick("F", ("sessions of bench press",)),))),
            ),
            ask(
                Q_KNOWLEDGE,
                "디로드가 뭐야?",
                strength,
                planner("A knowledge question about deloads.", "recent", None, [], "deload"),
                claimed(
                    Says(
                        "article",
                        (Pick("K", ("deload",)),),
                        "디로드는 피로를 풀기 위해 계획적으로 가볍게 하는 기간이에요.",
                    )
                ),
            ),
            task("다음 4주 데드리프트 계획 짜줘", "deadlift", 5),
            chat("good night", "Good night! Rest well."),
        ],
    ]


# --- measuring ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One model call: its title and sizes."""

    title: str
    prompt_tokens: int
    generated_tokens: int
    messages: int
    """2 normally; more when the engine re-asked after an invalid reply."""
    repeated_tokens: int
    """Prompt tokens in lines an earlier call of the same turn already sent."""


@dataclass(frozen=True)
class TurnCost:
    """What one turn (a message, or the answer to a question or plan) asked of the model."""

    kind: str
    text: str
    outcome: str
    calls: list[Call]

    @property
    def prompt_tokens(self) -> int:
        return sum(c.prompt_tokens for c in self.calls)

    @property
    def generated_tokens(self) -> int:
        return sum(c.generated_tokens for c in self.calls)

    @property
    def max_prompt(self) -> int:
        return max((c.prompt_tokens for c in self.calls), default=0)

    @property
    def repeated_tokens(self) -> int:
        return sum(c.repeated_tokens for c in self.calls)

    def wait_s(self, rates: Rates) -> float:
        return sum(rates.wait_s(c.prompt_tokens, c.generated_tokens) for c in self.calls)

    @property
    def titles(self) -> str:
        return " ".join(short(c.title) for c in self.calls) or "(none)"


def short(title: str) -> str:
    return title.removesuffix("Output")


REPLY_KEY = "_bench_reply"
"""Where a recorded request keeps the reply the fake sent (the reply callables write it)."""


def recording(reply: Reply) -> Reply:
    """``reply``, writing what it sends into the request it answers, so reply sizes can be counted."""

    def record(body: dict[str, Any]) -> Reply:
        out = reply(body) if callable(reply) else reply
        sent = model_reply(out) if isinstance(out, BaseModel) else out  # a model as the fake sends it
        body[REPLY_KEY] = sent if isinstance(sent, str) else json.dumps(sent, ensure_ascii=False)
        return out

    return record


def script_turn(fake: FakeOllama, turn: Turn) -> None:
    """This turn's replies over the bench's defaults, as defaults: every title keeps an answer, however often asked."""
    for title, reply in {**defaults(), **turn.replies}.items():
        fake.default(title, recording(reply))


def contents(r: RecordedRequest) -> list[str]:
    return [str(m.get("content") or "") for m in r.body.get("messages") or []]


_LEAD = re.compile(r"^\s*(?:- |[A-Z]\d+: )")


def same_line(line: str) -> str:
    """A line as compared for repeats: the same fact listed (``- x: v``) or tabled (``F3: x = v``) is one line."""
    return _LEAD.sub("", line).replace(" = ", ": ").strip()


def costs(requests: Sequence[RecordedRequest]) -> list[Call]:
    """The chat calls among ``requests``, sized; lines sent again within them counted as repeated."""
    seen: set[str] = set()
    calls = []
    for r in requests:
        if r.path != "/api/chat" or r.title is None:
            continue
        texts = contents(r)
        lines = [line for text in texts for line in text.splitlines() if len(line.strip()) >= REPEAT_MIN_CHARS]
        repeated = sum(tokens(line) for line in lines if same_line(line) in seen)
        seen.update(same_line(line) for line in lines)
        calls.append(
            Call(
                title=r.title,
                prompt_tokens=sum(tokens(t) for t in texts),
                generated_tokens=tokens(str(r.body.get(REPLY_KEY, ""))),
                messages=len(texts),
                repeated_tokens=repeated,
            )
        )
    return calls


def outcome_kinds(outcomes: Sequence[Outcome]) -> str:
    """What the person got: ``answer``, ``logged``, ``approval``… (``answer (partial)`` when it was marked so)."""
    return ", ".join(o.kind + (" (partial)" if getattr(o, "partial", False) else "") for o in outcomes) or "(nothing)"


def follow_up(outcomes: Sequence[Outcome]) -> tuple[str, ClarificationAnswer | ApprovalDecision, str] | None:
    """How a person answers what the turn left open: approve a plan, take a question's first option."""
    for o in outcomes:
        if isinstance(o, ApprovalRequest):
            return o.interrupt_id, ApprovalDecision(decision="approve"), "approve"
        if isinstance(o, Ask):
            options = o.questions[0].options
            return o.interrupt_id, ClarificationAnswer(answers=[options[0] if options else "yes"]), "answer"
    return None


class Recorder:
    """Runs turns through the engine and sizes the model calls each one made."""

    def __init__(self, engine: Engine, fake: FakeOllama, dump: Path | None) -> None:
        self.engine = engine
        self.fake = fake
        self.dump = dump
        self.turns: list[TurnCost] = []

    async def run(self, turn: Turn) -> None:
        """A message, then the answers to what it leaves open (each its own turn: the person waits for each)."""
        script_turn(self.fake, turn)
        outcomes = await self._measure(
            turn.kind, turn.text, Message(conversation=PERSON, user=PERSON, text=turn.text, at=NOW)
        )
        for _ in range(MAX_FOLLOW_UPS):
            pending = follow_up(outcomes)
            if pending is None:
                return
            interrupt_id, answer, verb = pending
            resume = Resume(conversation=PERSON, user=PERSON, interrupt_id=interrupt_id, answer=answer, at=NOW)
            outcomes = await self._measure(f"{turn.kind} {verb}", f"({verb}) {turn.text}", resume)

    async def _measure(self, kind: str, text: str, turn: Message | Resume) -> list[Outcome]:
        before = len(self.fake.requests)
        outcomes = await self.engine.handle(turn)
        requests = self.fake.requests[before:]
        self.turns.append(TurnCost(kind, text, outcome_kinds(outcomes), costs(requests)))
        if self.dump is not None:
            write_prompts(self.dump, len(self.turns), requests)
            shown = [f"{type(o).__name__}: {getattr(o, 'text', '')}" for o in outcomes]
            (self.dump / f"{len(self.turns):02d}-0-outcomes.txt").write_text(f"{text}\n\n" + "\n\n".join(shown) + "\n")
        return outcomes


def write_prompts(folder: Path, n: int, requests: Sequence[RecordedRequest]) -> None:
    """Each chat call of turn ``n`` as a file: its messages, then the reply (``--dump``)."""
    chats = [r for r in requests if r.path == "/api/chat"]
    for i, r in enumerate(chats, start=1):
        body = "\n\n".join(f"--- {m.get('role')}\n{m.get('content')}" for m in r.body.get("messages") or [])
        reply = r.body.get(REPLY_KEY, "")
        (folder / f"{n:02d}-{i}-{r.title}.txt").write_text(f"{body}\n\n--- reply\n{reply}\n", encoding="utf-8")


# --- figures -------------------------------------------------------------------------------


@dataclass(frozen=True)
class KindFigures:
    """One kind of turn over its runs (the worst run where a target is about the worst)."""

    kind: str
    runs: int
    calls_min: int
    calls_max: int
    titles: list[str]
    max_prompt_per_call: int
    prompt_per_turn_max: int
    generated_per_turn_max: int
    repeated_pct: float
    cpu_wait_mean_s: float
    cpu_wait_max_s: float
    gpu_wait_mean_s: float
    gpu_wait_max_s: float


def by_kind(turns: Sequence[TurnCost]) -> list[KindFigures]:
    kinds = list(dict.fromkeys(t.kind for t in turns))
    out = []
    for kind in kinds:
        runs = [t for t in turns if t.kind == kind]
        prompt = sum(t.prompt_tokens for t in runs)
        cpu = [t.wait_s(CPU) for t in runs]
        gpu = [t.wait_s(GPU) for t in runs]
        out.append(
            KindFigures(
                kind=kind,
                runs=len(runs),
                calls_min=min(len(t.calls) for t in runs),
                calls_max=max(len(t.calls) for t in runs),
                titles=list(dict.fromkeys(t.titles for t in runs)),
                max_prompt_per_call=max(t.max_prompt for t in runs),
                prompt_per_turn_max=max(t.prompt_tokens for t in runs),
                generated_per_turn_max=max(t.generated_tokens for t in runs),
                repeated_pct=round(100 * sum(t.repeated_tokens for t in runs) / prompt, 1) if prompt else 0.0,
                cpu_wait_mean_s=round(sum(cpu) / len(cpu), 1),
                cpu_wait_max_s=round(max(cpu), 1),
                gpu_wait_mean_s=round(sum(gpu) / len(gpu), 2),
                gpu_wait_max_s=round(max(gpu), 2),
            )
        )
    return out


@dataclass(frozen=True)
class Flag:
    turn: str
    title: str
    prompt_tokens: int
    why: str


def flags(turns: Sequence[TurnCost], num_ctx: int) -> list[Flag]:
    """Calls above the prompt limit, and calls near the context window."""
    out = []
    for t in turns:
        for c in t.calls:
            why = []
            if c.prompt_tokens > FLAG_PROMPT_TOKENS:
                why.append(f"above {FLAG_PROMPT_TOKENS:,}")
            if c.prompt_tokens > NEAR_CONTEXT * num_ctx:
                why.append(f"above {NEAR_CONTEXT:.0%} of num_ctx {num_ctx:,}")
            if why:
                out.append(Flag(f"[{t.kind}] {t.text}", c.title, c.prompt_tokens, ", ".join(why)))
    return out


@dataclass(frozen=True)
class Target:
    name: str
    measured: float
    limit: float
    unit: str

    @property
    def met(self) -> bool:
        return self.measured <= self.limit


def _calls(t: TurnCost) -> float:
    return len(t.calls)


def _is_log(kind: str) -> bool:
    return kind.startswith("LOG")


def _is_query(kind: str) -> bool:
    return kind.startswith("QUERY")


def _is_formation(kind: str) -> bool:
    """A formation round: the plan's message, or an answer that makes it form again (not the approval)."""
    return kind in (TASK, f"{TASK} answer")


def _worst(turns: Sequence[TurnCost], covered: Callable[[str], bool], figure: Callable[[TurnCost], float]) -> float:
    return max((figure(t) for t in turns if covered(t.kind)), default=0.0)


def targets(turns: Sequence[TurnCost]) -> list[Target]:
    """Each target against the worst turn it covers."""
    return [
        Target(
            "code-read LOG: model calls", _worst(turns, lambda k: k == LOG_CODE, _calls), TARGET_CODE_LOG_CALLS, "calls"
        ),
        Target("any LOG: model calls", _worst(turns, _is_log, _calls), TARGET_LOG_CALLS, "calls"),
        Target("QUERY: model calls", _worst(turns, _is_query, _calls), TARGET_QUERY_CALLS, "calls"),
        Target("TASK formation round: model calls", _worst(turns, _is_formation, _calls), TARGET_TASK_CALLS, "calls"),
        Target(
            "largest prompt of any call",
            _worst(turns, lambda k: True, lambda t: t.max_prompt),
            FLAG_PROMPT_TOKENS,
            "tokens",
        ),
        Target("QUERY wait at CPU rates", _worst(turns, _is_query, lambda t: t.wait_s(CPU)), TARGET_QUERY_CPU_S, "s"),
        Target("QUERY wait at GPU rates", _worst(turns, _is_query, lambda t: t.wait_s(GPU)), TARGET_QUERY_GPU_S, "s"),
    ]


# --- report ----------------------------------------------------------------------------------


def print_details(turns: Sequence[TurnCost]) -> None:
    print("calls per turn (prompt / generated tokens; msgs > 2 means the engine re-asked)")
    for t in turns:
        print(
            f"  [{t.kind}] {t.text!r} -> {t.outcome}: {len(t.calls)} calls, prompt {t.prompt_tokens:,}, "
            f"generated {t.generated_tokens:,}, CPU {t.wait_s(CPU):.1f} s, GPU {t.wait_s(GPU):.2f} s"
        )
        for c in t.calls:
            again = f", {c.repeated_tokens:,} sent before in this turn" if c.repeated_tokens else ""
            msgs = f" ({c.messages} msgs)" if c.messages != 2 else ""
            print(
                f"      {short(c.title):<14} prompt {c.prompt_tokens:>6,}{msgs}  generated {c.generated_tokens:>5,}{again}"
            )


def print_kinds(figures: Sequence[KindFigures]) -> None:
    head = (
        f"  {'turn kind':<22}{'runs':>5}{'calls':>7}{'prompt/call':>13}{'prompt/turn':>13}{'generated':>11}"
        f"{'repeated':>10}{'CPU wait mean/max':>20}{'GPU wait mean/max':>20}"
    )
    print(
        f"per kind of turn (worst run unless a mean; waits at {CPU.name} {CPU.prompt_tps:g}/{CPU.generate_tps:g} "
        f"and {GPU.name} {GPU.prompt_tps:,.0f}/{GPU.generate_tps:g} prompt/generated tok/s)"
    )
    print(head)
    for f in figures:
        calls = str(f.calls_max) if f.calls_min == f.calls_max else f"{f.calls_min}-{f.calls_max}"
        print(
            f"  {f.kind:<22}{f.runs:>5}{calls:>7}{f.max_prompt_per_call:>13,}{f.prompt_per_turn_max:>13,}"
            f"{f.generated_per_turn_max:>11,}{f.repeated_pct:>9.0f}%"
            f"{f.cpu_wait_mean_s:>11.1f} /{f.cpu_wait_max_s:>5.1f} s{f.gpu_wait_mean_s:>11.2f} /{f.gpu_wait_max_s:>5.2f} s"
        )
    print("  titles per turn:")
    for f in figures:
        print(f"    {f.kind:<22}" + " | ".join(f.titles))


def print_flags(found: Sequence[Flag], num_ctx: int) -> None:
    print(
        f"flagged calls (prompt above {FLAG_PROMPT_TOKENS:,} tokens, or above {NEAR_CONTEXT:.0%} of num_ctx {num_ctx:,}):"
        + ("" if found else " none")
    )
    for f in found:
        print(f"  {short(f.title):<14} {f.prompt_tokens:>6,}  {f.why}  {f.turn}")


def print_targets(found: Sequence[Target]) -> None:
    print("targets")
    for t in found:
        shown = f"{t.measured:,.1f}" if t.unit == "s" else f"{t.measured:,.0f}"
        print(f"  {t.name:<36} {shown:>8} {t.unit:<7} target <= {t.limit:,g}  {'PASS' if t.met else 'MISS'}")


def report_json(
    setup: dict[str, Any],
    turns: Sequence[TurnCost],
    figures: Sequence[KindFigures],
    found: Sequence[Flag],
    goals: Sequence[Target],
) -> str:
    data = {
        **setup,
        "rates": {r.name: {"prompt_tps": r.prompt_tps, "generate_tps": r.generate_tps} for r in (CPU, GPU)},
        "turns": [
            {
                **asdict(t),
                "prompt_tokens": t.prompt_tokens,
                "generated_tokens": t.generated_tokens,
                "cpu_wait_s": round(t.wait_s(CPU), 2),
                "gpu_wait_s": round(t.wait_s(GPU), 3),
            }
            for t in turns
        ],
        "kinds": [asdict(f) for f in figures],
        "flags": [asdict(f) for f in found],
        "targets": [{**asdict(t), "met": t.met} for t in goals],
        "all_met": all(t.met for t in goals),
    }
    return json.dumps(data, ensure_ascii=False, indent=2)


# --- main ----------------------------------------------------------------------------------


def make_config(data_dir: Path, fake: FakeOllama) -> EngineConfig:
    """Like a default deployment (knowledge base on), on the fake; articles embedded by the fake's /api/embed."""
    return EngineConfig(
        data_dir=data_dir,
        default_timezone=TIMEZONE,
        llm=LLMConfig(host=fake.url, timeout_s=10.0, max_retries=2),
        knowledge=KnowledgeConfig(
            data_dir=data_dir,
            embedding_backend="ollama",
            embedding_model=EMBED_MODEL,
            ollama_host=fake.url,
            ollama_timeout_s=10,
        ),
    )


def check_fake(fake: FakeOllama) -> None:
    """Stop when the fake saw something wrong: the figures would describe a broken bench, not the engine."""
    problems = fake.errors + [f"unscripted: {t}" for t in fake.unscripted]
    if problems:
        raise SystemExit("benchmark broken: the fake model reported " + "; ".join(problems[:5]))


def rounds(entries: Sequence[NewEntry]) -> Iterator[Turn]:
    for round_ in conversation(entries):
        yield from round_


async def run(args: argparse.Namespace) -> tuple[dict[str, Any], list[TurnCost]]:
    configure_logging("json", "WARNING", stream=io.StringIO())
    started = time.perf_counter()
    entries = month(TODAY)
    with (
        FakeOllama(models=[DEFAULT_MODEL, EMBED_MODEL]) as fake,
        tempfile.TemporaryDirectory(prefix="almanac-bench-") as tmp,
    ):
        config = make_config(Path(tmp), fake)
        async with Engine.open(config) as engine:
            await engine.library.ready()
            await engine.entries.add(PERSON, entries)
            recorder = Recorder(engine, fake, args.dump)
            for turn in rounds(entries):
                await recorder.run(turn)
        check_fake(fake)
    setup = {
        "today": TODAY.isoformat(),
        "month": describe(entries),
        "num_ctx": config.llm.num_ctx,
        "model": config.llm.model,
        "elapsed_s": round(time.perf_counter() - started, 1),
    }
    return setup, recorder.turns


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--json", action="store_true", help="print the figures as JSON instead of tables")
    p.add_argument(
        "--dump", type=Path, help="write every call's prompt and reply, and each turn's outcomes, to this directory"
    )
    args = p.parse_args(argv)
    if args.dump is not None:
        args.dump.mkdir(parents=True, exist_ok=True)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    setup, turns = asyncio.run(run(args))
    num_ctx = int(setup["num_ctx"])
    figures, found, goals = by_kind(turns), flags(turns, num_ctx), targets(turns)
    if args.json:
        print(report_json(setup, turns, figures, found, goals))
    else:
        print(
            f"model_cost: {len(turns)} turns on {setup['today']} over {setup['month']}; "
            f"model {setup['model']}, num_ctx {num_ctx:,}; run {setup['elapsed_s']} s"
        )
        print()
        print_details(turns)
        print()
        print_kinds(figures)
        print()
        print_flags(found, num_ctx)
        print()
        print_targets(goals)
    return 0 if all(t.met for t in goals) else 1


if __name__ == "__main__":
    sys.exit(main())
