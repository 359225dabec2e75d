"""The knowledge base's settings, handed in by ``bot/config.py`` (nothing here reads the environment)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr


class KnowledgeConfig(BaseModel):
    """Where the knowledge base lives, how it embeds, and how far link expansion reaches."""

    model_config = ConfigDict(frozen=True)

    data_dir: Path
    """Folder of the embedded stores: ``chroma/`` (vectors) and ``knowledge.db`` (BM25 index, ingest manifest)."""
    chroma_host: str | None = None
    """A Chroma server (``chroma run``) to use instead of the embedded one; the BM25 index stays local."""
    chroma_port: int = Field(default=8000, ge=1, le=65535)
    chroma_token: SecretStr | None = None
    """Sent on every request to the server as ``Authorization: Bearer …``; Chroma 1.x checks no token itself,
    so a proxy in front of it does (``deploy/chroma-proxy/``). None: no header."""
    collection: str = "almanac-knowledge"
    """Chroma collection name (3-512 characters of ``[a-zA-Z0-9._-]``)."""
    embedding_backend: Literal["builtin", "ollama"] = "builtin"
    """``builtin``: the multilingual model shipped in a Python package (offline); ``ollama``: ``/api/embed``."""
    embedding_model: str = "bge-m3"
    """The Ollama embedding model, when ``embedding_backend`` is ``ollama``."""
    ollama_host: str = "http://localhost:11434"
    ollama_timeout_s: float = Field(default=120.0, gt=0)
    top_k: int = Field(default=5, ge=1, le=50)
    """Chunks a search returns before link expansion."""
    expansion_enabled: bool = True
    expansion_depth: int = Field(default=1, ge=0, le=2)
    """How many hops of article links expansion follows by default (0 = none)."""
    expansion_max_chunks: int = Field(default=30, ge=1, le=500)
    """Most chunks after expansion, the initial ones included."""

    @property
    def chroma_dir(self) -> Path:
        """The embedded Chroma's folder (unused with a Chroma server)."""
        return self.data_dir / "chroma"

    @property
    def lexical_db(self) -> Path:
        """The SQLite file holding the BM25 (FTS5) index and the ingest manifest."""
        return self.data_dir / "knowledge.db"
