"""The words of the plans code forms (:mod:`engine.tasks.coded`), in the person's language; every number in
them computed by code."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from engine import progress_texts
from engine.facts.model import Target

_DAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_DAYS_KO = ("월요일", "화요일", "수요일", "목요일", "금요일", "토요일", "일요일")


def _w(x: float) -> str:
    return f"{x:g}"


def _last(t: Target) -> str:
    reps = ", ".join(str(r) for r in t.last_reps)
    return f"{_w(t.last_weight)} {t.unit} × {reps}".strip() if t.last_weight is not None else reps


def last_session(t: Target, name: str, lang: str) -> str:
    """The session the plan is built from (its evidence)."""
    if lang == "ko":
        return f"최근 {name} 세션: {t.last_on.isoformat()}, {_last(t)}회"
    return f"Last {name} session: {t.last_on.isoformat()}, {_last(t)}"


def next_goal(name: str, lang: str) -> str:
    return f"다음 {name} 세션 계획" if lang == "ko" else f"Plan the next {name} session"


def deload_goal(name: str, lang: str) -> str:
    return f"{name} 디로드 주 계획" if lang == "ko" else f"Plan a deload week of {name}"


def _when(days: Sequence[date], usual: bool, name: str, lang: str) -> str:
    listed = ", ".join(f"{d.isoformat()} ({(_DAYS_KO if lang == 'ko' else _DAYS_EN)[d.weekday()]})" for d in days)
    if lang == "ko":
        if usual:
            return f"날짜: {listed} — 평소 {name} 하는 요일이에요 (최근 8주)."
        return f"날짜: {listed} — 최근 8주에 {name} 하는 요일이 따로 없어 내일부터 잡았어요."
    if usual:
        return f"When: {listed} — your usual {name} day{'s' if len(days) > 1 else ''} (last 8 weeks)."
    if len(days) == 1:
        return f"When: {listed} — tomorrow: no usual {name} day in the last 8 weeks."
    return f"When: {listed} — spread over the coming week: no usual {name} days in the last 8 weeks."


def next_steps(t: Target, name: str, on: date, usual: bool, lang: str) -> list[str]:
    """The target (with its rule) and the day it is planned on, and why that day."""
    return [progress_texts.next_target(t.model_copy(update={"exercise": name}), lang), _when([on], usual, name, lang)]


def deload_steps(
    t: Target, name: str, percent: float, weight: float, per_week: int, days: Sequence[date], usual: bool, lang: str
) -> list[str]:
    """The deload sessions: how many and why, their weight and how it was computed, and their days."""
    sets, reps, unit = len(t.last_reps), max(t.last_reps), t.unit
    last, pct = f"{_w(t.last_weight or 0.0)} {unit}", f"{percent * 100:g}%"
    if lang == "ko":
        what = (
            f"{name} 디로드 {len(days)}회 (최근 4주 주당 {per_week}회): 세션마다 {_w(weight)} {unit}로 "
            f"{reps}회 × {sets}세트 — 최근 작업 중량 {last}({t.last_on.isoformat()})의 {pct}, 원판 단위로 내림."
        )
    else:
        what = (
            f"Deload {name} {len(days)} time{'s' if len(days) > 1 else ''} ({per_week} a week over the last 4 "
            f"weeks): {sets} × {reps} at {_w(weight)} {unit} each — {pct} of the last work weight, {last} "
            f"({t.last_on.isoformat()}), rounded down to the plate increment."
        )
    return [what, _when(days, usual, name, lang)]


def expected(count: int, lang: str) -> str:
    if lang == "ko":
        return f"승인하면 계획된 세션 {count}개가 추가돼요."
    return f"{count} planned session{'s' if count > 1 else ''} added on approval."
