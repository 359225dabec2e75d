"""The built-in articles: a folder per built-in domain, at least 10 articles each, sourced and cross-linked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.domains.registry import DomainRegistry
from engine.knowledge.ingest import BUILTIN_KNOWLEDGE_DIR
from engine.knowledge.links import article_key, render_links
from engine.knowledge.markdown import parse_article

ARTICLES = sorted(BUILTIN_KNOWLEDGE_DIR.rglob("*.md"))
TITLES = {article_key(parse_article(p.read_text(), fallback_title=p.stem).title): p for p in ARTICLES}


@pytest.mark.parametrize("domain", DomainRegistry.load().names)
def test_every_built_in_domain_has_at_least_10_articles(domain: str) -> None:
    folder = BUILTIN_KNOWLEDGE_DIR / domain
    assert len(list(folder.glob("*.md"))) >= 10, folder


def test_no_folder_without_a_domain() -> None:
    assert {p.name for p in BUILTIN_KNOWLEDGE_DIR.iterdir()} <= set(DomainRegistry.load().names)


@pytest.mark.parametrize("path", ARTICLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_an_article_is_sized_sourced_and_linked(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    body, _, sources = text.partition("\n## Sources\n")
    assert 150 <= len(body.split()) <= 500, "150-500 words of article text"
    assert re.findall(r"https://\S+", sources), "facts are attributed to public sources with URLs"
    _, links = render_links(body)
    assert links, "cross-linked to other articles"
    missing = [t for t in links if article_key(t) not in TITLES]
    assert not missing, f"links to articles that do not exist: {missing}"


def test_titles_are_unique() -> None:
    assert len(TITLES) == len(ARTICLES)
