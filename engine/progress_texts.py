"""The sentences of progress, in the person's language: the records a log sets and the next
session's target of a lift (every number in them computed by code; :mod:`engine.texts` holds the rest).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from engine.facts.model import Progress, Stall, Target

# --------------------------------------------------------------------------- records set when logging

_RECORD_EN = {
    "heaviest": "New heaviest {subject}: {shown}",
    "reps_at": "Most reps at {at} on {subject}: {shown}",
    "reps_bw": "Most reps in one set of {subject}: {shown}",
    "e1rm": "New best estimated 1RM on {subject}: {shown}",
    "volume": "Best {subject} session volume: {shown}",
    "longest": "Longest {subject}: {shown}",
    "pace": "Fastest {subject} pace over {at}: {shown}",
}
_RECORD_KO = {
    "heaviest": "{subject} 최고 중량 경신: {shown}",
    "reps_at": "{subject} {at} 최다 반복 경신: {shown}",
    "reps_bw": "{subject} 한 세트 최다 반복 경신: {shown}",
    "e1rm": "{subject} 추정 1RM 최고 경신: {shown}",
    "volume": "{subject} 세션 볼륨 최고 경신: {shown}",
    "longest": "{subject} 최장 거리 경신: {shown}",
    "pace": "{subject} {at} 최고 페이스 경신: {shown}",
}


def first_logged(subject: str, lang: str = "en") -> str:
    """A lift or sport logged for the first time: no record to beat yet."""
    return f"{subject} 첫 기록이에요." if lang == "ko" else f"First time logged: {subject}."


def estimate_from(value: str, set_text: str, lang: str = "en") -> str:
    """An estimated 1RM with the set it came from (``70 kg, from 60 kg × 5``)."""
    return f"{value} ({set_text} 기준)" if lang == "ko" else f"{value}, from {set_text}"


def record_line(kind: str, subject: str, shown: str, before: str, on: date, at: str = "", lang: str = "en") -> str:
    """A record an entry set, with the best before it and its day."""
    if lang == "ko":
        said = _RECORD_KO[kind].format(subject=subject, shown=shown, at=at)
        return f"{said} (이전: {before}, {on.year}년 {on.month}월 {on.day}일)"
    said = _RECORD_EN[kind].format(subject=subject, shown=shown, at=at)
    return f"{said} (before: {before}, {on.isoformat()})"


# --------------------------------------------------------------------------- next-session targets


def _kg(weight: float) -> str:
    """62.5 → ``62.5``, 60.0 → ``60``."""
    return f"{weight:g}"


def _sets(reps: Sequence[int], lang: str) -> str:
    """``5 × 5`` when every set has the same reps, else ``3 sets of 12, 12, 11`` (Korean alike)."""
    listed = ", ".join(str(r) for r in reps)
    if lang == "ko":
        return f"{reps[0]}회 × {len(reps)}세트" if len(set(reps)) == 1 else f"{listed}회 ({len(reps)}세트)"
    return f"{len(reps)} × {reps[0]}" if len(set(reps)) == 1 else f"{len(reps)} sets of {listed}"


def next_target(t: Target, lang: str = "en") -> str:
    """The next session's target of a lift, with the rule that made it and the session it came from."""
    day = t.last_on.isoformat()
    sets = _sets(t.reps, lang)
    done = ", ".join(str(r) for r in t.last_reps)
    weight = f"{_kg(t.weight)} {t.unit}".strip() if t.weight is not None else ""
    last = f"{_kg(t.last_weight)} {t.unit}".strip() if t.last_weight is not None else ""
    added = f"+{_kg(t.added)} {t.unit}".strip()
    low, high = t.rep_range or (0, 0)
    if lang == "ko":
        at = f"{weight}로 " if weight else ""
        if t.rule == "repeat":
            what = f"{last}: {done}" if last else done
            return (
                f"다음 {t.exercise}: {weight + ' 그대로 ' if weight else ''}{sets} — {day}에 실패한 세트가 있어요 "
                f"({what}). 모든 세트를 완료할 때까지 같은 무게를 유지해요."
            )
        if t.rule == "linear":
            region = "하체" if t.region == "lower" else "상체"
            return (
                f"다음 {t.exercise}: {at}{sets} — 선형 증량: {day}에 {last} × {max(t.last_reps)}회 작업 세트를 "
                f"모두 완료해서 {added} ({region})."
            )
        if t.rule == "double" and t.added:
            return (
                f"다음 {t.exercise}: {at}{sets} — 더블 프로그레션 ({low}–{high}회): {day}에 모든 세트가 "
                f"{high}회에 도달해서 {added}, {low}회로 돌아가요."
            )
        if t.rule == "double":
            return (
                f"다음 {t.exercise}: {at}{sets} — 더블 프로그레션 ({low}–{high}회): {high}회에 못 미친 세트마다 "
                f"1회 더 ({day}: {done})."
            )
        return f"다음 {t.exercise}: {sets} — {day}보다 세트마다 1회 더 ({done})."
    at = f" at {weight}" if weight else ""
    if t.rule == "repeat":
        what = f"{last}: {done}" if last else done
        again = " again" if weight else ""
        return (
            f"Next {t.exercise}: {sets}{at}{again} — a set was missed on {day} ({what}), "
            "so the weight stays until every set is completed."
        )
    if t.rule == "linear":
        region = "lower body" if t.region == "lower" else "upper body"
        return (
            f"Next {t.exercise}: {sets}{at} — linear progression: every work set of {last} × {max(t.last_reps)} "
            f"was completed on {day}, {added} ({region})."
        )
    if t.rule == "double" and t.added:
        return (
            f"Next {t.exercise}: {sets}{at} — double progression ({low}–{high} reps): every set reached {high} "
            f"on {day}, so {added} and back to {low} reps."
        )
    if t.rule == "double":
        return (
            f"Next {t.exercise}: {sets}{at} — double progression ({low}–{high} reps): one more rep on every set "
            f"below {high} ({day}: {done})."
        )
    return f"Next {t.exercise}: {sets} — one more rep on every set than on {day} ({done})."


def no_target_history(exercise: str, lang: str = "en") -> str:
    """A lift with no logged session: nothing to build a target from."""
    if lang == "ko":
        return f"아직 {exercise} 기록이 없어 다음 목표를 계산할 수 없어요. 세션을 기록한 뒤 다시 물어봐 주세요."
    return (
        f"You haven't logged {exercise} yet, so there is no last session to build a target from. Log one and ask again."
    )


def unknown_target_lift(said: str, lang: str = "en") -> str:
    """``/next`` named no lift the progression rules cover."""
    if lang == "ko":
        return f"“{said}”에 맞는 운동을 찾지 못했어요. 다음 목표는 웨이트 운동에 대해 계산해요 (예: /next 벤치)."
    return f"I don't know a lift called “{said}”. Next-session targets are for lifts, e.g. /next bench."


# --------------------------------------------------------------------------- stalls and plans of them


def _num(x: float) -> str:
    """96.666 → ``96.7``, 100.0 → ``100`` (as the record lines show weights)."""
    text = f"{x:,.1f}"
    return text[:-2] if text.endswith(".0") else text


def _day(on: date, lang: str) -> str:
    return f"{on.year}년 {on.month}월 {on.day}일" if lang == "ko" else on.isoformat()


def stall_line(s: Stall, name: str, deload: float, lang: str = "en") -> str:
    """A stall with the rule that found it and its numbers, and the deload week it proposes."""
    unit = s.unit
    points = ", ".join(f"{_day(p.on, lang)} {_num(p.e1rm)} {unit}" for p in s.sessions)
    best = f"{_num(s.best.e1rm)} {unit}"
    pct = f"{deload * 100:g}%"
    if lang == "ko":
        ask = f"{pct} 디로드 주가 도움이 될 수 있어요: “{name} 디로드 주 계획해줘”."
        if s.rule == "decline":
            return (
                f"{name} 추정 1RM이 내려가는 추세예요: 최근 {len(s.sessions)}회 세션 {points} — 세션마다 약 "
                f"{_num(-s.slope)} {unit}씩 감소 (최고: {_day(s.best.on, lang)} {best}). {ask}"
            )
        return (
            f"{name} 정체: 최근 {len(s.sessions)}회 세션에서 추정 1RM과 최고 중량 모두 경신이 없어요 "
            f"({points}; 그 전 최고: {_day(s.best.on, lang)} {best}). {ask}"
        )
    ask = f"A deload week at {pct} may help: say “plan a deload week for {name}”."
    if s.rule == "decline":
        return (
            f"Your {name} estimated 1RM is trending down over the last {len(s.sessions)} sessions ({points}): "
            f"about {_num(-s.slope)} {unit} less a session (best: {best} on {_day(s.best.on, lang)}). {ask}"
        )
    return (
        f"Your {name} has stalled: no new best estimated 1RM or heavier work set in the last {len(s.sessions)} "
        f"sessions ({points}; the best before them: {best} on {_day(s.best.on, lang)}). {ask}"
    )


def no_stall(p: Progress, name: str, needed: int, lang: str = "en") -> str:
    """Why a lift asked about is not stalled, in numbers (or that it is too soon to tell)."""
    if p.before_best is None or p.latest_best is None:
        if lang == "ko":
            return f"{name} 세션이 아직 {p.sessions}회뿐이라 정체인지 판단하기 일러요 ({needed}회부터 판단해요)."
        return f"Too soon to tell a stall on {name}: {p.sessions} sessions logged, it takes {needed}."
    latest, before = p.latest_best, p.before_best
    now, then = f"{_num(latest.e1rm)} {p.unit}", f"{_num(before.e1rm)} {p.unit}"
    if lang == "ko":
        return (
            f"{name}은(는) 정체가 아니에요: 최근 {p.sessions}회 세션의 최고 추정 1RM은 {_day(latest.on, lang)} {now} "
            f"(그 전 최고: {_day(before.on, lang)} {then}), 내려가는 추세도 아니에요."
        )
    return (
        f"No stall on {name}: the best estimated 1RM of the last {p.sessions} sessions is {now} on "
        f"{_day(latest.on, lang)} (the best before them: {then} on {_day(before.on, lang)}), and it is not "
        "trending down."
    )


def plan_hint(name: str, lang: str = "en") -> str:
    """The line under a target: how to turn it into a planned session."""
    if lang == "ko":
        return f"계획에 넣으려면: “다음 {name} 세션 계획해줘”."
    return f"To plan it: “plan my next {name} session” (or “add that to my plan”)."
