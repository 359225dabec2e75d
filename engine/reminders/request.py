"""A plain request for a reminder, read in code: "remind me to stretch at 9pm", "매일 아침 7시에 운동
알려줘", and the ``/remind <when> <what>`` command's argument ("in 1m stretch").

What makes words a request (nothing else is one):

* English: "remind me …", "set a reminder …", "reminder: …" anywhere, "remind …" or "/remind …" at the
  start; not "remind me what / how / when / of …", which asks about the log.
* Korean: an imperative told back ("스트레칭하라고 알려줘", "물 마시라고 말해줘"), 알림 / 알람 /
  리마인드 / 리마인더 (not "알림 꺼줘", "리마인더 목록"), "잊지 않게 / 까먹지 않게"; or a plain
  "알려줘" with a when-phrase that has a time ("매일 아침 7시에 운동 알려줘"), since "알려줘" alone
  asks for something ("벤치 최고 기록 알려줘"), and not when the words ask about the past or the plan
  ("어제 7시에 한 운동 알려줘", "내일 7시에 할 운동 알려줘", "뭐", "몇").

The when-phrase is the first one with a time; a day said apart from it joins it ("remind me tomorrow
to stretch at 7am"), unless it is a word of the what ("my daily steps"). A phrase with a day and no
hour ("remind me on Friday to deload") is a request whose time is unread.

Not read: "wake me at 7" / "7시에 깨워줘", "every 2 hours", a reminder for someone else ("remind John").

``what`` is the person's words without the request around them (remind me to, 알려줘, 하라고, 나한테,
a particle 을 / 를): "스트레칭하라고" gives "스트레칭", "물 마시라고" gives "물 마시기".
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import date, datetime

from engine.language.dates import resolve_date
from engine.reminders.schedule import Schedule
from engine.reminders.when import schedule_of
from engine.reminders.words import Said, find_said


@dataclass(frozen=True)
class ReminderRequest:
    """A reminder the person asked for, read in code."""

    schedule: Schedule | None
    """When it is due; None when the words are a request but no time in them reads (the caller asks
    "when?"): "remind me to stretch", "remind me at 25:00 to stretch", "운동하라고 알려줘"."""
    what: str
    """What to remind of, in the person's words ("stretch", "운동"); "" when only a time was said."""


_COMMAND = re.compile(r"^/remind(?:@\w+)?(?:\s+|$)", re.IGNORECASE)
_LEAD = re.compile(r"^(?:remind(?!\s+me\b)|reminder\s*:)\s+", re.IGNORECASE)
_HELLO = re.compile(r"^(?:(?:hey|hi|ok|okay)\b[\s,]*)?(?:almanac\b)?[\s,:]*", re.IGNORECASE)
_ASK_EN = re.compile(
    r"(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+|pls\s+|plz\s+)?"
    r"(?:(?P<me>remind\s+me)|set\s+(?:up\s+)?(?:me\s+)?(?:an?\s+)?reminder|add\s+(?:an?\s+)?reminder|create\s+(?:an?\s+)?reminder"
    r"|new\s+reminder)\b[\s,:]*",
    re.IGNORECASE,
)
# "I forgot to remind me", "I never set a reminder": said of a reminder, not asking for one.
_NOT_ASKING = re.compile(r"(?:\bto|n't|\bnot|\bnever|\bforgot|\bi)\s+$", re.IGNORECASE)
# "remind me what I benched", "remind me of my PR": a question about the log.
_QUESTION_EN = re.compile(r"(?:what|which|how|who|where|why|when|whether|if|of)\b", re.IGNORECASE)
_TOLD_KO = re.compile(r"(?:(?:으|하)?라고|자고)\s*(?:좀\s*|꼭\s*)?(?:알려|말해|얘기해|리마인드)")
# "알림 꺼줘", "리마인더 목록": about the reminders, not asking for one (the commands' business).
_STRONG_KO = re.compile(
    r"(?:알림|알람|리마인드|리마인더)(?!\s*(?:을\s*|를\s*)?(?:꺼|끄|끈|해제|삭제|지워|취소|목록|보여|뭐|있))"
    r"|잊지\s*않게|까먹지\s*않게|안\s*까먹게"
)
_PLAIN_KO = re.compile(r"알려\s*(?:줘|주세요|줄래|주라|줘요|줄\s*수|주실|달라|주면)")
# A plain "알려줘" that asks about the log: of the past ("한 운동", "했는지") or what is planned ("할 운동",
# "뭐 하는지").
_ASKS_KO = re.compile(
    r"했|었|았|였|던|\S한\s*(?:거|것|운동)|\s한\s+(?:운동|거|것)|할\s*(?:운동|거|것|일|게)|뭐|무슨|몇|어떤|어떻게|언제|얼마"
)
_TAIL_KO = re.compile(
    r"\s*(?:(?:을|를)\s*)?(?:좀\s*|꼭\s*)?(?:(?:알려|말해|얘기해)\s*(?:줘|주세요|줄래|주라|줘요|줄\s*수\s*있어|주실\s*래요|달라)?"
    r"|리마인드(?:\s*해\s*(?:줘|주세요)?)?|(?:알림|알람|리마인더)(?:\s*(?:을|좀))?\s*(?:설정|등록|맞춰|보내|해|줘|부탁)?\S*)"
    r"(?:\s*(?:요|줘|주세요|해|줘요))*[\s.!?~]*$"
)
_TO_ME_KO = re.compile(r"(?:^|\s)(?:나|저|내|제)(?:한테|에게|게)(?=\s|$)")
_FORGET_KO = re.compile(r"\s*(?:잊지|까먹지)\s*않게|\s*안\s*까먹게")
_EN_EDGE = re.compile(r"^(?:to|that|about|for|of|:|-|–|—)\s+|^(?:please|pls)\s+", re.IGNORECASE)
_EN_TAIL = re.compile(r"[\s,]*(?:,?\s*(?:please|pls|thanks|thank you|thx))?[\s.!?~:,-]*$", re.IGNORECASE)


def read_reminder(text: str, now: datetime, tz: str) -> ReminderRequest | None:
    """The reminder ``text`` asks for.

    Args:
        text: The message ("remind me to stretch at 9pm", "/remind in 1m stretch", "매일 아침 7시에 운동
            알려줘").
        now: The moment it was said (timezone-aware).
        tz: The person's IANA zone.

    Returns:
        None when the words are not a reminder request, or say neither when nor what ("remind me");
        a request whose ``schedule`` is None when no time in it reads (ask "when?"); else the request.
    """
    found = _request(text)
    if found is None:
        return None
    said, what = found
    return ReminderRequest(schedule_of(said, now, tz) if said is not None else None, what)


def read_remind_args(args: str, now: datetime, tz: str) -> ReminderRequest:
    """The ``/remind <when> <what>`` command's argument: the when-phrase first ("in 1m stretch"), or
    anywhere ("stretch at 9pm"); a request with schedule None when no time reads."""
    found = _command(args)
    said, what = found
    return ReminderRequest(schedule_of(said, now, tz) if said is not None else None, what)


def is_reminder_request(text: str) -> bool:
    """Whether ``text`` asks for a reminder (cheap: regular expressions, no clock): True exactly when
    :func:`read_reminder` gives a request."""
    return _request(text) is not None


def _request(text: str) -> tuple[Said | None, str] | None:
    source = unicodedata.normalize("NFC", text).strip()
    if command := _COMMAND.match(source):
        rest = source[command.end() :]
        return _command(rest) if rest.strip() else None
    if lead := _LEAD.match(source):
        if _QUESTION_EN.match(source, lead.end()) or not source[lead.end() :].strip():
            return None
        return _command(source[lead.end() :])
    if (ask := _ASK_EN.search(source)) and _asking(source, ask):
        if _QUESTION_EN.match(source, ask.end()):
            return None
        rest = (_HELLO.sub("", source[: ask.start()]) + " " + source[ask.end() :]).strip()
        said = _when(rest)
        what = _english_what(_without(rest, said))
        return (said, what) if said is not None or what else None
    return _korean(source)


def _asking(source: str, ask: re.Match[str]) -> bool:
    """ "remind me" may follow its time ("at 9pm remind me to stretch"); "set a reminder" starts the
    message ("I forgot to set a reminder" is a report)."""
    before = source[: ask.start()]
    if before and before[-1].isalnum():
        return False
    if ask["me"]:
        return not _NOT_ASKING.search(before)
    return _HELLO.fullmatch(before) is not None


def _command(args: str) -> tuple[Said | None, str]:
    text = args.strip()
    found = find_said(text)
    said = next((s for s in found if s.start == 0 and s.has_time), None) or _when(text)
    what = _without(text, said)
    return said, _korean_what(what) if _is_korean(what) else _english_what(what)


def _korean(source: str) -> tuple[Said | None, str] | None:
    told = _TOLD_KO.search(source) or _STRONG_KO.search(source)
    if told is None and not _PLAIN_KO.search(source):
        return None  # most messages end here, before any when-phrase is looked for
    said = _when(source)
    if told is None:
        if said is None or not said.has_time:
            return None
        if _ASKS_KO.search(source) or _names_a_past_day(source):
            return None
    what = _korean_what(_without(source, said))
    return (said, what) if said is not None or what else None


# resolve_date needs a day to compare with; only "before it or not" is asked of it here.
_A_DAY = date(2026, 1, 15)


def _names_a_past_day(text: str) -> bool:
    """ "어제", "지난주 월요일", "3일 전": a day before today (a bare "월요일" is read by the date reader as
    the latest Monday, but in a request it is the coming one)."""
    day = resolve_date(text, _A_DAY)
    bare = day is not None and re.fullmatch(r"[월화수목금토일]요일", day.phrase)
    return day is not None and day.on is not None and day.on < _A_DAY and not bare


def _when(text: str) -> Said | None:
    """The when-phrase of a request: the first one with a time, joined by a day said apart from it
    ("remind me tomorrow to stretch at 7am"); or a day alone (a request whose time is unread)."""
    found = find_said(text)
    timed = [s for s in found if s.has_time]
    if not timed:
        return next((s for s in found if s.has_day), None)
    said = timed[0]
    if said.has_day or said.span is not None:
        return said
    apart = [s for s in found if s.has_day and not s.has_time and s.parts and _detached(text, s)]
    return _joined(said, apart[0]) if apart else said


def _detached(text: str, day: Said) -> bool:
    """A day said apart from its time must say so plainly (tomorrow, every Monday, 내일, 매일), not be an
    adjective in the what ("my daily steps", "weekdays")."""
    words = text[day.start : day.end].lower()
    return not re.match(r"(?:daily|weekdays|weekends|everyday)\b", words)


def _joined(said: Said, day: Said) -> Said:
    return replace(
        said,
        repeat=day.repeat,
        days=day.days,
        offset=day.offset,
        week=day.week,
        strict=day.strict,
        half=said.half or day.half,
        parts=(*said.parts, *day.parts),
        spans=(*said.spans, *day.spans),
    )


def _without(text: str, said: Said | None) -> str:
    if said is None:
        return text
    out = text
    for start, end in sorted(said.spans, reverse=True):
        out = out[:start] + " " + out[end:]
    return re.sub(r"\s+", " ", out).strip()


def _is_korean(text: str) -> bool:
    return bool(re.search(r"[가-힣]", text))


def _english_what(text: str) -> str:
    what = text.strip(" ,:;-")
    for _ in range(3):
        what = _EN_EDGE.sub("", what).strip()
    return _EN_TAIL.sub("", what).strip(" ,:;-\"'“”")


def _korean_what(text: str) -> str:
    what = _FORGET_KO.sub(" ", _TO_ME_KO.sub(" ", text))
    what = _TAIL_KO.sub("", what).strip()
    # A told imperative: "스트레칭하라고" is the noun, "물 마시라고" the doing ("물 마시기").
    if m := re.search(r"\s*하(?:라고|자고)$", what):
        what = what[: m.start()]
    elif m := re.search(r"(?:으라고|라고|자고)$", what):
        what = what[: m.start()] + "기"
    what = re.sub(r"(?<=\S)(?:을|를)$", "", what.strip())
    return re.sub(r"^(?:에게|에|는|은)\s+", "", what).strip(" ,.!?~")
