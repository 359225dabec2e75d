"""The summary's and the nudges' words, in the person's language (every number in them computed by code)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, time

from engine.charts.texts import day, num
from engine.query.render import Language

WEEKDAY_NAMES = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "ko": ("월요일", "화요일", "수요일", "목요일", "금요일", "토요일", "일요일"),
}

_PR_EN = {
    "heaviest": "heaviest {v} kg",
    "reps_at": "{v:g} reps at {at} kg",
    "e1rm": "estimated 1RM {v} kg",
    "volume": "session volume {v} kg",
    "longest": "longest {v}",
    "pace": "fastest pace",
}
_PR_KO = {
    "heaviest": "최고 중량 {v} kg",
    "reps_at": "{at} kg {v:g}회",
    "e1rm": "추정 1RM {v} kg",
    "volume": "세션 볼륨 {v} kg",
    "longest": "최장 거리 {v}",
    "pace": "최고 페이스",
}


def week_head(start: date, end: date, lang: Language) -> str:
    if lang == "ko":
        return f"지난주 요약 ({day(start, lang)} ~ {day(end, lang)})"
    return f"Last week ({start.isoformat()} to {end.isoformat()})"


def sessions_line(done: int, planned: int, training_days: int, lang: Language) -> str:
    """Planned sessions done, and every training day logged."""
    if lang == "ko":
        if planned:
            return f"세션: 계획 {planned}회 중 {done}회 완료 (운동한 날 {training_days}일)"
        return f"세션: 운동한 날 {training_days}일 (계획된 세션 없음)"
    if planned:
        return f"Sessions: {done} of {planned} planned done ({training_days} training days logged)"
    return f"Sessions: {training_days} training days logged (none planned)"


def pr_part(kind: str, score: float, at: str, lang: Language) -> str:
    table = _PR_KO if lang == "ko" else _PR_EN
    value: float | str = score if kind == "reps_at" else num(score)
    shown_at = num(float(at)) if at and kind == "reps_at" else at
    return table.get(kind, kind).format(v=value, at=shown_at)


def records_line(parts: Sequence[tuple[str, Sequence[str]]], count: int, lang: Language) -> str:
    """``PRs: 2 — bench press: heaviest 100 kg, estimated 1RM 116.7 kg``."""
    if not count:
        return "개인 기록: 없음" if lang == "ko" else "PRs: none"
    listed = "; ".join(f"{name}: {', '.join(kinds)}" for name, kinds in parts)
    return f"개인 기록: {count}개 — {listed}" if lang == "ko" else f"PRs: {count} — {listed}"


def volume_line(volume: float, average: float | None, change: float | None, lang: Language) -> str:
    """The week's volume against the 4 weeks before it."""
    v = f"{num(volume)} kg"
    if average is None or change is None:
        if lang == "ko":
            return f"볼륨 (작업 세트 중량 × 횟수): {v} (이전 4주 기록 없음)"
        return f"Volume (weight × reps of working sets): {v} (nothing logged in the 4 weeks before)"
    pct = f"{'+' if change >= 0 else '−'}{abs(change):.1f}%"
    if lang == "ko":
        return f"볼륨 (작업 세트 중량 × 횟수): {v}, 이전 4주 평균 {num(average)} kg 대비 {pct}"
    return f"Volume (weight × reps of working sets): {v}, {pct} against the 4-week average of {num(average)} kg"


def stalls_head(lang: Language) -> str:
    return "정체된 종목:" if lang == "ko" else "Stalling:"


def no_stalls(lang: Language) -> str:
    return "정체된 종목: 없음" if lang == "ko" else "Stalling: none"


def targets_head(lang: Language) -> str:
    return "이번 주 목표:" if lang == "ko" else "This week's targets:"


def nothing_logged(start: date, end: date, lang: Language) -> str:
    if lang == "ko":
        return f"{day(start, lang)} ~ {day(end, lang)}에 기록된 운동이 없어요."
    return f"Nothing was logged from {start.isoformat()} to {end.isoformat()}."


# --------------------------------------------------------------------------- the /summary command


def weekly_on(weekday: int, at: time, tz: str, lang: Language) -> str:
    clock = f"{at.hour:02d}:{at.minute:02d}"
    if lang == "ko":
        return f"매주 {WEEKDAY_NAMES['ko'][weekday]} {clock}({tz})에 지난주 요약을 보내 드릴게요. 끄려면: /summary weekly off"
    return (
        f"Weekly summary on: every {WEEKDAY_NAMES['en'][weekday]} at {clock} ({tz}), last week's figures. "
        "To stop: /summary weekly off"
    )


def weekly_off(lang: Language) -> str:
    return "주간 요약을 껐어요." if lang == "ko" else "Weekly summary off."


def summary_usage(lang: Language) -> str:
    if lang == "ko":
        return "사용법: /summary (지난주 요약), /summary weekly on 월요일 8시, /summary weekly off"
    return "Usage: /summary (last week now), /summary weekly on [day] [hour] (Monday 08:00 by default), /summary weekly off"


def quiet_set(mode: str, lang: Language) -> str:
    """What /quiet set: nudges off, on, or only when the week is behind its plan."""
    if lang == "ko":
        return {
            "off": "알림을 껐어요. 다시 켜려면: /quiet off",
            "on": "계획한 세션을 기록하지 않은 날 저녁에 한 번 알려 드릴게요.",
            "behind": "이번 주 기록이 계획보다 적을 때만 알려 드릴게요.",
        }[mode]
    return {
        "off": "Nudges off. To turn them back on: /quiet off",
        "on": "Nudges on: one reminder on the evening of a planned session you have not logged.",
        "behind": "Nudges only when the week's logged sessions fall short of the plan.",
    }[mode]


# --------------------------------------------------------------------------- nudges


def nudge(summaries: Sequence[str], on: date, lang: Language) -> str:
    """One gentle nudge for a day's planned sessions not logged."""
    listed = ", ".join(s for s in summaries if s) or ("계획한 세션" if lang == "ko" else "a planned session")
    if lang == "ko":
        return f"오늘({day(on, lang)}) 계획한 {listed}을(를) 아직 기록하지 않았어요. 했다면 기록해 주세요; 쉬었다면 괜찮아요."
    return (
        f"You planned {listed} for today ({on.isoformat()}) and haven't logged it yet. "
        "If you trained, log it; if you rested, that's fine too."
    )


def behind_nudge(done: int, planned: int, lang: Language) -> str:
    """The "only when behind" nudge: this week's logged sessions against the plan so far."""
    if lang == "ko":
        return f"이번 주는 지금까지 계획 {planned}회 중 {done}회 기록했어요."
    return f"So far this week: {done} sessions logged of {planned} planned."


def planned_today(summaries: Sequence[str], on: date, lang: Language) -> str:
    """The morning of a planned day: what the approved plan holds for today."""
    listed = ", ".join(s for s in summaries if s) or ("계획한 세션" if lang == "ko" else "a planned session")
    if lang == "ko":
        return f"📅 오늘({day(on, lang)}) 계획: {listed}. 하고 나면 기록해 주세요."
    return f"📅 Planned for today ({on.isoformat()}): {listed}. Log it when it's done."
