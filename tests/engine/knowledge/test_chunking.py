"""Cutting articles into chunks, reading links, quoting user text for FTS5, fusing ranks (no model needed)."""

from __future__ import annotations

import sqlite3

import pytest

from engine.knowledge.fusion import reciprocal_rank_fusion
from engine.knowledge.links import article_key, render_links
from engine.knowledge.markdown import (
    MAX_TOKENS,
    MIN_TOKENS,
    count_tokens,
    parse_article,
)
from engine.knowledge.words import fts_query
from tests.engine.knowledge.conftest import _words


def test_sections_follow_headings_with_their_path() -> None:
    text = (
        f"# Squat\n\n{_words('the squat')}\n\n## Technique\n\n{_words('bracing')}\n\n"
        f"### Depth\n\n{_words('depth')}\n\n## Programming\n\n{_words('sets')}\n"
    )
    article = parse_article(text, fallback_title="squat")
    assert article.title == "Squat"
    assert [p.section_path for p in article.pieces] == [(), ("Technique",), ("Technique", "Depth"), ("Programming",)]


def test_front_matter_title_and_url() -> None:
    article = parse_article(
        "---\ntitle: Sleep\nurl: https://example.org/sleep\n---\n" + _words("sleep"), fallback_title="x"
    )
    assert (article.title, article.url) == ("Sleep", "https://example.org/sleep")


def test_without_a_title_the_file_name_is_used_and_code_is_not_a_heading() -> None:
    article = parse_article(f"{_words('notes')}\n\n```\n# not a heading\n```\n", fallback_title="my notes")
    assert article.title == "my notes" and len(article.pieces) == 1
    assert "# not a heading" in article.pieces[0].text


def test_small_sections_merge_and_large_ones_split() -> None:
    long_body = " ".join(f"Sentence number {i} explains one more detail about training." for i in range(150))
    text = f"# T\n\n{_words('intro')}\n\n## Tiny\n\nJust a few words.\n\n## Long\n\n{long_body}\n"
    pieces = parse_article(text, fallback_title="t").pieces
    assert "Tiny: Just a few words." in pieces[0].text  # folded into its neighbour, heading kept
    long_pieces = [p for p in pieces if p.section_path == ("Long",)]
    assert len(long_pieces) >= 2
    assert all(MIN_TOKENS <= count_tokens(p.text) <= MAX_TOKENS for p in pieces)


def test_sources_become_references_not_chunks() -> None:
    text = f"# Deload\n\n{_words('deloads')}\n\n## Sources\n\n- A study - https://example.org/a\n- [B](https://example.org/b)\n"
    article = parse_article(text, fallback_title="d")
    assert article.references == ["A study - https://example.org/a", "[B](https://example.org/b)"]
    assert all("example.org" not in p.text for p in article.pieces)


def test_links_are_read_and_rendered() -> None:
    text, links = render_links(
        "See [[Progressive Overload]], [[RPE and RIR|RPE]], [[Deload#How|how to deload]], "
        "[plateaus](strength-plateaus.md#causes), [a site](https://example.org/x.md) and [[progressive overload]]."
    )
    assert links == ["Progressive Overload", "RPE and RIR", "Deload", "strength plateaus"]
    assert text.startswith("See Progressive Overload, RPE, how to deload, plateaus, [a site](https://example.org/x.md)")


def test_article_keys_ignore_case_spacing_and_punctuation() -> None:
    assert article_key("Progressive  Overload") == article_key("progressive-overload") == "progressive-overload"
    assert article_key("Muscle Soreness (DOMS)") == "muscle-soreness-doms"
    assert article_key("디로드 주간") == "디로드-주간"


NASTY = [
    '"unbalanced',
    "(bench AND",
    "NOT * OR",
    "🏋️‍♂️💪",
    "NEAR(a b)",
    "col:val",
    "'; DROP TABLE chunks; --",
    "",
    'a"b"c',
    "^start",
    "x -y +z",
    "벤치프레스 AND 스쿼트",
]


@pytest.mark.parametrize("text", NASTY)
def test_fts_queries_from_user_text_never_raise(text: str) -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5 (body, tokenize='porter unicode61 remove_diacritics 2')")
    db.execute("INSERT INTO t VALUES ('bench and squat, not much else; 벤치프레스 AND 스쿼트')")
    query = fts_query(text)
    if query is None:
        assert not any(ch.isalnum() for ch in text)
        return
    db.execute("SELECT rowid FROM t WHERE t MATCH ?", (query,)).fetchall()


def test_fts_query_quotes_every_word() -> None:
    assert fts_query('bench AND "squat" (deadlift*)') == '"bench" OR "squat" OR "deadlift"'
    assert fts_query("what is a deload") == '"deload"'
    assert fts_query("what is it") == '"what" OR "is" OR "it"'  # nothing but common words: keep them


def test_reciprocal_rank_fusion() -> None:
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["c", "a"]])
    assert [item for item, _ in fused] == ["a", "c", "b"]
    assert fused[0][1] == pytest.approx(1 / 61 + 1 / 62)
    assert reciprocal_rank_fusion([]) == []
