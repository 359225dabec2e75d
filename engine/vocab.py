"""Vocabulary normalization, shared by the stored side and the query side.

A log written as "벤치프레스 55키로" and a question asking "how was my bench?"
must meet on the same canonical term (``bench press``), so both sides run
their text through the same :class:`Vocabulary`.

Matching rules:

* Text and spellings are NFC-normalized and casefolded; runs of whitespace
  inside a spelling match any run of whitespace in the text.
* At any position the longest spelling wins (``벤치프레스`` beats ``벤치``),
  and matches never overlap.
* A spelling edge that is a non-Hangul letter only matches next to a
  non-letter, so ``bench`` misses ``benchmark`` and ``dl`` misses ``handle``.
  Digits and Hangul count as non-letters there: ``bench55kg`` and
  ``bench를`` both find ``bench``.
* A spelling edge that is a digit must not touch another digit.
* A Hangul edge matches as a substring, because Korean attaches particles
  (``벤치프레스를``, ``스쿼트는``, ``데드리프트도``).
* When two canonicals claim one spelling, the first one seen keeps it and
  the clash is recorded in :attr:`Vocabulary.conflicts`; nothing is silently
  redefined by a later domain.

Offsets in a :class:`Match` index the NFC form of the text, which is the text
itself for ordinary chat input.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

_WHITESPACE = re.compile(r"\s+")

# Hangul jamo, compatibility jamo, jamo extensions and syllables.
_HANGUL = "\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7a3\ud7b0-\ud7ff"
_HANGUL_CHAR = re.compile(f"[{_HANGUL}]")
# "A letter that is not Hangul": Korean particles may touch a Latin spelling.
_NO_LETTER_BEFORE = rf"(?<![^\W\d_{_HANGUL}])"
_NO_LETTER_AFTER = rf"(?![^\W\d_{_HANGUL}])"
_NO_DIGIT_BEFORE = r"(?<!\d)"
_NO_DIGIT_AFTER = r"(?!\d)"


@dataclass(frozen=True, slots=True)
class Match:
    """One vocabulary hit in a text."""

    canonical: str
    """The canonical term the spelling stands for."""
    spelling: str
    """The vocabulary spelling that matched, as the vocabulary wrote it."""
    start: int
    """Start offset in the (NFC) text."""
    end: int
    """End offset (exclusive) in the (NFC) text."""


@dataclass(frozen=True, slots=True)
class Conflict:
    """A spelling claimed by two canonical terms; the first claim was kept."""

    spelling: str
    kept: str
    dropped: str


def _key(text: str) -> str:
    """Fold text the way matching sees it."""
    folded = unicodedata.normalize("NFC", text).casefold()
    return _WHITESPACE.sub(" ", folded).strip()


def _edge_guard(char: str, *, before: bool) -> str:
    """Return the boundary assertion that a spelling edge character needs."""
    if _HANGUL_CHAR.match(char):
        return ""
    if char.isdecimal():
        return _NO_DIGIT_BEFORE if before else _NO_DIGIT_AFTER
    if char.isalpha():
        return _NO_LETTER_BEFORE if before else _NO_LETTER_AFTER
    return ""


def _compile(keys: Iterable[str]) -> re.Pattern[str] | None:
    """Compile spellings into one alternation, longest first.

    Branches are grouped by their leading assertion so every branch starts
    with a literal, which lets the regex engine skip non-starting branches
    cheaply. Grouping cannot break longest-first: spellings that could match
    at one position share a first character, hence a group.
    """
    groups: dict[str, list[str]] = {}
    for key in sorted(keys, key=lambda k: (-len(k), k)):
        body = r"\s+".join(re.escape(part) for part in key.split(" "))
        branch = body + _edge_guard(key[-1], before=False)
        groups.setdefault(_edge_guard(key[0], before=True), []).append(branch)
    if not groups:
        return None
    return re.compile(
        "|".join(f"{guard}(?:{'|'.join(branches)})" for guard, branches in groups.items())
    )


def _origin_map(source: str) -> list[int]:
    """Map each index of ``source.casefold()`` back to its index in ``source``.

    Needed only when casefolding changes the length (``ß`` -> ``ss``).
    """
    origin: list[int] = []
    for index, char in enumerate(source):
        origin.extend([index] * len(char.casefold()))
    return origin


class Vocabulary:
    """Canonical terms and every spelling people use for them.

    Args:
        entries: Canonical term -> spellings. The canonical term is itself a
            spelling. Order matters only for conflicts: first claim wins.

    Raises:
        ValueError: A canonical term or spelling is blank.
        TypeError: A spelling list is a bare string (a likely data mistake).
    """

    def __init__(self, entries: Mapping[str, Sequence[str]]) -> None:
        pairs: list[tuple[str, str]] = []
        for canonical, spellings in entries.items():
            if isinstance(spellings, str):
                raise TypeError(f"spellings of {canonical!r} must be a list, not a string")
            pairs.append((canonical, canonical))
            pairs.extend((canonical, spelling) for spelling in spellings)
        self._build(pairs)

    def _build(self, pairs: Iterable[tuple[str, str]]) -> None:
        self._pairs: list[tuple[str, str]] = []
        self._by_key: dict[str, tuple[str, str]] = {}
        found: list[Conflict] = []
        for canonical, spelling in pairs:
            key = _key(spelling)
            if not key or not canonical.strip():
                raise ValueError(f"blank spelling or canonical term: {canonical!r} / {spelling!r}")
            self._pairs.append((canonical, spelling))
            claimed = self._by_key.get(key)
            if claimed is None:
                self._by_key[key] = (canonical, spelling.strip())
            elif claimed[0] != canonical:
                found.append(Conflict(spelling=spelling, kept=claimed[0], dropped=canonical))
        self._canonicals = tuple(dict.fromkeys(canonical for canonical, _ in self._pairs))
        self.conflicts: tuple[Conflict, ...] = tuple(dict.fromkeys(found))
        self._pattern = _compile(self._by_key)

    @classmethod
    def merge(cls, *vocabs: Vocabulary) -> Vocabulary:
        """Combine vocabularies; an earlier one keeps any spelling both claim.

        Args:
            *vocabs: Vocabularies in priority order.

        Returns:
            A vocabulary whose ``conflicts`` lists every clash, including
            those already recorded in the inputs.
        """
        merged = cls.__new__(cls)
        # Replaying every input's pairs in order reproduces first-wins across
        # and within inputs, so input conflicts are rediscovered, not copied.
        merged._build(pair for vocab in vocabs for pair in vocab._pairs)
        return merged

    @property
    def canonicals(self) -> tuple[str, ...]:
        """Canonical terms in the order they were defined."""
        return self._canonicals

    def canonical(self, word: str) -> str | None:
        """Return the canonical term for one exact spelling, if known.

        Args:
            word: A single spelling; case, NFC form and spacing are ignored,
                but particles are not stripped (use :meth:`find` on text).

        Returns:
            The canonical term, or None.
        """
        claimed = self._by_key.get(_key(word))
        return claimed[0] if claimed else None

    def find(self, text: str) -> list[Match]:
        """Find every vocabulary spelling in ``text``, left to right.

        Args:
            text: Free text in any mix of languages.

        Returns:
            Non-overlapping matches, longest spelling first at each position.
        """
        if self._pattern is None:
            return []
        source = unicodedata.normalize("NFC", text)
        folded = source.casefold()
        origin = None if len(folded) == len(source) else _origin_map(source)
        matches: list[Match] = []
        for hit in self._pattern.finditer(folded):
            canonical, spelling = self._by_key[_WHITESPACE.sub(" ", hit.group())]
            start, end = hit.start(), hit.end()
            if origin is not None:
                start, end = origin[start], origin[end - 1] + 1
            matches.append(Match(canonical=canonical, spelling=spelling, start=start, end=end))
        return matches

    def terms(self, text: str) -> list[str]:
        """Return the distinct canonical terms in ``text``, in order of appearance.

        Args:
            text: Free text in any mix of languages.

        Returns:
            Canonical terms, each once.
        """
        return list(dict.fromkeys(match.canonical for match in self.find(text)))
