"""What a running turn says it is doing (`engine.boundary.Step`), in the person's language.

Every detail in these lines is code's: a stage's name, the terms and periods code read in the
question, the window a retrieval fetched, the titles of the articles it picked, the domains it
loaded. None comes from a model's output, so a step never shows a number nobody checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

_STAGE_EN = {
    "routing": "Reading your message",
    "parsing": "Reading your entry",
    "clarifying": "Working out what to ask",
    "storing": "Saving your entry",
    "replying": "Writing a reply",
    "planning": "Working out what you asked",
    "retrieving": "Fetching your entries",
    "analyzing": "Looking over what I found",
    "expanding": "Bringing in more of what I know",
    "writing": "Writing the answer",
    "checking": "Checking the answer",
    "saving": "Saving the plan",
}
_STAGE_KO = {
    "routing": "메시지를 읽는 중",
    "parsing": "기록을 읽는 중",
    "clarifying": "무엇을 여쭤볼지 정리하는 중",
    "storing": "기록을 저장하는 중",
    "replying": "답장을 쓰는 중",
    "planning": "질문을 살펴보는 중",
    "retrieving": "기록을 가져오는 중",
    "analyzing": "찾은 내용을 살펴보는 중",
    "expanding": "관련 지식을 더 불러오는 중",
    "writing": "답을 쓰는 중",
    "checking": "답을 확인하는 중",
    "saving": "계획을 저장하는 중",
}
MAX_NAMED = 3
"""Terms or titles a step names; more would not fit a status line."""


def stage_text(stage: str, lang: str = "en") -> str:
    """A stage as the person reads it (``retrieving`` → ``Fetching your entries``)."""
    table = _STAGE_KO if lang == "ko" else _STAGE_EN
    return table.get(stage, stage.capitalize())


def _day(on: date, lang: str) -> str:
    return f"{on.year}년 {on.month}월 {on.day}일" if lang == "ko" else on.isoformat()


def _span(start: date, end: date, lang: str) -> str:
    return _day(start, lang) if start == end else f"{_day(start, lang)} – {_day(end, lang)}"


def _named(names: Sequence[str]) -> str:
    shown = list(dict.fromkeys(n for n in names if n.strip()))[:MAX_NAMED]
    return ", ".join(shown)


def fetching(terms: Sequence[str], start: date, end: date, lang: str = "en") -> str:
    """Entries of a window being fetched (the window code runs, a named period or a day)."""
    what, span = _named(terms), _span(start, end, lang)
    if lang == "ko":
        return f"{span} {what + ' ' if what else ''}기록을 가져오는 중"
    on = "on" if start == end else "for"
    return f"Fetching your {what + ' ' if what else ''}entries {on} {span}"


def widening(days: int, lang: str = "en") -> str:
    """Nothing (or too little) in the window: the next, wider one of code's ladder."""
    return f"최근 {days}일로 넓혀 보는 중" if lang == "ko" else f"Widening to the last {days} days"


def searching(terms: Sequence[str], lang: str = "en") -> str:
    """A search by terms over the whole history."""
    what = _named(terms)
    if lang == "ko":
        return f"{what} 기록 전체를 찾는 중" if what else "기록 전체를 찾는 중"
    return f"Searching all your {what} entries" if what else "Searching all your entries"


def recent(lang: str = "en") -> str:
    """The latest entries, whatever their day."""
    return "최근 기록을 가져오는 중" if lang == "ko" else "Fetching your latest entries"


def looking_up(titles: Sequence[str], lang: str = "en") -> str:
    """Articles of the knowledge base picked for the answer, by title."""
    quoted = ", ".join(f"“{t}”" for t in list(dict.fromkeys(titles))[:MAX_NAMED])
    return f"{quoted} 글을 찾아보는 중" if lang == "ko" else f"Looking up {quoted}"


def bringing_in(domains: Sequence[str], lang: str = "en") -> str:
    """Domains loaded mid-question, because the question reached past the ones it started with."""
    what = _named(domains)
    return f"{what} 분야 지식을 불러오는 중" if lang == "ko" else f"Bringing in what I know about {what}"


def writing_again(lang: str = "en") -> str:
    """The check refused the draft: it is written again."""
    return "확인을 통과하지 못해 답을 다시 쓰는 중" if lang == "ko" else "Writing the answer again"


def attempt_text(
    strategy: str, start: date | None, end: date | None, tier: int, terms: Sequence[str], lang: str = "en"
) -> str:
    """A retrieval attempt about to run (`engine.query.retrieval.RetrievalAttempt`), by its window or terms."""
    if strategy == "recent":
        return recent(lang)
    if start is None or end is None:
        return searching(terms, lang)
    if tier > 0:
        return widening((end - start).days + 1, lang)
    return fetching(terms, start, end, lang)
