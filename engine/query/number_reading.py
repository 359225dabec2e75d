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
  halved; "half" (not "first/second/other half"); "one" (not as a pronoun:
  "no one", "one of", "the one", "the heaviest one", "a new one", "one
  another", "one-rep max"). Not: first, second, last, a few, several, many.
* English count words: "once" (not the conjunction "once you / your / the /
  that feels / it's / recovered …", nor "at once", "for once", "once again",
  "once more", "once in a while"; "once this week" counts); "a couple (of)",
  "both" and "no" before a count noun (times, sessions, days, weeks, sets,
  reps, runs, kilos …: "a couple of times", "both days", "no sessions", but
  not "a couple of tips", "both lifts"); "a single" (not "a single-leg");
  the frequencies "every (single / other) day", "each day", "every other
  week", "daily" ("every week", "every session" stay allowed).
* A unit quantity without a numeral: "a kilo", "an hour", "a rep", "a mile"
  (a / an / one / half a + a unit of weight, distance, time, reps or percent).
* Korean native numerals: 다섯 … 아흔 (and 절반, half), with their tens (열다섯,
  스물일곱); 하나 둘 셋 넷 and 열하나 … 아흔넷 as words (not 하나도, 둘 다, the
  ordinal 둘째); the counting forms 한 두 세 네 열 스무 쉰 and 열한 … 아흔네
  before a counter (한 번, 열두 세트, 세 배; not the idioms 한번 and 한가지, nor
  the ordinal 두 번째; 한번 with a particle counts: 한번도, never, 한번만), and
  열한 … 아흔네 ending a word; approximate counts 한두 두세 서너 너덧 네댓
  대여섯 예닐곱 (두어 only before a counter: 두어 보세요 is "leave it"), 한둘
  두셋 서넛. Not 여러 (several), 몇, nor a counting form before a plain noun
  (두 다리, "both legs"). A counter may be followed by a particle or a copula
  (세 번밖에, 두 번이었어요).
* Korean day counts and frequencies: 이틀 … 열흘, 보름, with particles (이틀을,
  사흘째); 매일, 날마다, 격일, 격주 (not 매주, 매번: "every week / time"); 하루
  as "one day" (하루 쉬었어요, 하루만, 하루도 빠짐없이, 단 하루), but not after a
  modifier ending in ㄴ or 오늘 / 어제 / 내일 / 그 (좋은 하루, 오늘 하루도), nor
  in 하루에 (per day, like "a day"), 하루 종일, 하루하루, 하루빨리 / 하루속히,
  하루가 다르게, 하루를 (…) 시작 / 마무리.
* Sino-Korean numerals: a run with a place word (십 백 천 만 억: 백이십,
  삼십, 이천이십육; also 수십 / 몇백, "tens / hundreds of", and 십여, "ten-odd")
  that ends a word, takes a particle or a counter; a single digit syllable
  (일 삼 사 오 …, not 이) only before a space and a counter (오 분, 삼 회).
  만 alone (or 이만, 일만) is 10,000 only before a counter (만 보, 만 번):
  otherwise it is "after" (일주일 만에, 얼마 만이야), "only" (스쿼트 만) or
  another word (이만 줄일게요, 일만 하느라). Ordinary words that begin with
  those syllables (이번, 이상, 오늘, 오일, 일주일, 일일, 일요일, 사회, 사실,
  천천히, 만약, 만족, 백미, 천만에요, 천만다행) are not numbers.
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
# What turns "a couple (of)", "both" and "no" into a count: "both days", not "both lifts" or "a couple of tips".
_EN_COUNT_NOUNS = (
    r"times|sessions|days|nights|mornings|weeks|weekends|months|years|workouts|sets|reps|runs|rides|rounds|laps"
    r"|kilos|kgs|pounds|lbs|miles|km|kilomet(?:er|re)s|minutes|mins|hours|hrs|seconds|secs"
)
# After these "once" is the conjunction ("once you finish", "once that feels easy", "once recovered") or an
# idiom ("once again"); "once this week" is still a count.
_ONCE_NOT_A_COUNT = (
    r"again|more|in\s+a\s+while|upon|(?:you|your|i|we|they|he|she|it|its|there|the|my|our|their|his|her|these"
    r"|those|all|everything|everyone|people|done|\w+ed)\b"
    r"|(?:this|that)\b(?!\s+(?:week|weekend|month|year|session|block|cycle)\b)"
)
_EN_WORDS = re.compile(
    rf"\b(?:{_EN_NUMBER})\b"
    r"|\bdouble\b(?![\s-]check)"
    r"|(?<!\bfirst )(?<!\bsecond )(?<!\bother )\bhalf\b"
    rf"|(?<!\bat )(?<!\bfor )\bonce\b(?!\s+(?:{_ONCE_NOT_A_COUNT}))"
    rf"|\ba\s+couple\s+(?:of\s+)?(?:[a-z]+\s+)?(?:{_EN_COUNT_NOUNS})\b"
    rf"|\bboth\s+(?:of\s+)?(?:(?:the|your|these|those|my)\s+)?(?:[a-z]+\s+)?(?:{_EN_COUNT_NOUNS})\b"
    rf"|\bno\s+(?:{_EN_COUNT_NOUNS})\b"
    # Frequencies are counts per day; "every week" stays allowed, as in "no one gets stronger every week".
    r"|\b(?:every|each)\s+(?:single\s+|other\s+|second\s+)?day\b|\bevery\s+(?:other|second)\s+week\b|\bdaily\b"
    r"|\ba\s+single\b(?!-)"
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
_NOT_AFTER = rf"(?<![{_HANGUL}])"
# Counters after a native counting form (한 번, 두 세트); not 일/월, since "한 일" is "what (you) did".
_COUNTERS = (
    "킬로그램|킬로미터|키로그램|킬로|키로|그램|파운드|퍼센트|프로|번째|세트|셋트|세션|시간|개월|주일|주간|바퀴|차례|종목|그릇|조각|스푼"
    "|미터|센티|칼로리|번|개|회|주|달|해|년|살|가지|명|잔|배|끼|알|병|캔|컵|분|초|km|kg|lb"
)
# After a Sino run with a place word (삼십 일, 백이십 킬로, 만 보) dates, places and steps count too.
_SINO_RUN_COUNTERS = _COUNTERS + "|일|월|점|층|등|위|걸음|보|원|m"
# Counters a lone Sino digit, or 만 alone, must be followed by: the safe ones (not 해: "스쿼트 만 해도").
_SINO_COUNTERS = "킬로그램|킬로미터|키로그램|킬로|키로|그램|파운드|퍼센트|프로|번째|세트|셋트|시간|개월|미터|칼로리|회|분|초|km|kg|lb"
_BARE_MAN_COUNTERS = _SINO_COUNTERS + "|번|개|명|배|걸음|보|원"
_PARTICLES = "이|가|을|를|은|는|도|에|의|로|와|과|까지|부터|씩|째|쯤|만|이나|으로|이다|입니다|예요|이에요"
_END = rf"(?![{_HANGUL}])"
# What may follow a number word or a counter: the word's end, or a particle or copula and the rest of the word
# (세 번밖에, 두 번이었어요, 이틀간). A syllable that is neither ends the match: 한 회복, 세분화, 보름달.
_TAIL = _PARTICLES + "|였|인|입|나|라|랑|뿐|밖에|마다|간"
_AFTER = rf"(?:(?:{_TAIL})[{_HANGUL}]*|{_END})"
_TENS = "열|스물|서른|마흔|쉰|예순|일흔|여든|아흔"
_APPROX = "한두|서너|너덧|너댓|네댓|대여섯|예닐곱|일고여덟"
_SINO_DIGIT = "일이삼사오육칠팔구"
_SINO_PLACE = "십백천만억"
# 만 alone, or after one digit (이만, 일만), not going on to a larger number (만이천, 이만오천).
_BARE_MAN = rf"(?:수|몇)?[{_SINO_DIGIT}]?만여?(?![{_SINO_PLACE}]|[{_SINO_DIGIT}][{_SINO_PLACE}])"
# A modifier ending in ㄴ (좋은, 즐거운, 힘든, 이번) makes 하루 "a day", not "one day"; 단 and 만 ("just",
# "full") do not.
_NIEUN_FINAL = "".join(chr(c) for c in range(0xAC00, 0xD7A4) if (c - 0xAC00) % 28 == 4 and chr(c) not in "단만")
_KO_PATTERNS = (
    # Native numerals past ten: 열두 번, 스물한 세트, 열하나예요, 열다섯.
    rf"{_NOT_AFTER}(?:{_TENS})(?:한|두|세|네)(?:\s?(?:{_COUNTERS}){_AFTER}|{_END})",
    rf"{_NOT_AFTER}(?:(?:{_TENS})(?:하나|둘|셋|넷)|하나(?!도)|둘(?!\s*다|째)|셋|넷|한둘|두셋|서넛){_AFTER}",
    # Native words that are always numbers.
    rf"{_NOT_AFTER}(?:(?:{_TENS})?(?:다섯|여섯|일곱|여덟|아홉)|스물|서른|마흔|예순|일흔|여든|아흔|절반)",
    rf"{_NOT_AFTER}(?:이틀|사흘|나흘|닷새|엿새|이레|여드레|아흐레|열흘|보름){_AFTER}",
    rf"{_NOT_AFTER}(?:매일(?:매일)?|날마다|격일|격주)",
    rf"{_NOT_AFTER}(?<![{_NIEUN_FINAL}] )(?<!오늘 )(?<!어제 )(?<!내일 )(?<!그 )"
    rf"하루(?!에|하루|\s?종일|빨리|속히|가\s다르게|를?\s(?:\S+\s)?(?:시작|마무리)){_AFTER}",
    # Counting forms before a counter; 한번 (try it) without a particle and 한가지 (alike) are idioms, 두 번째
    # is "second".
    rf"{_NOT_AFTER}(?:{_APPROX}|두세|두어|한(?!번(?!{_TAIL})|가지)|두(?!\s?번째)|세|네|열|스무|쉰)\s?(?:{_COUNTERS}){_AFTER}",
    rf"{_NOT_AFTER}(?:{_APPROX}){_AFTER}|{_NOT_AFTER}두세{_END}",
    # Sino-Korean: a run with a place word, then the word's end, a particle or a counter (천만에요, "not at
    # all", and 천만다행, "thank goodness", are no numbers).
    rf"{_NOT_AFTER}(?!천만(?:에|다행))(?!{_BARE_MAN})(?:수|몇)?(?:[{_SINO_DIGIT}]?[{_SINO_PLACE}])+[{_SINO_DIGIT}]?여?"
    rf"(?:\s?(?:{_SINO_RUN_COUNTERS}))?{_AFTER}",
    rf"{_NOT_AFTER}{_BARE_MAN}\s?(?:{_BARE_MAN_COUNTERS}){_AFTER}",
    # A lone Sino digit only before a space and a safe counter ("오 분", not 오늘, 사회).
    rf"{_NOT_AFTER}[일삼사오육칠팔구영공]\s(?:{_SINO_COUNTERS}){_AFTER}",
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
