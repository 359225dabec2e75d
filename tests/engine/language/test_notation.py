"""Tests for engine.notation: compact strength notation read in code."""

from __future__ import annotations

import pytest

from engine.language.notation import SetHint, read_strength
from engine.language.vocab import Vocabulary

VOCAB = Vocabulary(
    {
        "bench press": ["벤치프레스", "벤치", "bench", "bp"],
        "squat": ["스쿼트", "squat", "squats"],
        "deadlift": ["데드리프트", "데드", "deadlift", "dl"],
        "pull-up": ["풀업", "pull-up", "pull-ups", "pullups", "턱걸이"],
    }
)
UNITS = Vocabulary({"kg": ["kg", "kgs", "키로", "킬로"], "lb": ["lb", "lbs", "파운드"]})


def hint(
    span: str,
    exercise: str | None = None,
    weight: float | None = None,
    unit: str | None = None,
    reps: int | None = None,
    sets: int | None = None,
    ambiguous: bool = False,
) -> SetHint:
    return SetHint(
        exercise=exercise,
        weight=weight,
        unit=unit,
        reps=reps,
        sets=sets,
        span=span,
        ambiguous=ambiguous,
    )


def read(text: str) -> list[SetHint]:
    return read_strength(text, VOCAB, UNITS)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # W x R x S
        ("squat 80x5x5", [hint("80x5x5", "squat", 80, None, 5, 5)]),
        ("bench 80X5X5", [hint("80X5X5", "bench press", 80, None, 5, 5)]),
        ("bench 80×5×5", [hint("80×5×5", "bench press", 80, None, 5, 5)]),
        ("squat 80*5*5", [hint("80*5*5", "squat", 80, None, 5, 5)]),
        ("squat 100kg x 5 x 3", [hint("100kg x 5 x 3", "squat", 100, "kg", 5, 3)]),
        ("squat 225 lbs x 5 x 5", [hint("225 lbs x 5 x 5", "squat", 225, "lb", 5, 5)]),
        # weight with unit, then R x S
        ("bench 55kg 10x5", [hint("55kg 10x5", "bench press", 55, "kg", 10, 5)]),
        ("bench55kg 10x5", [hint("55kg 10x5", "bench press", 55, "kg", 10, 5)]),
        # Below 8 reps the order is unsure: many lifters write "135lbs 3x5" sets first.
        ("bench 135lbs 5x3", [hint("135lbs 5x3", "bench press", 135, "lb", 5, 3, ambiguous=True)]),
        ("벤치 55키로 10x5", [hint("55키로 10x5", "bench press", 55, "kg", 10, 5)]),
        ("bench 52.5kg 10x3", [hint("52.5kg 10x3", "bench press", 52.5, "kg", 10, 3)]),
        ("bench 52,5kg 10x3", [hint("52,5kg 10x3", "bench press", 52.5, "kg", 10, 3)]),
        # W x R: one set
        ("bench 100kg x 5", [hint("100kg x 5", "bench press", 100, "kg", 5, 1)]),
        ("bench 52.5x8", [hint("52.5x8", "bench press", 52.5, None, 8, 1)]),
        # Korean counters, either order, with particles
        (
            "벤치프레스 55키로 10회 5세트 어제",
            [hint("55키로 10회 5세트", "bench press", 55, "kg", 10, 5)],
        ),
        ("10회 5세트", [hint("10회 5세트", None, None, None, 10, 5)]),
        ("스쿼트 5세트 10회", [hint("5세트 10회", "squat", None, None, 10, 5)]),
        ("데드 100kg 5회 x 3세트", [hint("100kg 5회 x 3세트", "deadlift", 100, "kg", 5, 3)]),
        (
            "스쿼트는 100키로로 5회씩 5세트 했어",
            [hint("100키로로 5회씩 5세트", "squat", 100, "kg", 5, 5)],
        ),
        ("턱걸이 10개 3세트", [hint("10개 3세트", "pull-up", None, None, 10, 3)]),
        ("데드리프트 120킬로 3회", [hint("120킬로 3회", "deadlift", 120, "kg", 3, None)]),
        # English words
        ("bench 3 sets of 10 at 60kg", [hint("3 sets of 10 at 60kg", "bench press", 60, "kg", 10, 3)]),
        ("squat 5 sets x 5 reps", [hint("5 sets x 5 reps", "squat", None, None, 5, 5)]),
        ("bench 60 kg for 10 reps", [hint("60 kg for 10 reps", "bench press", 60, "kg", 10, None)]),
        ("squat 3 sets x 10", [hint("3 sets x 10", "squat", None, None, 10, 3)]),
        ("bench 3x10 reps", [hint("3x10 reps", "bench press", None, None, 10, 3)]),
        ("squat 10 reps x 3", [hint("10 reps x 3", "squat", None, None, 10, 3)]),
        ("bench 60kg, 3 sets of 8", [hint("60kg, 3 sets of 8", "bench press", 60, "kg", 8, 3)]),
        # bare A x B: reps x sets, ambiguous unless symmetric
        ("pull-ups 3x8", [hint("3x8", "pull-up", None, None, 3, 8, ambiguous=True)]),
        ("squat 5x5", [hint("5x5", "squat", None, None, 5, 5)]),
        ("pull-ups 3 sets of 8", [hint("3 sets of 8", "pull-up", None, None, 8, 3)]),
        ("squat 5x5 @ 100kg", [hint("5x5 @ 100kg", "squat", 100, "kg", 5, 5)]),
        ("squat 5x5 100kg", [hint("5x5 100kg", "squat", 100, "kg", 5, 5)]),
        ("bench 3x10 at 60kg", [hint("3x10 at 60kg", "bench press", 60, "kg", 3, 10, True)]),
        # per-set lists
        (
            "bench 100x5, 105x5, 110x3",
            [
                hint("100x5", "bench press", 100, None, 5, 1),
                hint("105x5", "bench press", 105, None, 5, 1),
                hint("110x3", "bench press", 110, None, 3, 1),
            ],
        ),
        (
            "bench 100kg x 5, 105 x 5",
            [
                hint("100kg x 5", "bench press", 100, "kg", 5, 1),
                hint("105 x 5", "bench press", 105, "kg", 5, 1),
            ],
        ),
        (
            "deadlift 140x3/150x2",
            [hint("140x3", "deadlift", 140, None, 3, 1), hint("150x2", "deadlift", 150, None, 2, 1)],
        ),
        (
            "squat 60x10 80x5 100x3",
            [
                hint("60x10", "squat", 60, None, 10, 1),
                hint("80x5", "squat", 80, None, 5, 1),
                hint("100x3", "squat", 100, None, 3, 1),
            ],
        ),
        # lone labelled numbers only with an exercise
        ("bench 60kg", [hint("60kg", "bench press", 60, "kg")]),
        ("턱걸이 12개", [hint("12개", "pull-up", reps=12)]),
        ("I weigh 75kg", []),
    ],
)
def test_reads_notation(text: str, expected: list[SetHint]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "bench 55kg 10x5, squat 100kg 5x5",
            [
                hint("55kg 10x5", "bench press", 55, "kg", 10, 5),
                hint("100kg 5x5", "squat", 100, "kg", 5, 5),
            ],
        ),
        (
            "벤치 60키로 10회 5세트 그리고 스쿼트 100키로 5회 5세트",
            [
                hint("60키로 10회 5세트", "bench press", 60, "kg", 10, 5),
                hint("100키로 5회 5세트", "squat", 100, "kg", 5, 5),
            ],
        ),
        (
            "bench 80x5x5\nsquat 100x5x5; dl 140x3x1",
            [
                hint("80x5x5", "bench press", 80, None, 5, 5),
                hint("100x5x5", "squat", 100, None, 5, 5),
                hint("140x3x1", "deadlift", 140, None, 3, 1),
            ],
        ),
        # No exercise before: the first one after it in the clause.
        ("3 sets of 10 pull-ups", [hint("3 sets of 10", "pull-up", None, None, 10, 3)]),
        ("did 5x5 squats at 100kg", [hint("5x5 squats at 100kg", "squat", 100, "kg", 5, 5)]),
        # A clause break stops the exercise carrying over.
        (
            "bench 10x5 55kg; 3x8",
            [
                hint("10x5 55kg", "bench press", 55, "kg", 10, 5, ambiguous=True),
                hint("3x8", None, None, None, 3, 8, ambiguous=True),
            ],
        ),
        (
            "squat 5x5 and 3x3",
            [hint("5x5", "squat", None, None, 5, 5), hint("3x3", None, None, None, 3, 3)],
        ),
        # Same clause: the exercise carries over.
        (
            "squat 100kg 5x5 then 110kg 3x3",
            [
                hint("100kg 5x5", "squat", 100, "kg", 5, 5),
                hint("110kg 3x3", "squat", 110, "kg", 3, 3),
            ],
        ),
    ],
)
def test_clauses_and_exercises(text: str, expected: list[SetHint]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "how was my bench last week?",
        "ran 5km at 5:30/km",
        "5킬로미터 뛰었어",
        "bench on 11/20",
        "2026-11-20",
        "벤치 11월 20일",
        "bench 3개월 했다",
        "squat RPE 8",
        "slept 8 hours",
    ],
)
def test_ignores_other_numbers(text: str) -> None:
    assert read(text) == []


def test_dates_next_to_notation_are_left_alone() -> None:
    assert read("bench 55kg 10x5 11/20") == [hint("55kg 10x5", "bench press", 55, "kg", 10, 5)]


def test_hint_is_frozen() -> None:
    [first] = read("squat 80x5x5")
    with pytest.raises(ValueError):
        first.sets = 3  # type: ignore[misc]
