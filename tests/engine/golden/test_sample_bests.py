"""Golden histories: the four bests each imported sample holds per lift, as the record said on beating them
names them (the best before and its day), against a table worked out by hand from the CSV.

Per lift, one log of two sets beats all four at once: the heaviest weight plus one plate (2.5 kg, 5 lb) for
20 reps (its estimate, ×5/3, and its volume are above any of these histories'), and one rep more than the
most done at a weight of the history. What counts, and the arithmetic: see ``test_sample_records``
(warm-ups and failed sets left out, drop sets counted; Epley; one entry's Σ weight × reps; the earliest day
of equal bests). Store-level (:class:`engine.store.records.RecordStore`), as a log's STORE node calls it.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from engine.entries.model import NewEntry
from engine.store.records import RecordStore
from tests.engine.golden.samples import USER, import_sample, open_database, sample_config
from tests.helpers.domains import BUILTIN

Shown = tuple[str, date]
# lift → (unit, heaviest weight or None, (a weight or None for bodyweight, the most reps at it), bests by kind)
Lift = tuple[str, float | None, tuple[float | None, int], dict[str, Shown]]


def _four(heaviest: str, reps_at: str, e1rm: str, volume: str, on: date, /, **days: date) -> dict[str, Shown]:
    """The four bests; all set on ``on`` unless ``days`` gives a kind another day."""
    shown = {"heaviest": heaviest, "reps_at": reps_at, "e1rm": e1rm, "volume": volume}
    return {kind: (text, days.get(kind, on)) for kind, text in shown.items()}


def _bw(reps: int, on: date) -> dict[str, Shown]:
    return {"reps_at": (f"BW × {reps}", on)}


D = date
# fmt: off
GOLDEN: dict[str, dict[str, Lift]] = {
    "strong_en.csv": {
        # 60×10, 60×8, 62.5×6: e1RM 60×(1+10/30) = 80; volume 600 + 480 + 375
        "bench press": ("kg", 62.5, (60, 10), _four("62.5 kg × 6", "60 kg × 10", "80 kg, from 60 kg × 10", "1,455 kg", D(2024, 1, 15))),
        # 22.5×12: e1RM 22.5 × 1.4 = 31.5; 270
        "dumbbell bench press": ("kg", 22.5, (22.5, 12), _four("22.5 kg × 12", "22.5 kg × 12", "31.5 kg, from 22.5 kg × 12", "270 kg", D(2024, 1, 15))),
        "pull-up": ("kg", None, (None, 10), _bw(10, D(2024, 1, 15))),
        # 100×5, 105×5: 105 × 7/6 = 122.5; 500 + 525
        "squat": ("kg", 105, (100, 5), _four("105 kg × 5", "100 kg × 5", "122.5 kg, from 105 kg × 5", "1,025 kg", D(2024, 1, 17))),
        "deadlift": ("kg", 140, (140, 3), _four("140 kg × 3", "140 kg × 3", "154 kg, from 140 kg × 3", "420 kg", D(2024, 1, 17))),
    },
    "strong_ko.csv": {
        # 60×10, 62.5×8: 80 > 62.5 × 38/30 = 79.17; 600 + 500
        "bench press": ("kg", 62.5, (62.5, 8), _four("62.5 kg × 8", "62.5 kg × 8", "80 kg, from 60 kg × 10", "1,100 kg", D(2024, 2, 1))),
        # 100×5 ×2: 100 × 7/6 = 116.67; 1,000
        "squat": ("kg", 100, (100, 5), _four("100 kg × 5", "100 kg × 5", "116.7 kg, from 100 kg × 5", "1,000 kg", D(2024, 2, 1))),
        "deadlift": ("kg", 120, (120, 5), _four("120 kg × 5", "120 kg × 5", "140 kg, from 120 kg × 5", "600 kg", D(2024, 2, 3))),
        "pull-up": ("kg", None, (None, 12), _bw(12, D(2024, 2, 3))),
    },
    "hevy_sample.csv": {
        # warm-up 40×10 left out: 80×5 → 80 × 7/6 = 93.33; 400
        "bench press": ("kg", 80, (80, 5), _four("80 kg × 5", "80 kg × 5", "93.3 kg, from 80 kg × 5", "400 kg", D(2025, 3, 10))),
        "squat": ("kg", 110, (110, 5), _four("110 kg × 5", "110 kg × 5", "128.3 kg, from 110 kg × 5", "550 kg", D(2025, 3, 12))),
        "weighted pull-up": ("kg", 10, (10, 6), _four("10 kg × 6", "10 kg × 6", "12 kg, from 10 kg × 6", "60 kg", D(2025, 3, 14))),
        "trap bar deadlift": ("kg", 140, (140, 5), _four("140 kg × 5", "140 kg × 5", "163.3 kg, from 140 kg × 5", "700 kg", D(2025, 3, 15))),
        # 24×20: 24 × (1 + 20/30) = 40; 480
        "kettlebell swing": ("kg", 24, (24, 20), _four("24 kg × 20", "24 kg × 20", "40 kg, from 24 kg × 20", "480 kg", D(2025, 3, 15))),
        "hanging leg raise": ("kg", None, (None, 12), _bw(12, D(2025, 3, 12))),
    },
    "fitnotes_sample.csv": {
        "bench press": ("kg", 80, (80, 5), _four("80 kg × 5", "80 kg × 5", "93.3 kg, from 80 kg × 5", "400 kg", D(2025, 3, 3))),
        # close-grip, a variation of its own: 60×8 → 60 × 38/30 = 76; 480
        "close-grip bench press": ("kg", 60, (60, 8), _four("60 kg × 8", "60 kg × 8", "76 kg, from 60 kg × 8", "480 kg", D(2025, 3, 3))),
        # 60×15: 60 × 1.5 = 90; 900
        "calf raise": ("kg", 60, (60, 15), _four("60 kg × 15", "60 kg × 15", "90 kg, from 60 kg × 15", "900 kg", D(2025, 3, 5))),
        "deadlift": ("kg", 160, (160, 3), _four("160 kg × 3", "160 kg × 3", "176 kg, from 160 kg × 3", "480 kg", D(2025, 3, 7))),
        "chin-up": ("kg", None, (None, 8), _bw(8, D(2025, 3, 7))),
    },
    "roundtrip_hevy_lbs.csv": {
        # warm-ups 95×10, 135×5 and the failed 185×3 left out; 185×5, 185×5, drop set 135×8:
        # 185 × 7/6 = 215.83; 925 + 925 + 1,080 = 2,930
        "bench press": ("lb", 185, (135, 8), _four("185 lb × 5", "135 lb × 8", "215.8 lb, from 185 lb × 5", "2,930 lb", D(2024, 3, 5))),
        # 60×10, 60×9: 60 × 4/3 = 80; 600 + 540
        "dumbbell bench press": ("lb", 60, (60, 10), _four("60 lb × 10", "60 lb × 10", "80 lb, from 60 lb × 10", "1,140 lb", D(2024, 3, 5))),
        # 20×15, drop sets 15×12, 10×10: 20 × 1.5 = 30; 300 + 180 + 100
        "lateral raise": ("lb", 20, (10, 10), _four("20 lb × 15", "10 lb × 10", "30 lb, from 20 lb × 15", "580 lb", D(2024, 3, 5))),
        "triceps pushdown": ("lb", 50, (50, 12), _four("50 lb × 12", "50 lb × 12", "70 lb, from 50 lb × 12", "600 lb", D(2024, 3, 5))),
        # BW × 12, 25 lb × 8: 25 × 38/30 = 31.67; 200 (the bodyweight set weighs nothing)
        "dip": ("lb", 25, (None, 12), _four("25 lb × 8", "BW × 12", "31.7 lb, from 25 lb × 8", "200 lb", D(2024, 3, 5))),
        # warm-up 135×5 and the failed 335×0 left out: 315 × 1.1 = 346.5; 945
        "deadlift": ("lb", 315, (315, 3), _four("315 lb × 3", "315 lb × 3", "346.5 lb, from 315 lb × 3", "945 lb", D(2024, 3, 7))),
        "dumbbell row": ("lb", 70, (70, 10), _four("70 lb × 10", "70 lb × 10", "93.3 lb, from 70 lb × 10", "700 lb", D(2024, 3, 7))),
        # 155 × 38/30 = 196.33; 1,240
        "barbell row": ("lb", 155, (155, 8), _four("155 lb × 8", "155 lb × 8", "196.3 lb, from 155 lb × 8", "1,240 lb", D(2024, 3, 7))),
        "pull-up": ("lb", None, (None, 8), _bw(8, D(2024, 3, 7))),
    },
    "roundtrip_strong_ko.csv": {
        # 2024-03-05: W 60×8, 140×5, 145×3, F 150×0 ×2, 130×5 ×2; 2024-03-09 ("스쿼트 (바벨)"): 100×5
        # e1RM 140 × 7/6 = 163.33 (145 × 1.1 = 159.5); volume 700 + 435 + 650 + 650 = 2,435
        "squat": ("kg", 145, (100, 5), _four( "145 kg × 3", "100 kg × 5", "163.3 kg, from 140 kg × 5", "2,435 kg", D(2024, 3, 5), reps_at=D(2024, 3, 9)),
        ),
        # 200×10, drop set 150×12: 200 × 4/3 = 266.67; 2,000 + 1,800
        "leg press": ("kg", 200, (150, 12), _four("200 kg × 10", "150 kg × 12", "266.7 kg, from 200 kg × 10", "3,800 kg", D(2024, 3, 5))),
        # W 40×10, 80×5, 82.5×5, 85×0: 82.5 × 7/6 = 96.25, shown to one place as 96.2; 400 + 412.5
        "bench press": ("kg", 82.5, (80, 5), _four("82.5 kg × 5", "80 kg × 5", "96.2 kg, from 82.5 kg × 5", "812.5 kg", D(2024, 3, 7))),
        "incline bench press": ("kg", 60, (60, 8), _four("60 kg × 8", "60 kg × 8", "76 kg, from 60 kg × 8", "480 kg", D(2024, 3, 7))),
        # 26 × 4/3 = 34.67
        "incline dumbbell press": ("kg", 26, (26, 10), _four("26 kg × 10", "26 kg × 10", "34.7 kg, from 26 kg × 10", "260 kg", D(2024, 3, 7))),
        # 70 × 38/30 = 88.67
        "barbell row": ("kg", 70, (70, 8), _four("70 kg × 8", "70 kg × 8", "88.7 kg, from 70 kg × 8", "560 kg", D(2024, 3, 7))),
        "dumbbell row": ("kg", 30, (30, 10), _four("30 kg × 10", "30 kg × 10", "40 kg, from 30 kg × 10", "600 kg", D(2024, 3, 7))),
        "barbell curl": ("kg", 30, (30, 10), _four("30 kg × 10", "30 kg × 10", "40 kg, from 30 kg × 10", "300 kg", D(2024, 3, 7))),
        # the dumbbell curl is "biceps curl": 12 × 1.4 = 16.8
        "biceps curl": ("kg", 12, (12, 12), _four("12 kg × 12", "12 kg × 12", "16.8 kg, from 12 kg × 12", "144 kg", D(2024, 3, 7))),
        "lateral raise": ("kg", 8, (8, 15), _four("8 kg × 15", "8 kg × 15", "12 kg, from 8 kg × 15", "120 kg", D(2024, 3, 7))),
        # 5×15 and F 5×9 (left out): 7.5; 75
        "cable lateral raise": ("kg", 5, (5, 15), _four("5 kg × 15", "5 kg × 15", "7.5 kg, from 5 kg × 15", "75 kg", D(2024, 3, 7))),
        "pull-up": ("kg", None, (None, 10), _bw(10, D(2024, 3, 7))),
        # 180×3, F 200×0, 180×3: 180 × 1.1 = 198; 1,080
        "deadlift": ("kg", 180, (180, 3), _four("180 kg × 3", "180 kg × 3", "198 kg, from 180 kg × 3", "1,080 kg", D(2024, 3, 9))),
    },
    "strong_history.csv": {
        # heaviest 100×3 (2025-06-12); 95×5 first 2025-06-07: 95 × 7/6 = 110.83 (100 × 1.1 = 110);
        # 95×5 + 95×5 + 95×4 = 1,330, first 2025-06-07; the failed 105×0 of 2025-07-01 left out
        "bench press": ("kg", 100, (95, 5), _four( "100 kg × 3", "95 kg × 5", "110.8 kg, from 95 kg × 5", "1,330 kg", D(2025, 6, 7), heaviest=D(2025, 6, 12)),
        ),
        # 35.5×8 ×2 first 2025-06-07: 35.5 × 38/30 = 44.97; 568
        "dumbbell bench press": ("kg", 35.5, (35.5, 8), _four("35.5 kg × 8", "35.5 kg × 8", "45 kg, from 35.5 kg × 8", "568 kg", D(2025, 6, 7))),
        "incline bench press": ("kg", 75, (75, 5), _four("75 kg × 5", "75 kg × 5", "87.5 kg, from 75 kg × 5", "750 kg", D(2025, 6, 7))),
        "pull-up": ("kg", None, (None, 15), _bw(15, D(2026, 2, 17))),
        # heaviest 140×3 (2023-05-20); 137.5×5 ×3 first 2026-03-19: 137.5 × 7/6 = 160.42; 2,062.5
        "squat": ("kg", 140, (137.5, 5), _four( "140 kg × 3", "137.5 kg × 5", "160.4 kg, from 137.5 kg × 5", "2,062.5 kg", D(2026, 3, 19), heaviest=D(2023, 5, 20)),
        ),
        # heaviest 175×2 (2024-09-15; that day's F 185×1 left out); 172.5×3 ×2 first 2026-04-13:
        # 172.5 × 1.1 = 189.75 (175 × 32/30 = 186.67); 1,035
        "deadlift": ("kg", 175, (172.5, 3), _four( "175 kg × 2", "172.5 kg × 3", "189.8 kg, from 172.5 kg × 3", "1,035 kg", D(2026, 4, 13), heaviest=D(2024, 9, 15)),
        ),
        # heaviest 200×1 (2025-03-03, after 180×3 and a warm-up); 182.5 × 1.1 = 200.75 (2026-04-13);
        # 540 + 200 = 740 (2025-03-03)
        "trap bar deadlift": ("kg", 200, (180, 3), _four( "200 kg × 1", "180 kg × 3", "200.8 kg, from 182.5 kg × 3", "740 kg", D(2025, 3, 3), e1rm=D(2026, 4, 13)),
        ),
    },
}
# fmt: on


def _beating(lift: str, unit: str, heaviest: float | None, at: tuple[float | None, int]) -> NewEntry:
    plate = 5.0 if unit == "lb" else 2.5
    sets: list[tuple[float | None, int]] = [] if heaviest is None else [(heaviest + plate, 20)]
    sets.append((at[0], at[1] + 1))
    details = [{"set_num": i, "weight": w, "reps": r} for i, (w, r) in enumerate(sets, start=1)]
    return NewEntry(
        occurred_on=date(2026, 11, 20),
        domain="strength",
        activity_type="strength",
        summary=f"{lift} beating every best",
        data={
            "activity_type": "strength",
            "domain": "strength",
            "exercises": [{"name": lift, "sets": len(sets), "weight_unit": unit, "set_details": details}],
            "metrics": [],
            "notes": "",
        },
        raw_text=lift,
        terms=[lift],
        source_key=f"golden:{lift}",
    )


@pytest.mark.parametrize("sample", list(GOLDEN))
async def test_each_lift_s_bests_are_named_when_beaten(tmp_path: Path, database_url: str | None, sample: str) -> None:
    config = sample_config(tmp_path / "data", database_url)
    await import_sample(config, sample)
    db = await open_database(config)
    try:
        store = RecordStore(db, BUILTIN)
        got: dict[str, dict[str, Shown]] = {}
        for lift, (unit, heaviest, at, _) in GOLDEN[sample].items():
            stored = await store.log(USER, _beating(lift, unit, heaviest, at), "en")
            got[lift] = {r.kind: (r.previous_shown, r.previous_on) for r in stored.records if r.previous_on}
    finally:
        await db.close()
    assert got == {lift: bests for lift, (*_, bests) in GOLDEN[sample].items()}
