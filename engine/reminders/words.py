"""Finding the words that say when, in English and Korean, before the moment they are said is known.

A when-phrase is a run of parts written next to each other (spaces, commas, a Korean particle 에 /
마다 between): a day part ("tomorrow", "every Mon and Thu", "평일", "매주 월,목", "월요일"), a period
word ("morning", "tonight", "저녁"), a clock time ("at 7", "6:30 pm", "6시 반") or a span from now
("in 1h30m", "10분 뒤"). :mod:`engine.reminders.when` turns a run into a schedule.

A bare number is a time only after a day or period word ("tomorrow 7") or after "at" / "@": in "bench
55kg 10x5" or "stretch for 10 minutes" no number is a clock.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Literal

from engine.language.date_rules import KOREAN_WEEKDAYS, WEEKDAY_FULL_NAMES, WEEKDAY_NAMES, weekday_number
from engine.reminders.clock import (
    EN_DURATION,
    EN_PERIOD,
    EN_TIME,
    KO_DURATION,
    KO_PERIOD,
    KO_TIME,
    NOON,
    Clock,
    Half,
    clock_of,
    period_of,
    span_of,
)
from engine.reminders.schedule import WEEKDAYS

Kind = Literal["day", "period", "time", "span"]

_WD = rf"(?:{WEEKDAY_NAMES})s?\b"
_WD_LIST = rf"{_WD}(?:\s*(?:,|and|&|/|\+|or)\s*{_WD})*"
_KD = rf"[{KOREAN_WEEKDAYS}]"
_KO_AND = r"\s*(?:,|/|·|와|과|하고|랑|이랑|및)\s*"
_PARTICLE = r"(?:쯤에|쯤|에는|에|엔|은|는)?"

_TABLE: tuple[tuple[Kind, str, str], ...] = (
    ("day", "daily", r"(?:every\s*day|each\s+day|daily)\b|매일(?:\s*매일)?|날마다"),
    ("day", "every period", r"(?:every|each)\s+(?P<per>morning|afternoon|evening|night)\b|(?P<kper>아침|저녁|밤)마다"),
    ("day", "weekdays", r"(?:(?:every|each)\s+weekday|(?:on\s+)?weekdays)\b|(?:매주\s*)?(?:평일|주중)(?:마다)?"),
    ("day", "weekends", r"(?:(?:every|each)\s+weekend|(?:on\s+)?weekends)\b|주말마다|매주\s*주말(?:마다)?"),
    ("day", "every", rf"(?:every|each)\s+(?P<wds>{_WD_LIST})"),
    ("day", "next", rf"next\s+(?P<wds>{_WD})"),
    ("day", "on", rf"on\s+(?P<wds>{_WD_LIST})"),
    # Alone, only full names: "sat", "sun" and "wed" are ordinary words (as in engine.language.dates).
    ("day", "named", rf"(?P<wds>(?:{WEEKDAY_FULL_NAMES})s?\b(?:\s*(?:,|and|&|/|\+|or)\s*{_WD})*)"),
    ("day", "매주", rf"매주\s*(?P<wds>{_KD}(?:요일)?(?:{_KO_AND}{_KD}(?:요일)?)*)(?:마다)?"),
    (
        "day",
        "요일",
        rf"(?:(?P<week>이번|다음|담)\s*주\s*)?(?P<wds>{_KD}요일(?:{_KO_AND}{_KD}요일)*)(?P<every>마다)?(?:날)?",
    ),
    ("day", "today", r"(?P<d0>today|tonight)\b|(?P<k0>오늘(?:\s*밤)?)"),
    ("day", "tomorrow", r"tomorrow\b|내일|낼"),
    ("day", "after tomorrow", r"(?:the\s+)?day\s+after\s+tomorrow\b|모레"),
    ("period", "en", EN_PERIOD),
    ("period", "ko", KO_PERIOD),
    ("time", "noon", NOON),
    ("time", "en", EN_TIME),
    ("time", "ko", KO_TIME),
    ("span", "in", rf"(?:in|within)\s+{EN_DURATION}"),
    ("span", "from now", rf"{EN_DURATION}\s+from\s+now\b"),
    ("span", "ko", rf"{KO_DURATION}\s*(?:후|뒤|있다가|있다|지나서)"),
)
_PARTS = tuple((kind, name, re.compile(f"(?:{pattern}){_PARTICLE}", re.IGNORECASE)) for kind, name, pattern in _TABLE)
_CONNECT = re.compile(r"[\s,]*")
_WORD = re.compile(r"[\w가-힣]")
_WORD_RUN = re.compile(r"[\w가-힣]+")
_OFFSETS = {"today": 0, "tomorrow": 1, "after tomorrow": 2}


@dataclass(frozen=True)
class Said:
    """What one when-phrase says, as written (:func:`engine.reminders.when.schedule_of` resolves it)."""

    start: int
    end: int
    repeat: Literal["daily", "weekly"] | None = None
    days: tuple[int, ...] = ()
    """The weekdays of a weekly phrase, or the one weekday of "on Friday" / "월요일" (a once day)."""
    offset: int | None = None
    """Days after today a phrase names ("tomorrow" 1), for a once day."""
    week: int | None = None
    """The calendar week of a Korean "이번 주 / 다음 주 월요일" (0, 1)."""
    strict: bool = False
    """"next Friday": a day strictly after today."""
    half: Half | None = None
    clock: Clock | None = None
    span: timedelta | None = None
    bad: bool = False
    """The words contradict themselves or name no real time ("at 25:00", "13pm", "in 5m tomorrow")."""
    parts: tuple[str, ...] = field(default=())
    """The kinds of the parts read, in order ("day", "period", "time")."""
    spans: tuple[tuple[int, int], ...] = field(default=())
    """Where in the text the phrase is written (two places when a request says its day apart)."""

    @property
    def has_time(self) -> bool:
        """A time of day or a span is said (a day alone is not yet a time)."""
        return self.clock is not None or self.span is not None or self.bad

    @property
    def has_day(self) -> bool:
        """A day or a repeat is said."""
        return self.repeat is not None or bool(self.days) or self.offset is not None


def _best(text: str, pos: int) -> tuple[Kind, str, re.Match[str]] | None:
    found = [(kind, name, m) for kind, name, p in _PARTS if (m := p.match(text, pos)) and m.end() > pos]
    return max(found, key=lambda f: f[2].end() - pos, default=None)


def _bare(kind: Kind, name: str, m: re.Match[str]) -> bool:
    """A number alone ("7"), which is a time only after a day or period word."""
    return kind == "time" and name == "en" and not (m["at"] or m["m"] or m["ap"] or m["oc"])


def _glued(kind: Kind, name: str, text: str, end: int) -> bool:
    """A day or period word that runs on into a longer word ("아침밥", "오늘날"), not into the next part
    of the phrase ("내일아침7시")."""
    if kind not in ("day", "period") or end >= len(text):
        return False
    return bool(_WORD.match(text, end)) and _best(text, end) is None


def _fold(said: Said, kind: Kind, name: str, m: re.Match[str]) -> Said:
    """``said`` with one more part; a second part of the same kind is a contradiction."""
    bad = kind in said.parts or ("span" in said.parts) or (kind == "span" and bool(said.parts))
    said = replace(said, end=m.end(), parts=(*said.parts, kind), bad=said.bad or bad)
    if kind == "span":
        found = m.groupdict()
        span = span_of(found.get("dur") or found.get("kdur") or "")
        return replace(said, span=span, bad=said.bad or span is None)
    if kind == "time":
        clock = clock_of(m)
        return replace(said, clock=clock, bad=said.bad or clock is None)
    if kind == "period":
        found = m.groupdict()
        return replace(said, half=period_of(found.get("per") or found.get("per2") or found.get("kper") or ""))
    if name in _OFFSETS:
        tonight = name == "today" and ((m["d0"] or "").lower() == "tonight" or "밤" in (m["k0"] or ""))
        return replace(said, offset=_OFFSETS[name], half="night" if tonight else said.half)
    if name == "every period":
        found = m.groupdict()
        return replace(said, repeat="daily", half=period_of(found.get("per") or found.get("kper") or ""))
    if name in ("daily", "weekdays", "weekends"):
        days = {"daily": (), "weekdays": WEEKDAYS, "weekends": (5, 6)}[name]
        return replace(said, repeat="daily" if name == "daily" else "weekly", days=days)
    words = re.findall(rf"(?:{WEEKDAY_NAMES})s?|{_KD}(?:요일)?", m["wds"], re.IGNORECASE)
    days = tuple(sorted({d for w in words if (d := weekday_number(w)) is not None}))
    plural = any(w.lower().endswith("days") for w in words)
    weekly = name in ("every", "매주") or len(days) > 1 or plural or bool(m.groupdict().get("every"))
    week = {"이번": 0, "다음": 1, "담": 1}.get(m.groupdict().get("week") or "")
    return replace(said, repeat="weekly" if weekly else None, days=days, week=week, strict=name == "next")


def find_said(text: str) -> list[Said]:
    """Every when-phrase in ``text``, in order (NFC; positions index the normalised text)."""
    text = unicodedata.normalize("NFC", text)
    out: list[Said] = []
    pos = 0
    while pos < len(text):
        best = _best(text, pos) if pos == 0 or not _WORD.match(text, pos - 1) else None
        if best is None or _bare(*best) or _glued(best[0], best[1], text, best[2].end()):
            word = _WORD_RUN.match(text, pos)
            pos = word.end() if word is not None else pos + 1
            continue
        said = _fold(Said(start=pos, end=pos), *best)
        while True:
            gap = _CONNECT.match(text, said.end)
            nxt = gap.end() if gap is not None else said.end
            part = _best(text, nxt)
            if part is None or _glued(part[0], part[1], text, part[2].end()):
                break
            if _bare(*part) and said.parts[-1] not in ("day", "period"):
                break
            said = _fold(said, *part)
        out.append(replace(said, spans=((said.start, said.end),)))
        pos = said.end
    return out
