"""Reading article files into the knowledge base, idempotently.

Each file is remembered in the manifest with a hash of its content and domain:
an unchanged file is skipped, a changed one has its chunks replaced (ids are
stable: the same place in the same file keeps its id), and a file that is gone
from a folder ingested before has its chunks deleted. Unreadable files are
reported by path and skipped; they keep whatever was ingested from them. So
are files that are no articles: pipes, sockets, devices and broken links are
never opened, and a file over ``MAX_ARTICLE_BYTES`` is never read
(:mod:`engine.knowledge.files`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import structlog

from engine.knowledge.embedding import Embedder
from engine.knowledge.files import MAX_ARTICLE_BYTES, Unreadable, read_article
from engine.knowledge.lexical import LexicalIndex
from engine.knowledge.links import article_key
from engine.knowledge.manifest import Source
from engine.knowledge.markdown import parse_article
from engine.knowledge.model import Chunk, IngestReport
from engine.knowledge.store import ChromaStore, chunk_metadata

log = structlog.get_logger("engine.knowledge")

BUILTIN_KNOWLEDGE_DIR = Path(__file__).resolve().parent.parent / "domains" / "knowledge"
"""The built-in articles: one folder per domain, named as the domain."""
BUILTIN_ORIGIN = "engine/domains/knowledge/"
"""Built-in articles are known by their path in the repository, the same on every install."""
SUFFIXES = frozenset({".md", ".markdown", ".txt"})
CHUNKER_VERSION = "1"
"""Part of every file's hash: changing how files are cut re-ingests them."""

Progress = Callable[[int, int, str], None]
"""``(files done, files in all, a file)``: called before each file (naming it) and after it."""


@dataclass(frozen=True)
class _File:
    path: Path
    origin: str
    domain: str


def embed_text(chunk: Chunk) -> str:
    """What is embedded for a chunk: its title and headings give a short section its topic."""
    return "\n".join(p for p in (chunk.article_title, chunk.section_path, chunk.text) if p)


def _chunk_id(origin: str, section_path: tuple[str, ...], index: int) -> str:
    key = "\x00".join((origin, "\x1f".join(section_path), str(index)))
    return hashlib.blake2b(key.encode("utf-8"), digest_size=10).hexdigest()


def chunks_of(text: str, *, origin: str, domain: str, fallback_title: str) -> tuple[list[Chunk], str, str]:
    """Cut one file's text into chunks.

    Returns:
        The chunks, the article's title key and its file key (for link lookups).
    """
    article = parse_article(text, fallback_title=fallback_title)
    per_section: dict[tuple[str, ...], int] = {}
    chunks = []
    for ordinal, piece in enumerate(article.pieces):
        index = per_section.get(piece.section_path, 0)
        per_section[piece.section_path] = index + 1
        chunks.append(
            Chunk(
                chunk_id=_chunk_id(origin, piece.section_path, index),
                article_title=article.title,
                section_path=" > ".join(piece.section_path),
                text=piece.text,
                domain=domain,
                source=article.url or origin,
                links=piece.links,
                references=article.references,
                ordinal=ordinal,
            )
        )
    return chunks, article_key(article.title), article_key(Path(origin).stem)


class Ingestor:
    """Writes files into both stores (vectors and BM25) and keeps the manifest."""

    def __init__(
        self, store: ChromaStore, lexical: LexicalIndex, embedder: Embedder, *, max_bytes: int = MAX_ARTICLE_BYTES
    ) -> None:
        self._store = store
        self._lexical = lexical
        self._embedder = embedder
        self._max_bytes = max_bytes

    def ingest_path(
        self,
        path: Path,
        *,
        domain: str | None = None,
        known_domains: Collection[str] | None = None,
        progress: Progress | None = None,
    ) -> IngestReport:
        """Ingest a file, or every ``.md``/``.markdown``/``.txt`` file under a folder.

        Args:
            path: A file or a folder.
            domain: The domain of every file; None takes each file's parent folder name.
            known_domains: When given, a file whose domain is not one of these is skipped.
            progress: Called before and after each file.

        Returns:
            What was added, updated, removed and skipped.
        """
        root = path.expanduser().resolve()
        files, skipped = _discover(root, domain, known_domains, origin=lambda p: str(p))
        prefix = str(root) + "/" if root.is_dir() else str(root)
        return self._sync(
            files, skipped, in_scope=lambda origin: origin == prefix or origin.startswith(prefix), progress=progress
        )

    def ingest_builtin(self, progress: Progress | None = None) -> IngestReport:
        """Bring the built-in articles up to date, and re-ingest any file a model change left without vectors."""
        files, skipped = _discover(
            BUILTIN_KNOWLEDGE_DIR,
            None,
            None,
            origin=lambda p: BUILTIN_ORIGIN + p.relative_to(BUILTIN_KNOWLEDGE_DIR).as_posix(),
        )
        report = self._sync(files, skipped, in_scope=lambda o: o.startswith(BUILTIN_ORIGIN), progress=progress)
        stale = [
            s
            for s in self._lexical.manifest.sources()
            if not s.content_hash and not s.origin.startswith(BUILTIN_ORIGIN)
        ]
        if not stale:
            return report
        for source in stale:
            if not Path(source.origin).is_file():
                self._lexical.manifest.forget(source.origin)  # its vectors went with the old model
        again = [_File(Path(s.origin), s.origin, s.domain) for s in stale if Path(s.origin).is_file()]
        other = self._sync(again, [], in_scope=lambda origin: False, progress=progress)
        return _sum(report, other)

    def _sync(
        self,
        files: Sequence[_File],
        skipped: list[tuple[str, str]],
        *,
        in_scope: Callable[[str], bool],
        progress: Progress | None,
    ) -> IngestReport:
        counts = {"files": 0, "added": 0, "updated": 0, "unchanged": 0, "removed": 0, "written": 0, "deleted": 0}
        seen: set[str] = set()
        for done, file in enumerate(files, start=1):
            seen.add(file.origin)
            if progress is not None:
                progress(done - 1, len(files), str(file.path))  # a slow file is named while it is worked on
            try:
                raw, text = read_article(file.path, self._max_bytes)
            except Unreadable as exc:
                skipped.append((str(file.path), str(exc)))
            else:
                counts["files"] += 1
                outcome, written, deleted = self._file(file, raw, text)
                counts[outcome] += 1
                counts["written"] += written
                counts["deleted"] += deleted
            if progress is not None:
                progress(done, len(files), str(file.path))
        for source in self._lexical.manifest.sources():
            if in_scope(source.origin) and source.origin not in seen:
                self._drop(source.chunk_ids)
                self._lexical.manifest.forget(source.origin)
                counts["removed"] += 1
                counts["deleted"] += len(source.chunk_ids)
        report = IngestReport(
            files=counts["files"],
            added=counts["added"],
            updated=counts["updated"],
            unchanged=counts["unchanged"],
            removed=counts["removed"],
            chunks_written=counts["written"],
            chunks_deleted=counts["deleted"],
            skipped=skipped,
        )
        log.info("knowledge.ingest", **report.model_dump(exclude={"skipped"}), skipped=len(skipped))
        return report

    def _file(self, file: _File, raw: bytes, text: str) -> tuple[str, int, int]:
        digest = hashlib.blake2b(digest_size=16)
        for part in (CHUNKER_VERSION.encode(), file.domain.encode(), raw):
            digest.update(part + b"\x00")
        content_hash = digest.hexdigest()
        previous = self._lexical.manifest.source(file.origin)
        if previous is not None and previous.content_hash == content_hash:
            return "unchanged", 0, 0
        fallback = file.path.stem.replace("-", " ").replace("_", " ")
        chunks, akey, fkey = chunks_of(text, origin=file.origin, domain=file.domain, fallback_title=fallback)
        if chunks:
            vectors = self._embedder.embed_documents([embed_text(c) for c in chunks])
            self._store.upsert(
                [c.chunk_id for c in chunks],
                [c.text for c in chunks],
                [chunk_metadata(c, article_key=akey, file_key=fkey) for c in chunks],
                vectors,
            )
            self._lexical.put((c, akey, fkey) for c in chunks)
        ids = [c.chunk_id for c in chunks]
        stale = sorted(set(previous.chunk_ids) - set(ids)) if previous is not None else []
        self._drop(stale)
        self._lexical.manifest.record(
            Source(file.origin, file.domain, content_hash, ids), datetime.now(UTC).isoformat()
        )
        # A file whose vectors went with a model change is new to this collection.
        outcome = "updated" if previous is not None and previous.content_hash else "added"
        return outcome, len(chunks), len(stale)

    def _drop(self, ids: Sequence[str]) -> None:
        if ids:
            self._store.delete(ids)
            self._lexical.delete(ids)


def _discover(
    root: Path, domain: str | None, known: Collection[str] | None, *, origin: Callable[[Path], str]
) -> tuple[list[_File], list[tuple[str, str]]]:
    skipped: list[tuple[str, str]] = []
    if root.is_dir():
        paths = sorted(
            p
            for p in root.rglob("*")
            # Hidden folders (.git, .obsidian) and files hold no articles.
            if p.suffix.lower() in SUFFIXES and not any(part.startswith(".") for part in p.relative_to(root).parts)
        )
    elif root.exists():  # a file, or a pipe or device named on its own: read_article says why it is no article
        paths = [root]
    else:
        return [], [(str(root), "no such file or folder")]
    files = []
    for path in paths:
        name = domain or path.parent.name
        if known is not None and name not in known:
            skipped.append((str(path), f"cannot tell its domain ({name!r} is not one); pass --domain"))
            continue
        files.append(_File(path, origin(path), name))
    return files, skipped


def _sum(a: IngestReport, b: IngestReport) -> IngestReport:
    return IngestReport(
        files=a.files + b.files,
        added=a.added + b.added,
        updated=a.updated + b.updated,
        unchanged=a.unchanged + b.unchanged,
        removed=a.removed + b.removed,
        chunks_written=a.chunks_written + b.chunks_written,
        chunks_deleted=a.chunks_deleted + b.chunks_deleted,
        skipped=a.skipped + b.skipped,
    )
