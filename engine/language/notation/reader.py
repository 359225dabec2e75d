"""Strength notation read from a message into :class:`SetHint` values, in order."""

from __future__ import annotations

import unicodedata

from pydantic import BaseModel, ConfigDict

from engine.language.notation.groups import _groups
from engine.language.notation.rules import _read_group
from engine.language.notation.tokens import _clauses, _Token, _tokenize
from engine.language.vocab import Vocabulary


class SetHint(BaseModel):
    """One piece of strength notation read from the message."""

    model_config = ConfigDict(frozen=True)

    exercise: str | None
    """Canonical exercise, or None when the clause names none."""
    weight: float | None
    """Load per rep, in ``unit`` (or unitless for bare notation)."""
    unit: str | None
    """Canonical unit, or None when none was written."""
    reps: int | None
    """Reps per set."""
    sets: int | None
    """Number of sets."""
    span: str
    """The source text the hint was read from."""
    ambiguous: bool = False
    """True when reps and sets may be swapped (bare "3x8")."""


def _exercise(clause: list[_Token], start: int) -> str | None:
    """Nearest exercise before ``start`` in the clause, else the first after it."""
    before = [token.value for token in clause if token.kind == "ex" and token.start < start]
    if before:
        return before[-1]
    return next((token.value for token in clause if token.kind == "ex"), None)


def read_strength(text: str, vocab: Vocabulary, units: Vocabulary) -> list[SetHint]:
    """Read strength notation from a message, in order of appearance.

    Args:
        text: The person's message, any mix of English and Korean.
        vocab: Exercise vocabulary; hints carry its canonical terms.
        units: Unit vocabulary (canonical ``kg``/``lb`` and their spellings).

    Returns:
        One hint per notation found (per set for per-set lists). See the
        module docstring for the rules.
    """
    source = unicodedata.normalize("NFC", text)
    hints: list[SetHint] = []
    for clause in _clauses(_tokenize(source, vocab, units)):
        for group in _groups(clause):
            for chunk in _read_group(group):
                exercise = _exercise(clause, chunk.start)
                lone = chunk.first == chunk.last
                if lone and exercise is None:
                    continue
                weight = chunk.weight
                hints.append(
                    SetHint(
                        exercise=exercise,
                        weight=float(weight.value) if weight else None,
                        unit=weight.unit if weight else None,
                        reps=chunk.reps,
                        sets=chunk.sets,
                        span=source[chunk.start : chunk.end],
                        ambiguous=chunk.ambiguous,
                    )
                )
    return hints
