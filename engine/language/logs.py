"""A log message read in code: which exercises, sets, runs and swims it states for certain.

A line a gym app would store at once ("bench 55kg 10x5", "벤치프레스 55키로
10회 5세트", "5k in 25:30") is stored with no model call, and what code read
is fixed: a model asked about the rest of a message can add, never change it.

A reading is ``complete`` only when every part of the message is accounted
for: each clause is an exercise with unambiguous notation (weight and unit,
reps and sets, or a per-set list; a bodyweight exercise may go without a
load), or a run or swim with its distance; what is left are date words,
RPE, filler ("did", "오늘", "했다"), particles and punctuation. Anything else
(a word code does not know, "3x8" with no weight, a drop set, a question)
leaves the reading incomplete, so the model reads it and code's sure parts
stay as read. A wrong number stored is worse than a question.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date

from engine.entries.model import ExerciseLog, Metric, SetDetail
from engine.language.dates import DateMention, resolve_date
from engine.language.notation import SetHint, read_strength
from engine.language.vocab import Vocabulary

_MILE_KM = 1.609
_RPE = re.compile(
    r"@\s*rpe\s*(\d+(?:\.\d)?)|\brpe\s*[:@]?\s*(\d+(?:\.\d)?)|@\s*(\d+(?:\.\d)?)(?!\s*(?:kg|lb|키로|킬로|\d))", re.I
)
_RUN = re.compile(r"\b(?:ran|run|runs|running|jog|jogged|jogging)\b|러닝|런닝|달리기|달렸|뛰었|뜀|조깅", re.I)
_SWIM = re.compile(r"\b(?:swam|swim|swimming)\b|수영", re.I)
_DISTANCE = re.compile(
    r"(?<![\d.:])(\d+(?:[.,]\d+)?)\s*(km|kms|k|키로미터|킬로미터|키로|킬로|mi|miles?|마일|m|meters?|metres?|미터)(?![a-z])",
    re.I,
)
_CLOCK = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d:])")
_WORDS_TIME = re.compile(
    r"(?:(\d+)\s*(?:시간|h|hr|hrs|hours?)\s*)?(?:(\d+)\s*(?:분|min|mins|minutes?)\s*)(?:(\d+)\s*(?:초|s|sec|secs|seconds?))?"
    r"|(\d+)\s*(?:시간|h|hr|hrs|hours?)(?![a-z])",
    re.I,
)
# Words that carry nothing a stored entry keeps: said around a log, never part of it.
# (A message's own words are kept as its raw text whoever reads it.)
_FILLER = frozenset(
    "did do done just finished today tonight this morning evening afternoon session workout gym training i i've "
    "had got then also plus and in of for at on with x sets set reps rep ran run runs running jog jogged swam swim "
    "swimming total pb pr new felt good great ok okay nice hard tough yesterday last night "
    "오늘 어제 그제 아침 저녁 점심 밤 새벽 했다 했음 했어 했어요 했습니다 함 완료 끝 오운완 운동 수영 러닝 달리기 "
    "달렸다 달렸음 달림 뛰었다 뛰었음 뜀 조깅 하고 했고 총 기록 그리고 후 다음 세트 성공 굿 좋음 힘들다 힘듦 "
    "하체 상체 하체날 상체날 leg day".split()
)
_PARTICLES = frozenset("은 는 이 가 을 를 도 로 으로 에 에서 랑 이랑 하고 씩 만 요 까지 부터 정도 쯤".split())
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_READ_HERE = frozenset({"rpe"})
"""Vocabulary terms this reader reads itself (never a modifier)."""
_SLASHED = re.compile(r"\d\s*/\s*\d")
_WEIGHTED = re.compile(r"\bweighted\b|중량|\+\s*\d", re.I)


@dataclass
class LogReading:
    """What code read of a log message."""

    exercises: list[ExerciseLog] = field(default_factory=list)
    """Strength exercises read for certain, each with its sets (canonical names)."""
    sport: str = ""
    """The run's or swim's domain (:attr:`LogWords.run_domain`, :attr:`LogWords.swim_domain`) when the message is one."""
    metrics: list[Metric] = field(default_factory=list)
    """The run's or swim's distance and time, as its domain's log schema names them."""
    day: DateMention | None = None
    """The day the message names, if any."""
    complete: bool = False
    """Every part of the message was read: store it as is, no model needed."""
    has_notation: bool = False
    """Strength notation or a distance was found: a log, whatever else it says."""
    left: list[str] = field(default_factory=list)
    """Words code could not account for (why the reading is incomplete)."""
    lift_domain: str = ""
    """The domain of the lifts read, when any."""
    names_a_lift: bool = False
    """A lift's name is in the message (read or not): sets with none ("did 5x5 today") lack only it."""

    @property
    def domain(self) -> str:
        return self.sport or (self.lift_domain if self.exercises else "")


@dataclass(frozen=True)
class LogWords:
    """What the domains tell the log reader: the vocabularies and which terms are what."""

    vocab: Vocabulary
    """Every term of the active domains (exercises, runs, swims, and words like "rpe")."""
    units: Vocabulary
    lifts: frozenset[str]
    """Canonical strength exercises (family members): the terms notation may belong to."""
    bodyweight: frozenset[str]
    """Lifts logged by reps and sets alone."""
    sports: dict[str, str] = field(default_factory=dict)
    """A bout's own words (``treadmill``, ``자유형``) -> the domain of the bout."""
    lift_domain: str = ""
    """The domain the lifts belong to (what a strength entry is stored under)."""
    run_domain: str = ""
    """The domain a run ("5k in 25:30") is stored under (``read_in_code = "run"``); none read when empty."""
    swim_domain: str = ""
    """The domain a swim is stored under (``read_in_code = "swim"``); none read when empty."""
    modifiers: frozenset[str] = frozenset()
    """The lift domain's other terms ("drop set", "to failure", "warm-up set"): they change what sets were."""


def read_log(text: str, words: LogWords, today: date) -> LogReading:
    """Read a log message in code (see the module docstring).

    Args:
        text: The message.
        words: The active domains' vocabularies.
        today: The person's day, for the day the message names.
    """
    vocab, units, bodyweight = words.vocab, words.units, words.bodyweight
    source = unicodedata.normalize("NFC", text)
    hints = read_strength(source, vocab, units)
    reading = LogReading()
    covered: list[tuple[int, int]] = []
    day = resolve_date(source, today)
    if day is not None:
        reading.day = day
        at = source.find(day.phrase)
        covered.append((at, at + len(day.phrase)))
    found = vocab.find(source)
    sport_words = {words.sports[m.canonical] for m in found if m.canonical in words.sports}
    cardio = _cardio(source, covered, sport_words, words.run_domain, words.swim_domain)
    # 키로 is kg to a lifter and km to a runner: a "weight" beside a run's word is the run's distance.
    hints = [h for h in hints if not (cardio is not None and h.exercise in words.sports)]
    exercises, sure = _exercises(hints, words.lifts, bodyweight, source, covered)
    if _SLASHED.search(source):
        sure = False  # "80kg 8/8/6", "100/5": sets, dates or a program name; not for code to guess
    reading.exercises = exercises
    reading.lift_domain = words.lift_domain
    reading.has_notation = bool(hints) or cardio is not None
    if cardio is not None:
        reading.sport, reading.metrics = cardio
    covered += [(m.start, m.end) for m in (*found, *units.find(source))]
    covered += [rpe.span() for rpe in _RPE.finditer(source)]
    reading.left = _leftover(source, covered)
    named = {m.canonical for m in found if m.canonical in words.lifts}
    reading.names_a_lift = bool(named)
    # A drop set, a superset, "to failure": words that change what the sets were, for the model to read.
    other = ({m.canonical for m in found} & words.modifiers) - _READ_HERE
    read_names = {e.name for e in exercises}
    mixed = bool(exercises) and cardio is not None
    reading.complete = (
        sure
        and not mixed
        and bool(exercises or cardio)
        and not reading.left
        and not other
        and (cardio is not None or named <= read_names)
        and (day is None or day.status == "ok")
    )
    return reading


def _exercises(
    hints: list[SetHint],
    lifts: Collection[str],
    bodyweight: Collection[str],
    source: str,
    covered: list[tuple[int, int]],
) -> tuple[list[ExerciseLog], bool]:
    """Exercises from the notation, and whether every piece of it was certain."""
    out: list[ExerciseLog] = []
    sure = True
    rpe = _rpe(source)
    for hint in hints:
        at = source.find(hint.span)
        if at >= 0:
            covered.append((at, at + len(hint.span)))
        if hint.exercise not in lifts or hint.reps is None or hint.sets is None or hint.ambiguous or hint.sets < 1:
            sure = False
            continue
        if (hint.weight is None) != (hint.exercise in bodyweight) and not _added(source, hint):
            # A lift without its load, or a bodyweight move with a load that may be assistance: ask.
            sure = False
            continue
        sets = [SetDetail(set_num=1, weight=hint.weight, reps=hint.reps, rpe=rpe) for _ in range(hint.sets)]
        if out and out[-1].name == hint.exercise and out[-1].weight_unit == hint.unit:
            prev = out[-1]
            details = [*prev.set_details, *sets]
            out[-1] = prev.model_copy(update={"set_details": details, "sets": len(details)})
        else:
            out.append(ExerciseLog(name=hint.exercise, sets=len(sets), weight_unit=_unit(hint.unit), set_details=sets))
    numbered = [
        e.model_copy(
            update={"set_details": [d.model_copy(update={"set_num": i}) for i, d in enumerate(e.set_details, 1)]}
        )
        for e in out
    ]
    return numbered, sure


def _added(source: str, hint: SetHint) -> bool:
    """A load written as added to bodyweight ("+20kg", "weighted", "중량")."""
    at = source.find(hint.span)
    return hint.weight is not None and (
        source[max(0, at - 2) : at].strip().endswith("+") or bool(_WEIGHTED.search(source))
    )


def _unit(unit: str | None) -> str | None:
    return unit if unit in ("kg", "lb") else None


def _rpe(source: str) -> float | None:
    m = _RPE.search(source)
    if m is None:
        return None
    value = float(next(g for g in m.groups() if g))
    return value if 1 <= value <= 10 else None


def _cardio(
    source: str, covered: list[tuple[int, int]], sport_words: set[str], run_domain: str, swim_domain: str
) -> tuple[str, list[Metric]] | None:
    """A run or a swim: a sport word (or "5k in 25:30") with one distance and at most one time."""
    distances = list(_DISTANCE.finditer(source))
    run = _RUN.search(source) or (run_domain in sport_words)
    swim = _SWIM.search(source) or (swim_domain in sport_words)
    if len(distances) != 1 or (run and swim):
        return None
    dist = distances[0]
    value, unit = float(dist[1].replace(",", ".")), dist[2].casefold()
    times = list(_CLOCK.finditer(source)) or list(_WORDS_TIME.finditer(source))
    if len(times) > 1:
        return None
    is_k = unit in ("k", "km", "kms", "키로미터", "킬로미터", "키로", "킬로")
    if swim:
        sport, running = swim_domain, False
    elif run or (unit == "k" and times):
        sport, running = run_domain, True
    else:
        return None
    if not sport or (running and unit in ("m", "meters", "meter", "metres", "metre", "미터")):
        return None
    for m in (swim, run, dist, *times):
        if isinstance(m, re.Match):
            covered.append(m.span())
    seconds = _seconds(times[0]) if times else None
    metrics: list[Metric]
    if running:
        km = value if is_k else round(value * _MILE_KM, 3)
        metrics = [Metric(name="distance_km", value=f"{km:g}", unit="km")]
    else:
        metres = value * 1000 if is_k else (value * _MILE_KM * 1000 if unit.startswith(("mi", "마일")) else value)
        metrics = [Metric(name="distance_m", value=f"{metres:g}", unit="m")]
    if seconds is not None:
        metrics.append(Metric(name="duration", value=_clock(seconds), unit=""))
    return sport, metrics


def _seconds(m: re.Match[str]) -> int | None:
    if m.re is _CLOCK:
        a, b, c = int(m[1]), int(m[2]), m[3]
        return a * 3600 + b * 60 + int(c) if c is not None else a * 60 + b
    hours, minutes, secs, only_hours = m.groups()
    if only_hours:
        return int(only_hours) * 3600
    return int(hours or 0) * 3600 + int(minutes or 0) * 60 + int(secs or 0)


def _clock(seconds: int) -> str:
    h, rest = divmod(seconds, 3600)
    mm, ss = divmod(rest, 60)
    return f"{h}:{mm:02d}:{ss:02d}" if h else f"{mm}:{ss:02d}"


def _leftover(source: str, covered: list[tuple[int, int]]) -> list[str]:
    """Words outside every span code read that say something (not filler, not a particle)."""
    chars = list(source)
    for start, end in covered:
        chars[start:end] = [" "] * (end - start)
    left = []
    for m in _WORD.finditer("".join(chars)):
        word = m.group().casefold()
        if set(word) <= set("ㅋㅎㅠㅜ"):
            continue
        bare = next((word[: -len(p)] for p in _PARTICLE_ENDINGS if word.endswith(p) and len(word) > len(p)), word)
        if word in _FILLER or word in _PARTICLES or (_HANGUL.fullmatch(word) and bare in _FILLER):
            continue
        if _HANGUL.fullmatch(word) and len(word) <= 2 and bare != word:
            continue  # a particle left after a name ("벤치를" read as 벤치 + 를)
        left.append(m.group())
    return left


_HANGUL = re.compile(r"[\uac00-\ud7a3]+")
_PARTICLE_ENDINGS = sorted(_PARTICLES, key=len, reverse=True)
