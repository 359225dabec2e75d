"""A message as tokens (numbers, words, units, exercises, joiners) split into clauses."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from engine.language.vocab import Match, Vocabulary

_Kind = Literal["num", "unit", "reps", "sets", "x", "of", "at", "sep", "ex", "break", "other"]

_TOKEN = re.compile(r"\n|\d+(?:\.\d+)?|[^\W\d_]+|\S")
_DECIMAL_COMMA = re.compile(r"\d+,\d{1,2}(?!\d)")
_HANGUL_WORD = re.compile(r"[\uac00-\ud7a3]+")
_WORDS: dict[str, _Kind] = {
    "x": "x", "×": "x", "*": "x", "of": "of", "at": "at", "for": "at",
    "with": "at", "@": "at", "rep": "reps", "reps": "reps", "set": "sets",
    "sets": "sets", ",": "sep", ";": "break", "\n": "break", "and": "break",
    "그리고": "break",
}  # fmt: skip
# Korean counters take particles ("10회씩"); these look alike but count
# months, sessions and ordinals, not reps.
_KOREAN_REPS = ("회", "개", "번", "렙")
_KOREAN_SETS = ("세트", "셋")
_NOT_COUNTERS = ("개월", "회차", "번째")
_WEIGHT_UNITS = frozenset({"kg", "lb"})
"""The units vocabulary also spells reps, sets and times ("회", "세트", "초"): only these make a weight.
Reps and sets words are read below, where particles and look-alikes (개월, 번째) are known."""
# 킬로미터 is a distance, though it starts with the weight unit 킬로.
_NOT_WEIGHT_AFTER = ("미터",)


@dataclass(frozen=True, slots=True)
class _Token:
    kind: _Kind
    start: int
    end: int
    value: str = ""


def _word_kind(word: str) -> _Kind:
    folded = word.casefold()
    if folded in _WORDS:
        return _WORDS[folded]
    if _HANGUL_WORD.fullmatch(word) and not word.startswith(_NOT_COUNTERS):
        if word.startswith(_KOREAN_REPS):
            return "reps"
        if word.startswith(_KOREAN_SETS):
            return "sets"
    return "other"


def _spans(text: str, vocab: Vocabulary, units: Vocabulary) -> list[tuple[Match, _Kind]]:
    """Exercise and unit matches, exercises first where they overlap."""
    exercises = vocab.find(text)
    taken = [(match.start, match.end) for match in exercises]
    unit_matches = [
        match
        for match in units.find(text)
        if not text.startswith(_NOT_WEIGHT_AFTER, match.end)
        and not any(start < match.end and match.start < end for start, end in taken)
    ]
    spans: list[tuple[Match, _Kind]] = [(match, "ex") for match in exercises]
    spans += [(match, "unit") for match in unit_matches if match.canonical in _WEIGHT_UNITS]
    return sorted(spans, key=lambda span: span[0].start)


def _tokenize(text: str, vocab: Vocabulary, units: Vocabulary) -> list[_Token]:
    spans = _spans(text, vocab, units)
    tokens: list[_Token] = []
    pos, index = 0, 0
    while pos < len(text):
        if index < len(spans) and spans[index][0].start <= pos:
            match, span_kind = spans[index]
            index += 1
            if match.start == pos:
                tokens.append(_Token(span_kind, match.start, match.end, match.canonical))
                pos = match.end
            continue
        if text[pos] != "\n" and text[pos].isspace():
            pos += 1
            continue
        limit = spans[index][0].start if index < len(spans) else len(text)
        comma = _DECIMAL_COMMA.match(text, pos, limit)
        # "52,5kg" is a decimal only when a unit follows; "100x5,105x5" is a list.
        unit_next = index < len(spans) and spans[index][1] == "unit"
        if comma and unit_next and not text[comma.end() : limit].strip():
            tokens.append(_Token("num", pos, comma.end(), comma.group().replace(",", ".")))
            pos = comma.end()
            continue
        hit = _TOKEN.match(text, pos, limit)
        assert hit is not None  # the last alternative matches any non-space
        word = hit.group()
        kind: _Kind = "num" if word[0].isdecimal() else _word_kind(word)
        if word == "/":
            # "100x5/105x5" lists sets; any other slash separates clauses.
            between = text[pos - 1 : pos] + text[pos + 1 : pos + 2]
            kind = "sep" if len(between) == 2 and between.isdecimal() else "break"
        tokens.append(_Token(kind, pos, hit.end(), word))
        pos = hit.end()
    return tokens


def _clauses(tokens: list[_Token]) -> list[list[_Token]]:
    clauses: list[list[_Token]] = [[]]
    for index, token in enumerate(tokens):
        next_kind = tokens[index + 1].kind if index + 1 < len(tokens) else None
        new_exercise = token.value == "," and next_kind == "ex"
        if token.kind == "break" or new_exercise:
            clauses.append([])
        else:
            clauses[-1].append(token)
    return [clause for clause in clauses if clause]
