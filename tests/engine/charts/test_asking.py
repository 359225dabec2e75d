"""What a chart request asks for, read in code: the kind from what is named, the period as said (a bare
span after /chart is the last one), the last 12 months when none is said."""

from __future__ import annotations

from datetime import date

import pytest

from engine.charts import read_chart
from engine.charts.asking import asks_chart, span_words
from engine.domains.registry import DomainSelector
from engine.query.questions import read_question
from tests.helpers.domains import BUILTIN

TODAY = date(2026, 11, 22)
YEAR = (date(2025, 11, 23), TODAY)
EVERYTHING = DomainSelector(BUILTIN).build_active_context(BUILTIN.names)


@pytest.mark.parametrize(
    ("said", "kind", "subjects", "span"),
    [
        ("show my bench progress this year", "lift", ("bench press",), (date(2026, 1, 1), TODAY)),
        ("chart my squat", "lift", ("squat",), YEAR),
        ("지난 3개월 스쿼트 그래프", "lift", ("squat",), (date(2026, 8, 23), TODAY)),
        ("벤치 그래프 보여줘", "lift", ("bench press",), YEAR),
        ("squat 3 months", "lift", ("squat",), (date(2026, 8, 23), TODAY)),
        ("스쿼트 3개월", "lift", ("squat",), (date(2026, 8, 23), TODAY)),
        ("running distance chart", "cardio", ("running",), YEAR),
        ("수영 그래프", "cardio", ("swimming",), YEAR),
        ("bodyweight graph", "bodyweight", (), YEAR),
        ("몸무게 그래프", "bodyweight", (), YEAR),
        ("training days chart", "days", (), YEAR),
        ("운동한 날 그래프", "days", (), YEAR),
        ("bench volume chart", "volume", ("bench press",), YEAR),
        ("squat all time", "lift", ("squat",), (date.min, TODAY)),
    ],
)
def test_what_is_asked(said: str, kind: str, subjects: tuple[str, ...], span: tuple[date, date]) -> None:
    ask = read_chart(said, EVERYTHING, BUILTIN, TODAY)
    assert ask is not None
    assert (ask.kind, ask.subjects, (ask.start, ask.end)) == (kind, subjects, span)
    assert ask.defaulted == (span == YEAR and "1y" not in said)


def test_words_that_name_nothing_chartable() -> None:
    assert read_chart("xyzzy", EVERYTHING, BUILTIN, TODAY) is None
    assert read_chart("calories", EVERYTHING, BUILTIN, TODAY) is None


def test_a_bare_span_is_the_last_one_but_a_year_is_a_year() -> None:
    assert span_words("bench 1y") == "bench last 1 year"
    assert span_words("데드 3달") == "데드 최근 3개월"
    assert span_words("bench last 3 months") == "bench last 3 months"
    assert span_words("bench 2025년") == "bench 2025년"


@pytest.mark.parametrize(
    ("said", "chart"),
    [
        ("show my bench progress", True),
        ("벤치 추이 보여줘", True),
        ("chart my squat", True),
        ("how is my bench progress?", False),
        ("what's my best bench?", False),
    ],
)
def test_which_questions_ask_for_a_picture(said: str, chart: bool) -> None:
    assert asks_chart(read_question(said, EVERYTHING, TODAY), said) is chart
