"""The BM25 index on its own: domain filter in the MATCH, and pruning of common words in big collections."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.knowledge import lexical
from engine.knowledge.lexical import PRUNE_FROM, LexicalIndex
from engine.knowledge.model import Chunk


def fill(index: LexicalIndex, texts: list[str], domain: str = "strength") -> None:
    index.put(
        (Chunk(chunk_id=f"{domain}{i}", article_title=f"A{i}", text=text, domain=domain, source="s"), f"a{i}", f"a{i}")
        for i, text in enumerate(texts)
    )


def test_small_collections_search_every_word(tmp_path: Path) -> None:
    index = LexicalIndex(tmp_path / "k.db")
    fill(index, ["squat depth and bracing", "bench press grip", "deadlift setup"])
    assert {c.article_title for c in index.search("grip setup", 5, None)} == {"A1", "A2"}
    assert index.search("grip", 5, ["running"]) == []
    index.close()


def test_big_collections_leave_out_words_that_are_everywhere(tmp_path: Path) -> None:
    index = LexicalIndex(tmp_path / "k.db")
    n = PRUNE_FROM + 1000
    texts = [f"training session note {i}" for i in range(n)]
    texts[7] = "training session about the brzycki formula"
    fill(index, texts)

    with index._lock:
        assert index._pruned(["training", "brzycki"], set()) == ["brzycki"]
        # Only common words: the rarest stays, so the search still answers.
        assert index._pruned(["training", "session"], set()) in (["training"], ["session"])
    found = index.search("training brzycki", 3, None)
    assert found[0].article_title == "A7"
    index.close()


def test_pruning_keeps_vocabulary_terms_first_within_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexical, "MAX_POSTINGS", 300)  # room for one of the two words below
    index = LexicalIndex(tmp_path / "k.db")
    texts = [f"note {i}" for i in range(PRUNE_FROM + 1000)]
    for i in range(200):
        texts[i] = f"protein note {i}"
        texts[200 + i] = f"sleep note {i}"
    fill(index, texts)
    with index._lock:
        assert index._pruned(["sleep", "protein"], {"protein"}) == ["protein"]
        assert index._pruned(["sleep", "protein"], {"sleep"}) == ["sleep"]
    assert index.search("sleep", 1, None, keywords=["protein"])[0].text.startswith("protein")
    index.close()
