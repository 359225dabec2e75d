"""Pre-read unambiguous strength notation, as hints for the Parser model.

Small models misread compact notation ("80x5x5"), so the forms below are read
here in code and handed over as :class:`SetHint` values. ``x`` may be
written x, X, ×, or *; weights may use a decimal point or comma ("52.5kg",
"52,5kg"); units come from the units vocabulary (kg, lb; 키로/킬로 -> kg).

Rules, first match wins at each position:

1. ``W x R x S`` ("80x5x5", "80kg x 5 x 5"): weight, reps, sets.
2. A weight with a unit, then ``R x S`` ("55kg 10x5"): reps x sets.
3. ``W x R`` where W has a unit or a decimal point ("100kg x 5", "52.5x5"):
   one set (sets=1).
4. Bare ``A x B``: read as reps=A, sets=B, with ``ambiguous=True`` unless
   A == B, because lifters write both "10x5" (reps x sets, after a weight)
   and "3x8" (sets x reps). A weight following it ("5x5 @ 100kg",
   "3x10 at 60kg", "5x5 100kg") is attached; the order stays ambiguous.
5. Per-set lists: two or more ``A x B`` pairs separated only by commas,
   slashes between digits, or spaces ("100x5, 105x5, 110x3") are one set
   each, weight x reps, sets=1; a unit written on any pair applies to all.
6. Labelled numbers in any order, joined by spaces, x, commas, of, at, for,
   with or @: "55키로 10회 5세트", "5세트 10회", "100kg 5회 x 3세트",
   "5 sets x 5 reps", "60 kg for 10 reps", "3 sets of 10 at 60kg" (a bare
   number after "N sets of" is reps), "3x10 reps" (a bare number x-joined to
   a reps word is sets, and vice versa). Reps words: rep(s), 회, 개, 번;
   set words: set(s), 세트, 셋.
7. A lone labelled number ("bench 60kg", "턱걸이 10개") is a hint only when
   its clause names an exercise, so "I weigh 75kg" yields nothing.

Exercise: the nearest vocabulary match before the notation in the same
clause; failing that the first one after it in the clause ("3 sets of 10
pull-ups"). Clauses split on newlines, ";", "/" (except between digits),
"and", "그리고", and a comma followed by an exercise name. An exercise name
followed by at/@/for/with does not split the notation it sits in ("5x5
squats at 100kg").

Numbers not covered above (dates, paces like "5:30/km", distances, RPE) are
left alone.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.vocab import Match, Vocabulary


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


_Kind = Literal["num", "unit", "reps", "sets", "x", "of", "at", "sep", "ex", "break", "other"]
_Label = Literal["W", "R", "S", "B"]

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
_KOREAN_REPS = ("회", "개", "번")
_KOREAN_SETS = ("세트", "셋")
_NOT_COUNTERS = ("개월", "회차", "번째")
# 킬로미터 is a distance, though it starts with the weight unit 킬로.
_NOT_WEIGHT_AFTER = ("미터",)
_JOINERS = frozenset({"x", "of", "at", "sep"})
_LABELS: dict[str, _Label] = {"unit": "W", "reps": "R", "sets": "S"}


@dataclass(frozen=True, slots=True)
class _Token:
    kind: _Kind
    start: int
    end: int
    value: str = ""


@dataclass(frozen=True, slots=True)
class _Qty:
    """A number with what follows it: unit (W), reps (R), sets (S) or nothing (B)."""

    value: str
    label: _Label
    unit: str | None
    start: int
    end: int

    @property
    def count(self) -> int | None:
        return int(self.value) if self.value.isdecimal() else None


_Elem = _Qty | str


@dataclass(frozen=True, slots=True)
class _Chunk:
    kind: Literal["bare", "weighted", "fixed"]
    """``bare``/``weighted`` A x B pairs may join a per-set list; ``fixed`` never does."""
    first: int
    last: int
    start: int
    end: int
    weight: _Qty | None
    reps: int | None
    sets: int | None
    ambiguous: bool = False
    pair: tuple[_Qty, _Qty] | None = None


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
    spans += [(match, "unit") for match in unit_matches]
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


def _groups(clause: list[_Token]) -> list[list[_Elem]]:
    """Turn a clause into runs of quantities and joiners, ready for the rules."""
    groups: list[list[_Elem]] = [[]]
    index = 0
    while index < len(clause):
        token = clause[index]
        index += 1
        following = clause[index] if index < len(clause) else None
        if token.kind == "num":
            label: _Label = "B"
            unit, end = None, token.end
            if following and following.kind in _LABELS:
                label = _LABELS[following.kind]
                unit = following.value if following.kind == "unit" else None
                end = following.end
                index += 1
                after = clause[index] if index < len(clause) else None
                # A particle glued to the unit ("55키로에", "100키로로") is not a word break.
                glued = after is not None and after.kind == "other" and after.start == end
                if label == "W" and glued and _HANGUL_WORD.fullmatch(clause[index].value):
                    index += 1
            groups[-1].append(_Qty(token.value, label, unit, token.start, end))
        elif token.kind in _JOINERS:
            groups[-1].append(token.kind)
        elif token.kind == "ex" and following and following.kind == "at":
            continue
        else:
            groups.append([])
    return [_relabel(group) for group in groups if group]


def _relabel(group: list[_Elem]) -> list[_Elem]:
    """Give a bare number the label its neighbour implies.

    "3 sets of 10" and "3 sets x 10" make 10 reps; "3x10 reps" makes 3 sets.
    """
    other: dict[str, _Label] = {"R": "S", "S": "R"}
    out = list(group)
    for index, elem in enumerate(group):
        if not isinstance(elem, _Qty) or elem.label != "B" or elem.count is None:
            continue
        before = _qty(group, index - 2, "RS")
        after = _qty(group, index + 2, "RS")
        label: _Label | None = None
        sets_of = before is not None and before.label == "S" and _is(group, index - 1, "of")
        if before and (_is(group, index - 1, "x") or sets_of):
            label = other[before.label]
        elif after and _is(group, index + 1, "x"):
            label = other[after.label]
        if label is not None:
            out[index] = _Qty(elem.value, label, None, elem.start, elem.end)
    return out


def _qty(group: list[_Elem], index: int, labels: str, *, whole: bool = False) -> _Qty | None:
    elem = group[index] if 0 <= index < len(group) else None
    if isinstance(elem, _Qty) and elem.label in labels and (not whole or elem.count is not None):
        return elem
    return None


def _is(group: list[_Elem], index: int, joiner: str) -> bool:
    return 0 <= index < len(group) and group[index] == joiner


def _starts_pair(group: list[_Elem], index: int) -> bool:
    """Whether a weight at ``index`` opens its own x-notation ("60kg x 8", "60kg 8x3")."""
    if _is(group, index + 1, "x"):
        return True
    step = index + 2 if _is(group, index + 1, "at") else index + 1
    return _qty(group, step, "B") is not None and _is(group, step + 1, "x")


def _read_at(group: list[_Elem], i: int) -> _Chunk | None:
    """Apply the module rules to the notation starting at ``group[i]``."""
    a = _qty(group, i, "WB")
    if a is not None and _is(group, i + 1, "x"):
        b, c = _qty(group, i + 2, "B", whole=True), _qty(group, i + 4, "B", whole=True)
        if b and c and _is(group, i + 3, "x"):
            return _Chunk("fixed", i, i + 4, a.start, c.end, a, b.count, c.count)
    if a is not None and a.label == "W":
        j = i + 2 if _is(group, i + 1, "x") or _is(group, i + 1, "at") else i + 1
        b, c = _qty(group, j, "B", whole=True), _qty(group, j + 2, "B", whole=True)
        if b and c and _is(group, j + 1, "x"):
            return _Chunk("fixed", i, j + 2, a.start, c.end, a, b.count, c.count)
    b = _qty(group, i + 2, "B", whole=True)
    if a is not None and b is not None and _is(group, i + 1, "x"):
        if a.label == "W" or a.count is None:
            return _Chunk("weighted", i, i + 2, a.start, b.end, a, b.count, 1, pair=(a, b))
        j = i + 4 if _is(group, i + 3, "at") else i + 3
        weight = _qty(group, j, "W")
        ambiguous = a.count != b.count
        if weight is not None and not _starts_pair(group, j):
            return _Chunk("fixed", i, j, a.start, weight.end, weight, a.count, b.count, ambiguous)
        return _Chunk("bare", i, i + 2, a.start, b.end, None, a.count, b.count, ambiguous, (a, b))
    return _read_labelled(group, i)


def _read_labelled(group: list[_Elem], i: int) -> _Chunk | None:
    found: dict[str, _Qty] = {}
    last, j = i, i
    while (qty := _qty(group, j, "WRS")) is not None and qty.label not in found:
        if qty.label == "W" and found and _starts_pair(group, j):
            break
        found[qty.label] = qty
        last, j = j, j + 1
        while j < len(group) and isinstance(group[j], str):
            j += 1
    if not found:
        return None
    first = group[i]
    assert isinstance(first, _Qty)
    end = max(qty.end for qty in found.values())
    reps, sets = found.get("R"), found.get("S")
    reps_count = reps.count if reps else None
    sets_count = sets.count if sets else None
    return _Chunk("fixed", i, last, first.start, end, found.get("W"), reps_count, sets_count)


def _read_group(group: list[_Elem]) -> list[_Chunk]:
    chunks: list[_Chunk] = []
    i = 0
    while i < len(group):
        chunk = _read_at(group, i)
        if chunk is None:
            i += 1
            continue
        chunks.append(chunk)
        i = chunk.last + 1
    return _per_set_lists(group, chunks)


def _per_set_lists(group: list[_Elem], chunks: list[_Chunk]) -> list[_Chunk]:
    """Reread runs of two or more adjacent ``A x B`` pairs as one set each."""
    runs: list[list[int]] = []
    for index, chunk in enumerate(chunks):
        if chunk.kind == "fixed":
            continue
        if runs and runs[-1][-1] == index - 1 and all(
            group[k] == "sep" for k in range(chunks[index - 1].last + 1, chunk.first)
        ):
            runs[-1].append(index)
        else:
            runs.append([index])
    out = list(chunks)
    for run in runs:
        if len(run) < 2:
            continue
        units = [chunk.weight.unit for chunk in (chunks[k] for k in run) if chunk.weight]
        unit = next((unit for unit in units if unit), None)
        for k in run:
            pair = chunks[k].pair
            assert pair is not None
            weight, reps = pair
            out[k] = _Chunk(
                "weighted",
                chunks[k].first,
                chunks[k].last,
                chunks[k].start,
                chunks[k].end,
                _Qty(weight.value, "W", weight.unit or unit, weight.start, weight.end),
                reps.count,
                1,
            )
    return out


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
