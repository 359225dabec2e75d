"""What the knowledge base hands out: chunks of articles, and what link expansion did."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from engine.outcomes import Citation


class Chunk(BaseModel):
    """One piece of an article: a section, or part of a long one."""

    model_config = ConfigDict(frozen=True)

    chunk_id: str
    """Stable id: the same place in the same file keeps it across re-ingests."""
    article_title: str
    section_path: str = ""
    """Headings above the text, outermost first, joined by `` > ``; empty for an article's lead."""
    text: str
    """The section's text, links rendered as their labels (targets are in ``links``)."""
    domain: str
    source: str
    """Where the article comes from: a path (``engine/domains/knowledge/strength/deload.md``) or a URL."""
    links: list[str] = Field(default_factory=list)
    """Titles of the articles this chunk links to (``[[Wiki Links]]`` and Markdown links to ``.md`` files)."""
    references: list[str] = Field(default_factory=list)
    """The article's public sources (its "Sources" section), one ``title - URL`` per item."""
    ordinal: int = 0
    """Position of the chunk in its article, from 0."""
    score: float = 0.0
    """Search: the reciprocal-rank-fusion score. Expansion: similarity to the query (0 without one)."""
    vector_rank: int | None = None
    """1-based rank in the vector search, if it was found there."""
    vector_similarity: float | None = None
    """Cosine similarity to the query, when known."""
    lexical_rank: int | None = None
    """1-based rank in the BM25 search, if it was found there."""
    depth: int = 0
    """0 for a search result; 1 or 2 for a chunk link expansion added at that depth."""
    via: str | None = None
    """For an added chunk: the title of the article whose link brought it in."""

    @property
    def heading(self) -> str:
        """``Title > Section`` (or the title alone for the lead)."""
        return f"{self.article_title} > {self.section_path}" if self.section_path else self.article_title

    def citation(self, retrieved_at: datetime | None = None) -> Citation:
        """The chunk as something an answer or a plan cites: title, ``article:<chunk id>``, source."""
        return Citation(title=self.heading, ref=f"article:{self.chunk_id}", url=self.source, retrieved_at=retrieved_at)


class ExpansionStats(BaseModel):
    """What one link expansion did (also logged as ``knowledge.expand``)."""

    model_config = ConfigDict(frozen=True)

    enabled: bool
    depth: int
    """The depth asked for (0 when expansion is disabled)."""
    initial_count: int
    links_extracted: dict[int, int] = Field(default_factory=dict)
    """Depth -> distinct article links in the chunks of the level above (followed, missing or already there)."""
    added_per_depth: dict[int, int] = Field(default_factory=dict)
    """Depth -> chunks added at that depth."""
    final_count: int
    missing_links: list[str] = Field(default_factory=list)
    """Linked titles with no article in the knowledge base."""
    skipped_seen: int = 0
    """Links whose article had nothing left to add, or was already taken from at this depth (back-links, cycles)."""
    truncated: bool = False
    """True when the total limit stopped expansion early."""


class ExpansionResult(BaseModel):
    """The initial chunks followed by the chunks expansion added, in order."""

    model_config = ConfigDict(frozen=True)

    chunks: list[Chunk]
    stats: ExpansionStats

    @property
    def initial(self) -> list[Chunk]:
        """The chunks search found (depth 0)."""
        return [c for c in self.chunks if c.depth == 0]

    @property
    def added(self) -> list[Chunk]:
        """The chunks link expansion added (depth 1 and 2)."""
        return [c for c in self.chunks if c.depth > 0]


class IngestReport(BaseModel):
    """What one ingest run did."""

    model_config = ConfigDict(frozen=True)

    files: int = 0
    """Readable files seen."""
    added: int = 0
    """Files new to the knowledge base."""
    updated: int = 0
    """Files whose content (or domain) changed; their old chunks were replaced."""
    unchanged: int = 0
    removed: int = 0
    """Files ingested before that are gone; their chunks were deleted."""
    chunks_written: int = 0
    chunks_deleted: int = 0
    skipped: list[tuple[str, str]] = Field(default_factory=list)
    """``(path, reason)`` for every file that could not be read or placed in a domain."""
