"""What reminders say, in English and Korean (the language of the reminder's own words)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from zoneinfo import ZoneInfo

from engine.outcomes import ReminderAction
from engine.reminders.schedule import Schedule

Lang = Literal["en", "ko"]

_DAY_EN = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_DAY_KO = ("월", "화", "수", "목", "금", "토", "일")
_MONTH_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_WEEKDAY_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

LABELS: dict[Lang, dict[ReminderAction, str]] = {
    "en": {"confirm": "Set it", "cancel": "Cancel", "done": "Done", "snooze": "Snooze 1h", "delete": "Delete"},
    "ko": {"confirm": "설정", "cancel": "취소", "done": "완료", "snooze": "1시간 뒤", "delete": "삭제"},
}


def lang(code: str) -> Lang:
    return "ko" if code == "ko" else "en"


def when(at: datetime, tz: str, language: Lang) -> str:
    """An instant on the person's clock: ``Thu 26 Nov 21:40`` / ``11월 26일 (목) 21:40``."""
    local = at.astimezone(ZoneInfo(tz))
    if language == "ko":
        return f"{local.month}월 {local.day}일 ({_DAY_KO[local.weekday()]}) {local:%H:%M}"
    return f"{_DAY_EN[local.weekday()]} {local.day} {_MONTH_EN[local.month - 1]} {local:%H:%M}"


def repeat(schedule: Schedule, language: Lang) -> str:
    """How it repeats (empty for a once reminder)."""
    at = schedule.at.strftime("%H:%M")
    if schedule.repeat == "daily":
        return f"매일 {at}" if language == "ko" else f"every day at {at}"
    if schedule.repeat == "weekly":
        if language == "ko":
            return "매주 " + "·".join(_DAY_KO[d] for d in schedule.days) + f"요일 {at}"
        return "every " + ", ".join(_WEEKDAY_EN[d] for d in schedule.days) + f" at {at}"
    return ""


def _next(schedule: Schedule, due: datetime, language: Lang) -> str:
    shown = when(due, schedule.tz, language)
    every = repeat(schedule, language)
    if language == "ko":
        return f"{every}, 다음은 {shown} ({schedule.tz})" if every else f"{shown} ({schedule.tz})"
    return f"{every}, next {shown} ({schedule.tz})" if every else f"{shown} ({schedule.tz})"


def proposal(what: str, schedule: Schedule, due: datetime, language: Lang) -> str:
    if language == "ko":
        return f"“{what}” 알림을 {_next(schedule, due, language)}에 보낼까요?"
    return f"Remind you “{what}” — {_next(schedule, due, language)}?"


def set_(what: str, schedule: Schedule, due: datetime, language: Lang) -> str:
    if language == "ko":
        return f"⏰ 알림 설정: “{what}” — {_next(schedule, due, language)}"
    return f"⏰ Reminder set: “{what}” — {_next(schedule, due, language)}"


def listed(what: str, schedule: Schedule, due: datetime, language: Lang) -> str:
    return f"⏰ “{what}” — {_next(schedule, due, language)}"


def due_now(what: str, late_since: datetime | None, tz: str, language: Lang) -> str:
    """The reminder itself; one sent after its time (the bot was down) says so and when it was due."""
    if late_since is None:
        return f"⏰ {what}"
    if language == "ko":
        return f"⏰ 늦은 알림: {what} ({when(late_since, tz, language)} 예정)"
    return f"⏰ late: {what} (due {when(late_since, tz, language)})"


def missed(items: list[tuple[str, datetime, str]], language: Lang) -> str:
    """Occurrences older than the grace period when they could be sent: listed once, never sent."""
    head = "Almanac이 꺼져 있는 동안 놓친 알림:" if language == "ko" else "Missed while Almanac was offline:"
    return "\n".join([head, *(f"• “{what}” ({when(due, tz, language)})" for what, due, tz in items)])


def cancelled(what: str, language: Lang) -> str:
    return f"“{what}” 알림을 설정하지 않았어요." if language == "ko" else f"Not set: “{what}”."


def done(what: str, language: Lang) -> str:
    return f"✓ 완료: “{what}”" if language == "ko" else f"✓ Done: “{what}”."


def skipped(what: str, schedule: Schedule, due: datetime | None, language: Lang) -> str:
    after = f" — {_next(schedule, due, language)}" if due is not None else ""
    if language == "ko":
        return f"✓ 이번 “{what}” 알림은 건너뜁니다{after}"
    return f"✓ Skipping the next “{what}”{after}."


def snoozed(what: str, due: datetime, tz: str, language: Lang) -> str:
    if language == "ko":
        return f"⏰ “{what}” 알림을 {when(due, tz, language)}에 다시 보낼게요."
    return f"⏰ Snoozed “{what}” until {when(due, tz, language)}."


def deleted(what: str, language: Lang) -> str:
    return f"“{what}” 알림을 삭제했어요." if language == "ko" else f"Deleted the reminder “{what}”."


def stale(language: Lang) -> str:
    if language == "ko":
        return "이 버튼은 지난 것이에요. /reminders 로 지금 알림을 보세요."
    return "That button is out of date; /reminders shows your reminders as they are now."


def no_such(language: Lang) -> str:
    return "그런 알림이 없어요. /reminders 로 확인하세요." if language == "ko" else "No such reminder; see /reminders."


def none(language: Lang) -> str:
    if language == "ko":
        return "알림이 없어요. 예: /remind in 10m 스트레칭"
    return "You have no reminders. Try /remind in 10m stretch."


def unreadable(language: Lang) -> str:
    if language == "ko":
        return (
            "언제인지 읽지 못했어요. 예: /remind in 10m 스트레칭, /remind at 18:30 운동, /remind every Monday 7:00 하체"
        )
    return (
        "I couldn't read when. Try /remind in 10m stretch, /remind at 18:30 call the gym, "
        "/remind every Monday 7:00 leg day."
    )


def no_what(language: Lang) -> str:
    """A time but nothing to remind of ("remind me at 9pm")."""
    if language == "ko":
        return "무엇을 알려 드릴까요? 예: /remind at 21:00 스트레칭, “저녁 9시에 스트레칭하라고 알려줘”"
    return "What should I remind you of? Try /remind at 21:00 stretch, or “remind me to stretch at 9pm”."


def passed(language: Lang) -> str:
    return "그 시간은 이미 지났어요." if language == "ko" else "That time has already passed."
