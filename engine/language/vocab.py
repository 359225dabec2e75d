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
* A space between two Hangul syllables of a spelling is optional, because
  Korean spacing varies from writer to writer: ``덤벨 로우`` also finds
  ``덤벨로우`` and ``랫 풀 다운`` finds ``랫풀다운`` and ``랫풀 다운``. (A
  spelling written without the space does not find the spaced text.)
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
from typing import Literal

_WHITESPACE = re.compile(r"\s+")
# Hangul jamo, compatibility jamo, jamo extensions and syllables.
_HANGUL_CLASS = "[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7a3\ud7b0-\ud7ff]"
_HANGUL = re.compile(_HANGUL_CLASS)
_HANGUL_SPACE = re.compile(f"(?<={_HANGUL_CLASS}) (?={_HANGUL_CLASS})")


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


def _spaced(text: str) -> str:
    """NFC, casefolded, whitespace runs as one space: a spelling as written, folded."""
    folded = unicodedata.normalize("NFC", text).casefold()
    return _WHITESPACE.sub(" ", folded).strip()


def _squeeze(folded: str) -> str:
    """Drop the spaces between Hangul syllables, so every spacing of a Korean phrase shares a key."""
    return _HANGUL_SPACE.sub("", folded)


def _key(text: str) -> str:
    """Fold a spelling the way matching sees text."""
    return _squeeze(_spaced(text))


def normalize_name(name: str) -> str:
    """The spelling an unknown name is kept under: NFC, casefolded, single spaces.

    ``"Zercher  Squat (Kettlebell)"`` -> ``"zercher squat (kettlebell)"``: a
    name the vocabulary does not know becomes its own canonical term, so the
    same exercise logged twice in different case or spacing stays one.
    """
    return _spaced(name)


def _regex(spaced: str) -> str:
    """The pattern of one folded spelling: spaces between Hangul syllables may be left out."""
    return " ?".join(re.escape(piece) for piece in _HANGUL_SPACE.split(spaced))


def _fold(source: str) -> tuple[str, list[int] | None]:
    """Casefold ``source`` and collapse whitespace runs to one space.

    Returns:
        The folded text and, when its length differs from ``source``
        (``ß`` -> ``ss``, ``"a  b"`` -> ``"a b"``), a map from each folded
        index back to its index in ``source``; None means identity.
    """
    folded = source.casefold()
    compact = _WHITESPACE.sub(" ", folded)
    if len(compact) == len(folded) == len(source):
        return compact, None
    chars: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(source):
        if char.isspace():
            if index and source[index - 1].isspace():
                continue
            pieces = " "
        else:
            pieces = char.casefold()
        chars.extend(pieces)
        origin.extend([index] * len(pieces))
    return "".join(chars), origin


def _edge_kind(char: str) -> Literal["free", "digit", "letter"]:
    """How a spelling edge must be separated from its neighbour."""
    if _HANGUL.match(char):
        return "free"
    if char.isdecimal():
        return "digit"
    return "letter" if char.isalpha() else "free"


def _clear(text: str, index: int, edge: str) -> bool:
    """Whether ``text[index]`` may sit next to a spelling edge character ``edge``."""
    if not 0 <= index < len(text):
        return True
    kind, neighbour = _edge_kind(edge), text[index]
    if kind == "digit":
        return not neighbour.isdecimal()
    if kind == "letter":
        return not neighbour.isalpha() or _HANGUL.match(neighbour) is not None
    return True


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
        # Boundaries are checked in Python: per-branch Unicode lookarounds
        # made compiling a 1,000-spelling pattern take most of a second.
        # Longest first, so the regex proposes the longest spelling at a position.
        forms = sorted({_spaced(s) for _, s in self._pairs}, key=lambda f: (-len(_squeeze(f)), -len(f), f))
        self._pattern = re.compile("|".join(map(_regex, forms))) if forms else None

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

    def spellings(self, canonical: str) -> tuple[str, ...]:
        """Every spelling listed for ``canonical`` (itself first), as written."""
        return tuple(dict.fromkeys(s for c, s in self._pairs if c == canonical))

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
        folded, origin = _fold(source)
        matches: list[Match] = []
        pos = 0
        while (hit := self._pattern.search(folded, pos)) is not None:
            start = hit.start()
            end = self._bounded_end(folded, start, hit.end())
            if end is None:
                pos = start + 1
                continue
            canonical, spelling = self._by_key[_squeeze(folded[start:end])]
            pos = end
            if origin is not None:
                start, end = origin[start], origin[end - 1] + 1
            matches.append(Match(canonical=canonical, spelling=spelling, start=start, end=end))
        return matches

    def _bounded_end(self, folded: str, start: int, end: int) -> int | None:
        """End of the longest spelling at ``start`` that respects boundaries.

        The regex proposes the longest spelling; when a boundary rules it out
        ("bench press" in "bench pressing") a shorter one may still fit.
        """
        if not _clear(folded, start - 1, folded[start]):
            return None
        for stop in range(end, start, -1):
            if _squeeze(folded[start:stop]) in self._by_key and _clear(folded, stop, folded[stop - 1]):
                return stop
        return None

    def terms(self, text: str) -> list[str]:
        """Return the distinct canonical terms in ``text``, in order of appearance.

        Args:
            text: Free text in any mix of languages.

        Returns:
            Canonical terms, each once.
        """
        return list(dict.fromkeys(match.canonical for match in self.find(text)))
