"""What the model's own words in an answer may not say: numbers, dates, counts, directions.

Code states every number, date, count and direction of the person's data
(:mod:`engine.query.sentences`). The words a model adds (a claim's note, the
answer's remark, a piece of advice) are checked here, and a field that
breaks the rule is left out (the claims stay):

* free words (advice, an article's gist, the remark) may state no number
  (:func:`engine.query.number_reading.numerals`: digits, count words,
  Korean numerals), name no date or named period ("Monday", "last week",
  어제, 지난주), refer to no id, and claim nothing about how the person's
  data moved or stands ("improved", "stalled", "your best", "new record",
  늘었, 정체, 신기록). Verbs of advice stay allowed ("add weight", "increase
  the load", 무게를 늘리세요): they speak of what to do, not of what was;
* a note on a claim about their data is stricter: it may also use no
  direction word at all (more, heavier, up, 더 무거운) and no order word
  (latest, first, previous, 최근, 처음), since the claim's sentence, written
  by code, is where those belong.
"""

from __future__ import annotations

import re

from engine.query.directions import direction_words
from engine.query.number_reading import numerals
from engine.query.references import REF

_MONTHS = (
    r"january|february|march|april|may(?=\s+\d|\s+of\b)|june|july|august|september|october|november|december"
    r"|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec"
)
_DATES = re.compile(
    rf"\b(?:{_MONTHS})\b\.?"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\byesterday\b|\btoday\b|\btonight\b|\btomorrow\b"
    r"|\b(?:last|this|previous|past)\s+(?:week|month|year|session|workout|time|weekend)\b"
    r"|\b(?:ago|earlier this)\b"
    r"|[월화수목금토일]요일|어제|그제|그저께|엊그제|오늘|내일|지난\s?주|이번\s?주|저번\s?주|지난\s?달|이번\s?달|저번\s?달"
    r"|작년|올해|지난해|재작년|지난번|저번에|전날",
    re.IGNORECASE,
)
# How the data moved or stands, said without a number: a claim only code may make.
_STATE = re.compile(
    r"\b(?:improved|improving|increased|increasing|decreased|decreasing|rose|risen|rising|dropped|dropping|fell"
    r"|fallen|falling|declined|declining|regressed|regressing|progressed|progressing|stalled|stalling|plateaued"
    r"|plateauing|stagnat\w*|gained|lost|doubled|halved|climbed|climbing|went\s+(?:up|down)|gone\s+(?:up|down)"
    r"|going\s+(?:up|down)|(?:got|getting|gotten|became|becoming)\s+(?:better|worse|stronger|weaker|faster|slower"
    r"|heavier|lighter)|stuck|hit\s+a\s+(?:plateau|wall)|on\s+a\s+plateau|(?:new|personal|all[-\s]time)\s+"
    r"(?:records?|bests?|highs?|lows?|prs?|pbs?|max)|(?:a|your)\s+(?:records?|prs?|pbs?)|your\s+(?:best|heaviest"
    r"|strongest|highest|lowest|longest|fastest|most|fewest|top))\b"
    r"|늘었|늘어났|늘어나고|줄었|줄어들었|줄어들고|올랐|올라갔|올라가고|떨어졌|떨어지고|내려갔|증가했|증가하고|감소했"
    r"|감소하고|향상[됐되]|좋아졌|좋아지고|나빠졌|나빠지고|정체|제자리|신기록|최고\s?기록|개인\s?기록|최고치|최저치"
    r"|발전했|발전하고|성장했|꾸준히|매번|강해졌|약해졌|빨라졌|느려졌",
    re.IGNORECASE,
)
_ORDER = re.compile(
    r"\b(?:latest|last|first|previous|prior|earlier|oldest|newest|recent(?:ly)?|before|since|again)\b"
    r"|최근|처음|마지막|이전|예전|지난|첫\s|다시",
    re.IGNORECASE,
)


def _quoted(found: list[str]) -> str:
    return ", ".join(f"“{w}”" for w in dict.fromkeys(found))


def free_problem(text: str) -> str | None:
    """Why the model's free words may not reach the person, or None when they may."""
    if REF.search(text):
        return "it refers to an id (values are stated by code)"
    if found := [n.text for n in numerals(text)]:
        return f"it states a number ({_quoted(found)})"
    if found := [m.group() for m in _DATES.finditer(text)]:
        return f"it names a date ({_quoted(found)})"
    if found := [m.group() for m in _STATE.finditer(text)]:
        return f"it says how the data moved or stands ({_quoted(found)}); code says that"
    return None


def data_note_problem(text: str) -> str | None:
    """Why a note on a claim about the person's data may not reach them, or None when it may."""
    if problem := free_problem(text):
        return problem
    if found := direction_words(text):
        return f"it uses a direction word ({_quoted(found)}); code writes the direction"
    if found := [m.group() for m in _ORDER.finditer(text)]:
        return f"it uses an order word ({_quoted(found)}); code names which one"
    return None
