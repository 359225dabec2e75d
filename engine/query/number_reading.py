"""What counts as a number a model wrote itself, in English and Korean, and the
values a question states (which the answer may quote by reference).

The grounding check (:mod:`engine.query.grounding`) fails any of these in a
model's free text, because values travel by reference (``{F3}``) and code
writes them:

* A digit in any script (``5``, ``５``, ``½``, ``五``), glued to letters or
  not (``PR120kg``, ``5x5``, ``W47``). Not the measure names ``1RM`` /
  ``e1RM``, nor a list marker at the start of a line (``1.``, ``2)``), which
  number lines, not values.
* English number words: zero to nineteen, the tens, hundred, thousand,
  million, dozen; ordinals from "third"; twice, thrice, double(d), triple(d),
  halved; "half" (not "first/second/other half"); "once" before a / per /
  every / each; "one" (not as a pronoun: "no one", "one of", "the one", "the
  heaviest one", "a new one", "one another", "one-rep max"). Not: first,
  second, last, a few, several, a couple.
* A unit quantity without a numeral: "a kilo", "an hour", "a rep", "a mile"
  (a / an / one / half a + a unit of weight, distance, time, reps or percent).
* Korean native numerals: 다섯 … 아흔 (and 절반, half) and 하나 둘 셋 넷 as words (not 하나도,
  둘 다); the counting forms 한 두 세 네 열 스무 쉰 before a counter (한 번,
  두 세트, 세 배; not the idiom 한번); day counts 이틀 … 열흘 (not 하루).
* Sino-Korean numerals: a run with a place word (십 백 천 만 억: 백이십,
  삼십, 이천이십육) that ends a word, takes a particle or a counter; a single
  digit syllable (일 삼 사 오 …, not 이) only before a space and a counter
  (오 분, 삼 회). Ordinary words that begin with those syllables (이번, 이상,
  오늘, 오일, 일주일, 일일, 일요일, 사회, 사실, 천천히, 만약, 백미) are not numbers.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

# ---------------------------------------------------------------- exempt spans

_EXEMPT = re.compile(r"(?<![\w])e?1\s?RM(?![a-z])|^[ \t]*\d{1,2}[.)](?=\s)", re.IGNORECASE | re.MULTILINE)

# ---------------------------------------------------------------- English

_EN_NUMBER = (
    r"zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen"
    r"|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?"
    r"|millions?|billions?|dozens?|twice|thrice|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh"
    r"|twelfth|twentieth|thirtieth|fiftieth|hundredth|doubled|tripled|quadrupled|halved|triple|quadruple"
)
_EN_WORDS = re.compile(
    rf"\b(?:{_EN_NUMBER})\b"
    r"|\bdouble\b(?![\s-]check)"
    r"|(?<!\bfirst )(?<!\bsecond )(?<!\bother )\bhalf\b"
    r"|\bonce\b(?=\s+(?:a|an|per|every|each)\b)"
    r"|(?<![\w-])one\b(?!\s+(?:of|another|thing|point)\b)(?![\s-]+rep[\s-]+max)(?!-?rm\b)",
    re.IGNORECASE,
)
# "one" as a pronoun, after a determiner or an adjective ("the one", "the heaviest one", "a new one").
_PRONOUN_BEFORE = re.compile(
    r"\b(?:no|the|this|that|which|each|any|every|a|an|another|first|last|latest|previous|next|other|new|same"
    r"|right|wrong|good|big|\w+est|\w+er)\s+$",
    re.IGNORECASE,
)
_UNIT_QUANTITY = re.compile(
    r"\b(?:a|an|one|half\s+an?)\s+(?:kilo(?:gram)?s?|kgs?|pounds?|lbs?|miles?|km|kilomet(?:er|re)s?|met(?:er|re)s?"
    r"|minutes?|mins?|hours?|hrs?|seconds?|secs?|reps?|percent|percentage\s+points?)\b",
    re.IGNORECASE,
)

# ---------------------------------------------------------------- Korean

_HANGUL = "가-힣"
# Counters after a native counting form (한 번, 두 세트); not 일/월, since "한 일" is "what (you) did".
_COUNTERS = (
    "킬로그램|킬로미터|키로그램|킬로|키로|그램|파운드|퍼센트|프로|번째|세트|셋트|세션|시간|개월|주일|주간|바퀴|차례|종목|그릇|조각|스푼"
    "|미터|센티|칼로리|번|개|회|주|달|해|년|살|가지|명|잔|배|끼|알|병|캔|컵|분|초|km|kg|lb"
)
# After a Sino run with a place word (삼십 일, 백이십 킬로) dates and places count too.
_SINO_RUN_COUNTERS = _COUNTERS + "|일|월|점|층|등|위|m"
# Counters a lone Sino digit must be followed by (after a space): the safe ones.
_SINO_COUNTERS = "킬로그램|킬로미터|키로그램|킬로|키로|그램|파운드|퍼센트|프로|번째|세트|셋트|시간|개월|미터|칼로리|회|분|초|km|kg|lb"
_PARTICLES = "이|가|을|를|은|는|도|에|의|로|와|과|까지|부터|씩|째|쯤|만|이나|으로|이다|입니다|예요|이에요"
_END = rf"(?![{_HANGUL}])"
_KO_PATTERNS = (
    # Native words that are always numbers.
    rf"(?<![{_HANGUL}])(?:다섯|여섯|일곱|여덟|아홉|스물|서른|마흔|예순|일흔|여든|아흔|절반)",
    rf"(?<![{_HANGUL}])(?:이틀|사흘|나흘|닷새|엿새|이레|여드레|아흐레|열흘|보름){_END}",
    rf"(?<![{_HANGUL}])(?:하나(?!도)|둘(?!\s*다)|셋|넷)(?:{_PARTICLES})?{_END}",
    # Counting forms before a counter; 한번 (try it) is an idiom.
    rf"(?<![{_HANGUL}])(?:한(?!번)|두|세|네|열|스무|쉰)\s?(?:{_COUNTERS}){_END}",
    rf"(?<![{_HANGUL}])(?:한|두|세|네|열|스무|쉰)\s?(?:{_COUNTERS})(?:{_PARTICLES}){_END}",
    # Sino-Korean: a run with a place word, then the word's end, a particle or a counter.
    rf"(?<![{_HANGUL}])(?:[일이삼사오육칠팔구]?[십백천만억])+[일이삼사오육칠팔구]?"
    rf"(?:\s?(?:{_SINO_RUN_COUNTERS}))?(?:{_PARTICLES})?{_END}",
    # A lone Sino digit only before a space and a safe counter ("오 분", not 오늘, 사회).
    rf"(?<![{_HANGUL}])[일삼사오육칠팔구영공]\s(?:{_SINO_COUNTERS}){_END}",
)
_KO_WORDS = re.compile("|".join(_KO_PATTERNS))


@dataclass(frozen=True, slots=True)
class Numeral:
    """A number found in free text."""

    text: str
    start: int
    end: int


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = [" "] * (end - start)
    return "".join(chars)


def numerals(text: str) -> list[Numeral]:
    """Every number a text states itself, in order (see the module docstring).

    Args:
        text: Free text, with any references already blanked out.

    Returns:
        The numerals found; empty when the text states none.
    """
    text = unicodedata.normalize("NFC", text)
    scan = _blank(text, [m.span() for m in _EXEMPT.finditer(text)])
    found: list[Numeral] = []
    for m in re.finditer(r"\S+", scan):
        if any(ch.isnumeric() for ch in m.group()):
            found.append(Numeral(text[m.start() : m.end()], m.start(), m.end()))
    for pattern in (_EN_WORDS, _UNIT_QUANTITY, _KO_WORDS):
        for m in pattern.finditer(scan):
            if m.group().lower() == "one" and _PRONOUN_BEFORE.search(scan[: m.start()]):
                continue
            if not any(n.start <= m.start() < n.end for n in found):
                found.append(Numeral(m.group().strip(), m.start(), m.end()))
    return sorted(found, key=lambda n: n.start)


# ---------------------------------------------------------------- a question's own values

_VALUE_UNIT = (
    r"kgs?|lbs?|km|mi|miles?|m|reps?|sets?|days?|weeks?|months?|years?|times|sessions?|min(?:utes?)?|hours?|%"
    r"|키로|킬로|회|세트|일|주|개월|년|번|분|초|시간|미터|개"
)
_QUESTION_VALUE = re.compile(
    rf"(?<![\w.,:/-])(\d+(?:[.,]\d+)?(?:\s*[x×/]\s*\d+(?:[.,]\d+)?){{0,2}})(?:\s*({_VALUE_UNIT}))?"
    r"(?![\w])(?![.,:/-]\d)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class StatedValue:
    """A value the person wrote in the question (``7 days``, ``100kg``)."""

    text: str
    number: float
    unit: str


def stated_values(text: str) -> Iterator[StatedValue]:
    """The numbers a question states, each with the unit written after it.

    Parts of dates and times (``2026-11-20``, ``5:30``) are not read here;
    the caller removes named days and periods first.
    """
    for m in _QUESTION_VALUE.finditer(unicodedata.normalize("NFC", text)):
        written, unit = m.group(1), (m.group(2) or "")
        first = re.match(r"\d+(?:[.,]\d+)?", written)
        number = float(first.group().replace(",", ".")) if first else 0.0
        spacer = "" if unit == "%" else " "
        yield StatedValue(text=f"{written}{spacer}{unit}".strip(), number=number, unit=unit.lower())
