"""The knowledge base's store error, importable without loading Chroma (the lock and the library raise it)."""

from __future__ import annotations


class KnowledgeStoreError(Exception):
    """Chroma cannot be opened or reached; the message says where."""
