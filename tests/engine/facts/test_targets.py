"""Next-session targets (engine/facts/targets.py) over hand-computed histories, with the rules read from the
built-in strength file: linear +2.5 kg upper body / +5 kg lower body (+5 / +10 lb), double progression in
8-12 reps, the weight repeated after a missed set, and the smallest increment 2.5 kg (5 lb)."""

from __future__ import annotations

from datetime import date

import pytest
from pydantic import ValidationError

from engine.domains.model import Progression
from engine.entries.model import NewEntry
from engine.facts.model import Target
from engine.facts.targets import family_of, next_target, progression_of, snap, target_from
from engine.store.entries import EntryStore
from engine.store.history import HistoryStore, WorkSet
from tests.conftest import OpenDb
from tests.helpers.domains import BUILTIN

DAY = date(2026, 11, 20)
USER = "tg:42"


def sets(weight: float | None, *reps: int, unit: str = "kg", failed: tuple[int, ...] = ()) -> list[WorkSet]:
    """Work sets at one weight; a 0 or an index in ``failed`` is a missed set."""
    return [
        WorkSet(entry_id="e1", on=DAY, weight=weight, unit=unit, reps=r, done=r > 0 and i not in failed)
        for i, r in enumerate(reps)
    ]


def target(exercise: str, work: list[WorkSet]) -> Target:
    found = progression_of(BUILTIN, exercise)
    assert found is not None, exercise
    domain, progression = found
    made = target_from(exercise, work, progression, family_of(domain, exercise))
    assert made is not None
    return made


# history (lift, last session's work sets) → (rule, weight, reps of each set, weight added)
GOLDEN: list[tuple[str, list[WorkSet], tuple[str, float | None, list[int], float]]] = [
    # linear, upper body: 60 kg 5x5 all done → 62.5 kg 5x5
    ("bench press", sets(60, 5, 5, 5, 5, 5), ("linear", 62.5, [5] * 5, 2.5)),
    # linear, lower body: 100 kg 5x5 → 105 kg
    ("squat", sets(100, 5, 5, 5, 5, 5), ("linear", 105, [5] * 5, 5.0)),
    # a variation follows its family: the front squat is lower body
    ("front squat", sets(70, 3, 3, 3), ("linear", 75, [3] * 3, 5.0)),
    ("deadlift", sets(140, 5), ("linear", 145, [5], 5.0)),
    # in pounds: +5 lb upper, +10 lb lower
    ("bench press", sets(135, 5, 5, 5, unit="lb"), ("linear", 140, [5] * 3, 5.0)),
    ("squat", sets(225, 5, 5, 5, unit="lb"), ("linear", 235, [5] * 3, 10.0)),
    # off the plate grid: 61 kg + 2.5 = 63.5 → 62.5 kg, a multiple of the smallest increment
    ("overhead press", sets(41, 5, 5, 5), ("linear", 42.5, [5] * 3, 1.5)),
    # a missed set: 5,5,5,5,3 → 60 kg again, 5x5
    ("bench press", sets(60, 5, 5, 5, 5, 3), ("repeat", 60, [5] * 5, 0.0)),
    # a failed set (0 reps, or marked failure) → the weight again
    ("squat", sets(100, 5, 5, 0), ("repeat", 100, [5] * 3, 0.0)),
    ("squat", sets(100, 5, 5, 5, failed=(2,)), ("repeat", 100, [5] * 3, 0.0)),
    # double progression 8-12: a rep more on every set below 12
    ("biceps curl", sets(12.5, 12, 11, 10), ("double", 12.5, [12, 12, 11], 0.0)),
    ("lateral raise", sets(8, 8, 8, 8), ("double", 8, [9, 9, 9], 0.0)),
    # every set at 12 → +2.5 kg (the smallest increment) and back to 8
    ("biceps curl", sets(12.5, 12, 12, 12), ("double", 15, [8, 8, 8], 2.5)),
    # a rep range lift: reps short of the best set are not a miss, a failed set is
    ("triceps pushdown", sets(25, 12, 10, 0), ("repeat", 25, [12] * 3, 0.0)),
    # a lower-body lift with a rep range takes the range, not the linear jump; in lb +5 lb
    ("leg extension", sets(100, 12, 12, 12, unit="lb"), ("double", 105, [8, 8, 8], 5.0)),
    # bodyweight: a rep more on every set
    ("pull-up", sets(None, 8, 8, 7, unit=""), ("reps", None, [9, 9, 8], 0.0)),
]


@pytest.mark.parametrize(
    ("lift", "work", "expected"), GOLDEN, ids=[f"{g[0]}-{g[2][0]}-{i}" for i, g in enumerate(GOLDEN)]
)
def test_golden_histories_give_the_hand_computed_target(
    lift: str, work: list[WorkSet], expected: tuple[str, float | None, list[int], float]
) -> None:
    made = target(lift, work)
    assert (made.rule, made.weight, made.reps, round(made.added, 3)) == expected
    assert made.last_on == DAY and made.entry_ids == ["e1"]


def test_lighter_sets_are_not_work_sets_and_a_miss_is_counted() -> None:
    # 40x5 and 50x5 ramp up to the work weight (logged without the warm-up mark): only 60 kg counts.
    work = [*sets(40, 5), *sets(50, 5), *sets(60, 5, 5, 4)]
    made = target("bench press", work)
    assert (made.rule, made.weight, made.last_reps, made.missed) == ("repeat", 60, [5, 5, 4], 1)


def test_the_linear_target_names_its_rule_region_and_session() -> None:
    made = target("bench press", sets(60, 5, 5, 5, 5, 5))
    assert (made.region, made.unit, made.last_weight) == ("upper", "kg", 60)
    assert target("squat", sets(100, 5)).region == "lower"


def test_no_sets_no_target_and_a_lift_without_rules_has_none() -> None:
    found = progression_of(BUILTIN, "bench press")
    assert found is not None
    assert target_from("bench press", [], found[1]) is None
    assert progression_of(BUILTIN, "running") is None


@pytest.mark.parametrize(
    ("base", "added", "increment", "expected"),
    [(60, 2.5, 2.5, 62.5), (61, 2.5, 2.5, 62.5), (61.5, 2.5, 2.5, 62.5), (62.5, 1, 2.5, 65), (135, 5, 5, 140)],
)
def test_snap_keeps_targets_on_the_plate_grid_and_above_the_last_weight(
    base: float, added: float, increment: float, expected: float
) -> None:
    assert snap(base, added, increment) == expected


def test_the_rules_are_validated_as_data() -> None:
    with pytest.raises(ValidationError):
        Progression(increment={"kg": 2.5}, jump={"upper": {"kg": 2.5}})
    with pytest.raises(ValidationError):
        Progression(increment={"kg": 2.5}, jump={"upper": {"kg": 2.5}, "lower": {"lb": 10}})
    with pytest.raises(ValidationError):
        Progression.model_validate(
            {"increment": {"kg": 2.5}, "jump": {"upper": {"kg": 2.5}, "lower": {"kg": 5}},
             "rep_ranges": [{"lifts": ["curl"], "low": 12, "high": 8}]}
        )  # fmt: skip


def _entry(day: date, key: str, name: str, unit: str, *details: dict[str, object]) -> NewEntry:
    data = {"exercises": [{"name": name, "sets": len(details), "weight_unit": unit, "set_details": list(details)}]}
    return NewEntry(
        occurred_on=day, domain="strength", activity_type="strength", summary=name, data=data, raw_text=name,
        source_key=key,
    )  # fmt: skip


async def test_the_last_session_leaves_out_warm_ups_and_drop_sets_and_keeps_a_failure(open_db: OpenDb) -> None:
    db = await open_db()
    try:
        entries = EntryStore(db)
        await entries.add(
            USER,
            [
                _entry(date(2026, 11, 13), "a", "bench press", "kg", {"set_num": 1, "weight": 57.5, "reps": 5}),
                _entry(
                    DAY,
                    "b",
                    "bench press",
                    "kg",
                    {"set_num": 1, "weight": 40, "reps": 8, "kind": "warmup"},
                    {"set_num": 2, "weight": 60, "reps": 5},
                    {"set_num": 3, "weight": 60, "reps": 5},
                    {"set_num": 4, "weight": 60, "reps": 2, "kind": "failure"},
                    {"set_num": 5, "weight": 40, "reps": 12, "kind": "drop"},
                ),
                # a later day with only a warm-up is no session of work
                _entry(
                    date(2026, 11, 22),
                    "c",
                    "bench press",
                    "kg",
                    {"set_num": 1, "weight": 40, "reps": 8, "kind": "warmup"},
                ),
            ],
        )
        history = HistoryStore(db, BUILTIN)
        work = await history.last_session(USER, "Bench Press")
        assert [(s.on, s.weight, s.reps, s.done) for s in work] == [
            (DAY, 60, 5, True),
            (DAY, 60, 5, True),
            (DAY, 60, 2, False),
        ]
        made = await next_target(history, BUILTIN, USER, "bench press")
        assert made is not None and (made.rule, made.weight, made.reps) == ("repeat", 60, [5, 5, 5])
        assert await next_target(history, BUILTIN, USER, "squat") is None
    finally:
        await db.close()


def test_every_lift_the_built_in_rules_name_is_in_its_domains_vocabulary() -> None:
    for name in BUILTIN.names:
        domain = BUILTIN.get(name)
        if domain is None or domain.progression is None:
            continue
        rules = domain.progression
        named = [*rules.lower_body, *(lift for r in rules.rep_ranges for lift in r.lifts)]
        assert [lift for lift in named if lift not in domain.vocabulary] == [], name


async def test_a_set_without_a_number_keeps_its_place_on_both_engines(open_db: OpenDb) -> None:
    """A set the model gave no number sorts first, as SQLite sorts NULL first (Postgres sorts it last unless told)."""
    db = await open_db()
    try:
        await EntryStore(db).add(
            USER,
            [
                _entry(
                    DAY,
                    "a",
                    "bench press",
                    "kg",
                    {"weight": 57.5, "reps": 5},
                    {"set_num": 2, "weight": 60, "reps": 5},
                    {"set_num": 3, "weight": 62.5, "reps": 3},
                )
            ],
        )
        work = await HistoryStore(db, BUILTIN).last_session(USER, "bench press")
    finally:
        await db.close()
    assert [(s.weight, s.reps) for s in work] == [(57.5, 5), (60, 5), (62.5, 3)]
