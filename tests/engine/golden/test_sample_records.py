"""Golden histories: the records a new log sets over each imported export sample in ``tests/data``.

For every lift the bests the imported history holds are worked out by hand from the CSV (a comment per lift:
the sets that count, and the arithmetic), then the logs below beat, tie or fall short of each, and every
line they must say (or that nothing is said) is written out. What counts (``engine/store/bests.py``):
completed sets that are not warm-ups (Strong ``W``, Hevy ``warmup``) nor failed attempts (Strong ``F``, Hevy
``failure``, 0 reps); drop sets count. The estimated 1RM is Epley, ``w × (1 + reps / 30)``, a single its own
weight; a session's volume is one entry's Σ weight × reps of the lift. A tie is no record; the best before is
the heaviest set with the most reps at it, or the earliest day of an equal best. Imports announce nothing,
and a lift imported is never "first time logged".
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from engine.outcomes import Logged, Record
from engine.turns import Message
from tests.conftest import OpenEngine
from tests.engine.golden.samples import USER, import_sample

DAY1 = datetime(2026, 11, 20, 3, 0, tzinfo=timezone.utc)  # noon in Seoul


def on(day: int, text: str) -> Message:
    """A message sent on day ``day`` (1 = 2026-11-20), at noon in Seoul."""
    return Message(conversation=USER, user=USER, text=text, at=DAY1 + timedelta(days=day - 1))


def records(out: list[object]) -> list[Record]:
    """The records a log set; a stall said in the same place is tests/engine/test_stalls_logged.py's (these
    golden logs come on consecutive days after years of history, so some lifts do read as declining)."""
    (logged,) = [o for o in out if isinstance(o, Logged)]
    return [r for e in logged.entries for r in e.records if r.kind != "stall"]


# sample → the logs, one a day from 2026-11-20, each with every line it must say
GOLDEN: dict[str, list[tuple[str, list[str]]]] = {
    # bench press 2024-01-15: 60×10, 60×8, 62.5×6
    #   heaviest 62.5 kg × 6; most reps: 60 kg → 10, 62.5 kg → 6
    #   e1RM 60×(1+10/30) = 80, 60×(1+8/30) = 76, 62.5×(1+6/30) = 75 → 80 kg from 60×10
    #   volume 600 + 480 + 375 = 1,455 kg
    # dumbbell bench press 2024-01-15: 22.5×12 → heaviest 22.5×12, e1RM 22.5×1.4 = 31.5, volume 270
    # pull-up 2024-01-15: BW × 10, BW × 8 → most reps 10
    # squat 2024-01-17: 100×5, 105×5 ("ten" × 5 left out) → heaviest 105×5, e1RM 105×7/6 = 122.5, volume 1,025
    # deadlift 2024-01-17: 140×3 (0×0 and the 2024-13-40 row left out) → e1RM 140×1.1 = 154, volume 420
    "strong_en.csv": [
        ("bench 62.5kg x 6", []),  # ties the heaviest and the reps at 62.5; e1RM 75 < 80; volume 375
        ("bench 60kg x 10", []),  # ties the reps at 60 and the e1RM 80; volume 600
        ("bench 65kg x 3", ["New heaviest bench press: 65 kg × 3 (before: 62.5 kg × 6, 2024-01-15)"]),  # e1RM 71.5
        (
            "bench 60kg x 11",  # e1RM 60 × (1 + 11/30) = 82; volume 660
            [
                "Most reps at 60 kg on bench press: 60 kg × 11 (before: 60 kg × 10, 2024-01-15)",
                "New best estimated 1RM on bench press: 82 kg, from 60 kg × 11 (before: 80 kg, from 60 kg × 10, 2024-01-15)",
            ],
        ),
        # 3 × 600 = 1,800 > 1,455; 10 reps < 11 (day 4); e1RM 80 < 82
        ("bench 60kg 10, 10, 10", ["Best bench press session volume: 1,800 kg (before: 1,455 kg, 2024-01-15)"]),
        # 25 kg beats every dumbbell set, but a barbell bench is another lift: below every barbell best
        ("bench 25kg x 12", []),
        (
            "dumbbell bench 25kg x 12",  # against the dumbbell's own 22.5 × 12, not day 6's barbell 25 × 12
            [
                "New heaviest dumbbell bench press: 25 kg × 12 (before: 22.5 kg × 12, 2024-01-15)",
                "New best estimated 1RM on dumbbell bench press: 35 kg, from 25 kg × 12 "
                "(before: 31.5 kg, from 22.5 kg × 12, 2024-01-15)",
                "Best dumbbell bench press session volume: 300 kg (before: 270 kg, 2024-01-15)",
            ],
        ),
        ("pull-ups 10 reps x 2 sets", []),  # ties 10
        ("pull-ups 11 reps x 1 set", ["Most reps in one set of pull-up: BW × 11 (before: BW × 10, 2024-01-15)"]),
        # ties 105 × 5 and the e1RM; 2 × 525 = 1,050 > 1,025
        ("squat 105kg 5, 5", ["Best squat session volume: 1,050 kg (before: 1,025 kg, 2024-01-17)"]),
        ("squat 100kg x 4", []),  # short of every best
        # a single's e1RM is its weight: 150 < 154; volume 150 < 420
        ("deadlift 150kg x 1", ["New heaviest deadlift: 150 kg × 1 (before: 140 kg × 3, 2024-01-17)"]),
        (
            "deadlift 140kg x 4",  # e1RM 140 × (1 + 4/30) = 158.67; volume 560 > 420 (day 12: 150)
            [
                "Most reps at 140 kg on deadlift: 140 kg × 4 (before: 140 kg × 3, 2024-01-17)",
                "New best estimated 1RM on deadlift: 158.7 kg, from 140 kg × 4 (before: 154 kg, from 140 kg × 3, 2024-01-17)",
                "Best deadlift session volume: 560 kg (before: 420 kg, 2024-01-17)",
            ],
        ),
        ("deadlift 140kg x 4", []),  # said once
    ],
    # 벤치프레스 2024-02-01: 60×10, "62,5"×8 → heaviest 62.5×8; e1RM 60×(1+10/30) = 80 vs 62.5×(1+8/30) = 79.17
    #   → 80 from 60×10; volume 600 + 500 = 1,100
    # 스쿼트 2024-02-01: 100×5 ×2 → e1RM 100×7/6 = 116.67, volume 1,000
    # 데드리프트 2024-02-03: 120×5; 풀업 2024-02-03: BW × 12
    "strong_ko.csv": [
        (
            "벤치프레스 65키로 8회 1세트",  # e1RM 65 × 38/30 = 82.33; volume 520 < 1,100
            [
                "벤치프레스 최고 중량 경신: 65 kg × 8 (이전: 62.5 kg × 8, 2024년 2월 1일)",
                "벤치프레스 추정 1RM 최고 경신: 82.3 kg (65 kg × 8 기준) (이전: 80 kg (60 kg × 10 기준), 2024년 2월 1일)",
            ],
        ),
        (
            "스쿼트 100키로 6회 1세트",  # the heaviest tied; e1RM 100 × 1.2 = 120 > 116.67; volume 600 < 1,000
            [
                "스쿼트 100 kg 최다 반복 경신: 100 kg × 6 (이전: 100 kg × 5, 2024년 2월 1일)",
                "스쿼트 추정 1RM 최고 경신: 120 kg (100 kg × 6 기준) (이전: 116.7 kg (100 kg × 5 기준), 2024년 2월 1일)",
            ],
        ),
        ("데드리프트 120키로 5회 1세트", []),  # ties every best
        ("풀업 13회 1세트", ["풀업 한 세트 최다 반복 경신: BW × 13 (이전: BW × 12, 2024년 2월 3일)"]),
    ],
    # bench press 2025-03-10: warm-up 40×10 (left out), 80×5 → heaviest 80×5, e1RM 93.33, volume 400 (not 800)
    # trap bar deadlift 2025-03-15: 140×5 → e1RM 140×7/6 = 163.33, volume 700
    "hevy_sample.csv": [
        # no working set at 40 kg before (the warm-up is none): no "most reps at 40 kg"; 440 > 400 (not 800)
        ("bench 40kg x 11", ["Best bench press session volume: 440 kg (before: 400 kg, 2025-03-10)"]),
        ("bench 80kg 5, 5", ["Best bench press session volume: 800 kg (before: 440 kg, 2026-11-20)"]),
        (
            "trap bar deadlift 145kg x 5",  # e1RM 145 × 7/6 = 169.17
            [
                "New heaviest trap bar deadlift: 145 kg × 5 (before: 140 kg × 5, 2025-03-15)",
                "New best estimated 1RM on trap bar deadlift: 169.2 kg, from 145 kg × 5 "
                "(before: 163.3 kg, from 140 kg × 5, 2025-03-15)",
                "Best trap bar deadlift session volume: 725 kg (before: 700 kg, 2025-03-15)",
            ],
        ),
        ("deadlift 150kg x 1", ["First time logged: deadlift."]),  # the trap bar's is another lift
    ],
    # bench press 2025-03-03: 80×5 → e1RM 80×7/6 = 93.33, volume 400
    # incline dumbbell press 2025-03-03: 28×10 → e1RM 28×4/3 = 37.33, volume 280; squat 2025-03-05: 110×5
    "fitnotes_sample.csv": [
        (
            "bench 85kg x 5",  # e1RM 85 × 7/6 = 99.17; volume 425
            [
                "New heaviest bench press: 85 kg × 5 (before: 80 kg × 5, 2025-03-03)",
                "New best estimated 1RM on bench press: 99.2 kg, from 85 kg × 5 (before: 93.3 kg, from 80 kg × 5, 2025-03-03)",
                "Best bench press session volume: 425 kg (before: 400 kg, 2025-03-03)",
            ],
        ),
        (
            "incline dumbbell press 30kg x 10",  # e1RM 30 × 4/3 = 40; volume 300
            [
                "New heaviest incline dumbbell press: 30 kg × 10 (before: 28 kg × 10, 2025-03-03)",
                "New best estimated 1RM on incline dumbbell press: 40 kg, from 30 kg × 10 "
                "(before: 37.3 kg, from 28 kg × 10, 2025-03-03)",
                "Best incline dumbbell press session volume: 300 kg (before: 280 kg, 2025-03-03)",
            ],
        ),
        ("squat 110kg x 5", []),  # ties
    ],
    # in lb. bench press 2024-03-05: warm-ups 95×10, 135×5 and the failed 185×3 left out; 185×5, 185×5 and the
    #   drop set 135×8 count → heaviest 185×5; most reps at 185 → 5, at 135 → 8 (the drop set, not the warm-up);
    #   e1RM 185×7/6 = 215.83 lb (135×38/30 = 171); volume 925 + 925 + 1,080 = 2,930 lb
    # deadlift 2024-03-07: warm-up 135×5, failed 335×0 left out; 315×3 → e1RM 346.5 lb, volume 945 lb
    # dumbbell bench press 2024-03-05: 60×10, 60×9 → volume 600 + 540 = 1,140 lb
    "roundtrip_hevy_lbs.csv": [
        (
            "bench 190lb x 5",  # e1RM 190 × 7/6 = 221.67; volume 950 < 2,930
            [
                "New heaviest bench press: 190 lb × 5 (before: 185 lb × 5, 2024-03-05)",
                "New best estimated 1RM on bench press: 221.7 lb, from 190 lb × 5 "
                "(before: 215.8 lb, from 185 lb × 5, 2024-03-05)",
            ],
        ),
        # 135 × 9 beats the drop set's 135 × 8; e1RM 175.5 < 221.67
        ("bench 135lb x 9", ["Most reps at 135 lb on bench press: 135 lb × 9 (before: 135 lb × 8, 2024-03-05)"]),
        # 87.5 kg > 190 lb = 86.18 kg, across units; e1RM 87.5 kg < 221.67 lb = 100.5 kg
        ("bench 87.5kg x 1", ["New heaviest bench press: 87.5 kg × 1 (before: 190 lb × 5, 2026-11-20)"]),
        (
            "deadlift 325lb x 3",  # the failed 335 is no best to beat; e1RM 325 × 1.1 = 357.5; volume 975 > 945
            [
                "New heaviest deadlift: 325 lb × 3 (before: 315 lb × 3, 2024-03-07)",
                "New best estimated 1RM on deadlift: 357.5 lb, from 325 lb × 3 (before: 346.5 lb, from 315 lb × 3, 2024-03-07)",
                "Best deadlift session volume: 975 lb (before: 945 lb, 2024-03-07)",
            ],
        ),
        # ties the heaviest, the reps at 60 and the e1RM; 2 × 600 = 1,200 > 1,140
        (
            "dumbbell bench 60lb 10, 10",
            ["Best dumbbell bench press session volume: 1,200 lb (before: 1,140 lb, 2024-03-05)"],
        ),
    ],
    # squat 2024-03-05: W 60×8, 140×5, 145×3, F 150×0, 150×0, 130×5, 130×5 → heaviest 145×3 (the failed 150s are
    #   none); e1RM 140×7/6 = 163.33 (145×1.1 = 159.5, 130×7/6 = 151.67); volume 700 + 435 + 650 + 650 = 2,435
    #   (2024-03-09: 100×5)
    # bench press 2024-03-07: W 40×10, 80×5, 82.5×5, 85×0 → heaviest 82.5×5; e1RM 82.5×7/6 = 96.25
    # deadlift 2024-03-09: 180×3, F 200×0, 180×3 → heaviest 180×3; e1RM 180×1.1 = 198; volume 1,080
    # leg press 2024-03-05: 200×10, drop set D 150×12 (counts) → most reps at 150 → 12; e1RM 266.67; volume 3,800
    "roundtrip_strong_ko.csv": [
        ("스쿼트 147.5키로 1회 1세트", ["스쿼트 최고 중량 경신: 147.5 kg × 1 (이전: 145 kg × 3, 2024년 3월 5일)"]),
        # 85 kg was tried and failed: no "most reps at 85 kg" to beat; e1RM 85 < 96.25
        ("bench 85kg x 1", ["New heaviest bench press: 85 kg × 1 (before: 82.5 kg × 5, 2024-03-07)"]),
        (
            "deadlift 180kg x 4",  # the heaviest tied (the failed 200 is none); e1RM 180 × (1 + 4/30) = 204; 720
            [
                "Most reps at 180 kg on deadlift: 180 kg × 4 (before: 180 kg × 3, 2024-03-09)",
                "New best estimated 1RM on deadlift: 204 kg, from 180 kg × 4 (before: 198 kg, from 180 kg × 3, 2024-03-09)",
            ],
        ),
        # the drop set's 150 × 12 is the bar; e1RM 150 × (1 + 13/30) = 215 < 266.67; volume 1,950 < 3,800
        ("leg press 150kg x 13", ["Most reps at 150 kg on leg press: 150 kg × 13 (before: 150 kg × 12, 2024-03-05)"]),
    ],
    # bench press: heaviest 100×3 (2025-06-12); e1RM 95×7/6 = 110.83, first 2025-06-07 (100×1.1 = 110);
    #   volume 95×5 + 95×5 + 95×4 = 1,330, first 2025-06-07; failed 105×0 (2025-07-01) left out
    # deadlift: heaviest 175×2 (2024-09-15; that day's F 185×1, "grinder, lost it", left out);
    #   e1RM 172.5×1.1 = 189.75 (2026-04-13; 175×(1+2/30) = 186.67); volume 172.5×3×2 = 1,035 (2026-04-13)
    # squat: heaviest 140×3 (2023-05-20); e1RM 137.5×7/6 = 160.42 (2026-03-19); volume 137.5×15 = 2,062.5
    #   (2026-03-19, then the same on later days)
    "strong_history.csv": [
        (
            "bench 100kg x 4",  # the heaviest tied; e1RM 100 × (1 + 4/30) = 113.33; volume 400
            [
                "Most reps at 100 kg on bench press: 100 kg × 4 (before: 100 kg × 3, 2025-06-12)",
                "New best estimated 1RM on bench press: 113.3 kg, from 100 kg × 4 "
                "(before: 110.8 kg, from 95 kg × 5, 2025-06-07)",
            ],
        ),
        ("bench 95kg 5, 5, 4", []),  # the best volume tied, e1RM 110.83 < 113.33
        # 180 < the failed 185 × 1, which is no best: the bar is 175 × 2; e1RM 180 < 189.75
        ("deadlift 180kg x 1", ["New heaviest deadlift: 180 kg × 1 (before: 175 kg × 2, 2024-09-15)"]),
        # 2,062.5 + 137.5 = 2,200 > 2,062.5 (the earliest of the equal sessions); the rest tied
        ("squat 137.5kg 5, 5, 5, 1", ["Best squat session volume: 2,200 kg (before: 2,062.5 kg, 2026-03-19)"]),
    ],
}


@pytest.mark.parametrize("sample", list(GOLDEN))
async def test_the_records_each_log_sets_over_an_imported_sample(
    open_engine: OpenEngine, tmp_path: Path, sample: str
) -> None:
    await import_sample(open_engine.config(), sample)
    async with open_engine() as engine:
        for day, (text, expected) in enumerate(GOLDEN[sample], start=1):
            assert [r.text for r in records(await engine.handle(on(day, text)))] == expected, text


async def test_a_record_carries_the_best_before_it_and_its_day(open_engine: OpenEngine, tmp_path: Path) -> None:
    """The fields behind the line, in the unit logged: strong_en's deadlift 140 × 3 (2024-01-17) beaten."""
    await import_sample(open_engine.config(), "strong_en.csv")
    async with open_engine() as engine:
        out = records(await engine.handle(on(1, "deadlift 140kg x 4")))
    assert [(r.kind, r.subject, r.value, r.unit, r.previous, r.previous_on) for r in out] == [
        ("reps_at", "deadlift", 4, "reps", 3, date(2024, 1, 17)),
        ("e1rm", "deadlift", pytest.approx(140 * (1 + 4 / 30)), "kg", pytest.approx(154), date(2024, 1, 17)),
        ("volume", "deadlift", 560, "kg", 420, date(2024, 1, 17)),
    ]


async def _announced(open_engine: OpenEngine) -> int:
    db = await open_engine.database()
    try:
        rows = await db.conn.execute_fetchall("SELECT count(*) FROM announced_records")
        return int(next(iter(rows))[0])
    finally:
        await db.close()


async def test_importing_twice_announces_nothing_and_logging_after_says_only_what_the_log_beat(
    open_engine: OpenEngine, tmp_path: Path
) -> None:
    """An import never announces (it stores no record said) and a re-import stores nothing new; the first log of
    an imported lift is no "first time logged", and equalling an imported best is no record."""
    first = await import_sample(open_engine.config(), "strong_en.csv")
    again = await import_sample(open_engine.config(), "strong_en.csv")
    assert (first.report.added, again.report.added, again.report.present) == (3, 0, 3)
    assert await _announced(open_engine) == 0
    async with open_engine() as engine:
        assert records(await engine.handle(on(1, "bench 62.5kg x 6"))) == []
        assert records(await engine.handle(on(2, "squat 105kg x 5"))) == []
        out = records(await engine.handle(on(3, "bench 65kg x 3")))
    assert [r.text for r in out] == ["New heaviest bench press: 65 kg × 3 (before: 62.5 kg × 6, 2024-01-15)"]
    assert await _announced(open_engine) == 1


async def test_a_re_import_after_a_record_does_not_say_it_again(open_engine: OpenEngine, tmp_path: Path) -> None:
    await import_sample(open_engine.config(), "hevy_sample.csv")
    async with open_engine() as engine:
        assert [r.kind for r in records(await engine.handle(on(1, "bench 82.5kg x 5")))] == [
            "heaviest",
            "e1rm",
            "volume",
        ]
    await import_sample(open_engine.config(), "hevy_sample.csv")
    assert await _announced(open_engine) == 3
    async with open_engine() as engine:
        assert records(await engine.handle(on(2, "bench 82.5kg x 5"))) == []
