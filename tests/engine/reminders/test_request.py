"""Plain reminder requests read in code: (schedule, what) by hand for a Thursday 09:00 in Seoul; words
that are no request (questions that say "알려줘" or "remind me what"), and the reading of a message."""

from __future__ import annotations

import json
from datetime import date, datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.domains.registry import DomainRegistry, DomainSelector
from engine.reading import read_message
from engine.reminders.request import ReminderRequest, is_reminder_request, read_remind_args, read_reminder
from engine.reminders.schedule import Schedule

SEOUL = "Asia/Seoul"
NOW = datetime(2026, 11, 26, 9, 0, tzinfo=ZoneInfo(SEOUL))  # Thursday
WEEKDAYS = (0, 1, 2, 3, 4)
_WORDS = ["remind", "me", "to", "at", "9pm", "in", "10m", "every", "Monday", "알려줘", "하라고", "내일", "7시", "에",
          "/remind", "what", "알림", "어제", "stretch", "운동", "set", "a", "reminder"]  # fmt: skip
CORPUS = Path(__file__).resolve().parents[2] / "data" / "reading"


def once(day: int, h: int, m: int = 0) -> Schedule:
    return Schedule(repeat="once", at=time(h, m), tz=SEOUL, on=date(2026, 11, day))


def daily(h: int, m: int = 0) -> Schedule:
    return Schedule(repeat="daily", at=time(h, m), tz=SEOUL)


def weekly(days: tuple[int, ...], h: int, m: int = 0) -> Schedule:
    return Schedule(repeat="weekly", at=time(h, m), tz=SEOUL, days=days)


REQUESTS: list[tuple[str, Schedule | None, str]] = [
    ("remind me to stretch at 9pm", once(26, 21), "stretch"),
    ("remind me every Monday at 7 to do legs", weekly((0,), 7), "do legs"),
    ("Remind me to stretch at 9pm.", once(26, 21), "stretch"),
    ("can you remind me to take creatine every day at 8am please", daily(8), "take creatine"),
    ("remind me in 10 minutes to check the oven", once(26, 9, 10), "check the oven"),
    ("remind me tomorrow to stretch at 7am", once(27, 7), "stretch"),  # the day said apart from the time
    ("at 9pm remind me to stretch", once(26, 21), "stretch"),
    ("set a reminder for 6pm to run 5k", once(26, 18), "run 5k"),
    ("hey almanac, remind me to foam roll tonight at 10", once(26, 22), "foam roll"),
    ("remind me every weekday at 6:30 to go to the gym", weekly(WEEKDAYS, 6, 30), "go to the gym"),
    ("reminder: weigh in tomorrow 7am", once(27, 7), "weigh in"),
    ("remind me to call mom on Sunday at 5pm", once(29, 17), "call mom"),
    # Hard: numbers in the what are no time; "daily" and "sun" in the what stay there.
    ("remind me to take 2 pills at 9pm", once(26, 21), "take 2 pills"),
    ("remind me at 6 to eat 3 eggs", once(26, 18), "eat 3 eggs"),
    ("remind me to plank for 2 minutes at 9pm", once(26, 21), "plank for 2 minutes"),
    ("remind me to log my daily steps at 9pm", once(26, 21), "log my daily steps"),
    ("remind me to get some sun at 3pm", once(26, 15), "get some sun"),
    ("remind me to stretch every morning at 7", daily(7), "stretch"),
    ("remind me at 7:30 tomorrow morning to weigh in", once(27, 7, 30), "weigh in"),
    # The rule, not a guess: an hour with no am/pm said today is the next one ahead (11:00, not 23:00).
    ("remind me to sleep at 11", once(26, 11), "sleep"),
    ("remind me to drink water every 2 hours", None, "drink water every 2 hours"),  # not read: ask when
    # A request whose time does not read: schedule None, the caller asks when.
    ("remind me to stretch", None, "stretch"),
    ("remind me at 25:00 to stretch", None, "stretch"),
    ("remind me at 9pm", once(26, 21), ""),
    # Korean.
    ("매일 아침 7시에 운동 알려줘", daily(7), "운동"),
    ("내일 저녁 8시에 스트레칭하라고 알려줘", once(27, 20), "스트레칭"),
    ("10분 뒤에 물 마시라고 알려줘", once(26, 9, 10), "물 마시기"),
    ("10분 후에 스쿼트 알려줘", once(26, 9, 10), "스쿼트"),
    ("매주 월요일 아침 7시 하체 운동 알려줘", weekly((0,), 7), "하체 운동"),
    ("매주 월,목 18시에 하체하라고 알려줘", weekly((0, 3), 18), "하체"),
    ("내일 7시에 벤치 알림 해줘", once(27, 7), "벤치"),
    ("오늘 밤 10시에 폼롤러 하라고 알려줘", once(26, 22), "폼롤러"),
    ("매일 밤 10시에 스트레칭 리마인드 해줘", daily(22), "스트레칭"),
    ("약 먹으라고 매일 아침 8시에 알려줘", daily(8), "약 먹기"),
    ("평일 6시 30분에 헬스장 가라고 알려주세요", weekly(WEEKDAYS, 6, 30), "헬스장 가기"),
    ("30분 있다가 스트레칭하라고 말해줘", once(26, 9, 30), "스트레칭"),
    ("나한테 물 마시라고 알려줘", None, "물 마시기"),
    ("운동하라고 알려줘", None, "운동"),
    ("내일 7시 알람 맞춰줘", once(27, 7), ""),
    ("잊지 않게 매일 밤 10시에 스트레칭 알려줘", daily(22), "스트레칭"),
    ("금요일 저녁에 운동하라고 알려줘", None, "운동"),  # a day and a period, no hour: ask when
]


@pytest.mark.parametrize(("text", "schedule", "what"), REQUESTS, ids=[t for t, _, _ in REQUESTS])
def test_a_request_reads_as_schedule_and_what(text: str, schedule: Schedule | None, what: str) -> None:
    assert read_reminder(text, NOW, SEOUL) == ReminderRequest(schedule, what)
    assert is_reminder_request(text)


COMMAND: list[tuple[str, Schedule | None, str]] = [
    ("in 1m stretch", once(26, 9, 1), "stretch"),
    ("tomorrow 7am weigh in", once(27, 7), "weigh in"),
    ("every Monday 7:00 leg day", weekly((0,), 7), "leg day"),
    ("stretch at 9pm", once(26, 21), "stretch"),
    ("10분 뒤 물 마시기", once(26, 9, 10), "물 마시기"),
    ("stretch", None, "stretch"),
]


@pytest.mark.parametrize(("args", "schedule", "what"), COMMAND, ids=[t for t, _, _ in COMMAND])
def test_the_remind_command_reads_when_then_what(args: str, schedule: Schedule | None, what: str) -> None:
    assert read_remind_args(args, NOW, SEOUL) == ReminderRequest(schedule, what)
    assert read_reminder(f"/remind {args}", NOW, SEOUL) == ReminderRequest(schedule, what)
    assert read_reminder(f"/remind@almanac_bot {args}", NOW, SEOUL) == ReminderRequest(schedule, what)


NOT_REQUESTS = [
    "remind me",
    "/remind",
    "what time is it",
    "bench 55kg 10x5",
    "remind me what I benched last week",
    "remind me of my PR",
    "can you remind me how to brace?",
    "I forgot to set a reminder yesterday",
    "벤치 최고 기록 알려줘",
    "데드리프트 자세 알려줘",
    "어제 7시에 한 운동 알려줘",  # asks about the past
    "7시에 뭐 했는지 알려줘",
    "내일 7시에 할 운동 알려줘",  # the workout planned for 7, not a reminder
    "지난주 월요일 7시 운동 알려줘",
    "ran 5k at 7am",
    "오늘 아침 7시에 스쿼트 100kg 5x5",
    "in 1m stretch",  # the command's argument alone is no request
    "/reminders",
    "show my reminders",
    "delete my reminder",
    "알림 꺼줘",
    "리마인더 목록 보여줘",
    "7시에 깨워줘",  # not read: "wake me" is not among the request words
]


@pytest.mark.parametrize("text", NOT_REQUESTS)
def test_words_that_ask_for_no_reminder(text: str) -> None:
    assert read_reminder(text, NOW, SEOUL) is None
    assert not is_reminder_request(text)


def _corpus() -> list[str]:
    return [json.loads(line)["text"] for f in sorted(CORPUS.glob("*.jsonl")) for line in f.open(encoding="utf-8")]


def test_no_line_of_the_reading_corpus_is_a_reminder_request() -> None:
    texts = _corpus()
    assert len(texts) > 700
    assert [t for t in texts if is_reminder_request(t)] == []


@pytest.fixture(scope="module")
def domains() -> tuple[DomainRegistry, object]:
    registry = DomainRegistry.load()
    return registry, DomainSelector(registry).build_active_context(registry.names)


@pytest.mark.parametrize(
    "text",
    [
        "remind me to stretch at 9pm",
        "set a reminder for 6pm to run 5k",  # "run 5k" was read as a log
        "매일 아침 7시에 운동 알려줘",  # was read as a question
        "10분 후에 스쿼트 알려줘",
        "remind me to stretch",
    ],
)
def test_a_reminder_request_is_neither_a_log_nor_a_question(text: str, domains: tuple[DomainRegistry, object]) -> None:
    registry, everything = domains
    reading = read_message(text, registry, everything, date(2026, 11, 26))  # type: ignore[arg-type]
    assert reading.kind == "reminder"
    assert reading.log is None


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60) | st.lists(st.sampled_from(_WORDS), max_size=10).map(" ".join))
def test_any_text_reads_without_error_and_the_cheap_test_agrees(text: str) -> None:
    assert is_reminder_request(text) == (read_reminder(text, NOW, SEOUL) is not None)
