"""The words of a chart in the person's language: titles, axis and legend labels, notices, and how a
number, a day and a period are written (the figures themselves are :mod:`engine.charts.figures`')."""

from __future__ import annotations

from datetime import date

from engine.query.render import Language

_LABELS: dict[str, tuple[str, str]] = {
    "e1rm": ("Estimated 1RM (Epley)", "추정 1RM (Epley)"),
    "top": ("Top set weight", "탑 세트 중량"),
    "pr": ("New best estimate", "추정 1RM 경신"),
    "volume": ("Weight × reps per week", "주간 중량 × 횟수"),
    "days": ("Training days", "운동한 날"),
    "distance": ("Distance per week", "주간 거리"),
    "pace": ("Pace, faster up", "페이스, 위가 빠름"),
    "bodyweight": ("Bodyweight", "체중"),
    "weekdays": ("Mon Tue Wed Thu Fri Sat Sun", "월 화 수 목 금 토 일"),
}
_TITLES: dict[str, tuple[str, str]] = {
    "lift": ("{name}: estimated 1RM and top set per session", "{name}: 세션별 추정 1RM과 탑 세트"),
    "volume": ("Weekly volume per lift", "종목별 주간 볼륨"),
    "days": ("Training days per week", "주별 운동한 날"),
    "cardio": ("{name}: distance per week and pace", "{name}: 주간 거리와 페이스"),
    "bodyweight": ("Bodyweight", "체중"),
}


def label(key: str, lang: Language) -> str:
    en, ko = _LABELS[key]
    return ko if lang == "ko" else en


def title(kind: str, name: str, lang: Language) -> str:
    en, ko = _TITLES[kind]
    return (ko if lang == "ko" else en).format(name=name)


def num(x: float) -> str:
    """``82.5``, ``1,250``: one decimal at most, none when it is .0."""
    text = f"{x:,.1f}"
    return text[:-2] if text.endswith(".0") else text


def signed(x: float) -> str:
    """A change with its sign (``+12.5``, ``−2``, ``0``)."""
    if abs(x) < 0.05:
        return "0"
    return ("+" if x > 0 else "−") + num(abs(x))


def day(on: date, lang: Language) -> str:
    return f"{on.year}년 {on.month}월 {on.day}일" if lang == "ko" else on.isoformat()


def clock(seconds: float) -> str:
    """A pace as ``m:ss`` (``h:mm:ss`` past an hour)."""
    total = int(seconds + 0.5)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def period(start: date, end: date, defaulted: bool, lang: Language) -> str:
    """The period drawn, saying when it was chosen for the person."""
    if lang == "ko":
        said = f"{day(start, lang)} ~ {day(end, lang)}"
        return f"{said} (기간을 말하지 않아 최근 12개월)" if defaulted else said
    said = f"{start.isoformat()} – {end.isoformat()}"
    return f"{said} (the last 12 months; no period was named)" if defaulted else said


def no_data(name: str, start: date | None, end: date, lang: Language) -> str:
    """Nothing logged to draw in the period (``start`` None: all time, nothing logged ever)."""
    if start is None:
        if lang == "ko":
            return f"아직 {name} 기록이 없어 그릴 그래프가 없어요."
        return f"There is nothing to chart for {name}: nothing logged yet."
    if lang == "ko":
        return f"{day(start, lang)} ~ {day(end, lang)} 사이에 {name} 기록이 없어 그릴 그래프가 없어요."
    return f"There is nothing to chart for {name} between {start.isoformat()} and {end.isoformat()}: nothing logged."


def unknown_chart(said: str, lang: Language) -> str:
    """Words that name nothing code can chart."""
    if lang == "ko":
        return (
            f"“{said}”에서 무엇을 그릴지 모르겠어요. 예: /chart 벤치, /chart 스쿼트 3개월, /chart 러닝, "
            "/chart 체중, /chart 운동일"
        )
    return (
        f"I can't tell what to chart from “{said}”. Try /chart bench, /chart squat 3 months, /chart running, "
        "/chart bodyweight or /chart days."
    )


def sessions_word(n: int, lang: Language) -> str:
    return f"{n}회" if lang == "ko" else f"{n} session{'s' if n != 1 else ''}"
