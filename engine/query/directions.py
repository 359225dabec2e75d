"""Direction words must agree with the numbers they describe, checked in code.

A model writes "{F5} more than last time" or "{F5} 줄었어요"; code knows F5's
sign. In each clause (split at . ! ? ; a line break, "but", "하지만", "-지만"…):

* a direction word next to a change (a fact that is a difference) must agree
  with its sign: up-words (more, heavier, up, 늘었, 증가) with a rise,
  down-words (less, lighter, down, 줄었, 감소) with a fall, and quality words
  (better, faster, stronger, 좋아졌, 향상; worse, slower, 나빠졌) with an
  improvement, which for paces and times is a fall. The word nearest the
  change is the one that speaks of it.
* with no change in the clause, a comparison of two values of the same unit
  ("{F1}, heavier than {F2}", "{F1} up from {F2}", "{F2}보다 {F1}이 무거워요")
  must agree with their order.
* a negation ("not", "n't", "안", "-지 않") turns "more" into "not more".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.query.references import REF, Ref, RefTable

_EN_UP = (
    r"more|higher|heavier|(?<!warm-)(?<!warm )(?<!keep )(?<!set )(?<!pick )up|increased?|increases|increasing|rose|risen"
    r"|rises?|gained|gains?|added|climbed|grew|jumped|longer|further|farther|bigger|larger|greater|exceeded|above"
)
_EN_DOWN = (
    r"less|fewer|(?!lower body|lower back)lower|lighter|(?<!cool-)(?<!cool )(?<!break )down|decreased?|decreases"
    r"|decreasing|dropped|drops?(?! sets?\b)|fell|fallen|declined?|lost|shorter|smaller|reduced|below"
)
_EN_BETTER = r"better|improved|improvements?|improving|stronger|faster|quicker|beat|beats"
_EN_WORSE = r"worse|weaker|slower|regressed|behind"
_KO_UP = (
    r"늘었|늘어|늘렸|늘리|증가|올랐|올라갔|올라|상승|높아[졌진지]|무거워[졌진지]|많아[졌진지]|커[졌진]|초과|넘었|넘어섰"
    r"|더\s?(?:무거운|무겁|많|높|길|긴|멀리|큰)|무거워요|무겁습니다|무겁다"
)
_KO_DOWN = (
    r"줄었|줄어|줄였|감소|떨어[졌진지]|내려갔|하락|낮아[졌진지]|가벼워[졌진지]|적어[졌진지]|작아[졌진]|덜"
    r"|더\s?(?:가벼운|가볍|적|낮|짧|작은)|가벼워요|가볍습니다|가볍다"
)
_KO_BETTER = (
    r"좋아[졌진지]|향상|개선|나아[졌진지]|세[졌진]|강해[졌진지]|빨라[졌진지]|신기록|경신|더\s?(?:빠른|빠르|강한|좋은)"
)
_KO_WORSE = r"나빠[졌진지]|약해[졌진지]|느려[졌진지]|저하|퇴보|후퇴|더\s?(?:느린|느리|약한)"
_KO_NOT_UP = (
    r"(?:늘|증가하|오르|올라가|높아지|무거워지|많아지|좋아지|나아지|향상되|개선되|빨라지)지\s?(?:는\s?)?(?:않|못)"
)
_KO_NOT_DOWN = r"(?:줄|감소하|떨어지|내려가|낮아지|가벼워지|적어지|나빠지|느려지)지\s?(?:는\s?)?(?:않|못)"

_WORDS = re.compile(
    rf"(?P<ko_not_up>{_KO_NOT_UP})|(?P<ko_not_down>{_KO_NOT_DOWN})"
    rf"|\b(?P<up>{_EN_UP})\b|\b(?P<down>{_EN_DOWN})\b|\b(?P<better>{_EN_BETTER})\b|\b(?P<worse>{_EN_WORSE})\b"
    rf"|(?P<ko_up>{_KO_UP})|(?P<ko_down>{_KO_DOWN})|(?P<ko_better>{_KO_BETTER})|(?P<ko_worse>{_KO_WORSE})",
    re.IGNORECASE,
)
_EN_NEGATION = re.compile(r"\b(?:not|no|never|\w+n['’]t)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
_KO_NEGATION = re.compile(r"(?:안|못)\s?$")
_CLAUSE_END = re.compile(r"[.!?;\n]|,?\s+(?:but|however|whereas|while)\s+|하지만|그러나|반면|지만", re.IGNORECASE)
_OTHER_EN = re.compile(r"\b(?:than|from|over|compared (?:to|with)|vs\.?|versus)\b[^{}\[\].;]{0,30}$", re.IGNORECASE)
_OTHER_KO = re.compile(r"^\s*(?:보다|에서|대비|에 비해|와 비교|과 비교)")


@dataclass(frozen=True, slots=True)
class _Word:
    text: str
    start: int
    end: int
    axis: str
    """``size`` (up/down) or ``quality`` (better/worse)."""
    sign: int
    """+1 or -1: the direction the word claims."""
    negated: bool


def _words(clause: str, offset: int) -> list[_Word]:
    out = []
    for m in _WORDS.finditer(clause):
        kind = m.lastgroup or ""
        axis = "quality" if "better" in kind or "worse" in kind else "size"
        sign = -1 if ("down" in kind or "worse" in kind) else 1
        negated = kind.startswith("ko_not")
        if not negated:
            before = clause[: m.start()]
            negated = bool(
                _EN_NEGATION.search(before)
                if kind in ("up", "down", "better", "worse")
                else _KO_NEGATION.search(before)
            )
        out.append(_Word(m.group(), m.start() + offset, m.end() + offset, axis, sign, negated))
    return out


def _agrees(word: _Word, delta: float, lower_is_better: bool) -> bool:
    actual = (delta > 0) - (delta < 0)
    if word.axis == "quality" and lower_is_better:
        actual = -actual
    if word.negated:
        return actual != word.sign
    return actual == word.sign


def _clauses(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in _CLAUSE_END.finditer(text):
        spans.append((start, m.end()))
        start = m.end()
    spans.append((start, len(text)))
    return spans


@dataclass(frozen=True, slots=True)
class DirectionCheck:
    problems: list[str]
    """Why a direction word disagrees, for the model's next attempt."""
    attached: set[str]
    """Changes that an agreeing direction word describes (rendered without their sign)."""


def check_directions(text: str, table: RefTable) -> DirectionCheck:
    """Check every direction word against the values it speaks of (see the module docstring)."""
    problems: list[str] = []
    attached: set[str] = set()
    refs = [(m.start(), m.end(), table.get(f"{m.group(1)}{int(m.group(2))}")) for m in REF.finditer(text)]
    for start, end in _clauses(text):
        here = [(s, e, r) for s, e, r in refs if start <= s < end and r is not None and r.value is not None]
        words = _words(text[start:end], start)
        if not here or not words:
            continue
        changes = [(s, e, r) for s, e, r in here if r.change]
        if changes:
            for w in words:
                _, _, r = min(changes, key=lambda c: min(abs(c[0] - w.end), abs(w.start - c[1])))
                if _agrees(w, r.value or 0.0, r.lower_is_better):
                    attached.add(r.id)
                else:
                    problems.append(f"“{w.text}” next to {{{r.id}}} disagrees: {r.id} is {_what(r)}")
            continue
        pair = _comparison(text, here)
        if pair is not None:
            a, b = pair
            delta = (a.value or 0.0) - (b.value or 0.0)
            for w in words:
                if not _agrees(w, delta, a.lower_is_better):
                    problems.append(f"“{w.text}” compares {{{a.id}}} with {{{b.id}}} the wrong way round")
    return DirectionCheck(problems, attached)


def _what(ref: Ref) -> str:
    value = ref.value or 0.0
    return "an increase" if value > 0 else "a decrease" if value < 0 else "no change"


def _comparison(text: str, here: list[tuple[int, int, Ref]]) -> tuple[Ref, Ref] | None:
    """The two values a clause compares (the first is said against the second), if it names them."""
    for i, (s, e, r) in enumerate(here):
        english = _OTHER_EN.search(text[max(0, s - 45) : s]) is not None
        korean = _OTHER_KO.match(text[e : e + 8]) is not None
        if not (english or korean):
            continue
        others = [x for j, x in enumerate(here) if j != i and x[2].unit == r.unit]
        if others:
            a = min(others, key=lambda o: abs(o[0] - s))[2]
            return a, r
    return None


def direction_words(text: str) -> list[str]:
    """Every direction word in ``text`` (up, down, better, worse, in English and Korean), as written."""
    return [m.group() for m in _WORDS.finditer(text)]
