"""Turning a person's text into a BM25 query: words only, each quoted, the commonest left out.

User text never reaches FTS5 ``MATCH`` as syntax: only its words (``\\w+``)
are kept, each one quoted, so quotes, parentheses, ``AND``, ``*`` or emoji in
a question cannot raise or change the meaning of the search.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+")
MAX_QUERY_TERMS = 32
# Words in nearly every chunk rank nothing and make BM25 score every row; a
# question keeps its other words ("what is a deload" searches "deload").
STOPWORDS = frozenset(
    {
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "i",
        "in",
        "is",
        "it",
        "my",
        "of",
        "on",
        "or",
        "should",
        "the",
        "to",
        "was",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
        "your",
    }
)


def query_words(text: str) -> list[str]:
    """The distinct words of ``text``, case-folded, common English words left out unless nothing else is left."""
    words = list(dict.fromkeys(w.casefold() for w in _WORD.findall(text)))
    return ([w for w in words if w not in STOPWORDS] or words)[:MAX_QUERY_TERMS]


def quoted(words: list[str]) -> str:
    """An FTS5 expression matching any of ``words``, each one a quoted string."""
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in words)


def fts_query(text: str) -> str | None:
    """An FTS5 query that matches any word of ``text``, every word quoted; None when it has no words."""
    words = query_words(text)
    return quoted(words) if words else None
