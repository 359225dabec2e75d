"""A realistic month of one person's training, as stored entries, for benchmarks.

Four weeks and two days ending on ``today``: strength three or four times a
week, alternating two workouts of five exercises × four sets (A: squat, bench
press, barbell row, pull-up, barbell curl; B: deadlift, overhead press,
incline dumbbell press, lat pulldown, leg press), the weights going up a
little every other session, the odd last set a rep short; and one or two runs
a week. The messages are written the way a person types them, some in
Korean, and the entries are built the way the engine's LOG flow stores a
parse (``ParserOutput`` data, a code-written summary, the exercise names as
terms), so questions and plans over them read what they would in real use.

Everything is deterministic: the same ``today`` gives the same month.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from engine.agents.schemas import ParserOutput
from engine.entries.model import ExerciseLog, Metric, NewEntry, SetDetail
from engine.entries.summaries import summarize

DAYS = 30
"""How far back the month reaches (today included)."""
STRENGTH_DAYS = (0, 2, 4)
"""Monday, Wednesday, Friday; Saturday joins every other week (3-4 sessions a week)."""
EXTRA_DAY = 5
RUN_DAYS = (1, 6)
"""Tuesday every week, Sunday every other week (1-2 runs a week)."""


@dataclass(frozen=True)
class Lift:
    """One exercise of a workout: where it starts, how it grows, how it is written."""

    name: str
    start: float | None
    """Working weight of the first session; None for bodyweight."""
    step: float
    """Added every other session of this lift."""
    reps: int
    en: str
    ko: str
    unit: str = "kg"


WORKOUT_A = (
    Lift("squat", 80, 5, 5, "squat", "스쿼트"),
    Lift("bench press", 52.5, 2.5, 5, "bench", "벤치"),
    Lift("barbell row", 50, 2.5, 8, "row", "바벨로우"),
    Lift("pull-up", None, 0, 8, "pull-ups", "풀업"),
    Lift("barbell curl", 25, 2.5, 10, "curls", "바벨컬"),
)
WORKOUT_B = (
    Lift("deadlift", 100, 5, 5, "deadlift", "데드"),
    Lift("overhead press", 35, 2.5, 5, "ohp", "오버헤드프레스"),
    Lift("incline dumbbell press", 20, 2, 10, "incline db press", "인클라인 덤벨프레스"),
    Lift("lat pulldown", 45, 5, 10, "lat pulldown", "랫풀다운"),
    Lift("leg press", 120, 10, 10, "leg press", "레그프레스"),
)
SETS = 4
RUNS = (  # km, moving time, kind, how it was written
    ("5.2", "29:10", "easy run", "easy run {km}km {time}"),
    ("7", "41:30", "easy run", "한강 러닝 {km}km {time}"),
    ("10", "58:20", "long run", "long run {km}k in {time}, legs heavy"),
    ("6", "31:45", "tempo run", "tempo {km}km {time}"),
)


def month(today: date) -> list[NewEntry]:
    """The month ending on ``today``, oldest first."""
    start = today - timedelta(days=DAYS - 1)
    entries: list[NewEntry] = []
    sessions = runs = 0
    for offset in range(DAYS):
        day = start + timedelta(days=offset)
        week = (day - start).days // 7
        weekday = day.weekday()
        if weekday in STRENGTH_DAYS or (weekday == EXTRA_DAY and week % 2 == 1):
            entries.append(_session(day, sessions))
            sessions += 1
        elif weekday == RUN_DAYS[0] or (weekday == RUN_DAYS[1] and week % 2 == 0):
            entries.append(_run(day, runs))
            runs += 1
    return entries


def _session(day: date, n: int) -> NewEntry:
    """The ``n``-th strength session: workouts alternate, each lift adds ``step`` every other time it comes."""
    workout = WORKOUT_A if n % 2 == 0 else WORKOUT_B
    times_done = n // 2
    korean = n % 3 == 1
    exercises = [_exercise(lift, times_done, short=(n + i) % 5 == 0) for i, lift in enumerate(workout)]
    raw = ", ".join(_written(lift, ex, korean) for lift, ex in zip(workout, exercises))
    parsed = ParserOutput(
        activity_type="strength",
        domain="strength",
        exercises=exercises,
        summary="",
        status="parsed",
        notes="" if n % 4 else "felt strong",
    )
    return _entry(day, parsed, raw, [lift.name for lift in workout], f"month:{day.isoformat()}:strength")


def _exercise(lift: Lift, times_done: int, short: bool) -> ExerciseLog:
    """Four sets; ``short``: the last set a rep (or two, on pull-ups) short."""
    weight = lift.start + lift.step * (times_done // 2) if lift.start is not None else None
    reps = [lift.reps] * SETS
    if lift.start is None:
        reps = [lift.reps, lift.reps, lift.reps - 1, lift.reps - 2]
    elif short:
        reps[-1] -= 1
    details = [SetDetail(set_num=i, weight=weight, reps=r) for i, r in enumerate(reps, start=1)]
    return ExerciseLog(name=lift.name, sets=SETS, weight_unit="kg" if weight is not None else None, set_details=details)


def _written(lift: Lift, ex: ExerciseLog, korean: bool) -> str:
    """How a person types one exercise: ``bench 55kg 5x4``, ``벤치 55키로 5x4``, ``pull-ups 8/8/7/6``."""
    name = lift.ko if korean else lift.en
    reps = [d.reps for d in ex.set_details]
    weight = ex.set_details[0].weight
    if weight is None:
        return f"{name} " + "/".join(str(r) for r in reps)
    load = f"{weight:g}{'키로' if korean else lift.unit}"
    if len(set(reps)) == 1:
        return f"{name} {load} {reps[0]}x{len(reps)}"
    return f"{name} {load} " + "/".join(str(r) for r in reps)


def _run(day: date, n: int) -> NewEntry:
    km, time, kind, written = RUNS[n % len(RUNS)]
    metrics = [
        Metric(name="distance_km", value=km, unit="km"),
        Metric(name="duration", value=time),
        Metric(name="run_type", value=kind),
    ]
    parsed = ParserOutput(activity_type="running", domain="running", metrics=metrics, summary="", status="parsed")
    return _entry(day, parsed, written.format(km=km, time=time), [], f"month:{day.isoformat()}:run")


def _entry(day: date, parsed: ParserOutput, raw: str, terms: list[str], key: str) -> NewEntry:
    """Stored as the LOG flow's STORE node stores a parse (same data fields, same summary)."""
    return NewEntry(
        occurred_on=day,
        domain=parsed.domain,
        activity_type=parsed.activity_type,
        summary=summarize(parsed),
        data=parsed.model_dump(mode="json", exclude={"status", "missing", "summary", "date_text"}),
        raw_text=raw,
        terms=terms,
        source_key=key,
    )


def describe(entries: list[NewEntry]) -> str:
    """One line: how many sessions, sets and runs, over which dates."""
    strength = [e for e in entries if e.domain == "strength"]
    sets = sum(len(ex["set_details"]) for e in strength for ex in e.data["exercises"])
    runs = len(entries) - len(strength)
    first, last = entries[0].occurred_on, entries[-1].occurred_on
    return f"{len(strength)} strength sessions ({sets} sets), {runs} runs, {first.isoformat()} … {last.isoformat()}"
