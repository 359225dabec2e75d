"""The caption and alt text of each chart, every number taken from its series (first, latest, best with
its day, change), in English or Korean. A caption stays within 1,000 characters (a Telegram photo's
caption holds 1,024)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.charts import texts as t
from engine.charts.model import (
    DENSE,
    BodyweightSeries,
    CardioSeries,
    ChartAsk,
    DaysSeries,
    Figures,
    LiftSeries,
    VolumeSeries,
    Week,
)
from engine.query.render import Language

MAX_CAPTION = 1000


def _fit(text: str) -> str:
    return text if len(text) <= MAX_CAPTION else text[: MAX_CAPTION - 1].rstrip() + "…"


def _trend(change: float, lang: Language) -> str:
    if abs(change) < 0.05:
        return "변화 없음" if lang == "ko" else "flat"
    if lang == "ko":
        return "상승" if change > 0 else "하락"
    return "rising" if change > 0 else "falling"


def _labels(lang: Language, *keys: str) -> dict[str, str]:
    return {k: t.label(k, lang) for k in keys}


def _set(weight: float, reps: int, unit: str, lang: Language) -> str:
    return f"{t.num(weight)} {unit} × {reps}{'회' if lang == 'ko' else ''}"


def lift_figures(s: LiftSeries, name: str, ask: ChartAsk, lang: Language) -> Figures:
    """A lift's estimated 1RM and top set: ``s`` must hold a session."""
    first, last, u = s.sessions[0], s.sessions[-1], s.unit
    best = max(s.sessions, key=lambda x: x.e1rm)  # max() keeps the earliest of equal ones, when it was set
    top = max(s.sessions, key=lambda x: (x.top_weight, x.top_reps))
    prs = sum(x.pr for x in s.sessions)
    change = last.e1rm - first.e1rm
    span = t.period(ask.start, ask.end, ask.defaulted, lang)
    if lang == "ko":
        lines = [
            f"{name}, {span}: {t.sessions_word(len(s.sessions), lang)}.",
            f"추정 1RM(Epley): 처음 {t.num(first.e1rm)} {u} ({t.day(first.on, lang)}), "
            f"최근 {t.num(last.e1rm)} {u} ({t.day(last.on, lang)}), "
            f"최고 {t.num(best.e1rm)} {u} ({t.day(best.on, lang)}, {_set(best.e1rm_weight, best.e1rm_reps, u, lang)} 기준), "
            f"변화 {t.signed(change)} {u}.",
            f"탑 세트: 처음 {_set(first.top_weight, first.top_reps, u, lang)}, "
            f"최근 {_set(last.top_weight, last.top_reps, u, lang)}, "
            f"최고 중량 {_set(top.top_weight, top.top_reps, u, lang)} ({t.day(top.on, lang)}).",
            f"추정 1RM 경신: {prs}회 (▲ 표시).",
        ]
        alt = (
            f"{name}의 {'주별 최고' if len(s.sessions) > DENSE else '세션별'} 추정 1RM 선 그래프, {t.day(first.on, lang)}부터 {t.day(last.on, lang)}까지 "
            f"{t.num(first.e1rm)} {u}에서 {t.num(last.e1rm)} {u}로 {_trend(change, lang)}. "
            f"탑 세트 중량은 두 번째 선, 추정 1RM 경신 {prs}회는 삼각형으로 표시."
        )
    else:
        lines = [
            f"{name}, {span}: {t.sessions_word(len(s.sessions), lang)}.",
            f"Estimated 1RM (Epley): first {t.num(first.e1rm)} {u} ({t.day(first.on, lang)}), "
            f"latest {t.num(last.e1rm)} {u} ({t.day(last.on, lang)}), "
            f"best {t.num(best.e1rm)} {u} on {t.day(best.on, lang)} (from {_set(best.e1rm_weight, best.e1rm_reps, u, lang)}), "
            f"change {t.signed(change)} {u}.",
            f"Top set: first {_set(first.top_weight, first.top_reps, u, lang)}, "
            f"latest {_set(last.top_weight, last.top_reps, u, lang)}, "
            f"heaviest {_set(top.top_weight, top.top_reps, u, lang)} on {t.day(top.on, lang)}.",
            f"New best estimates: {prs} (marked ▲).",
        ]
        alt = (
            f"Line chart of {name} estimated 1RM {'(each week’s best)' if len(s.sessions) > DENSE else 'per session'} from {first.on.isoformat()} to {last.on.isoformat()}, "
            f"{_trend(change, lang)} from {t.num(first.e1rm)} {u} to {t.num(last.e1rm)} {u}, with the top set's "
            f"weight as a second line and {prs} new best estimates marked with triangles."
        )
    return Figures(t.title("lift", name, lang), _fit("\n".join(lines)), alt, _labels(lang, "e1rm", "top", "pr"))


def _weeks_line(weeks: Sequence[Week], unit: str, lang: Language) -> str:
    """First and latest week with any (the weeks between are drawn, but a period rarely starts or ends
    on a training week), the best week, and the change."""
    some = [w for w in weeks if w.value] or list(weeks)
    first, last = some[0], some[-1]
    best = max(some, key=lambda w: w.value)
    u = f" {unit}" if unit else ""
    change = t.signed(last.value - first.value)
    if lang == "ko":
        return (
            f"처음 {t.num(first.value)}{u} ({t.day(first.start, lang)} 주), "
            f"최근 {t.num(last.value)}{u} ({t.day(last.start, lang)} 주), "
            f"최고 {t.num(best.value)}{u} ({t.day(best.start, lang)} 주), 변화 {change}{u}"
        )
    return (
        f"first {t.num(first.value)}{u} (week of {t.day(first.start, lang)}), "
        f"latest {t.num(last.value)}{u} (week of {t.day(last.start, lang)}), "
        f"best {t.num(best.value)}{u} (week of {t.day(best.start, lang)}), change {change}{u}"
    )


def volume_figures(s: VolumeSeries, names: dict[str, str], ask: ChartAsk, lang: Language) -> Figures:
    """Weekly volume per lift: ``s`` must hold a lift."""
    span = t.period(ask.start, ask.end, ask.defaulted, lang)
    head = (
        f"주간 볼륨 (작업 세트의 중량 × 횟수), {span}:"
        if lang == "ko"
        else f"Weekly volume (weight × reps of working sets), {span}:"
    )
    lines = [head]
    for lift, weeks in s.lifts:
        total = t.num(sum(w.value for w in weeks))
        name = names.get(lift, lift)
        said = f"합계 {total} {s.unit}" if lang == "ko" else f"total {total} {s.unit}"
        lines.append(f"{name}: {said}; {_weeks_line(weeks, s.unit, lang)}.")
    shown = ", ".join(names.get(x, x) for x, _ in s.lifts)
    weeks_n = len(s.lifts[0][1])
    alt = (
        f"{shown}의 주간 볼륨을 쌓은 면적 그래프, {weeks_n}주."
        if lang == "ko"
        else f"Stacked area chart of weekly volume over {weeks_n} weeks for {shown}."
    )
    return Figures(t.title("volume", "", lang), _fit("\n".join(lines)), alt, _labels(lang, "volume"))


def days_figures(s: DaysSeries, ask: ChartAsk, lang: Language) -> Figures:
    """Training days per week as a calendar: ``s`` must hold a day."""
    span = t.period(ask.start, ask.end, ask.defaulted, lang)
    n, weeks = len(s.days), len(s.weeks)
    avg = t.num(n / weeks)
    if lang == "ko":
        lines = [
            f"운동한 날, {span}: {weeks}주 동안 {n}일, 주 평균 {avg}일.",
            f"주별 일수: {_weeks_line(s.weeks, '', lang)}.",
        ]
        alt = f"달력 히트맵: 열은 주, 행은 요일, 운동한 날은 색칠됨. {weeks}주 중 {n}일 운동, 주 평균 {avg}일."
    else:
        lines = [
            f"Training days, {span}: {n} days over {weeks} weeks, {avg} a week on average.",
            f"Days per week: {_weeks_line(s.weeks, '', lang)}.",
        ]
        alt = (
            f"Calendar heatmap: one column per week, one row per weekday, training days filled in. "
            f"{n} training days over {weeks} weeks, {avg} a week on average."
        )
    return Figures(t.title("days", "", lang), _fit("\n".join(lines)), alt, _labels(lang, "days", "weekdays"))


def cardio_figures(s: CardioSeries, name: str, pace_suffix: str, ask: ChartAsk, lang: Language) -> Figures:
    """A sport's weekly distance and pace: ``s`` must hold a bout."""
    span = t.period(ask.start, ask.end, ask.defaulted, lang)
    u = s.distance_unit
    total = t.num(sum(b.distance or 0.0 for b in s.bouts))
    paced = [b for b in s.bouts if b.pace is not None]
    lines = [
        f"{name}, {span}: {len(s.bouts)}회, 총 {total} {u}."
        if lang == "ko"
        else f"{name}, {span}: {len(s.bouts)} times, {total} {u} in all.",
        ("주간 거리: " if lang == "ko" else "Distance per week: ") + _weeks_line(s.weeks, u, lang) + ".",
    ]
    if paced:
        first, last = paced[0], paced[-1]
        fast = min(paced, key=lambda b: b.pace or 0.0)
        p = {k: f"{t.clock(b.pace or 0.0)} {pace_suffix}" for k, b in (("f", first), ("l", last), ("b", fast))}
        if lang == "ko":
            lines.append(
                f"페이스: 처음 {p['f']} ({t.day(first.on, lang)}), 최근 {p['l']} ({t.day(last.on, lang)}), "
                f"가장 빠름 {p['b']} ({t.day(fast.on, lang)})."
            )
        else:
            lines.append(
                f"Pace: first {p['f']} ({t.day(first.on, lang)}), latest {p['l']} ({t.day(last.on, lang)}), "
                f"fastest {p['b']} on {t.day(fast.on, lang)}."
            )
    alt = (
        f"{name}의 주간 거리 막대와 회차별 페이스 선 그래프 ({len(s.weeks)}주, {len(s.bouts)}회, 총 {total} {u})."
        if lang == "ko"
        else f"Bars of {name} distance per week over {len(s.weeks)} weeks with each one's pace as a line "
        f"({len(s.bouts)} in all, {total} {u})."
    )
    return Figures(t.title("cardio", name, lang), _fit("\n".join(lines)), alt, _labels(lang, "distance", "pace"))


def bodyweight_figures(s: BodyweightSeries, ask: ChartAsk, lang: Language) -> Figures:
    """Weigh-ins over the period: ``s`` must hold one."""
    span = t.period(ask.start, ask.end, ask.defaulted, lang)
    first, last, u = s.points[0], s.points[-1], s.unit
    low = min(s.points, key=lambda p: p.value)
    high = max(s.points, key=lambda p: p.value)
    change = last.value - first.value
    if lang == "ko":
        caption = (
            f"체중, {span}: {len(s.points)}회 측정.\n처음 {t.num(first.value)} {u} ({t.day(first.on, lang)}), "
            f"최근 {t.num(last.value)} {u} ({t.day(last.on, lang)}), 최저 {t.num(low.value)} {u} ({t.day(low.on, lang)}), "
            f"최고 {t.num(high.value)} {u} ({t.day(high.on, lang)}), 변화 {t.signed(change)} {u}."
        )
        alt = f"체중 선 그래프, {t.num(first.value)} {u}에서 {t.num(last.value)} {u}로 {_trend(change, lang)}."
    else:
        caption = (
            f"Bodyweight, {span}: {len(s.points)} weigh-ins.\nFirst {t.num(first.value)} {u} ({t.day(first.on, lang)}), "
            f"latest {t.num(last.value)} {u} ({t.day(last.on, lang)}), lowest {t.num(low.value)} {u} ({t.day(low.on, lang)}), "
            f"highest {t.num(high.value)} {u} ({t.day(high.on, lang)}), change {t.signed(change)} {u}."
        )
        alt = f"Line chart of bodyweight, {_trend(change, lang)} from {t.num(first.value)} {u} to {t.num(last.value)} {u}."
    return Figures(t.title("bodyweight", "", lang), _fit(caption), alt, _labels(lang, "bodyweight"))
