"""Ingest is idempotent: stable ids, changed files replaced, deleted files removed, bad files skipped."""

from __future__ import annotations

from pathlib import Path

from engine.knowledge.embedding import BuiltinEmbedder
from tests.engine.knowledge.conftest import _words, open_kb, write_articles

ARTICLES = {
    "strength/deload.md": f"# Deload\n\n{_words('a lighter training week')}\n\n## How\n\n{_words('cutting sets by half')}\n",
    "nutrition/protein.md": f"# Protein\n\n{_words('grams of protein per kilogram')}\n",
    "running/zones.txt": f"{_words('easy running in zone two')}\n\n{_words('hard intervals in zone five')}\n",
}


def ids_of(kb, title: str) -> list[str]:
    return [c.chunk_id for c in kb.article_chunks(title)]


def test_ingesting_again_changes_nothing(tmp_path: Path, embedder: BuiltinEmbedder) -> None:
    root = write_articles(tmp_path / "kb", ARTICLES)
    kb = open_kb(tmp_path / "data", embedder)
    first = kb.ingest(root)
    assert (first.files, first.added, first.chunks_written) == (3, 3, kb.count())
    before = {t: ids_of(kb, t) for t in ("Deload", "Protein", "zones")}

    again = kb.ingest(root)
    assert (again.added, again.updated, again.unchanged, again.chunks_written) == (0, 0, 3, 0)
    assert {t: ids_of(kb, t) for t in before} == before
    kb.close()

    # Ids do not depend on the store either: a fresh data dir gives the same ones.
    other = open_kb(tmp_path / "data2", embedder)
    other.ingest(root)
    assert {t: ids_of(other, t) for t in before} == before
    other.close()


def test_domain_comes_from_the_folder_and_text_files_get_their_name_as_title(tmp_path: Path, embedder) -> None:
    kb = open_kb(tmp_path / "data", embedder)
    kb.ingest(write_articles(tmp_path / "kb", ARTICLES))
    assert {c.domain for c in kb.article_chunks("Deload")} == {"strength"}
    zones = kb.article_chunks("zones")
    # No headings and under the size limit: one chunk.
    assert [c.domain for c in zones] == ["running"] and zones[0].article_title == "zones"
    assert zones[0].source == str((tmp_path / "kb" / "running" / "zones.txt").resolve())
    kb.close()


def test_a_changed_file_has_its_chunks_replaced(tmp_path: Path, embedder: BuiltinEmbedder) -> None:
    root = write_articles(tmp_path / "kb", ARTICLES)
    kb = open_kb(tmp_path / "data", embedder)
    kb.ingest(root)
    lead, how = ids_of(kb, "Deload")
    total = kb.count()

    # Rewrite the lead, drop the "How" section.
    (root / "strength" / "deload.md").write_text(f"# Deload\n\n{_words('resting from heavy barbell work')}\n")
    report = kb.ingest(root)
    assert (report.updated, report.unchanged, report.chunks_written, report.chunks_deleted) == (1, 2, 1, 1)
    assert ids_of(kb, "Deload") == [lead]  # the same place keeps its id
    assert "resting from heavy barbell work" in kb.article_chunks("Deload")[0].text
    assert kb.count() == total - 1
    found = kb.search("cutting sets by half", top_k=10)
    assert how not in [c.chunk_id for c in found]
    assert all("cutting sets by half" not in c.text for c in found)
    kb.close()


def test_a_deleted_file_has_its_chunks_removed(tmp_path: Path, embedder: BuiltinEmbedder) -> None:
    root = write_articles(tmp_path / "kb", ARTICLES)
    kb = open_kb(tmp_path / "data", embedder)
    kb.ingest(root)
    protein = ids_of(kb, "Protein")
    total = kb.count()

    (root / "nutrition" / "protein.md").unlink()
    report = kb.ingest(root)
    assert (report.removed, report.chunks_deleted) == (1, len(protein))
    assert kb.article_chunks("Protein") == [] and kb.count() == total - len(protein)
    assert all(c.article_title != "Protein" for c in kb.search("grams of protein per kilogram", top_k=10))
    kb.close()


def test_ingesting_one_file_leaves_the_rest_of_its_folder_alone(tmp_path: Path, embedder) -> None:
    root = write_articles(tmp_path / "kb", ARTICLES)
    kb = open_kb(tmp_path / "data", embedder)
    kb.ingest(root)
    report = kb.ingest(root / "strength" / "deload.md")
    assert (report.files, report.unchanged, report.removed) == (1, 1, 0)
    assert kb.article_chunks("Protein")
    kb.close()


def test_unreadable_files_are_reported_by_path_and_skipped(tmp_path: Path, embedder: BuiltinEmbedder) -> None:
    root = write_articles(tmp_path / "kb", ARTICLES)
    (root / "strength" / "latin1.md").write_bytes("# Caf\xe9\n\nbad bytes".encode("latin-1"))
    (root / "strength" / "folder.md").mkdir()  # a directory with an article's name
    (root / "mystery").mkdir()
    (root / "mystery" / "note.md").write_text("# Note\n\nsome text")
    kb = open_kb(tmp_path / "data", embedder)

    report = kb.ingest(root, known_domains=["strength", "nutrition", "running"])
    skipped = dict(report.skipped)
    assert set(skipped) == {
        str(root / "strength" / "latin1.md"),
        str(root / "strength" / "folder.md"),
        str(root / "mystery" / "note.md"),
    }
    assert "UTF-8" in skipped[str(root / "strength" / "latin1.md")]
    assert "--domain" in skipped[str(root / "mystery" / "note.md")]
    assert report.added == 3
    kb.close()


def test_domain_option_overrides_the_folder(tmp_path: Path, embedder: BuiltinEmbedder) -> None:
    root = write_articles(tmp_path / "kb", {"notes/a.md": f"# A\n\n{_words('stretching')}\n"})
    kb = open_kb(tmp_path / "data", embedder)
    kb.ingest(root, domain="general_fitness", known_domains=["general_fitness"])
    assert [c.domain for c in kb.article_chunks("A")] == ["general_fitness"]
    kb.close()


def test_hidden_folders_are_not_articles(tmp_path: Path, embedder: BuiltinEmbedder) -> None:
    root = write_articles(
        tmp_path / "kb",
        {
            "strength/a.md": f"# A\n\n{_words('squats')}\n",
            "strength/.obsidian/cache.md": "# Cache\n\nnot an article",
            ".git/notes.md": "# Git\n\nnot an article",
        },
    )
    kb = open_kb(tmp_path / "data", embedder)
    report = kb.ingest(root)
    assert (report.files, report.skipped) == (1, [])
    assert kb.article_chunks("Cache") == [] and kb.article_chunks("Git") == []
    kb.close()
