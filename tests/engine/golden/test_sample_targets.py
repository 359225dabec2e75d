"""Golden histories: the next-session target of every lift of each export sample in ``tests/data``, right
after its import, against a table worked out by hand from the CSV and the rules of ``[progression]`` in
``strength.toml`` (:mod:`engine.facts.targets`):

* the last session's work sets only: warm-ups (Strong ``W``, Hevy ``warmup``) and drop sets (``D``,
  ``dropset``) left out, failed sets (``F``, ``failure``, 0 reps) kept; the sets at its top weight;
* a missed set (failed, 0 reps, or a linear lift's set short of the session's best) → ``repeat``: the same
  weight, every set at the best set's reps (at least 1);
* a lift in the 8–12 rep range → ``double``: every set at 12 → the smallest increment (2.5 kg, 5 lb) more and
  back to 8 reps, else a rep more on each set below 12;
* any other weighted lift → ``linear``: +2.5 kg / +5 lb upper body, +5 kg / +10 lb lower body (a variation
  follows its family: trap bar and Romanian deadlifts are lower body), snapped down to a multiple of the
  smallest increment but always above the last weight (28 + 2.5 = 30.5 → 30);
* a bodyweight lift → ``reps``: one more rep on every set.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from engine.facts.targets import next_target
from engine.outcomes import Answer
from engine.store.history import HistoryStore
from engine.turns import Control
from tests.conftest import OpenEngine
from tests.engine.golden.samples import USER, import_sample, open_database, sample_config
from tests.helpers.domains import BUILTIN

# lift → (rule, weight, unit, reps of each set, last day, last top weight, its reps, weight added, missed sets)
Row = tuple[str, float | None, str, list[int], date, float | None, list[int], float, int]

GOLDEN: dict[str, dict[str, Row]] = {
    "strong_en.csv": {
        # 2024-01-15: 60×10, 60×8, 62.5×6 → the top weight's set 62.5×6, done → 62.5 + 2.5 = 65 × 6
        "bench press": ("linear", 65, "kg", [6], date(2024, 1, 15), 62.5, [6], 2.5, 0),
        # the dumbbell variation is its own lift: 22.5×12 → 25 × 12
        "dumbbell bench press": ("linear", 25, "kg", [12], date(2024, 1, 15), 22.5, [12], 2.5, 0),
        # bodyweight 10, 8 → 11, 9
        "pull-up": ("reps", None, "", [11, 9], date(2024, 1, 15), None, [10, 8], 0.0, 0),
        # 2024-01-17: 100×5, 105×5 (the "ten" row is left out by the import) → 105 + 5 (lower) = 110 × 5
        "squat": ("linear", 110, "kg", [5], date(2024, 1, 17), 105, [5], 5.0, 0),
        # 140×3 (the 0 kg × 0 row and the 2024-13-40 row are left out) → 145 × 3
        "deadlift": ("linear", 145, "kg", [3], date(2024, 1, 17), 140, [3], 5.0, 0),
    },
    "strong_ko.csv": {
        # 벤치프레스 2024-02-01: 60×10, "62,5"×8 (decimal comma) → 62.5×8 → 65 × 8
        "bench press": ("linear", 65, "kg", [8], date(2024, 2, 1), 62.5, [8], 2.5, 0),
        # 스쿼트 100×5, 100×5 → 105 × 5, 5
        "squat": ("linear", 105, "kg", [5, 5], date(2024, 2, 1), 100, [5, 5], 5.0, 0),
        # 데드리프트 2024-02-03: 120×5 → 125 × 5
        "deadlift": ("linear", 125, "kg", [5], date(2024, 2, 3), 120, [5], 5.0, 0),
        # 풀업 BW × 12 → 13
        "pull-up": ("reps", None, "", [13], date(2024, 2, 3), None, [12], 0.0, 0),
    },
    "hevy_sample.csv": {
        # 2025-03-10: warm-up 40×10 left out, 80×5 → 82.5 × 5
        "bench press": ("linear", 82.5, "kg", [5], date(2025, 3, 10), 80, [5], 2.5, 0),
        # incline dumbbell press 28×10 → 28 + 2.5 = 30.5, down to the 2.5 grid: 30 × 10 (+2)
        "incline dumbbell press": ("linear", 30, "kg", [10], date(2025, 3, 10), 28, [10], 2.0, 0),
        # dumbbell row 32×10 → 34.5 → 32.5 × 10 (+0.5)
        "dumbbell row": ("linear", 32.5, "kg", [10], date(2025, 3, 10), 32, [10], 0.5, 0),
        # cable lateral raise 7.5×15: at or above 12 → 7.5 + 2.5 = 10 × 8
        "cable lateral raise": ("double", 10, "kg", [8], date(2025, 3, 10), 7.5, [15], 2.5, 0),
        # hammer curl (biceps curl family) 14×12 → 16.5 → 15 × 8 (+1)
        "hammer curl": ("double", 15, "kg", [8], date(2025, 3, 10), 14, [12], 1.0, 0),
        # 2025-03-12: squat 110×5 → 115 × 5; leg press 180×12 → 185 × 12; hip thrust 100×10 → 105 × 10
        "squat": ("linear", 115, "kg", [5], date(2025, 3, 12), 110, [5], 5.0, 0),
        "leg press": ("linear", 185, "kg", [12], date(2025, 3, 12), 180, [12], 5.0, 0),
        "hip thrust": ("linear", 105, "kg", [10], date(2025, 3, 12), 100, [10], 5.0, 0),
        # calf raise 60×15 → 62.5 × 8 (rep range, lower body: the range rules, not the +5 kg jump)
        "calf raise": ("double", 62.5, "kg", [8], date(2025, 3, 12), 60, [15], 2.5, 0),
        # 2025-03-14: overhead press 50×5 → 52.5 × 5; weighted pull-up 10×6 → 12.5 × 6
        "overhead press": ("linear", 52.5, "kg", [5], date(2025, 3, 14), 50, [5], 2.5, 0),
        "weighted pull-up": ("linear", 12.5, "kg", [6], date(2025, 3, 14), 10, [6], 2.5, 0),
        # EZ bar curl 30×10, below 12 → 30 × 11
        "ez bar curl": ("double", 30, "kg", [11], date(2025, 3, 14), 30, [10], 0.0, 0),
        # 2025-03-15: trap bar deadlift 140×5 → lower body (deadlift family) → 145 × 5
        "trap bar deadlift": ("linear", 145, "kg", [5], date(2025, 3, 15), 140, [5], 5.0, 0),
    },
    "fitnotes_sample.csv": {
        "bench press": ("linear", 82.5, "kg", [5], date(2025, 3, 3), 80, [5], 2.5, 0),  # 80×5
        "squat": ("linear", 115, "kg", [5], date(2025, 3, 5), 110, [5], 5.0, 0),  # 110×5
        "romanian deadlift": ("linear", 105, "kg", [8], date(2025, 3, 5), 100, [8], 5.0, 0),  # 100×8
        "leg extension": ("double", 52.5, "kg", [8], date(2025, 3, 5), 50, [12], 2.5, 0),  # 50×12
        "lying leg curl": ("double", 42.5, "kg", [8], date(2025, 3, 5), 40, [12], 2.5, 0),  # 40×12
        "deadlift": ("linear", 165, "kg", [3], date(2025, 3, 7), 160, [3], 5.0, 0),  # 160×3
        "chin-up": ("reps", None, "", [9], date(2025, 3, 7), None, [8], 0.0, 0),  # BW × 8
    },
    "roundtrip_hevy_lbs.csv": {
        # 2024-03-05, in lb: warm-ups 95×10, 135×5 and the drop set 135×8 left out; 185×5, 185×5, failed 185×3
        # → a missed set: 185 lb again, every set at the best set's 5
        "bench press": ("repeat", 185, "lb", [5, 5, 5], date(2024, 3, 5), 185, [5, 5, 0], 0.0, 1),
        # dumbbell bench 60×10, 60×9: linear, 9 is short of the best set's 10 → repeat 60 × 10, 10
        "dumbbell bench press": ("repeat", 60, "lb", [10, 10], date(2024, 3, 5), 60, [10, 9], 0.0, 1),
        # dip: BW × 12, then 25 lb × 8 → the weighted top set: 25 + 5 = 30 lb × 8
        "dip": ("linear", 30, "lb", [8], date(2024, 3, 5), 25, [8], 5.0, 0),
        # lateral raise 20×15 (drop sets 15×12, 10×10 left out) → 20 + 5 = 25 lb × 8
        "lateral raise": ("double", 25, "lb", [8], date(2024, 3, 5), 20, [15], 5.0, 0),
        # triceps pushdown 50×12 → 55 lb × 8
        "triceps pushdown": ("double", 55, "lb", [8], date(2024, 3, 5), 50, [12], 5.0, 0),
        # 2024-03-07: deadlift warm-up 135×5 left out, 315×3, failed 335×0 → the top weight is the failed single:
        # 335 lb again, at least 1 rep
        "deadlift": ("repeat", 335, "lb", [1], date(2024, 3, 7), 335, [0], 0.0, 1),
        "barbell row": ("linear", 160, "lb", [8], date(2024, 3, 7), 155, [8], 5.0, 0),  # 155×8 → 160
        "dumbbell row": ("linear", 75, "lb", [10], date(2024, 3, 7), 70, [10], 5.0, 0),  # 70×10 → 75
        "pull-up": ("reps", None, "", [9], date(2024, 3, 7), None, [8], 0.0, 0),  # BW × 8 → 9
    },
    "roundtrip_strong_ko.csv": {
        # squat's last session is 2024-03-09's "스쿼트 (바벨)" 100×5 (on deadlift day) → 105 × 5
        "squat": ("linear", 105, "kg", [5], date(2024, 3, 9), 100, [5], 5.0, 0),
        # 2024-03-07: W 40×10 left out, 80×5, 82.5×5, 85×0 → the top weight 85 failed → 85 × 1 again
        "bench press": ("repeat", 85, "kg", [1], date(2024, 3, 7), 85, [0], 0.0, 1),
        # 2024-03-09: 180×3, 200×0, 180×3 → the top weight 200 failed → 200 × 1 again
        "deadlift": ("repeat", 200, "kg", [1], date(2024, 3, 9), 200, [0], 0.0, 1),
        # 2024-03-05: leg press 200×10, drop set D 150×12 left out → 205 × 10
        "leg press": ("linear", 205, "kg", [10], date(2024, 3, 5), 200, [10], 5.0, 0),
        # cable lateral raise 5×15, F 5×9 → a failed set in a rep range → 5 × 15, 15 again
        "cable lateral raise": ("repeat", 5, "kg", [15, 15], date(2024, 3, 7), 5, [15, 0], 0.0, 1),
        "incline bench press": ("linear", 62.5, "kg", [8], date(2024, 3, 7), 60, [8], 2.5, 0),  # 60×8
        "dumbbell row": ("linear", 32.5, "kg", [10, 10], date(2024, 3, 7), 30, [10, 10], 2.5, 0),  # 30×10 ×2
        # biceps curl (dumbbell) 12×12 → 14.5 → 12.5 × 8 (+0.5); barbell curl 30×10 → 30 × 11
        "biceps curl": ("double", 12.5, "kg", [8], date(2024, 3, 7), 12, [12], 0.5, 0),
        "barbell curl": ("double", 30, "kg", [11], date(2024, 3, 7), 30, [10], 0.0, 0),
    },
    "strong_history.csv": {
        # 2026-10-10: W 40×10, 95×5, 95×5, 95×4 → 4 is short of 5 → 95 × 5, 5, 5 again
        "bench press": ("repeat", 95, "kg", [5, 5, 5], date(2026, 10, 10), 95, [5, 5, 4], 0.0, 1),
        # 35.5×8 ×2 → 38 → 37.5 × 8, 8 (+2)
        "dumbbell bench press": ("linear", 37.5, "kg", [8, 8], date(2026, 10, 10), 35.5, [8, 8], 2.0, 0),
        "incline bench press": ("linear", 77.5, "kg", [5, 5], date(2026, 10, 10), 75, [5, 5], 2.5, 0),  # 75×5 ×2
        "pull-up": ("reps", None, "", [16, 15], date(2026, 10, 10), None, [15, 14], 0.0, 0),  # BW 15, 14
        # 2026-11-14: W 60×10, 137.5×5 ×3 → 142.5 × 5 ×3
        "squat": ("linear", 142.5, "kg", [5, 5, 5], date(2026, 11, 14), 137.5, [5, 5, 5], 5.0, 0),
        # 2026-09-15: W 60×10, 172.5×3 ×2 → 177.5; trap bar 182.5×3 → 187.5
        "deadlift": ("linear", 177.5, "kg", [3, 3], date(2026, 9, 15), 172.5, [3, 3], 5.0, 0),
        "trap bar deadlift": ("linear", 187.5, "kg", [3], date(2026, 9, 15), 182.5, [3], 5.0, 0),
    },
}


@pytest.mark.parametrize("sample", list(GOLDEN))
async def test_the_target_of_every_lift_after_an_import(tmp_path: Path, database_url: str | None, sample: str) -> None:
    config = sample_config(tmp_path / "data", database_url)
    await import_sample(config, sample)
    db = await open_database(config)
    try:
        history = HistoryStore(db, BUILTIN)
        got: dict[str, Row] = {}
        for lift in GOLDEN[sample]:
            t = await next_target(history, BUILTIN, USER, lift)
            assert t is not None, lift
            got[lift] = (t.rule, t.weight, t.unit, t.reps, t.last_on, t.last_weight, t.last_reps, t.added, t.missed)
    finally:
        await db.close()
    assert _rounded(got) == GOLDEN[sample]


def _rounded(rows: dict[str, Row]) -> dict[str, Row]:
    """Weights added as the code subtracts them (62.5 - 60.0) compare to a tenth of a gram."""
    return {k: (*r[:7], round(r[7], 4), r[8]) for k, r in rows.items()}


async def test_next_after_a_korean_import_says_the_target_in_korean(open_engine: OpenEngine, tmp_path: Path) -> None:
    """The command path over an imported history: ``/next 벤치`` after strong_ko.csv (62.5×8 → 65 × 8)."""
    await import_sample(open_engine.config(), "strong_ko.csv")
    async with open_engine() as engine:
        (out,) = await engine.handle(Control(conversation=USER, user=USER, action="next", argument="벤치"))
        (english,) = await engine.handle(Control(conversation=USER, user=USER, action="next", argument="bench"))
    assert isinstance(out, Answer) and out.text == (
        "다음 벤치프레스: 65 kg로 8회 × 1세트 — 선형 증량: 2024-02-01에 62.5 kg × 8회 작업 세트를 모두 완료해서 +2.5 kg (상체).\n"
        "계획에 넣으려면: “다음 벤치프레스 세션 계획해줘”."
    )
    assert isinstance(english, Answer) and english.text.startswith(
        "Next bench press: 1 × 8 at 65 kg — linear progression"
    )
