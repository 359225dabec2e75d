"""Test doubles that run as real local servers."""

from .ollama_server import (
    DEFAULT_MODEL,
    EMBED_TITLE,
    TEXT_TITLE,
    Delay,
    Fail,
    FakeOllama,
    Hang,
    RecordedRequest,
    Reply,
    fake_embedding,
)

__all__ = [
    "DEFAULT_MODEL",
    "EMBED_TITLE",
    "TEXT_TITLE",
    "Delay",
    "Fail",
    "FakeOllama",
    "Hang",
    "RecordedRequest",
    "Reply",
    "fake_embedding",
]
