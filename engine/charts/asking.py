"""What a chart request asks for, read in code with the question reader (no model call).

``/chart bench``, ``/chart 스쿼트 3개월``, "show my bench progress this year",
"지난 3개월 스쿼트 그래프", "running distance chart", "bodyweight graph",
"training days chart": :func:`engine.query.questions.read_question` reads the
terms and the period; the kind follows from what is named: bodyweight; a run or
swim (a domain with a ``[bout]``); a lift (``volume`` said: its weekly volume);
training days. No period said: the last 12 months, and the caption says so.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from engine.charts.model import ChartAsk
from engine.domains.registry import ActiveDomainContext, DomainRegistry
from engine.query.asking import domains_holding
from engine.query.questions import QuestionShape, read_question
from engine.query.targets import target_lifts

CHART = "chart"
"""The ``query_keywords`` intent of a request for a picture ("chart", "graph", "그래프")."""
_SHOW = re.compile(r"\b(?:show|see|draw|visuali[sz]e|plot)\b|보여|보고\s?싶|그려", re.I)
_DAYS = re.compile(
    r"\b(?:days?|calendar|heat\s?map|consistency|attendance|streaks?)\b|운동\s?일|운동한\s?날|출석|달력|히트맵|일수",
    re.I,
)
_BODYWEIGHT = "bodyweight"
# A bare span after /chart ("/chart squat 3 months", "/chart 스쿼트 3개월", "/chart bench 1y") means the last one.
_SPAN = re.compile(
    r"(?<!last )(?<!past )(?<!최근 )(?<!지난 )\b(\d{1,3})\s*"
    r"(?:(days?|weeks?|months?|years?|d|w|m|y)\b|(일|주|개월|달|년))",
    re.I,
)
_UNITS = {"d": "days", "w": "weeks", "m": "months", "y": "years"}
_KO_UNITS = {"일": "일", "주": "주", "개월": "개월", "달": "개월", "년": "년"}


def asks_chart(shape: QuestionShape, text: str) -> bool:
    """A question that asks for a picture: a chart word, or a trend with "show" ("show my bench progress")."""
    return CHART in shape.intents or ("progress" in shape.intents and _SHOW.search(text) is not None)


def year_before(today: date) -> date:
    """The first day of the 12 months ending today."""
    try:
        return today.replace(year=today.year - 1) + timedelta(days=1)
    except ValueError:  # 29 February
        return today.replace(year=today.year - 1, day=28) + timedelta(days=1)


def span_words(said: str) -> str:
    """A command's bare span as the period reader reads it: ``3 months`` → ``last 3 months``,
    ``3개월`` → ``최근 3개월``, ``1y`` → ``last 1 year``."""

    def said_as(m: re.Match[str]) -> str:
        n, en, ko = m.group(1), m.group(2), m.group(3)
        if ko:
            return f"최근 {n}{_KO_UNITS[ko]}"
        unit = _UNITS.get(en.lower(), en.lower())
        unit = unit.rstrip("s")
        return f"last {n} {unit}{'' if n == '1' else 's'}"

    return _SPAN.sub(said_as, said)


def read_chart(text: str, ctx: ActiveDomainContext, registry: DomainRegistry, today: date) -> ChartAsk | None:
    """The chart a command's words ask for (a bare span is the last one); None when they name nothing
    code can chart."""
    text = span_words(text)
    shape = read_question(text, ctx, today)
    return chart_of(shape, text, registry, today)


def chart_of(shape: QuestionShape, text: str, registry: DomainRegistry, today: date) -> ChartAsk | None:
    """The chart of an already-read question (see :func:`read_chart`)."""
    period = shape.period
    ever = any(p.ever for p in shape.periods)
    if period is not None:
        start, end, defaulted = period.start, min(period.end, today), False
    elif ever:
        start, end, defaulted = date.min, today, False
    else:
        start, end, defaulted = year_before(today), today, True
    lifts = tuple(target_lifts(shape.terms, registry))
    sports = [d for d in domains_holding(shape.terms, registry) if d in registry.bouts]
    if _BODYWEIGHT in shape.terms:
        return ChartAsk("bodyweight", (), start, end, defaulted)
    if "volume" in shape.intents:
        return ChartAsk("volume", lifts, start, end, defaulted)
    if lifts:
        return ChartAsk("lift", lifts[:1], start, end, defaulted)
    if sports:
        return ChartAsk("cardio", (sports[0],), start, end, defaulted)
    if _DAYS.search(text) or "frequency" in shape.intents or shape.generic:
        return ChartAsk("days", (), start, end, defaulted)
    return None
