"""What the person said this turn is evidence of itself, with them as its source.

* The request, and each answer they gave to a question, are sources:
  "you, 2026-11-25: “plan my bench, aiming for 100kg by March”". The values
  written in them are offered as ``Q`` ids (:mod:`engine.tasks.values`), so
  a claim resting on a ``Q`` id rests on their own word, not on their log.
* A yes (yes, right, correct, 네, 응, 맞아, or the Yes button) to "Is it right
  that X?" validates X; a no makes X conflicting. Either way the question
  has been answered and is not asked again in this turn.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from engine.agents.context import ClarificationItem
from engine.outcomes import Citation
from engine.query.references import Ref
from engine.tasks import texts as plan_texts

Verdict = Literal["yes", "no", ""]

YES = frozenset({
    "yes", "y", "yep", "yeah", "yup", "right", "correct", "true", "that's right", "thats right", "exactly", "sure",
    "ok", "okay", "네", "예", "응", "어", "맞아", "맞아요", "맞습니다", "맞음", "맞네", "그래", "그래요", "그렇다",
    "그렇습니다", "ㅇㅇ", "ㅇ",
})  # fmt: skip
NO = frozenset({
    "no", "n", "nope", "nah", "wrong", "not right", "incorrect", "false", "아니", "아니요", "아뇨", "아니야",
    "아니에요", "틀려", "틀려요", "틀렸어", "ㄴㄴ", "ㄴ",
})  # fmt: skip
PERSON_SOURCES = frozenset(
    {
        "you",
        "user",
        "person",
        "request",
        "the request",
        "their request",
        "answer",
        "answers",
        "the answer",
        "their answer",
        "q",
    }
)
"""What a model writes in ``source`` for "they said so" without an id."""

_EDGES = ".,!?~…。:;-–—\"'“”‘’() "
_WORD = re.compile(r"[\w']+")
_NUMBER = re.compile(r"\d")
_BEFORE, _AFTER = plan_texts.is_it_right("\x00").split("\x00")
"""The confirmation question around its claim, read back from the text that writes it."""


def folded(text: str) -> str:
    """Text as compared: NFC, case-folded, edges and repeated spaces gone."""
    return " ".join(unicodedata.normalize("NFC", text).casefold().strip(_EDGES).split())


def same_claim(a: str, b: str) -> bool:
    """Whether two claims say the same, punctuation and case aside."""
    return _WORD.findall(folded(a)) == _WORD.findall(folded(b))


def verdict(answer: str) -> Verdict:
    """Whether an answer is a yes or a no to "Is it right that …?" (``""``: neither, e.g. a value instead).

    The whole answer may be one of the words, or begin with one ("yes, that's right", "아니 62.5kg");
    a yes followed by a number is no plain yes (they are correcting something).
    """
    text = folded(answer)
    if text in YES:
        return "yes"
    if text in NO:
        return "no"
    words = _WORD.findall(text)
    first = words[0] if words else ""
    if first in NO:
        return "no"
    if first in YES and not _NUMBER.search(text):
        return "yes"
    return ""


def claim_asked(question: str) -> str:
    """The claim a confirmation question asked about (``""`` when it asked something else)."""
    if len(question) > len(_BEFORE) + len(_AFTER) and question.startswith(_BEFORE) and question.endswith(_AFTER):
        return question[len(_BEFORE) : len(question) - len(_AFTER)]
    return ""


@dataclass(frozen=True, slots=True)
class Reply:
    """One question asked this turn and the person's answer."""

    question: str
    answer: str

    @property
    def claim(self) -> str:
        """The claim it asked them to confirm, if it was a confirmation."""
        return claim_asked(self.question)

    @property
    def verdict(self) -> Verdict:
        return verdict(self.answer) if self.claim else ""


@dataclass(frozen=True, slots=True)
class Said:
    """The person's own words this turn: the request and their answers, said on ``on`` (their date)."""

    request: str
    on: date
    replies: tuple[Reply, ...] = ()

    @classmethod
    def of(cls, request: str, on: date, answers: Iterable[ClarificationItem]) -> Said:
        """From the turn's request and the answers to the questions asked in it."""
        return cls(request, on, tuple(Reply(a["question"], a["answer"]) for a in answers))

    def request_source(self, now: datetime) -> Citation:
        words = self.request if len(self.request) <= 120 else self.request[:119] + "…"
        return Citation(title=plan_texts.you_wrote(self.on, words), ref="you:request", retrieved_at=now, on=self.on)

    def reply_source(self, reply: Reply, now: datetime) -> Citation:
        n = self.replies.index(reply) + 1 if reply in self.replies else 0
        return Citation(
            title=plan_texts.you_answered(self.on, reply.answer, reply.question),
            ref=f"you:answer:{n}",
            retrieved_at=now,
            on=self.on,
        )

    def source_of(self, ref: Ref, now: datetime) -> Citation:
        """Where a ``Q`` value was said: the answer it came from (its key ``answer:<n>``), else the request."""
        if ref.key.startswith("answer:"):
            n = int(ref.key.removeprefix("answer:"))
            if 1 <= n <= len(self.replies):
                return self.reply_source(self.replies[n - 1], now)
        return self.request_source(now)

    def sources_for(self, source: str, now: datetime) -> list[Citation]:
        """The request, or their answers, for a claim whose source names them without an id ("request", "answer")."""
        if "answer" in source.lower() and self.replies:
            return [self.reply_source(r, now) for r in self.replies[-3:]]
        return [self.request_source(now)]

    def confirmation(self, claim: str) -> Reply | None:
        """Their yes or no to "Is it right that ``claim``?" (the latest, when asked more than once)."""
        for reply in reversed(self.replies):
            if reply.verdict and same_claim(reply.claim, claim):
                return reply
        return None

    def was_asked(self, question: str) -> bool:
        """Whether ``question`` was asked and answered already this turn."""
        return any(same_claim(r.question, question) for r in self.replies)

    @property
    def denied(self) -> list[str]:
        """The claims they said are not right."""
        return [r.claim for r in self.replies if r.verdict == "no"]


def person_cited(source: str) -> bool:
    """Whether a claim's ``source`` names the person's own word without an id ("request", "answer")."""
    return folded(source) in PERSON_SOURCES


def not_yet_asked(said: Said | None, questions: Sequence[str]) -> list[str]:
    """``questions`` without those asked and answered already this turn."""
    return [q for q in questions if said is None or not said.was_asked(q)]
