"""Tests for engine.grounding: every number in an answer must be backed by a fact, an entry or the question."""

from __future__ import annotations

from datetime import date

import pytest

from engine.facts import Fact, compute_facts
from engine.query.grounding import check_numbers
from tests.helpers.entries import MONTH, TODAY, lift, metrics, nov, strength

BENCH = compute_facts(MONTH, exercises=["bench press"], today=TODAY)


def fact(value: float, unit: str, display: str, on: date | None = None) -> Fact:
    return Fact(key="k", label="a fact", value=value, unit=unit, display=display, on=on)


def ungrounded(answer: str, facts: list[Fact] | None = None, **kw: list[str]) -> list[str]:
    report = check_numbers(answer, BENCH if facts is None else facts, MONTH, **kw)
    assert report.ok == (not report.ungrounded)
    return report.ungrounded


def test_grounded_answer_passes() -> None:
    answer = (
        "Yes! Today's bench, 55 kg × 10 × 5 (volume 2,750 kg), gives an estimated 1RM of 73.3 kg: "
        "up 6.8 kg (+10.3%) from 66.5 kg on Nov 13, and a new best over 66.7 kg on 2026-11-02."
    )
    report = check_numbers(answer, BENCH, MONTH)
    assert report.ok, report.ungrounded
    assert report.checked == 11


def test_invented_weight_fails() -> None:
    report = check_numbers("Next time try 60 kg for 5 sets of 10.", BENCH, MONTH)
    assert not report.ok
    assert report.ungrounded == ["60"]
    assert report.checked == 3


def test_superseded_entries_back_nothing() -> None:
    # 11-20 was first logged as 60 kg × 10 × 5 and then corrected.
    assert ungrounded("You benched 60 kg.", []) == ["60"]


@pytest.mark.parametrize(("answer", "bad"), [("64.2 kg", []), ("64 kg", []), ("64.17 kg", []),
                                             ("64.3 kg", ["64.3"]), ("65 kg", ["65"])])
def test_rounding_to_the_answers_precision(answer: str, bad: list[str]) -> None:
    assert ungrounded(answer, [fact(64.1667, "kg", "64.2 kg")]) == bad


def test_ties_round_half_up() -> None:
    facts = [fact(17.5, "kg", "17.5 kg"), fact(0.15, "min", "0.15 min")]
    assert ungrounded("18 kg, 0.2 min", facts) == []
    assert ungrounded("17 kg, 0.1 min", facts) == ["17", "0.1"]


def test_signs_thousands_and_decimal_comma() -> None:
    facts = [fact(-2.5, "kg", "-2.5 kg"), fact(2750, "kg·reps", "2750 kg"), fact(73.333, "kg", "73.3 kg")]
    assert ungrounded("2.5 kg less, -2.5 kg, 2,750 kg, 2750 kg, 73,3 kg", facts) == []
    assert ungrounded("2,760 kg", facts) == ["2,760"]


@pytest.mark.parametrize(
    "answer",
    ["on 2026-11-20", "on 11/20", "on 20/11", "on Nov 20", "on November 20, 2026", "on 20 Nov", "11월 20일에",
     "2026년 11월 20일", "on 2026.11.20"],
)
def test_known_dates(answer: str) -> None:
    assert ungrounded(answer) == []


@pytest.mark.parametrize(("answer", "bad"), [("on 11/23", "11/23"), ("on 2025-11-20", "2025-11-20"),
                                             ("on Nov 23", "Nov 23"), ("11월 23일", "11월 23일")])
def test_unknown_dates(answer: str, bad: str) -> None:
    assert ungrounded(answer) == [bad]


def test_percentages_need_a_percent_source() -> None:
    # e1RM +10.28% vs the previous session.
    assert ungrounded("up 10.3%, about 10 %, or +10.28 percent") == []
    assert ungrounded("up 12%") == ["12%"]
    assert ungrounded("up 2750%") == ["2750%"]  # 2750 is a volume, not a percent


def test_korean_units() -> None:
    assert ungrounded("벤치 55키로 10회 5세트, 추정 1RM 73.3키로") == []
    assert ungrounded("다음엔 60키로 해보세요") == ["60"]


def test_list_markers_words_and_rm_are_not_checked() -> None:
    answer = "1. Bench: e1RM 73.3 kg\n2) Your 1RM estimate rose\n 3. W47 volume 2750 kg"
    report = check_numbers(answer, BENCH, MONTH)
    assert report.ok, report.ungrounded
    assert report.checked == 2


def test_counts_must_be_backed() -> None:
    assert ungrounded("4 bench sessions this month") == []  # a fact
    # 13 is only the day of 11-13: a date part backs "the 13th", not a count.
    assert ungrounded("13 bench sessions this month") == ["13"]
    assert ungrounded("since the 13th, 2026") == []
    assert ungrounded("13일부터") == []
    assert ungrounded("since the 23rd") == ["23"]


def test_set_notation_checks_every_number() -> None:
    entries = [strength(nov(2), lift("squat", "kg", [(100, 5)] * 5))]
    assert check_numbers("5x5 at 100kg, 100kgx5", [], entries).ok
    report = check_numbers("8x5 at 100 kg, 100×9", [], entries)
    assert report.ungrounded == ["8", "9"]


def test_times_and_paces() -> None:
    facts = compute_facts(MONTH, today=TODAY)
    assert check_numbers("5 km in 25:30, 5:06/km; the half took 1:52:40 at 5:20/km", facts, MONTH).ok
    assert check_numbers("swam 1500 m at 2:08/100m, then 2:00 per 100 m", facts, MONTH).ok
    assert check_numbers("페이스 5분 6초, 5'06\"", facts, MONTH).ok
    assert check_numbers("a 5:07/km pace", facts, MONTH).ungrounded == ["5:07"]
    # Times need a time: 5 and 10 are reps, 5:10 is no logged time.
    assert check_numbers("5:10", facts, MONTH).ungrounded == ["5:10"]


def test_entry_numbers_back_answers() -> None:
    # Not in the bench facts, but logged: squat 185 lb × 3 × 3 on 11-10, the 10 km run in 52 min.
    assert ungrounded("squat 185 lb × 3 on 11/10; 10 km in 52 minutes") == []


def test_time_parts_back_only_times() -> None:
    # 1:52:40 backs "1 h 52 min 40 s" and "112.7 minutes", but 40 is no weight.
    assert ungrounded("1 h 52 min 40 s, or 112.7 minutes") == []
    assert ungrounded("40 kg") == ["40"]


def test_extra_allowed() -> None:
    assert ungrounded("Over the last 9 weeks: 4 sessions.") == ["9"]
    assert ungrounded("Over the last 9 weeks: 4 sessions.", extra_allowed=["How did my last 9 weeks go?"]) == []
    assert ungrounded("Aim for 80% easy runs.", extra_allowed=["About 80% of weekly running should be easy."]) == []


def test_date_shaped_non_dates_read_as_numbers() -> None:
    entries = [metrics(nov(1), "running", distance_km="3", elevation_gain_m="45")]
    assert check_numbers("3/45", [], entries).ok
    assert check_numbers("3/46", [], entries).ungrounded == ["3/46"]


def test_no_numbers() -> None:
    report = check_numbers("Nice work, keep it up!", BENCH, MONTH)
    assert (report.ok, report.ungrounded, report.checked) == (True, [], 0)
