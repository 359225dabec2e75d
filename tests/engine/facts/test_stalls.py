"""Stall rules against hand-computed tables (rules of strength.toml: stall_sessions 3, trend_sessions 4,
decline_tolerance 0.025). Each row: a lift's sessions, oldest first, as (weight, reps) of its best set (its
heaviest work set the same unless given), and the verdict worked out by hand in the comment."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from pydantic import ValidationError

from engine.domains.model import Progression
from engine.domains.registry import DomainRegistry
from engine.facts.stalls import progress_of, slope_of, stall_of
from engine.store.lift_sessions import SessionBest, summarize

LB = 0.45359237
START = date(2026, 1, 5)
RULES = DomainRegistry.load().get("strength").progression  # type: ignore[union-attr]


def sessions(*sets: tuple[float, int] | tuple[float, int, float], unit: str = "kg") -> list[SessionBest]:
    out = []
    for i, s in enumerate(sets):
        weight, reps = s[0], s[1]
        kg = weight * (LB if unit == "lb" else 1.0)
        e1rm = kg if reps == 1 else kg * (1 + reps / 30)
        top = (s[2] if len(s) > 2 else weight) * (LB if unit == "lb" else 1.0)  # type: ignore[misc]
        out.append(SessionBest(START + timedelta(days=3 * i), e1rm, top, weight, unit, reps))
    return out


def day(i: int) -> date:
    return START + timedelta(days=3 * i)


def judge(rows: list[SessionBest]):  # type: ignore[no-untyped-def]
    assert RULES is not None
    return stall_of(summarize("bench press", rows, 4), RULES)


def test_the_rules_are_the_domain_data() -> None:
    assert RULES is not None
    assert (RULES.stall_sessions, RULES.trend_sessions, RULES.decline_tolerance, RULES.deload_percent) == (
        3,
        4,
        0.025,
        0.9,
    )


def test_least_squares_slope_by_hand() -> None:
    # x 0..3 (mean 1.5), y 102.5, 100, 102.5, 100 (mean 101.25): Σ(x-x̄)(y-ȳ) = -2.5, Σ(x-x̄)² = 5.
    assert slope_of([102.5, 100, 102.5, 100]) == pytest.approx(-0.5)
    assert slope_of([100]) == 0.0


def test_a_plateau_against_the_best_before_the_window() -> None:
    # Window 100, 102.5, 100 never beats 102.5 (session 2); trend of the last 4: fall 1.5 < 2.53 → plateau.
    s = judge(sessions((100, 1), (102.5, 1), (100, 1), (102.5, 1), (100, 1)))
    assert s is not None and s.rule == "plateau"
    assert [p.e1rm for p in s.sessions] == [100, 102.5, 100]
    assert [p.on for p in s.sessions] == [day(2), day(3), day(4)]
    assert (s.best.e1rm, s.best.on, s.since) == (102.5, day(1), day(1))


def test_a_falling_estimate_is_a_decline() -> None:
    # Last 4: 102.5, 105, 100, 100 (mean 101.875): slope -1.25, fall 3.75 > 0.025 × 101.875 = 2.55.
    s = judge(sessions((100, 1), (102.5, 1), (105, 1), (100, 1), (100, 1)))
    assert s is not None and s.rule == "decline"
    assert s.slope == pytest.approx(-1.25) and s.fall == pytest.approx(3.75)
    assert (s.best.e1rm, s.since) == (105, day(2))


@pytest.mark.parametrize(
    ("rows", "why"),
    [
        (sessions((100, 1), (102.5, 1), (105, 1), (107.5, 1)), "a new best every session"),
        (sessions((100, 1), (100, 1), (100, 1)), "3 sessions: none before the window, too few for a trend"),
        # e1RM 116.7, 116.7, 109.3 (102.5 × 2), 116.7, 116.7: no new estimate, but 102.5 kg is a heavier work
        # set than 100 → progress; trend of the last 4 rises (+1.22 a session).
        (sessions((100, 5), (100, 5), (102.5, 2), (100, 5), (100, 5)), "a heavier work set is progress"),
    ],
)
def test_no_stall(rows: list[SessionBest], why: str) -> None:
    assert judge(rows) is None, why


def test_flat_sessions_are_a_plateau_measured_from_the_first() -> None:
    # 100 × 4 sessions: slope 0; the window ties 100 (session 0), a tie is no progress.
    s = judge(sessions((100, 1), (100, 1), (100, 1), (100, 1)))
    assert s is not None and s.rule == "plateau" and s.since == day(0)


def test_pounds_stay_pounds() -> None:
    s = judge(sessions((225, 1), (230, 1), (225, 1), (230, 1), (225, 1), unit="lb"))
    assert s is not None and s.rule == "plateau" and s.unit == "lb"
    assert [p.e1rm for p in s.sessions] == [225, 230, 225] and s.best.e1rm == 230


def test_progress_numbers_when_not_stalled() -> None:
    assert RULES is not None
    p = progress_of(summarize("bench press", sessions((100, 1), (102.5, 1), (105, 1), (107.5, 1)), 4), RULES)
    assert (p.sessions, p.latest_best and p.latest_best.e1rm, p.before_best and p.before_best.e1rm) == (3, 107.5, 100)


@pytest.mark.parametrize(
    "bad", [{"stall_sessions": 1}, {"trend_sessions": 2}, {"deload_percent": 1.0}, {"decline_tolerance": -0.1}]
)
def test_the_rules_are_validated(bad: dict[str, float]) -> None:
    assert RULES is not None
    with pytest.raises(ValidationError):
        Progression.model_validate({**RULES.model_dump(), **bad})
