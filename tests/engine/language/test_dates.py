"""Tests for engine.dates: phrases to calendar days, in code."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from engine.language.dates import DateMention, date_range_back, resolve_date, today_in

SUNDAY = date(2026, 11, 22)
MONDAY = date(2026, 11, 16)
WEDNESDAY = date(2026, 11, 18)


def test_fixture_weekdays() -> None:
    assert (SUNDAY.weekday(), MONDAY.weekday(), WEDNESDAY.weekday()) == (6, 0, 2)


@pytest.mark.parametrize(
    ("text", "on", "phrase"),
    [
        ("bench 55kg 10x5 today", date(2026, 11, 22), "today"),
        ("tonight squats", date(2026, 11, 22), "tonight"),
        ("This morning I ran 5k", date(2026, 11, 22), "This morning"),
        ("오늘 벤치 55키로", date(2026, 11, 22), "오늘"),
        ("오늘 아침에 스쿼트", date(2026, 11, 22), "오늘 아침"),
        ("yesterday: deadlift 140x3", date(2026, 11, 21), "yesterday"),
        ("Yesterday evening run", date(2026, 11, 21), "Yesterday evening"),
        ("last night bench", date(2026, 11, 21), "last night"),
        ("벤치프레스 55키로 10회 5세트 어제", date(2026, 11, 21), "어제"),
        ("어제 저녁에 데드", date(2026, 11, 21), "어제 저녁"),
        ("어젯밤 턱걸이", date(2026, 11, 21), "어젯밤"),
        ("the day before yesterday I squatted", date(2026, 11, 20), "the day before yesterday"),
        ("그저께 스쿼트", date(2026, 11, 20), "그저께"),
        ("그제 벤치", date(2026, 11, 20), "그제"),
        ("3 days ago", date(2026, 11, 19), "3 days ago"),
        ("a week ago", date(2026, 11, 15), "a week ago"),
        ("two weeks ago", date(2026, 11, 8), "two weeks ago"),
        ("a couple of days ago", date(2026, 11, 20), "a couple of days ago"),
        ("3일 전에 벤치", date(2026, 11, 19), "3일 전"),
        ("일주일 전", date(2026, 11, 15), "일주일 전"),
        ("2주 전 데드", date(2026, 11, 8), "2주 전"),
        ("이틀 전", date(2026, 11, 20), "이틀 전"),
        ("2026-11-20 bench", date(2026, 11, 20), "2026-11-20"),
        ("2026/11/20", date(2026, 11, 20), "2026/11/20"),
        ("2026.11.20 스쿼트", date(2026, 11, 20), "2026.11.20"),
        ("11/20", date(2026, 11, 20), "11/20"),
        ("11/20/2026", date(2026, 11, 20), "11/20/2026"),
        ("20.11.2026", date(2026, 11, 20), "20.11.2026"),
        ("Nov 20", date(2026, 11, 20), "Nov 20"),
        ("on nov. 20 I benched", date(2026, 11, 20), "nov. 20"),
        ("20 Nov", date(2026, 11, 20), "20 Nov"),
        ("November 20th, 2026", date(2026, 11, 20), "November 20th, 2026"),
        ("the 20th of November", date(2026, 11, 20), "20th of November"),
        ("11월 20일 벤치", date(2026, 11, 20), "11월 20일"),
        ("2026년 11월 20일에", date(2026, 11, 20), "2026년 11월 20일"),
        ("11.20 벤치 55키로", date(2026, 11, 20), "11.20"),
        ("bench 10/5", date(2026, 10, 5), "10/5"),
        ("10x5 on 11/20", date(2026, 11, 20), "11/20"),
        # Yearless dates never land in the future: Dec 25 is last year's.
        ("12/25", date(2025, 12, 25), "12/25"),
        ("Dec 25", date(2025, 12, 25), "Dec 25"),
        ("12월 25일", date(2025, 12, 25), "12월 25일"),
        # Feb 29 without a year is the latest real one.
        ("2/29", date(2024, 2, 29), "2/29"),
        # First expression wins.
        ("yesterday, not 11/20", date(2026, 11, 21), "yesterday"),
        ("11/20, not yesterday", date(2026, 11, 20), "11/20"),
    ],
)
def test_resolves_past_dates(text: str, on: date, phrase: str) -> None:
    found = resolve_date(text, SUNDAY)
    assert found is not None and (found.on, found.phrase, found.status) == (on, phrase, "ok")


@pytest.mark.parametrize(
    ("text", "today", "on"),
    [
        # "last wd": strictly before today.
        ("last Monday", WEDNESDAY, date(2026, 11, 16)),
        ("last Monday", MONDAY, date(2026, 11, 9)),
        ("last Monday", SUNDAY, date(2026, 11, 16)),
        ("last sun", MONDAY, date(2026, 11, 15)),
        ("this past Friday", SUNDAY, date(2026, 11, 20)),
        ("지난 월요일", MONDAY, date(2026, 11, 9)),
        ("지난 월요일", WEDNESDAY, date(2026, 11, 16)),
        # Bare / "on" wd: on or before today.
        ("Monday", MONDAY, date(2026, 11, 16)),
        ("on Monday", WEDNESDAY, date(2026, 11, 16)),
        ("on Monday", SUNDAY, date(2026, 11, 16)),
        ("monday bench", SUNDAY, date(2026, 11, 16)),
        ("Sunday", SUNDAY, date(2026, 11, 22)),
        ("on tue", MONDAY, date(2026, 11, 10)),
        ("월요일에 벤치", MONDAY, date(2026, 11, 16)),
        ("월요일에 벤치", SUNDAY, date(2026, 11, 16)),
        ("토요일", WEDNESDAY, date(2026, 11, 14)),
        # Previous calendar week (weeks start on Monday).
        ("지난주 월요일", SUNDAY, date(2026, 11, 9)),
        ("지난주 월요일", MONDAY, date(2026, 11, 9)),
        ("지난 주 일요일에", WEDNESDAY, date(2026, 11, 15)),
        ("저번주 금요일", SUNDAY, date(2026, 11, 13)),
        ("지지난주 월요일", SUNDAY, date(2026, 11, 2)),
        ("Monday last week", SUNDAY, date(2026, 11, 9)),
        ("on Monday last week", WEDNESDAY, date(2026, 11, 9)),
        ("last week Friday", MONDAY, date(2026, 11, 13)),
        ("이번 주 월요일", SUNDAY, date(2026, 11, 16)),
    ],
)
def test_resolves_weekdays(text: str, today: date, on: date) -> None:
    mention = resolve_date(text, today)
    assert mention is not None
    assert (mention.on, mention.status) == (on, "ok")


@pytest.mark.parametrize(
    ("text", "on", "phrase"),
    [
        ("tomorrow", date(2026, 11, 23), "tomorrow"),
        ("day after tomorrow", date(2026, 11, 24), "day after tomorrow"),
        ("내일 하체", date(2026, 11, 23), "내일"),
        ("모레", date(2026, 11, 24), "모레"),
        ("2026-12-01", date(2026, 12, 1), "2026-12-01"),
        ("2027년 1월 3일", date(2027, 1, 3), "2027년 1월 3일"),
        ("next Friday", date(2026, 11, 27), "next Friday"),
        ("다음주 월요일", date(2026, 11, 23), "다음주 월요일"),
    ],
)
def test_marks_future_dates(text: str, on: date, phrase: str) -> None:
    assert resolve_date(text, SUNDAY) == DateMention(on=on, phrase=phrase, status="future")


def test_this_week_later_day_is_future() -> None:
    assert resolve_date("이번주 금요일", MONDAY) == DateMention(
        on=date(2026, 11, 20), phrase="이번주 금요일", status="future"
    )


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Feb 30", "Feb 30"),
        ("february 31st", "february 31st"),
        ("2월 30일", "2월 30일"),
        ("2026-13-01", "2026-13-01"),
        ("2026-02-29", "2026-02-29"),
        ("13월 1일", "13월 1일"),
        ("2/30", "2/30"),
        ("31.04.2026", "31.04.2026"),
    ],
)
def test_flags_impossible_dates(text: str, phrase: str) -> None:
    assert resolve_date(text, SUNDAY) == DateMention(on=None, phrase=phrase, status="invalid")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "bench 55kg 10x5",
        "80x5x5",
        "squat 3x10",
        "52.5kg x 8",
        "55kg 10/5",
        "bench 10/5 sets",
        "x 10/5",
        "10/5x3",
        "8/10 RPE",
        "5/3/1 week 2",
        "ran 5km at 5:30/km",
        "25/30 reps done",
        "12.5kg plates",
        "I sat on the bench",
        "a day in the sun",
        "mondays are for bench",
        "I may 5x5 later",
        "Nov 2026 program",
        "그제서야 알았다",
        "3 sets of 10",
        # Fractions, scores and ratios (issue 11: "1/2 marathon" was stored on January 2).
        "ran a 1/2 marathon in 1:52:40",
        "3/4 squats 100kg",
        "10/10 laps",
        "5/5 felt easy",
        "1/4 mile repeats",
        "did a 2/3 of the plan",
        # 그제야 means "only then", not the day before yesterday.
        "그제야 스쿼트 자세가 잡혔다",
    ],
)
def test_workout_numbers_are_not_dates(text: str) -> None:
    assert resolve_date(text, SUNDAY) is None


@pytest.mark.parametrize(
    ("text", "guess"),
    [
        ("bench 10/5", True),  # may be two numbers: the caller says which date it used
        ("11.20 벤치 55키로", True),
        ("on 10/5 bench", False),  # the words say it is a date
        ("10/5에 벤치", False),
        ("2026-10-05 bench", False),
        ("yesterday", False),
        ("Oct 5", False),
    ],
)
def test_a_bare_month_day_is_marked_as_a_guess(text: str, guess: bool) -> None:
    found = resolve_date(text, SUNDAY)
    assert found is not None and found.status == "ok" and found.ambiguous is guess


def test_the_day_before_yesterday_is_still_read() -> None:
    assert [resolve_date(t, SUNDAY) for t in ("그제 스쿼트", "엊그제 데드")] == [
        DateMention(on=date(2026, 11, 20), phrase="그제", status="ok"),
        DateMention(on=date(2026, 11, 20), phrase="엊그제", status="ok"),
    ]


def test_nfd_korean_is_normalized() -> None:
    import unicodedata

    text = unicodedata.normalize("NFD", "어제 벤치")
    assert resolve_date(text, SUNDAY) == DateMention(on=date(2026, 11, 21), phrase="어제", status="ok")


def test_new_year_rollover() -> None:
    assert resolve_date("12/25", date(2026, 1, 3)) == DateMention(
        on=date(2025, 12, 25), phrase="12/25", status="ok", ambiguous=True
    )
    assert resolve_date("yesterday", date(2026, 1, 1)) == DateMention(
        on=date(2025, 12, 31), phrase="yesterday", status="ok"
    )


def test_huge_offset_is_invalid_not_a_crash() -> None:
    assert resolve_date("999999 days ago", SUNDAY) == DateMention(on=None, phrase="999999 days ago", status="invalid")


@pytest.mark.parametrize(
    ("zone", "now", "expected"),
    [
        # 16:00 UTC on the 21st is already the 22nd in Seoul (UTC+9).
        ("Asia/Seoul", datetime(2026, 11, 21, 16, 0, tzinfo=timezone.utc), date(2026, 11, 22)),
        ("America/New_York", datetime(2026, 11, 22, 3, 0, tzinfo=timezone.utc), date(2026, 11, 21)),
        ("UTC", datetime(2026, 11, 22, 23, 59, tzinfo=timezone.utc), date(2026, 11, 22)),
        # Naive instants are taken as UTC.
        ("Asia/Seoul", datetime(2026, 11, 21, 16, 0), date(2026, 11, 22)),
        # An aware instant in another zone is converted, not relabelled.
        (
            "Europe/Berlin",
            datetime(2026, 11, 22, 8, 0, tzinfo=timezone(timedelta(hours=9))),
            date(2026, 11, 22),
        ),
    ],
)
def test_today_in(zone: str, now: datetime, expected: date) -> None:
    assert today_in(zone, now) == expected


def test_today_in_defaults_to_now() -> None:
    assert isinstance(today_in("Asia/Seoul"), date)


@pytest.mark.parametrize("zone", ["", "Mars/Olympus", "Asia", "../etc/passwd", "Asia/Seoul "])
def test_today_in_rejects_unknown_zones(zone: str) -> None:
    with pytest.raises(ValueError, match="unknown time zone"):
        today_in(zone)


@pytest.mark.parametrize(
    ("days", "expected"),
    [
        (1, (date(2026, 11, 22), date(2026, 11, 22))),
        (7, (date(2026, 11, 16), date(2026, 11, 22))),
        (30, (date(2026, 10, 24), date(2026, 11, 22))),
    ],
)
def test_date_range_back(days: int, expected: tuple[date, date]) -> None:
    assert date_range_back(SUNDAY, days) == expected


@pytest.mark.parametrize("days", [0, -3])
def test_date_range_back_rejects_empty_ranges(days: int) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        date_range_back(SUNDAY, days)
