"""The BM25 side of the knowledge base, the chunk table and the ingest manifest: one SQLite file with FTS5.

Chroma answers "which vectors are nearest"; this file answers everything
else fast: BM25, a chunk by id, the chunks of an article by title or file
name, and which files were ingested with which hash. User text reaches
``MATCH`` only as quoted words (:mod:`engine.knowledge.words`).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from engine.knowledge.manifest import Manifest
from engine.knowledge.model import Chunk
from engine.knowledge.words import query_words, quoted

SCHEMA = """
CREATE TABLE IF NOT EXISTS chunks (
    rowid         INTEGER PRIMARY KEY,
    chunk_id      TEXT NOT NULL UNIQUE,
    article_title TEXT NOT NULL,
    article_key   TEXT NOT NULL,          -- links.article_key(title)
    file_key      TEXT NOT NULL,          -- links.article_key(file name without suffix)
    section_path  TEXT NOT NULL,
    text          TEXT NOT NULL,
    domain        TEXT NOT NULL,
    source        TEXT NOT NULL,
    links         TEXT NOT NULL,          -- JSON list of linked titles
    refs          TEXT NOT NULL,          -- JSON list of the article's sources
    ordinal       INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_article ON chunks (article_key);
CREATE INDEX IF NOT EXISTS chunks_file ON chunks (file_key);
-- domain_tag is 'd' + the domain's hex, one token, so a domain filter is part
-- of the MATCH (an intersection of doclists) instead of a filter on every hit.
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5 (
    article_title, section_path, text, domain_tag, content='chunks', content_rowid='rowid',
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS chunks_fts_ai AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts (rowid, article_title, section_path, text, domain_tag)
    VALUES (new.rowid, new.article_title, new.section_path, new.text, 'd' || lower(hex(new.domain)));
END;
CREATE TRIGGER IF NOT EXISTS chunks_fts_ad AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts (chunks_fts, rowid, article_title, section_path, text, domain_tag)
    VALUES ('delete', old.rowid, old.article_title, old.section_path, old.text, 'd' || lower(hex(old.domain)));
END;
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_terms USING fts5vocab (chunks_fts, 'row');
CREATE TABLE IF NOT EXISTS sources (
    origin       TEXT PRIMARY KEY,        -- the file ingested: a repository path or an absolute path
    domain       TEXT NOT NULL,
    content_hash TEXT NOT NULL,           -- empty: must be ingested again (after a model change)
    chunk_ids    TEXT NOT NULL,           -- JSON list
    ingested_at  TEXT NOT NULL
);
"""

# Title matches count most, then section headings, then body text; the domain tag not at all.
_BM25 = "bm25(chunks_fts, 4.0, 2.0, 1.0, 0.0)"
_WORD_COLUMNS = "{article_title section_path text}"
PRUNE_FROM = 5000
"""From this many chunks on, a query's words are pruned to bound BM25's work (see ``_pruned``)."""
COMMON_SHARE = 0.3
"""Words in more than this share of the chunks are left out (while another word remains)."""
MAX_POSTINGS = 30_000
"""Most chunk matches a BM25 query may have to score: FTS5 scores every chunk any query word is in."""
# BM25 weighs a word by log((N - n) / n) for n of N chunks: at 30 % that is a
# tenth of a rare word's weight, yet FTS5 spends about a microsecond on every
# chunk each word is in, rare or not. Over 100,000 chunks (bench/knowledge.py)
# pruning took BM25 from p50 33 / p95 100 ms to p50 19 / p95 47 ms.


def _domain_tag(domain: str) -> str:
    return "d" + domain.encode("utf-8").hex()


def _chunk(row: sqlite3.Row) -> Chunk:
    return Chunk(
        chunk_id=row["chunk_id"],
        article_title=row["article_title"],
        section_path=row["section_path"],
        text=row["text"],
        domain=row["domain"],
        source=row["source"],
        links=json.loads(row["links"]),
        references=json.loads(row["refs"]),
        ordinal=row["ordinal"],
    )


Keyed = tuple[Chunk, str, str]
"""A chunk with its article's title key and file key."""


class LexicalIndex:
    """BM25 over chunk titles, headings and text, plus the manifest of ingested files.

    Threads call in (``asyncio.to_thread``, the BM25 worker): writes and BM25 share one connection behind a
    lock; lookups by id or article use a second one (WAL lets it read meanwhile), so hydrating vector hits
    does not wait for a slow BM25 query.
    """

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        self._path = path
        self._reader: sqlite3.Connection | None = None
        self._read_lock = threading.Lock()
        self._count: int | None = None
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            # The same tokenizer as chunks_fts, to learn how FTS5 stems a query's words.
            self._db.executescript(
                "CREATE VIRTUAL TABLE temp.query_words USING fts5 (word, tokenize='porter unicode61 remove_diacritics 2');"
                "CREATE VIRTUAL TABLE temp.query_stems USING fts5vocab (temp, query_words, 'instance');"
            )

    def close(self) -> None:
        with self._lock, self._read_lock:
            self._db.close()
            if self._reader is not None:
                self._reader.close()

    def _read(self) -> sqlite3.Connection:
        # Opened after the schema exists; called with _read_lock held.
        if self._reader is None:
            self._reader = sqlite3.connect(self._path, check_same_thread=False, isolation_level=None)
            self._reader.row_factory = sqlite3.Row
        return self._reader

    def count(self) -> int:
        with self._lock:
            return self._chunks()

    def _chunks(self) -> int:
        # Cached between writes: the search asks on every query.
        if self._count is None:
            self._count = int(self._db.execute("SELECT count(*) FROM chunks").fetchone()[0])
        return self._count

    def put(self, chunks: Iterable[Keyed]) -> None:
        """Insert or replace chunks by id."""
        rows = [
            (
                c.chunk_id,
                c.article_title,
                akey,
                fkey,
                c.section_path,
                c.text,
                c.domain,
                c.source,
                json.dumps(c.links, ensure_ascii=False),
                json.dumps(c.references, ensure_ascii=False),
                c.ordinal,
            )
            for c, akey, fkey in chunks
        ]
        with self._lock:
            self._count = None
            self._db.execute("BEGIN")
            try:
                # DELETE then INSERT (not REPLACE) so the FTS delete trigger sees the old row.
                self._db.executemany("DELETE FROM chunks WHERE chunk_id = ?", [(r[0],) for r in rows])
                self._db.executemany(
                    "INSERT INTO chunks (chunk_id, article_title, article_key, file_key, section_path, text, domain,"
                    " source, links, refs, ordinal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    rows,
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def get(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """The chunks with these ids (unknown ids are left out)."""
        found: dict[str, Chunk] = {}
        with self._read_lock:
            for i in range(0, len(ids), 500):
                part = list(ids[i : i + 500])
                sql = f"SELECT * FROM chunks WHERE chunk_id IN ({','.join('?' * len(part))})"
                found.update((row["chunk_id"], _chunk(row)) for row in self._read().execute(sql, part))
        return found

    def by_keys(self, keys: Sequence[str]) -> list[Keyed]:
        """Every chunk of the articles whose title key or file key is one of ``keys``, in article order."""
        if not keys:
            return []
        marks = ",".join("?" * len(keys))
        sql = (
            f"SELECT * FROM chunks WHERE article_key IN ({marks})"
            f" UNION SELECT * FROM chunks WHERE file_key IN ({marks}) ORDER BY source, ordinal"
        )
        with self._read_lock:
            rows = self._read().execute(sql, [*keys, *keys]).fetchall()
        return [(_chunk(row), row["article_key"], row["file_key"]) for row in rows]

    def delete(self, ids: Sequence[str]) -> None:
        with self._lock:
            self._count = None
            self._db.executemany("DELETE FROM chunks WHERE chunk_id = ?", [(i,) for i in ids])

    def reset(self, *, keep_manifest: bool = False) -> None:
        """Forget every chunk; unless told to keep the manifest, mark every known file for ingesting again."""
        with self._lock:
            self._count = None
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM chunks")
            if not keep_manifest:
                self._db.execute("UPDATE sources SET content_hash = '', chunk_ids = '[]'")
            self._db.execute("COMMIT")

    def search(self, text: str, n: int, domains: Sequence[str] | None, keywords: Sequence[str] = ()) -> list[Chunk]:
        """The ``n`` best BM25 matches for the words of ``text`` and ``keywords``, best first.

        ``keywords`` (the domain vocabulary's terms) are kept first when a large
        collection forces the query to be pruned.
        """
        words = query_words(" ".join([text, *keywords]))
        if not words or n <= 0:
            return []
        with self._lock:
            if len(words) > 1 and self._chunks() >= PRUNE_FROM:
                words = self._pruned(words, set(query_words(" ".join(keywords))))
            match = f"{_WORD_COLUMNS} : ({quoted(words)})"
            if domains:
                tags = " OR ".join(f'"{_domain_tag(d)}"' for d in domains)
                match = f"({match}) AND (domain_tag : ({tags}))"
            # Rank inside FTS first, then join only the winners to their rows.
            sql = (
                f"SELECT c.* FROM (SELECT rowid, {_BM25} AS score FROM chunks_fts WHERE chunks_fts MATCH ?"
                f" ORDER BY score LIMIT ?) AS hit JOIN chunks c ON c.rowid = hit.rowid ORDER BY hit.score"
            )
            return [_chunk(row) for row in self._db.execute(sql, (match, n))]

    def _pruned(self, words: list[str], preferred: set[str]) -> list[str]:
        """The words worth scoring: not in more than COMMON_SHARE of the chunks, at most MAX_POSTINGS matches.

        Preferred words (vocabulary terms) come first, then the rarest; the first word always stays.
        """
        df = self._document_counts(words)
        limit = COMMON_SHARE * self._chunks()
        useful = [w for w in words if df[w] <= limit] or [min(words, key=lambda w: df[w])]
        kept: list[str] = []
        postings = 0
        for word in sorted(useful, key=lambda w: (w not in preferred, df[w])):
            if kept and postings + df[word] > MAX_POSTINGS:
                continue
            kept.append(word)
            postings += df[word]
        return kept

    def _document_counts(self, words: list[str]) -> dict[str, int]:
        """How many chunks each word is in, through FTS5's own stemming; called with the lock held."""
        self._db.execute("DELETE FROM temp.query_words")
        self._db.executemany("INSERT INTO temp.query_words (rowid, word) VALUES (?, ?)", enumerate(words, start=1))
        stems = {doc: term for term, doc in self._db.execute("SELECT term, doc FROM temp.query_stems")}
        marks = ",".join("?" * len(stems))
        counts = dict(
            self._db.execute(f"SELECT term, doc FROM chunks_terms WHERE term IN ({marks})", list(stems.values()))
        )
        return {w: int(counts.get(stems.get(i, ""), 0)) for i, w in enumerate(words, start=1)}

    @property
    def manifest(self) -> Manifest:
        """The files ingested so far, in the same database."""
        return Manifest(self._db, self._lock)
