"""Every exercise name in the import samples maps to a canonical term, equipment variants kept apart."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from engine.domains.registry import DomainRegistry, DomainSelector
from engine.importers.strong import ExerciseNamer, decode

DATA = Path(__file__).resolve().parents[2] / "data"
REGISTRY = DomainRegistry.load()
NAMER = ExerciseNamer.from_registry(REGISTRY)


def _column(path: Path, *headers: str) -> list[str]:
    text = decode(path.read_bytes())
    delimiter = ";" if text.splitlines()[0].count(";") > text.splitlines()[0].count(",") else ","
    rows = list(csv.DictReader(text.splitlines(), delimiter=delimiter))
    header = next(h for h in headers if h in rows[0])
    return list(dict.fromkeys(r[header] for r in rows if r[header]))


SAMPLES = {
    "strong_en.csv": _column(DATA / "strong_en.csv", "Exercise Name"),
    "strong_ko.csv": _column(DATA / "strong_ko.csv", "운동 이름"),
    "hevy_sample.csv": _column(DATA / "hevy_sample.csv", "exercise_title"),
    "fitnotes_sample.csv": _column(DATA / "fitnotes_sample.csv", "Exercise"),
}
CATALOG = [
    line.strip()
    for line in (DATA / "exercise_catalog.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]


def test_the_samples_cover_three_formats() -> None:
    assert all(SAMPLES.values())
    assert len(SAMPLES["hevy_sample.csv"]) >= 25 and len(SAMPLES["fitnotes_sample.csv"]) >= 20
    assert len(set(CATALOG)) >= 350


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_every_sample_name_maps_to_a_canonical(sample: str) -> None:
    assert [n for n in SAMPLES[sample] if NAMER.canonical(n) is None] == []


def test_every_catalog_name_maps_to_a_canonical() -> None:
    assert [n for n in dict.fromkeys(CATALOG) if NAMER.canonical(n) is None] == []


def test_catalog_names_land_in_their_own_domain() -> None:
    strength = set(DomainSelector(REGISTRY).build_active_context(["strength"]).vocabulary.canonicals)
    outside = {name for name in CATALOG if NAMER.canonical(name) not in strength}
    # Cardio and sports go to the running, swimming and general-fitness vocabularies; every lift stays a lift.
    assert outside == {
        "Air Bike",
        "Boxing",
        "Cycling",
        "Cycling (Indoor)",
        "Elliptical Machine",
        "Elliptical Trainer",
        "Hiking",
        "Jump Rope",
        "Pilates",
        "Rowing (Machine)",
        "Rowing Machine",
        "Running",
        "Running (Treadmill)",
        "Spinning",
        "Stair Machine (Floors)",
        "Stair Stepper",
        "Stretching",
        "Swimming",
        "Treadmill",
        "Walking",
        "Yoga",
    }


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("Bench Press (Barbell)", "bench press"),
        ("Bench Press (Dumbbell)", "dumbbell bench press"),
        ("Incline Bench Press (Barbell)", "incline bench press"),
        ("Incline Bench Press (Dumbbell)", "incline dumbbell press"),
        ("Bench Press (Smith Machine)", "smith machine bench press"),
        ("Bent Over Row (Barbell)", "barbell row"),
        ("Bent Over Row (Dumbbell)", "dumbbell row"),
        ("Bent Over One Arm Row (Dumbbell)", "dumbbell row"),
        ("Squat (Barbell)", "squat"),
        ("Squat (Dumbbell)", "dumbbell squat"),
        ("Squat (Bodyweight)", "bodyweight squat"),
        ("Lat Pulldown (Cable)", "lat pulldown"),
        ("Lat Pulldown (Machine)", "machine lat pulldown"),
        ("Lat Pulldown - Close Grip (Cable)", "close-grip lat pulldown"),
        ("Romanian Deadlift (Barbell)", "romanian deadlift"),
        ("Romanian Deadlift (Dumbbell)", "dumbbell romanian deadlift"),
        ("Overhead Press (Barbell)", "overhead press"),
        ("Overhead Press (Dumbbell)", "dumbbell shoulder press"),
        ("Seated Overhead Press (Barbell)", "seated overhead press"),
        ("Shoulder Press (Machine)", "machine shoulder press"),
        ("Lateral Raise (Dumbbell)", "lateral raise"),
        ("Lateral Raise (Cable)", "cable lateral raise"),
        ("Triceps Pushdown (Cable - Straight Bar)", "triceps pushdown"),
        ("Running (Treadmill)", "run"),
        ("벤치프레스 (바벨)", "bench press"),
        ("Clean", "squat clean"),
    ],
)
def test_equipment_variants_are_distinct_canonicals(name: str, canonical: str) -> None:
    assert NAMER.canonical(name) == canonical


@pytest.mark.parametrize(
    ("name", "kept_as"),
    [
        # A barbell bench is not a kettlebell bench: the equipment is not dropped to make a match.
        ("Bench Press (Kettlebell)", "bench press (kettlebell)"),
        ("Tire  Flip (Other)", "tire flip (other)"),
        ("Jefferson Curl", "jefferson curl"),
    ],
)
def test_an_unknown_name_is_kept_as_its_own_canonical(name: str, kept_as: str) -> None:
    assert NAMER.canonical(name) is None
    assert NAMER.name(name) == kept_as
