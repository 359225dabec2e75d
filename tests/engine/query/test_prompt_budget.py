"""The Synthesizer's and the task former's prompts stay within budget with realistic values
(Ollama truncates silently past ``num_ctx``): a whole-history question on a six-year import."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from engine.agents.briefing import fenced
from engine.agents.prompts import render
from engine.domains.registry import DomainRegistry, DomainSelector
from engine.facts import compute_facts
from engine.knowledge.markdown import parse_article
from engine.knowledge.model import Chunk
from engine.query.answering import table_for
from engine.query.articles import MAX_CHARS, MAX_CHUNK_CHARS, offer, prompt
from engine.query.number_reading import stated_values
from engine.language.periods import read_periods
from engine.query.questions import read_question
from engine.query.records import history_facts, merge
from engine.store.bouts import BoutStore
from engine.store.db import Database
from engine.store.entries import EntryStore
from engine.store.history import HistoryStore
from engine.graph.task_nodes import FORMATION_ARTICLE_CHARS
from engine.tasks.evidence import add_rule_lines
from tests.engine.facts.test_history import USER, import_history

CHARS_PER_TOKEN = 3.0  # conservative for mixed English and Korean with qwen2.5
BUDGET_TOKENS = 4000  # of OLLAMA_NUM_CTX=8192, leaving room for the reply
WITH_ARTICLES_TOKENS = 5200
"""With knowledge-base sections too: still ~3,000 of 8,192 left for the chat template and a
two-to-four-sentence JSON reply (article text is English, nearer 4 characters a token than 3)."""


KNOWLEDGE = Path(__file__).resolve().parents[3] / "engine" / "domains" / "knowledge" / "strength"


def builtin_chunks() -> list[Chunk]:
    """Sections of built-in strength articles, longest first (the worst case for the budget)."""
    chunks = []
    for name in ("deload", "plateaus", "progressive-overload", "rpe-and-rir", "periodization", "training-volume"):
        article = parse_article((KNOWLEDGE / f"{name}.md").read_text(encoding="utf-8"), fallback_title=name)
        for i, piece in enumerate(article.pieces):
            chunks.append(Chunk(chunk_id=f"{name}-{i}", article_title=article.title, section_path=" > ".join(piece.section_path),
                                text=piece.text, domain="strength", source=f"{name}.md", links=piece.links))
    return sorted(chunks, key=lambda c: -len(c.text))


async def test_synthesizer_and_former_prompts_fit(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "a.db")
    await import_history(db)
    ctx = DomainSelector(DomainRegistry.load()).build_active_context(["strength", "running"])
    today = date(2026, 11, 22)
    question = "역대 벤치프레스 종류 최고 기록이랑 2021년 3월 이후로 얼마나 늘었는지 알려줘, 100kg 5x5도 했었나?"
    shape = read_question(question, ctx, today)
    periods = read_periods(question, today)
    stated = list(stated_values(question))
    whole = await history_facts(HistoryStore(db), BoutStore(db), USER, question, shape, periods, stated,
                                ctx.domains_loaded, today)
    entries = await EntryStore(db).between(USER, date(2026, 8, 1), today)
    await db.close()
    facts = merge(whole, compute_facts(entries, exercises=shape.wanted, today=today))
    table = table_for(facts, entries, stated, shape, periods)
    assert len(table.of("fact")) >= 40  # a full table, not a toy one
    system = render("synthesizer.system", language="Korean", rules="\n".join(ctx.response_rules), expertise=ctx.expertise)
    user = render("synthesizer.user", question=question, values=fenced(table.prompt()), responses="(none)",
                  notes="(none)", feedback="You wrote numbers yourself (“125”). Write no digits.", articles="(none)")
    assert (len(system) + len(user)) / CHARS_PER_TOKEN < BUDGET_TOKENS
    notes = offer(table, builtin_chunks())
    assert sum(len(n.text) for n in notes) > MAX_CHARS - MAX_CHUNK_CHARS  # articles up to their budget
    user = render("synthesizer.user", question=question, values=fenced(table.prompt()), responses="(none)",
                  notes="(none)", feedback="You wrote numbers yourself (“125”). Write no digits.",
                  articles=fenced(prompt(notes)))
    assert (len(system) + len(user)) / CHARS_PER_TOKEN < WITH_ARTICLES_TOKENS
    print(f"synthesizer prompt with articles: ~{(len(system) + len(user)) / CHARS_PER_TOKEN:.0f} tokens")
    table = table_for(facts, entries, stated, shape, periods)
    add_rule_lines(table, ctx)
    former_system = render("former.system", today=today.isoformat(), weekday="Sunday", domains="strength, running",
                           lines=table.prompt(["rule"]), allowed_ops="add_planned_session, set_goal, correct_entry")
    former_user = render("former.user", intent="TASK", request=question,
                         values=fenced(table.prompt(["fact", "entry", "question"])), goals="(none)",
                         answers="(none)", previous="(none)", feedback="(none)", problems="(none)",
                         articles="(none)")
    assert (len(former_system) + len(former_user)) / CHARS_PER_TOKEN < BUDGET_TOKENS
    notes = offer(table, builtin_chunks(), max_chars=FORMATION_ARTICLE_CHARS)
    former_user = render("former.user", intent="TASK", request=question,
                         values=fenced(table.prompt(["fact", "entry", "question", "source", "article"])), goals="(none)",
                         answers="(none)", previous="(none)", feedback="(none)", problems="(none)",
                         articles=fenced(prompt(notes)))
    assert (len(former_system) + len(former_user)) / CHARS_PER_TOKEN < WITH_ARTICLES_TOKENS
    print(f"former prompt with articles: ~{(len(former_system) + len(former_user)) / CHARS_PER_TOKEN:.0f} tokens")
