"""The words adapters put around an answer (partial, the dates it rests on, sources), in its language.

The engine says which language an answer is in (``Answer.language``); an
answer in Korean gets Korean notes, so no English label sits in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Answer, LoggedEntry


@dataclass(frozen=True)
class AnswerNotes:
    partial: str
    """Said of an answer the engine could not fully check."""
    sources: str
    """Heads the articles and other sources it cites."""
    from_entries: str
    """``{dates}`` becomes the days of the entries it rests on."""

    def entries(self, dates: Sequence[str]) -> str:
        return self.from_entries.format(dates=", ".join(dates))


_NOTES = {
    "en": AnswerNotes(
        partial="partial answer: I could not check all of it",
        sources="Sources",
        from_entries="From your entries of {dates}",
    ),
    "ko": AnswerNotes(
        partial="일부만 답했어요: 모두 확인하지는 못했어요",
        sources="출처",
        from_entries="{dates} 기록에서",
    ),
}


def notes_for(answer: Answer) -> AnswerNotes:
    return _NOTES.get(answer.language, _NOTES["en"])


def entry_dates(answer: Answer) -> list[str]:
    """The days of the entries an answer cites, in order, once each."""
    return list(dict.fromkeys(c.on.isoformat() for c in answer.citations if c.on is not None))


def record_lines(entry: LoggedEntry) -> list[str]:
    """The records a logged entry set, one plain line each, as every platform shows them under it:
    ``🏆`` for a personal record, ``🆕`` for a lift or sport logged for the first time, ``📉`` for a stall."""
    return [f"{_MARKS.get(r.kind, '🏆')} {r.text}" for r in entry.records]


_MARKS = {"first": "🆕", "stall": "📉"}
