"""When a reminder is due, read from words: a table of phrases with hand-computed schedules and due
instants, for a Thursday morning and a Thursday late evening in Seoul (UTC+9, no DST) and the eve of
New York's fall-back night (2026-11-01 02:00 EDT becomes 01:00 EST)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.language.date_rules import weekday_number
from engine.reminders.schedule import Schedule, next_due
from engine.reminders.when import read_when

SEOUL, NEW_YORK = "Asia/Seoul", "America/New_York"
MORNING = datetime(2026, 11, 26, 9, 0, tzinfo=ZoneInfo(SEOUL))  # Thursday 09:00 KST = 00:00 UTC
EVENING = datetime(2026, 11, 26, 23, 50, tzinfo=ZoneInfo(SEOUL))  # Thursday 23:50 KST = 14:50 UTC
EVE = datetime(2026, 10, 31, 23, 50, tzinfo=ZoneInfo(NEW_YORK))  # Saturday 23:50 EDT = Nov 1 03:50 UTC
WEEKDAYS = (0, 1, 2, 3, 4)


@dataclass(frozen=True)
class Want:
    repeat: str
    at: str
    due: str
    """The first due instant, UTC, "MM-DD HH:MM" in 2026."""
    on: str | None = None
    days: tuple[int, ...] = ()


def once(on: str, at: str, due: str) -> Want:
    return Want("once", at, due, on=on)


def daily(at: str, due: str) -> Want:
    return Want("daily", at, due)


def weekly(days: tuple[int, ...], at: str, due: str) -> Want:
    return Want("weekly", at, due, days=days)


def utc(text: str) -> datetime:
    shape = "%Y-%m-%d %H:%M:%S" if text.count(":") == 2 else "%Y-%m-%d %H:%M"
    return datetime.strptime(f"2026-{text}", shape).replace(tzinfo=timezone.utc)


def check(words: str, now: datetime, tz: str, want: Want) -> None:
    got = read_when(words, now, tz)
    on = date.fromisoformat(f"2026-{want.on}") if want.on else None
    expected = Schedule(repeat=want.repeat, at=time.fromisoformat(want.at.zfill(5)), tz=tz, on=on, days=want.days)
    assert got == expected, words
    assert next_due(got, now) == utc(want.due), words


MORNING_TABLE: list[tuple[str, Want]] = [
    # Spans from now: 09:00 KST is 00:00 UTC.
    ("in 10m", once("11-26", "09:10", "11-26 00:10")),
    ("in 10 min", once("11-26", "09:10", "11-26 00:10")),
    ("in 2 hours", once("11-26", "11:00", "11-26 02:00")),
    ("in 1h30m", once("11-26", "10:30", "11-26 01:30")),
    ("in 1h 30m", once("11-26", "10:30", "11-26 01:30")),
    ("in an hour and a half", once("11-26", "10:30", "11-26 01:30")),
    ("in half an hour", once("11-26", "09:30", "11-26 00:30")),
    ("10 minutes from now", once("11-26", "09:10", "11-26 00:10")),
    ("in 30 seconds", once("11-26", "09:00:30", "11-26 00:00:30")),
    ("in 2 days", once("11-28", "09:00", "11-28 00:00")),
    # Times with no day: today if still ahead, else tomorrow.
    ("at 18:30", once("11-26", "18:30", "11-26 09:30")),
    ("at 6pm", once("11-26", "18:00", "11-26 09:00")),
    ("at 6:30 pm", once("11-26", "18:30", "11-26 09:30")),
    ("9pm", once("11-26", "21:00", "11-26 12:00")),
    ("at 7", once("11-26", "19:00", "11-26 10:00")),  # 07:00 has passed: the evening's 7
    ("at 8:30", once("11-26", "20:30", "11-26 11:30")),
    ("at 10", once("11-26", "10:00", "11-26 01:00")),  # 10:00 is still ahead
    ("at 07:00", once("11-27", "07:00", "11-26 22:00")),  # a leading zero: 24-hour, so tomorrow
    ("at 8am", once("11-27", "08:00", "11-26 23:00")),
    ("12pm", once("11-26", "12:00", "11-26 03:00")),
    ("12am", once("11-27", "00:00", "11-26 15:00")),
    ("at noon", once("11-26", "12:00", "11-26 03:00")),
    ("at midnight", once("11-27", "00:00", "11-26 15:00")),
    # Named days.
    ("tomorrow 7am", once("11-27", "07:00", "11-26 22:00")),
    ("tomorrow at 7", once("11-27", "07:00", "11-26 22:00")),
    ("at 7 tomorrow", once("11-27", "07:00", "11-26 22:00")),
    ("tomorrow morning at 6:45", once("11-27", "06:45", "11-26 21:45")),
    ("tomorrow night at 9", once("11-27", "21:00", "11-27 12:00")),
    ("tonight at 9", once("11-26", "21:00", "11-26 12:00")),
    ("at 9 tonight", once("11-26", "21:00", "11-26 12:00")),
    ("tonight at 1", once("11-27", "01:00", "11-26 16:00")),
    ("today at 3pm", once("11-26", "15:00", "11-26 06:00")),
    ("the day after tomorrow at 7am", once("11-28", "07:00", "11-27 22:00")),
    ("on Friday 8am", once("11-27", "08:00", "11-26 23:00")),
    ("Thursday at 8am", once("12-03", "08:00", "12-02 23:00")),  # today's 8am has passed
    ("on Thursday at 10am", once("11-26", "10:00", "11-26 01:00")),
    ("next Thursday at 7", once("12-03", "07:00", "12-02 22:00")),
    ("on Sunday at 5pm", once("11-29", "17:00", "11-29 08:00")),
    # Repeats.
    ("every Monday 7:00", weekly((0,), "07:00", "11-29 22:00")),
    ("every day at 7", daily("07:00", "11-26 22:00")),
    ("daily 7am", daily("07:00", "11-26 22:00")),
    ("every weekday 6:30", weekly(WEEKDAYS, "06:30", "11-26 21:30")),
    ("weekdays 6:30", weekly(WEEKDAYS, "06:30", "11-26 21:30")),
    ("every Mon and Thu at 18:00", weekly((0, 3), "18:00", "11-26 09:00")),
    ("every Monday and Thursday at 6pm", weekly((0, 3), "18:00", "11-26 09:00")),
    ("on Monday and Thursday at 7", weekly((0, 3), "07:00", "11-29 22:00")),
    ("Mondays at 7", weekly((0,), "07:00", "11-29 22:00")),
    ("every Sunday at 8:15am", weekly((6,), "08:15", "11-28 23:15")),
    ("weekends at 9am", weekly((5, 6), "09:00", "11-28 00:00")),
    ("every day at midnight", daily("00:00", "11-26 15:00")),
    ("every morning at 7", daily("07:00", "11-26 22:00")),
    ("every night at 10", daily("22:00", "11-26 13:00")),
    # Korean.
    ("10분 후", once("11-26", "09:10", "11-26 00:10")),
    ("10분 뒤", once("11-26", "09:10", "11-26 00:10")),
    ("2시간 후", once("11-26", "11:00", "11-26 02:00")),
    ("1시간 30분 뒤", once("11-26", "10:30", "11-26 01:30")),
    ("한 시간 반 뒤", once("11-26", "10:30", "11-26 01:30")),
    ("30분 있다가", once("11-26", "09:30", "11-26 00:30")),
    ("3일 후", once("11-29", "09:00", "11-29 00:00")),
    ("오후 6시 30분", once("11-26", "18:30", "11-26 09:30")),
    ("저녁 9시", once("11-26", "21:00", "11-26 12:00")),
    ("밤 9시", once("11-26", "21:00", "11-26 12:00")),
    ("아침 7시", once("11-27", "07:00", "11-26 22:00")),
    ("내일 아침 7시", once("11-27", "07:00", "11-26 22:00")),
    ("내일 7시", once("11-27", "07:00", "11-26 22:00")),
    ("내일 저녁 8시", once("11-27", "20:00", "11-27 11:00")),
    ("오늘 오후 3시", once("11-26", "15:00", "11-26 06:00")),
    ("오늘 7시", once("11-26", "19:00", "11-26 10:00")),  # today's 07:00 has passed
    ("매일 아침 7시", daily("07:00", "11-26 22:00")),
    ("매일 7시", daily("07:00", "11-26 22:00")),
    ("매주 월요일 7시", weekly((0,), "07:00", "11-29 22:00")),
    ("평일 6시 30분", weekly(WEEKDAYS, "06:30", "11-26 21:30")),
    ("주중 6시반", weekly(WEEKDAYS, "06:30", "11-26 21:30")),
    ("월요일 아침 8시", once("11-30", "08:00", "11-29 23:00")),
    ("월요일에 7시", once("11-30", "07:00", "11-29 22:00")),
    ("매주 월,목 18시", weekly((0, 3), "18:00", "11-26 09:00")),
    ("매주 화요일과 금요일 저녁 7시", weekly((1, 4), "19:00", "11-27 10:00")),
    ("월요일마다 7시", weekly((0,), "07:00", "11-29 22:00")),
    ("아침마다 7시", daily("07:00", "11-26 22:00")),
    ("18:30", once("11-26", "18:30", "11-26 09:30")),
    ("6시 반", once("11-26", "18:30", "11-26 09:30")),
    ("아홉 시", once("11-26", "21:00", "11-26 12:00")),
    ("밤 1시", once("11-27", "01:00", "11-26 16:00")),
    ("오늘 밤 12시", once("11-27", "00:00", "11-26 15:00")),
    ("자정", once("11-27", "00:00", "11-26 15:00")),
    ("정오", once("11-26", "12:00", "11-26 03:00")),
    ("새벽 5시", once("11-27", "05:00", "11-26 20:00")),
    ("오전 12시", once("11-27", "00:00", "11-26 15:00")),
    ("점심 12시 30분", once("11-26", "12:30", "11-26 03:30")),
    ("점심 1시", once("11-26", "13:00", "11-26 04:00")),
    ("모레 오후 2시", once("11-28", "14:00", "11-28 05:00")),
    ("다음 주 월요일 아침 7시", once("11-30", "07:00", "11-29 22:00")),
    ("이번 주 토요일 오전 10시", once("11-28", "10:00", "11-28 01:00")),
    ("매주 금요일 밤 1시", weekly((5,), "01:00", "11-27 16:00")),  # Friday night's 1am is Saturday's
    ("내일아침7시", once("11-27", "07:00", "11-26 22:00")),
]

EVENING_TABLE: list[tuple[str, Want]] = [
    # 23:50 KST is 14:50 UTC.
    ("in 10m", once("11-27", "00:00", "11-26 15:00")),
    ("10분 뒤", once("11-27", "00:00", "11-26 15:00")),
    ("in 1h30m", once("11-27", "01:20", "11-26 16:20")),
    ("at 7", once("11-27", "07:00", "11-26 22:00")),  # tomorrow's 07:00 comes before its 19:00
    ("6시 반", once("11-27", "06:30", "11-26 21:30")),
    ("9pm", once("11-27", "21:00", "11-27 12:00")),
    ("at 23:55", once("11-26", "23:55", "11-26 14:55")),
    ("at 23:45", once("11-27", "23:45", "11-27 14:45")),
    ("Thursday at 11:55pm", once("11-26", "23:55", "11-26 14:55")),
    ("밤 1시", once("11-27", "01:00", "11-26 16:00")),
    ("오늘 밤 12시", once("11-27", "00:00", "11-26 15:00")),
    ("at midnight", once("11-27", "00:00", "11-26 15:00")),
    ("tomorrow 7am", once("11-27", "07:00", "11-26 22:00")),
    ("every day at 7", daily("07:00", "11-26 22:00")),
    ("every Mon and Thu at 18:00", weekly((0, 3), "18:00", "11-30 09:00")),
    ("월요일 아침 8시", once("11-30", "08:00", "11-29 23:00")),
]

EVE_TABLE: list[tuple[str, Want]] = [
    # 23:50 EDT (UTC-4) is 03:50 UTC on Nov 1; at 02:00 EDT (06:00 UTC) clocks go back to 01:00 EST (UTC-5).
    ("in 10m", once("11-01", "00:00", "11-01 04:00")),
    ("in 2 hours", once("11-01", "01:50", "11-01 05:50")),  # 01:50 EDT, the first pass
    # 06:50 UTC is 01:50 EST, the second pass, which a schedule cannot name: due at 02:00 EST, 10 minutes late.
    ("in 3 hours", once("11-01", "02:00", "11-01 07:00")),
    ("in 24 hours", once("11-01", "22:50", "11-02 03:50")),  # 24 hours across a fall-back night
    ("at 1:30am", once("11-01", "01:30", "11-01 05:30")),  # a repeated time: its first occurrence
    ("tomorrow 9am", once("11-01", "09:00", "11-01 14:00")),
    ("every day at 9", daily("09:00", "11-01 14:00")),
    ("at 7", once("11-01", "07:00", "11-01 12:00")),
    ("tonight at 11:55", once("10-31", "23:55", "11-01 03:55")),
    ("every Monday 7:00", weekly((0,), "07:00", "11-02 12:00")),
    ("내일 오전 9시", once("11-01", "09:00", "11-01 14:00")),
]


@pytest.mark.parametrize(("words", "want"), MORNING_TABLE, ids=[w for w, _ in MORNING_TABLE])
def test_read_on_a_thursday_morning_in_seoul(words: str, want: Want) -> None:
    check(words, MORNING, SEOUL, want)


@pytest.mark.parametrize(("words", "want"), EVENING_TABLE, ids=[w for w, _ in EVENING_TABLE])
def test_read_late_on_a_thursday_evening_in_seoul(words: str, want: Want) -> None:
    check(words, EVENING, SEOUL, want)


@pytest.mark.parametrize(("words", "want"), EVE_TABLE, ids=[w for w, _ in EVE_TABLE])
def test_read_on_the_eve_of_new_yorks_fall_back(words: str, want: Want) -> None:
    check(words, EVE, NEW_YORK, want)


NOT_READ = [
    "remind me",
    "at 25:00",
    "25시",
    "bench 55kg 10x5",
    "what time is it",
    "13pm",
    "0am",
    "at 7:75",
    "아침 18시",  # a morning hour past noon
    "in 5m tomorrow",  # a span and a day
    "at 7 at 8",  # two times
    "every other day at 7",
    "every 2 hours",
    "in 0 minutes",
    "in 400 days",
    "Friday",  # a day with no time
    "tomorrow",
    "매일",
    "in the evening",
    "7시간",  # a span, not a clock
    "today at 8am",  # a named day whose time has passed
    "오늘 오전 8시",
    "이번 주 수요일 7시",  # Wednesday of this week is past
    "sun at 3pm",  # "sun" alone is the word, not Sunday
    "at 7 reps",
    "stretch at 9pm",  # more than a when
    "지난주 월요일 7시",
    "on 12/3 at 7",
]


@pytest.mark.parametrize("words", NOT_READ)
def test_words_that_are_no_when(words: str) -> None:
    assert read_when(words, MORNING, SEOUL) is None


def test_tonight_has_passed_late_in_the_evening() -> None:
    assert read_when("tonight at 9", EVENING, SEOUL) is None
    assert read_when("오늘 오후 3시", EVENING, SEOUL) is None


def test_a_span_keeps_its_seconds_and_rounds_a_fraction_up() -> None:
    now = datetime(2026, 11, 26, 9, 0, 20, 500000, tzinfo=ZoneInfo(SEOUL))
    got = read_when("in 10m", now, SEOUL)
    assert got == Schedule(repeat="once", at=time(9, 10, 21), tz=SEOUL, on=date(2026, 11, 26))


def test_a_skipped_time_on_a_spring_forward_night_is_due_an_hour_on() -> None:
    now = datetime(2026, 3, 7, 22, 0, tzinfo=ZoneInfo(NEW_YORK))  # 03:00 UTC on Mar 8; clocks jump at 02:00
    got = read_when("tomorrow 2:30am", now, NEW_YORK)
    assert got == Schedule(repeat="once", at=time(2, 30), tz=NEW_YORK, on=date(2026, 3, 8))
    assert next_due(got, now) == datetime(2026, 3, 8, 7, 30, tzinfo=timezone.utc)  # 03:30 EDT
    later = read_when("in 5 hours", now, NEW_YORK)  # 08:00 UTC = 04:00 EDT
    assert later == Schedule(repeat="once", at=time(4), tz=NEW_YORK, on=date(2026, 3, 8))


def test_now_must_be_aware() -> None:
    with pytest.raises(ValueError):
        read_when("in 10m", datetime(2026, 11, 26, 9), SEOUL)


def test_one_reader_of_weekday_names() -> None:
    assert [weekday_number(w) for w in ("Monday", "thurs", "Sundays", "월요일", "목", "일")] == [0, 3, 6, 0, 3, 6]
    assert weekday_number("sunny") is None
    assert weekday_number("월급") is None


def test_the_table_is_large_enough() -> None:
    assert len(MORNING_TABLE) + len(EVENING_TABLE) + len(EVE_TABLE) + len(NOT_READ) >= 60


_TOKENS = [
    "in", "at", "on", "every", "tomorrow", "tonight", "today", "next", "Monday", "thu", "and", "pm", "am", ":",
    "7", "07", "12", "13", "25", "30", "59", "0", "1h", "30m", "2 hours", "min", "noon", "midnight", "daily",
    "weekdays", "매일", "매주", "월", ",", "목요일", "내일", "오늘", "모레", "아침", "오후", "밤", "저녁", "시", "분", "반",
    "후", "뒤", "에", "마다", "평일", " ", "x", "kg",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    words=st.lists(st.sampled_from(_TOKENS), max_size=8).map(" ".join) | st.text(max_size=30),
    minutes=st.integers(0, 60 * 24 * 400),
    tz=st.sampled_from([SEOUL, NEW_YORK, "Europe/Berlin"]),
)
def test_whatever_it_reads_is_due_after_now(words: str, minutes: int, tz: str) -> None:
    """Never an error; a schedule read is always due again after the moment it was said."""
    now = datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(minutes=minutes, seconds=minutes % 60)
    got = read_when(words, now, tz)
    if got is not None:
        due = next_due(got, now)
        assert due is not None and due > now
        assert due - now <= timedelta(days=367)
