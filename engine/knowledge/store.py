"""The vector side of the knowledge base: one Chroma collection.

Chroma's default embedding function downloads a model on first use, which
fails offline; it must never run. The collection therefore always gets
Almanac's own embedding function, and every write and query passes vectors
computed by Almanac's embedder. Telemetry is off.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

import chromadb
import httpx
import numpy as np
import structlog
from chromadb.api import ClientAPI
from chromadb.api.models.Collection import Collection
from chromadb.api.types import (
    Documents,
    Embeddable,
    EmbeddingFunction,
    Embeddings,
    Metadata,
    Where,
)
from chromadb.config import Settings as ChromaSettings
from chromadb.errors import AuthorizationError, ChromaAuthError

from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.embedding import Embedder, Vectors
from engine.knowledge.errors import KnowledgeStoreError as KnowledgeStoreError  # raised here, defined without Chroma
from engine.knowledge.lexical import LexicalIndex
from engine.knowledge.model import Chunk

log = structlog.get_logger("engine.knowledge")

MODEL_KEY = "embedding_model"
"""Collection metadata key holding the embedder's ``model_id``."""


class AlmanacEmbeddingFunction(EmbeddingFunction[Documents]):
    """Chroma's view of Almanac's embedder, so Chroma never falls back to its downloading default."""

    def __init__(self, embedder: Embedder | None = None) -> None:
        self._embedder = embedder

    def __call__(self, input: Documents) -> Embeddings:
        if self._embedder is None:
            raise KnowledgeStoreError("open the knowledge base through engine.knowledge, which brings the embedder")
        return list(self._embedder.embed_documents(list(input)))

    def embed_query(self, input: Documents) -> Embeddings:
        if self._embedder is None:
            raise KnowledgeStoreError("open the knowledge base through engine.knowledge, which brings the embedder")
        return [self._embedder.embed_query(text) for text in input]

    @staticmethod
    def name() -> str:
        return "almanac"

    def get_config(self) -> dict[str, Any]:
        return {"model_id": self._embedder.model_id if self._embedder is not None else ""}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> AlmanacEmbeddingFunction:
        # Chroma rebuilds the function from the stored config when it reads the
        # collection's configuration; that copy has no model and refuses to embed.
        return AlmanacEmbeddingFunction()

    def default_space(self) -> Any:
        return "cosine"


TOKEN_REFUSED = "the Chroma server refused the token: CHROMA_TOKEN is {what}"
"""What a 401 or 403 from the server (its token-checking proxy) becomes; the token itself is never repeated."""


@contextmanager
def _failures(action: str) -> Iterator[None]:
    """Chroma's many exception kinds (HTTP, Rust bindings, values) as one typed error."""
    try:
        yield
    except (ChromaAuthError, AuthorizationError) as exc:
        # The proxy's 401 body is Chroma-shaped JSON, so chromadb raises its auth error: say what to fix.
        raise KnowledgeStoreError(
            f"Chroma could not {action}: {TOKEN_REFUSED.format(what='missing or wrong')}"
        ) from exc
    except Exception as exc:
        raise KnowledgeStoreError(f"Chroma could not {action}: {exc}") from exc


def _headers(config: KnowledgeConfig) -> dict[str, str]:
    # A new dict each time: chromadb's client adds its own headers to the dict it is given.
    if config.chroma_token is None:
        return {}
    return {"Authorization": f"Bearer {config.chroma_token.get_secret_value()}"}


def _server(config: KnowledgeConfig) -> tuple[str, bool]:
    """The server's host name (no scheme) and whether it speaks HTTPS."""
    host = config.chroma_host or ""
    ssl = host.startswith("https://")
    return host.removeprefix("https://").removeprefix("http://").rstrip("/"), ssl


def _check_token(config: KnowledgeConfig) -> None:
    """Ask the server's heartbeat with the token before chromadb does.

    A proxy answers a missing or wrong token with 401 and a body of its own
    (nginx's is HTML), which chromadb would pass on as the text of a bare
    ``Exception``; the status code, read here, says what to fix whatever the proxy.

    Raises:
        KnowledgeStoreError: The server answered 401 or 403.
    """
    host, ssl = _server(config)
    url = f"{'https' if ssl else 'http'}://{host}:{config.chroma_port}/api/v2/heartbeat"
    try:
        status = httpx.get(url, headers=_headers(config), timeout=10.0).status_code
    except httpx.HTTPError:
        return  # unreachable: chromadb's own attempt fails next, and its error names the address
    if status in (401, 403):
        what = "not set" if config.chroma_token is None else "not the one the server's proxy expects"
        raise KnowledgeStoreError(f"{TOKEN_REFUSED.format(what=what)} ({host}:{config.chroma_port} answered {status})")


def _client(config: KnowledgeConfig) -> ClientAPI:
    settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    if config.chroma_host:
        _check_token(config)
        host, ssl = _server(config)
        return chromadb.HttpClient(
            host=host, port=config.chroma_port, ssl=ssl, headers=_headers(config), settings=settings
        )
    config.chroma_dir.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(config.chroma_dir), settings=settings)


def chunk_metadata(chunk: Chunk, *, article_key: str, file_key: str) -> Metadata:
    """What Chroma keeps beside a chunk's text (lists only when non-empty: Chroma rejects empty ones)."""
    meta: dict[str, Any] = {
        "article_title": chunk.article_title,
        "article_key": article_key,
        "file_key": file_key,
        "section_path": chunk.section_path,
        "domain": chunk.domain,
        "source": chunk.source,
        "ordinal": chunk.ordinal,
    }
    if chunk.links:
        meta["links"] = list(chunk.links)
    if chunk.references:
        meta["references"] = list(chunk.references)
    return cast(Metadata, meta)


def chunk_from(chunk_id: str, text: str, meta: Any) -> Chunk:
    """A chunk back from Chroma's ``document`` and ``metadata``."""
    return Chunk(
        chunk_id=chunk_id,
        article_title=str(meta.get("article_title", "")),
        section_path=str(meta.get("section_path", "")),
        text=text,
        domain=str(meta.get("domain", "")),
        source=str(meta.get("source", "")),
        links=[str(x) for x in meta.get("links") or []],
        references=[str(x) for x in meta.get("references") or []],
        ordinal=int(meta.get("ordinal", 0)),
    )


def domain_filter(domains: Sequence[str] | None) -> Where | None:
    """Chroma's ``where`` for "in one of these domains" (None: every domain)."""
    if not domains:
        return None
    return cast(Where, {"domain": {"$in": list(domains)}})


class ChromaStore:
    """The collection of chunk vectors, with the text and metadata of every chunk."""

    def __init__(self, client: ClientAPI, collection: Collection) -> None:
        self._client = client
        self._collection = collection

    @classmethod
    def open(cls, config: KnowledgeConfig, embedder: Embedder) -> tuple[ChromaStore, bool]:
        """Open (or create) the collection for this embedder.

        Returns:
            The store, and True when the collection was (re)created empty
            because it was new or held vectors of another model.

        Raises:
            KnowledgeStoreError: Chroma cannot be opened or reached.
        """
        try:
            client = _client(config)
            collection, created = cls._collection_for(client, config.collection, embedder)
        except KnowledgeStoreError:
            raise
        except Exception as exc:  # chromadb raises many kinds (HTTP, Rust bindings, value errors)
            where = f"{config.chroma_host}:{config.chroma_port}" if config.chroma_host else str(config.chroma_dir)
            raise KnowledgeStoreError(f"cannot open the knowledge base at {where}: {exc}") from exc
        return cls(client, collection), created

    @staticmethod
    def _collection_for(client: ClientAPI, name: str, embedder: Embedder) -> tuple[Collection, bool]:
        def get_or_create() -> Collection:
            return client.get_or_create_collection(
                name,
                embedding_function=cast("EmbeddingFunction[Embeddable]", AlmanacEmbeddingFunction(embedder)),
                metadata={MODEL_KEY: embedder.model_id},
                configuration={"hnsw": {"space": "cosine"}},
            )

        collection = get_or_create()
        stored = (collection.metadata or {}).get(MODEL_KEY)
        if stored == embedder.model_id:
            return collection, collection.count() == 0
        # Vectors of another model cannot be compared with this one's: start over.
        log.warning("knowledge.reindex", collection=name, was=stored, now=embedder.model_id)
        client.delete_collection(name)
        return get_or_create(), True

    def count(self) -> int:
        with _failures("count chunks"):
            return self._collection.count()

    def model_id(self) -> str | None:
        """The ``model_id`` stored with the collection."""
        value = (self._collection.metadata or {}).get(MODEL_KEY)
        return str(value) if value is not None else None

    def upsert(self, ids: Sequence[str], texts: Sequence[str], metadatas: Sequence[Metadata], vectors: Vectors) -> None:
        """Write chunks (same id: replaced), in batches Chroma accepts."""
        with _failures("store chunks"):
            step = max(1, min(5000, self._client.get_max_batch_size()))
            for i in range(0, len(ids), step):
                self._collection.upsert(
                    ids=list(ids[i : i + step]),
                    documents=list(texts[i : i + step]),
                    metadatas=list(metadatas[i : i + step]),
                    embeddings=vectors[i : i + step],
                )

    def delete(self, ids: Sequence[str]) -> None:
        with _failures("delete chunks"):
            for i in range(0, len(ids), 5000):
                self._collection.delete(ids=list(ids[i : i + 5000]))

    def nearest(self, vector: Vectors, n: int, domains: Sequence[str] | None = None) -> list[tuple[str, float]]:
        """Ids of the ``n`` chunks nearest to ``vector`` with their cosine similarity, best first.

        Only ids and distances come back: the chunks themselves are read from the
        BM25 index's table, which is faster than Chroma's documents and metadata.
        A ``domains`` filter makes Chroma check metadata for every candidate
        (about 100 ms at 100,000 chunks); callers over-fetch unfiltered first.
        """
        if n <= 0:
            return []
        with _failures("search"):
            result = self._collection.query(
                query_embeddings=vector.reshape(1, -1), n_results=n, where=domain_filter(domains), include=["distances"]
            )
        dists = (result["distances"] or [[]])[0]
        return [(cid, 1.0 - float(d)) for cid, d in zip(result["ids"][0], dists, strict=True)]

    def vectors(self, ids: Sequence[str]) -> dict[str, Vectors]:
        """The stored vectors of these chunks (unknown ids are left out)."""
        if not ids:
            return {}
        with _failures("read vectors"):
            got = self._collection.get(ids=list(ids), include=["embeddings"])
        vectors: Any = got.get("embeddings")
        if vectors is None:
            return {}
        return {cid: np.asarray(vec, dtype=np.float32) for cid, vec in zip(got["ids"], vectors, strict=True)}

    def copy_into(self, lexical: LexicalIndex) -> None:
        """Refill the BM25 table from the collection (lost, or filled by another replica)."""
        # The vectors are there, so the manifest stays true; only the table is refilled.
        lexical.reset(keep_manifest=True)
        for ids, texts, metas in self.pages():
            lexical.put(
                (
                    chunk_from(cid, text, meta or {}),
                    str((meta or {}).get("article_key", "")),
                    str((meta or {}).get("file_key", "")),
                )
                for cid, text, meta in zip(ids, texts, metas, strict=True)
            )
        log.info("knowledge.bm25_rebuilt", chunks=lexical.count())

    def pages(self, size: int = 1000) -> Iterator[tuple[list[str], list[str], list[Any]]]:
        """Every chunk's id, text and metadata, a page at a time (to rebuild the BM25 index)."""
        offset = 0
        while True:
            with _failures("read chunks"):
                got = self._collection.get(limit=size, offset=offset, include=["documents", "metadatas"])
            if not got["ids"]:
                return
            yield list(got["ids"]), [d or "" for d in got["documents"] or []], list(got["metadatas"] or [])
            offset += len(got["ids"])
