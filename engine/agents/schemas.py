"""Agent output models. Each class name is its JSON schema's ``title``: a contract
with the model server and with the test fake, which answers by title.

Field descriptions reach the model through the schema, so they are written for
it. The decision field comes last, after the findings it should follow from.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.json_schema import SkipJsonSchema

from engine.entries.model import ExerciseLog, Metric

Intent = Literal["LOG", "QUERY", "TASK", "CORRECTION", "CHAT"]


class RouterOutput(BaseModel):
    """Classify one message."""

    reasoning: str = Field(description="One short sentence: what the person wants.")
    domains: list[str] = Field(
        description="Names of the domains the message is about, from the list given. Empty for CHAT."
    )
    also_query: bool = Field(
        default=False,
        description="True when a LOG message also asks a question about the person's data.",
    )
    intent: Intent = Field(
        description=(
            "LOG: reports something done or eaten. QUERY: asks about their data or the domain. "
            "TASK: asks for a plan or a change. CORRECTION: fixes something logged earlier. "
            "CHAT: anything else (greetings, thanks)."
        )
    )


class ParserOutput(BaseModel):
    """Read one log message into a structured entry."""

    model_config = ConfigDict(title="ParserOutput")

    activity_type: str = Field(description="The domain's activity type, e.g. strength, running, nutrition.")
    domain: str = Field(description="The domain name this entry belongs to.")
    exercises: list[ExerciseLog] = Field(default_factory=list, description="Strength exercises; empty otherwise.")
    metrics: list[Metric] = Field(default_factory=list, description="Other measured values.")
    date_text: str = Field(default="", description="The words that say when (yesterday, 어제, 11/20); empty if none.")
    notes: str = Field(default="", description="Anything else worth keeping, in the person's words.")
    summary: str = Field(description="One short line describing the entry, in English.")
    missing: list[str] = Field(
        default_factory=list,
        description="What cannot be known without guessing (e.g. 'exercise name'). Empty when complete.",
    )
    status: Literal["parsed", "needs_clarification"] = Field(
        description="needs_clarification only when storing would require a guess."
    )


class ClarifierQuestion(BaseModel):
    """One question for the person."""

    question: str = Field(description="Short, friendly, in the person's language.")
    gap_addressed: str = Field(description="Which missing piece this resolves.")
    options: list[str] = Field(default_factory=list, max_length=5, description="Up to 5 short likely answers.")


class ClarifierOutput(BaseModel):
    """Ask the person only what only they can answer."""

    questions: list[ClarifierQuestion] = Field(min_length=1, max_length=3)
    context_explanation: str = Field(description="One sentence: why you ask.")
    fallback_action: str = Field(description="What happens if they skip, in one sentence.")


class ChatOutput(BaseModel):
    """A short conversational reply."""

    reply: str = Field(description="One to three sentences, no numbers; say what Almanac can do if relevant.")


# --------------------------------------------------------------------------- query flow

Strategy = Literal["date_range", "keyword", "recent"]
NextAction = Literal["retrieve", "expand_domain", "clarify", "synthesize"]


def _tolerant(value: Any, allowed: tuple[str, ...], default: str) -> Any:
    """Map an unknown choice to a safe default instead of failing the whole reply.

    Ollama constrains decoding to the schema, so this only matters for models or
    servers that ignore ``format``; a wrong enum there should not cost a re-ask.
    """
    if isinstance(value, str):
        v = value.strip().lower()
        return v if v in allowed else default
    return default


class RetrievalInstruction(BaseModel):
    """One way to fetch the person's entries. Code computes the actual dates."""

    strategy: Strategy = Field(
        description=(
            "date_range for comparisons, progress and trends; keyword for 'show me my X'; "
            "recent for 'what did I do last'."
        )
    )
    days_back: int | None = Field(
        default=None,
        ge=1,
        le=3650,
        description="For date_range: how many days back from today (7 default, 30 for trends).",
    )
    date: str | None = Field(default=None, description="For one named day: the words that name it (last Monday, 어제).")
    explicit_date: bool = Field(default=False, description="True when the person named one specific day.")
    terms: list[str] = Field(default_factory=list, description="Exercise or food names to look for, for keyword.")
    start: SkipJsonSchema[dt.date | None] = None
    """A period the person named, first day (set by code, never by the model): fetched as is, never widened."""
    end: SkipJsonSchema[dt.date | None] = None
    """That period's last day."""

    @field_validator("strategy", mode="before")
    @classmethod
    def _known_strategy(cls, v: Any) -> Any:
        return _tolerant(v, get_args(Strategy), "date_range")


class PlannerOutput(BaseModel):
    """Plan how to answer a question about the person's data."""

    reasoning: str = Field(description="One or two sentences: what the question needs.")
    sub_queries: list[str] = Field(default_factory=list, max_length=4, description="Smaller questions to answer.")
    retrieval_instructions: list[RetrievalInstruction] = Field(default_factory=list, max_length=3)
    domain_expansion_request: list[str] = Field(
        default_factory=list, description="Domain names needed beyond the active ones (only with expand_domain)."
    )
    expansion_reasoning: str = Field(default="", description="Why those domains are needed.")
    knowledge_query: str = Field(
        default="",
        description=(
            "Words to look up in the knowledge base when the question needs general knowledge "
            "(what a deload is, why lifts stall, how much protein); empty when their entries are enough."
        ),
    )
    next_action: NextAction = Field(
        description="retrieve entries, expand_domain, clarify with the person, or synthesize the answer now."
    )

    @field_validator("next_action", mode="before")
    @classmethod
    def _known_action(cls, v: Any) -> Any:
        return _tolerant(v, get_args(NextAction), "retrieve")


class Gap(BaseModel):
    """Something the answer still lacks."""

    description: str
    gap_type: Literal["data", "subjective", "clarification", "expertise"] = Field(
        description="data: entries missing; subjective/clarification: only the person knows; expertise: domain knowledge."
    )
    severity: Literal["low", "medium", "high"] = "medium"
    outside_current_expertise: bool = Field(
        default=False, description="True when another domain's knowledge is needed."
    )
    suspected_domain: str | None = Field(default=None, description="That domain's name, if outside_current_expertise.")


class AnalyzerOutput(BaseModel):
    """Judge whether the retrieved entries and facts answer the question."""

    findings: list[str] = Field(default_factory=list, description="What the facts and entries show, briefly.")
    patterns: list[str] = Field(default_factory=list, description="Trends across dates, if any.")
    gaps: list[Gap] = Field(default_factory=list, description="What is missing; empty when nothing is.")
    verdict: Literal["sufficient", "insufficient", "partial"] = Field(
        description="sufficient: the answer can be written now. Decide after the gaps."
    )


class Claim(BaseModel):
    """One claim of an answer: its kind and the ids of the values it rests on (code writes the sentence)."""

    kind: str = Field(
        description=(
            "value: a number from the list; record: a record (heaviest, best, longest, fastest); count: how many "
            "or how often; comparison: two values of one measure; trend: a change; list: entries; absence: "
            "something not found (G ids); advice: your suggestion; article: what an article says (K id)."
        )
    )
    ids: list[str] = Field(
        default_factory=list, description="The ids this claim rests on, from the list. Code writes their values."
    )
    note: str = Field(
        default="",
        description=(
            "Optional: a few words of your own, with no numbers, no dates, no counts and no direction words "
            "(up, down, better, stalled): code states those."
        ),
    )

    @field_validator("ids", mode="before")
    @classmethod
    def _ids(cls, v: Any) -> Any:
        # "{F3}", "F3" and "f3" all name F3; anything else is left for code to drop.
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list):
            return []
        return [str(i).strip().strip("{}[] ").upper() for i in v if isinstance(i, (str, int))]


class SynthesizerOutput(BaseModel):
    """Compose the answer from claims.

    Read leniently: the schema sent to the model is built per turn
    (:func:`engine.query.claims.schema_for`, ids as an ``enum``), and code
    checks every claim against the values offered.
    """

    claims: list[Claim] = Field(default_factory=list, description="What the answer says, most important first.")
    remark: str = Field(default="", description="Optional: one short sentence of your own, no numbers or dates.")
    sources: list[str] = Field(
        default_factory=list,
        max_length=6,
        description="Ids of the articles the answer draws on (K1, K2); may be empty.",
    )
    offered: SkipJsonSchema[list[str]] = Field(default_factory=list)
    """The ids the prompt offered (set by code, never by the model): claims are checked against these only."""
