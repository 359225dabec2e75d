"""The Synthesizer's and the task former's prompts stay within budget with realistic values
(Ollama truncates silently past ``num_ctx``): whole-history questions on a six-year import.

The Synthesizer's values are sized in its node (``QueryNodes.synthesize`` offers what the budget
leaves after the instructions, the articles and a re-ask's feedback), so its prompts are measured
as the real engine sends them to the model, with the built-in articles in a real knowledge base.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from engine.agents.briefing import fenced
from engine.agents.budget import PROMPT_BUDGET, tokens
from engine.agents.prompts import render
from engine.config import EngineConfig, LLMConfig
from engine.domains.registry import DomainRegistry, DomainSelector
from engine.engine import Engine
from engine.facts import compute_facts
from engine.graph.task_nodes import FORMATION_ARTICLE_CHARS
from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.markdown import parse_article
from engine.knowledge.model import Chunk
from engine.language.periods import read_periods
from engine.outcomes import Answer
from engine.query.answering import table_for
from engine.query.articles import offer, prompt
from engine.query.number_reading import stated_values
from engine.query.questions import read_question
from engine.query.records import history_facts, merge
from engine.store.bouts import BoutStore
from engine.store.entries import EntryStore
from engine.store.history import HistoryStore
from engine.tasks.evidence import add_rule_lines
from engine.turns import Message
from tests.conftest import OpenDb
from tests.engine.facts.test_history import USER, import_history
from tests.fakes.ollama_server import DEFAULT_MODEL, FakeOllama
from tests.helpers import scripts
from tests.helpers.domains import BUILTIN

CHARS_PER_TOKEN = 3.0  # conservative for mixed English and Korean with qwen2.5
BUDGET_TOKENS = 4000  # of OLLAMA_NUM_CTX=8192, leaving room for the reply
WITH_ARTICLES_TOKENS = 5200
"""With knowledge-base sections too: still ~3,000 of 8,192 left for the chat template and a
JSON reply (article text is English, nearer 4 characters a token than 3)."""

NOW = datetime(2026, 11, 22, 1, 0, tzinfo=UTC)  # Sunday 10:00 in Seoul
WHOLE_HISTORY = "역대 벤치프레스 종류 최고 기록이랑 2021년 3월 이후로 얼마나 늘었는지 알려줘, 100kg 5x5도 했었나?"
KNOWLEDGE = Path(__file__).resolve().parents[3] / "engine" / "domains" / "knowledge" / "strength"


@pytest.fixture
def fake() -> Any:
    with FakeOllama(models=[DEFAULT_MODEL, "bge-m3"]) as server:
        yield server


@asynccontextmanager
async def imported_engine(tmp_path: Path, fake: FakeOllama) -> AsyncIterator[Engine]:
    """A real engine on the six-year import, its knowledge base holding the built-in articles."""
    data = tmp_path / "data"
    config = EngineConfig(
        data_dir=data,
        default_timezone="Asia/Seoul",
        llm=LLMConfig(host=fake.url, timeout_s=5.0, max_retries=2),
        knowledge=KnowledgeConfig(
            data_dir=data,
            embedding_backend="ollama",
            embedding_model="bge-m3",
            ollama_host=fake.url,
            ollama_timeout_s=5,
        ),
    )
    async with Engine.open(config) as engine:
        assert engine.library is not None
        await engine.library.ready()
        await import_history(engine.entries.db, USER)
        yield engine


def prompt_tokens(request: dict[str, Any]) -> int:
    return sum(tokens(str(m["content"])) for m in request["messages"])


async def test_every_synthesizer_prompt_fits_the_budget(tmp_path: Path, fake: FakeOllama) -> None:
    # Whatever path a question takes (read in code, or by the model), these let it reach the Synthesizer.
    fake.default(scripts.router("QUERY", ["strength"]))
    fake.default(scripts.planner("retrieve", "date_range", 90).model_copy(update={"knowledge_query": "deload"}))
    fake.default(scripts.analyzer("sufficient"))
    fake.default(scripts.claims(scripts.claim("value", "F1")))
    # A reply with nothing usable (an id never offered): the re-ask carries its feedback, the largest prompt.
    unusable = scripts.claims(scripts.claim("record", "F999", note="125 kg five times"))
    questions = [
        WHOLE_HISTORY,  # dense: records, a named period, a stated value, in Korean
        "why did my bench stall, and what is a deload?",  # articles too
        "벤치가 정체됐는데 디로드가 뭐야?",  # articles with a Korean question
        "how is my training going?",  # every exercise
    ]
    async with imported_engine(tmp_path, fake) as engine:
        dense = 0
        for question in questions:
            fake.script("SynthesizerOutput", unusable)
            (answer,) = await engine.handle(Message(conversation=USER, user=USER, text=question, at=NOW))
            assert isinstance(answer, Answer), answer
            thread_id = await engine.conversations.thread_id(USER)
            refs = (await engine.graph.aget_state({"configurable": {"thread_id": thread_id}})).values["refs"]["refs"]
            dense = max(dense, len([r for r in refs if r["kind"] == "fact"]))
    calls = fake.calls("SynthesizerOutput")
    assert dense >= 40  # a full table was computed, not a toy one
    assert any("Fix from the last attempt: Claim 1" in str(c["messages"][-1]["content"]) for c in calls)
    assert any("<data>\nK1:" in str(c["messages"][-1]["content"]) for c in calls)  # articles were offered
    sizes = [prompt_tokens(c) for c in calls]
    print(f"synthesizer prompts: {sizes} tokens (budget {PROMPT_BUDGET})")
    assert max(sizes) <= PROMPT_BUDGET, sizes


def builtin_chunks() -> list[Chunk]:
    """Sections of built-in strength articles, longest first (the worst case for the budget)."""
    chunks = []
    for name in ("deload", "plateaus", "progressive-overload", "rpe-and-rir", "periodization", "training-volume"):
        article = parse_article((KNOWLEDGE / f"{name}.md").read_text(encoding="utf-8"), fallback_title=name)
        for i, piece in enumerate(article.pieces):
            chunks.append(
                Chunk(
                    chunk_id=f"{name}-{i}",
                    article_title=article.title,
                    section_path=" > ".join(piece.section_path),
                    text=piece.text,
                    domain="strength",
                    source=f"{name}.md",
                    links=piece.links,
                )
            )
    return sorted(chunks, key=lambda c: -len(c.text))


async def test_former_prompts_fit(open_db: OpenDb) -> None:
    db = await open_db()
    await import_history(db)
    ctx = DomainSelector(DomainRegistry.load()).build_active_context(["strength", "running"])
    today = date(2026, 11, 22)
    question = WHOLE_HISTORY
    shape = read_question(question, ctx, today)
    periods = read_periods(question, today)
    stated = list(stated_values(question))
    whole = await history_facts(
        HistoryStore(db, BUILTIN),
        BoutStore(db, BUILTIN),
        USER,
        question,
        shape,
        periods,
        stated,
        ctx.domains_loaded,
        today,
        registry=BUILTIN,
    )
    entries = await EntryStore(db).between(USER, date(2026, 8, 1), today)
    await db.close()
    facts = merge(whole, compute_facts(entries, exercises=shape.wanted, today=today, domains=BUILTIN))
    table = table_for(facts, entries, stated, shape, periods)
    assert len(table.of("fact")) >= 40  # a full table, not a toy one
    add_rule_lines(table, ctx)
    former_system = render(
        "former.system",
        today=today.isoformat(),
        weekday="Sunday",
        domains="strength, running",
        lines=table.prompt(["rule"]),
        allowed_ops="add_planned_session, set_goal, correct_entry",
    )
    former_user = render(
        "former.user",
        intent="TASK",
        request=question,
        values=fenced(table.prompt(["fact", "entry", "question"])),
        goals="(none)",
        answers="(none)",
        previous="(none)",
        feedback="(none)",
        problems="(none)",
        articles="(none)",
    )
    assert (len(former_system) + len(former_user)) / CHARS_PER_TOKEN < BUDGET_TOKENS
    notes = offer(table, builtin_chunks(), max_chars=FORMATION_ARTICLE_CHARS)
    former_user = render(
        "former.user",
        intent="TASK",
        request=question,
        values=fenced(table.prompt(["fact", "entry", "question", "source", "article"])),
        goals="(none)",
        answers="(none)",
        previous="(none)",
        feedback="(none)",
        problems="(none)",
        articles=fenced(prompt(notes)),
    )
    assert (len(former_system) + len(former_user)) / CHARS_PER_TOKEN < WITH_ARTICLES_TOKENS
    print(f"former prompt with articles: ~{(len(former_system) + len(former_user)) / CHARS_PER_TOKEN:.0f} tokens")
