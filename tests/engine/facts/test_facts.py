"""Tests for engine.facts: numbers computed in code, checked against values worked out by hand."""

from __future__ import annotations

import pytest

from engine.facts import Fact, compare_latest, compute_facts, epley, facts_text, parse_duration
from tests.helpers.domains import BUILTIN
from tests.helpers.entries import MONTH, TODAY, lift, nov, strength


@pytest.fixture(scope="module")
def facts() -> dict[str, Fact]:
    return {f.key: f for f in compute_facts(MONTH, today=TODAY, domains=BUILTIN)}


def test_epley() -> None:
    assert epley(55, 10) == pytest.approx(73.3333, abs=1e-4)
    assert epley(100, 1) == 100
    assert epley(100, 0) is None


@pytest.mark.parametrize(
    ("text", "unit", "seconds"),
    [
        ("25:30", "", 1530),
        ("1:52:40", "", 6760),
        ("52분", "", 3120),
        ("52 min", "", 3120),
        ("1시간 5분", "", 3900),
        ("1h 5m", "", 3900),
        ("5:10/km", "", 310),
        ("5'30\"", "", 330),
        ("32", "min", 1920),
        ("90", "s", 90),
        ("", "", None),
    ],
)
def test_parse_duration(text: str, unit: str, seconds: float | None) -> None:
    assert parse_duration(text, unit) == seconds


def test_bench_records(facts: dict[str, Fact]) -> None:
    e1 = facts["bench press.best_e1rm"]
    # 55 × (1 + 10/30) = 73.33; the superseded 60 kg and the planned 100 kg single do not count.
    assert e1.value == pytest.approx(73.3333, abs=1e-4)
    assert (e1.unit, e1.display, e1.on) == ("kg", "73.3 kg", nov(20))
    assert e1.entry_ids == ["e-strength:2026-11-20"]
    # 55 × 5 on 11-06 ties on weight; 10 reps beat 5.
    heaviest = facts["bench press.heaviest_set"]
    assert (heaviest.value, heaviest.display, heaviest.on) == (55, "55 kg × 10", nov(20))
    assert facts["bench press.best_set"].display == "55 kg × 10 (e1RM 73.3 kg)"
    assert facts["bench press.sessions"].value == 4
    assert facts["bench press.sessions"].dates == [nov(2), nov(6), nov(13), nov(20)]


def test_bench_volume(facts: dict[str, Fact]) -> None:
    # 55 × 10 × 5 = 2750; 50×8 + 52.5×6 + 55×5 = 400 + 315 + 275 = 990.
    today = facts["bench press.volume.2026-11-20"]
    assert (today.value, today.unit, today.display) == (2750, "kg·reps", "2750 kg")
    assert facts["bench press.volume.2026-11-06"].value == 990
    assert facts["bench press.best_volume"].on == nov(20)
    # ISO weeks: W45 = 11-02..11-08 (2500 + 990), W46 (1680), W47 (2750).
    assert facts["bench press.week_volume.2026-W45"].value == 3490
    assert facts["bench press.week_volume.2026-W45"].dates == [nov(2), nov(6)]
    assert facts["bench press.week_volume.2026-W46"].value == 1680
    assert facts["bench press.week_volume.2026-W47"].display == "2750 kg"
    assert "2026-11-16 to 2026-11-22" in facts["bench press.week_volume.2026-W47"].label


def test_last_time(facts: dict[str, Fact]) -> None:
    last = facts["bench press.last"]
    assert (last.display, last.value, last.on) == ("55 kg × 10 reps × 5 sets", 5, nov(20))
    assert facts["bench press.days_since_last"].value == 10
    assert facts["bench press.days_since_last"].display == "10 days"
    assert facts["squat.last"].display == "225×1, 185×5, 185×5 lb"


def test_lb_stays_lb(facts: dict[str, Fact]) -> None:
    # Squat only ever in lb: no conversion. A single is its own 1RM: 225 beats 185 × (1 + 5/30) = 215.8.
    e1 = facts["squat.best_e1rm"]
    assert (e1.value, e1.unit, e1.display, e1.on) == (225, "lb", "225 lb", nov(17))
    assert "converted" not in e1.label
    assert facts["squat.volume.2026-11-03"].value == 3375  # 135 × 5 × 5
    assert facts["squat.volume.2026-11-17"].value == 2075  # 225 + 185 × 5 × 2


def test_mixed_units_compare_in_kg(facts: dict[str, Fact]) -> None:
    # 225 lb × 0.45359237 = 102.06 kg beats 100 kg.
    heaviest = facts["deadlift.heaviest_set"]
    assert heaviest.value == pytest.approx(102.0583, abs=1e-4)
    assert (heaviest.unit, heaviest.display, heaviest.on) == ("kg", "225 lb (102.1 kg) × 5", nov(18))
    assert "lb converted to kg" in heaviest.label
    assert facts["deadlift.volume.2026-11-18"].value == pytest.approx(510.2914, abs=1e-4)


def test_unitless_weights_left_out_beside_a_unit() -> None:
    got = {
        f.key: f
        for f in compute_facts(
            [
                strength(nov(2), lift("row", "kg", [(60, 8)])),
                strength(nov(3), lift("row", None, [(200, 8)])),
            ],
            domains=BUILTIN,
        )
    }
    assert got["row.heaviest_set"].display == "60 kg × 8"
    assert got["row.sessions"].value == 2


def test_missed_lift_is_no_record() -> None:
    squat = strength(nov(2), lift("squat", "kg", [(100, 5), (120, 0)]))
    got = {f.key: f for f in compute_facts([squat], domains=BUILTIN)}
    assert got["squat.heaviest_set"].display == "100 kg × 5"
    assert got["squat.best_e1rm"].value == pytest.approx(116.6667, abs=1e-4)  # 100 × (1 + 5/30)
    assert got["squat.volume.2026-11-02"].value == 500


def test_bodyweight(facts: dict[str, Fact]) -> None:
    assert facts["pull-up.most_reps"].display == "10 reps"
    assert facts["pull-up.volume.2026-11-05"].value == 24
    assert "pull-up.best_e1rm" not in facts


def test_repeated_and_empty_sets() -> None:
    dips = lift("dip", None, [(None, 10)] * 3)
    dips["set_details"] += [{"set_num": 4, "weight": None, "reps": None}] * 2
    got = {f.key: f for f in compute_facts([strength(nov(2), dips)], domains=BUILTIN)}
    assert got["dip.volume.2026-11-02"].value == 30
    assert got["dip.most_reps"].value == 10


def test_same_day_entries_are_one_session() -> None:
    got = {
        f.key: f
        for f in compute_facts(
            [
                strength(nov(2), lift("bench press", "kg", [(50, 10)] * 3), key="a"),
                strength(nov(2), lift("bench press", "kg", [(60, 5)] * 2), key="b"),
                strength(nov(1), lift("bench press", "kg", [(40, 10)]), key="c"),
            ],
            domains=BUILTIN,
        )
    }
    assert got["bench press.sessions"].value == 2
    assert got["bench press.volume.2026-11-02"].value == 2100  # 1500 + 600
    assert got["bench press.volume.2026-11-02"].entry_ids == ["e-a", "e-b"]
    assert got["bench press.heaviest_set"].display == "60 kg × 5"
    assert got["bench press.last"].display == "50 kg × 10 reps × 3 sets; 60 kg × 5 reps × 2 sets"


def test_any_order_and_name_case() -> None:
    got = {
        f.key: f
        for f in compute_facts(
            [
                strength(nov(9), lift("Bench Press", "kg", [(60, 5)]), key="late"),
                strength(nov(2), lift("bench press", "kg", [(50, 5)]), key="early"),
            ],
            domains=BUILTIN,
        )
    }
    assert got["bench press.sessions"].dates == [nov(2), nov(9)]
    assert got["bench press.last"].on == nov(9)


def test_running(facts: dict[str, Fact]) -> None:
    first = facts["running.2026-11-01.pace"]
    # 25:30 / 5 km = 306 s = 5:06 per km.
    assert (first.display, first.unit, first.value) == ("5:06/km", "min/km", pytest.approx(5.1))
    assert facts["running.2026-11-01.duration"].value == 1530
    assert facts["running.2026-11-08.duration"].display == "52:00"
    assert facts["running.2026-11-08.pace"].display == "5:12/km"
    assert facts["running.2026-11-15.duration"].display == "1:52:40"
    assert facts["running.2026-11-15.pace"].display == "5:20/km"  # 6760 / 21.1 = 320.4 s
    assert (facts["running.best_pace"].display, facts["running.best_pace"].on) == ("5:06/km", nov(1))
    assert (facts["running.longest"].display, facts["running.longest"].on) == ("21.1 km", nov(15))
    assert facts["running.total_distance"].value == pytest.approx(36.1)


def test_swimming(facts: dict[str, Fact]) -> None:
    # 32:00 / 1500 m × 100 = 128 s = 2:08 per 100 m; 20 min / 1000 m = 2:00.
    assert facts["swimming.2026-11-07.pace"].display == "2:08/100m"
    assert facts["swimming.2026-11-07.pace"].unit == "min/100m"
    assert "freestyle" in facts["swimming.2026-11-07.pace"].label
    best = facts["swimming.best_pace.freestyle"]
    assert (best.display, best.on) == ("2:00/100m", nov(14))
    assert facts["swimming.total_distance"].display == "2500 m"


def test_frequency(facts: dict[str, Fact]) -> None:
    # 10 strength days, 3 runs, 2 swims over 11-01..11-30 = 30/7 weeks.
    assert facts["strength.sessions"].value == 10
    assert facts["running.sessions"].value == 3
    assert facts["all.sessions"].value == 15
    assert facts["all.sessions_per_week"].value == pytest.approx(3.5)
    assert facts["all.sessions_per_week"].display == "3.5 per week"
    assert facts["strength.sessions_per_week"].display == "2.3 per week"
    assert facts["all.sessions_per_week"].dates == [nov(1), TODAY]


def test_compare_latest() -> None:
    got = {f.key: f for f in compare_latest(MONTH, "Bench Press")}
    # Latest 11-20 (55 × 10 × 5) vs previous session 11-13 (52.5 × 8 × 4).
    assert got["bench press.latest.heaviest"].display == "55 kg × 10"
    assert got["bench press.previous.heaviest"].on == nov(13)
    delta = got["bench press.vs_previous.heaviest"]
    assert (delta.value, delta.display, delta.dates) == (2.5, "+2.5 kg", [nov(13), nov(20)])
    assert got["bench press.vs_previous.heaviest_pct"].display == "+4.8%"  # 2.5 / 52.5
    # e1RM 73.33 vs 52.5 × (1 + 8/30) = 66.5.
    assert got["bench press.previous.e1rm"].display == "66.5 kg"
    assert got["bench press.vs_previous.e1rm"].display == "+6.8 kg"
    assert got["bench press.vs_previous.e1rm_pct"].value == pytest.approx(10.2757, abs=1e-4)
    assert got["bench press.vs_previous.e1rm_pct"].unit == "%"
    # Volume 2750 vs 1680.
    assert got["bench press.vs_previous.volume"].display == "+1070 kg"
    assert got["bench press.vs_previous.volume_pct"].display == "+63.7%"
    # Previous bests: e1RM 66.67 (11-02, 50 × 10), volume 2500 (11-02), heaviest 55 × 5 (11-06).
    best = got["bench press.previous_best.e1rm"]
    assert (best.display, best.on) == ("66.7 kg", nov(2))
    assert got["bench press.vs_previous_best.e1rm"].display == "+6.7 kg"
    assert "a new best" in got["bench press.vs_previous_best.e1rm"].label
    assert got["bench press.vs_previous_best.volume_pct"].display == "+10%"
    assert got["bench press.previous_best.heaviest"].display == "55 kg × 5"
    assert got["bench press.vs_previous_best.heaviest"].display == "0 kg"


def test_compare_latest_edges() -> None:
    assert compare_latest(MONTH, "curl") == []
    only = compare_latest([strength(nov(2), lift("curl", "kg", [(20, 10)]))], "curl")
    assert [f.key for f in only] == ["curl.latest.heaviest", "curl.latest.e1rm", "curl.latest.volume"]


def test_exercise_filter() -> None:
    keys = {f.key for f in compute_facts(MONTH, exercises=["Bench Press"], today=TODAY, domains=BUILTIN)}
    assert "bench press.best_e1rm" in keys
    assert "bench press.vs_previous.e1rm" in keys  # naming an exercise brings its comparison
    assert not any(k.startswith(("squat.", "deadlift.")) for k in keys)
    assert "running.best_pace" in keys


def test_facts_text() -> None:
    facts = compute_facts(MONTH, exercises=["bench press"], today=TODAY, domains=BUILTIN)
    text = facts_text(facts)
    found = "in the 15 entries found (2026-11-01 to 2026-11-20)"
    assert f"- best estimated 1RM (Epley) for bench press {found}: 73.3 kg (2026-11-20)\n" in text
    assert f"- bench press sessions {found}: 4 sessions (2026-11-02 … 2026-11-20)\n" in text
    assert "+2.5 kg (2026-11-13, 2026-11-20)" in text


def test_empty() -> None:
    assert compute_facts([], domains=BUILTIN) == []
