"""Which requests code plans by itself (engine.tasks.coded.read_request), and its day arithmetic, by hand."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from engine.domains.registry import DomainRegistry, DomainSelector
from engine.tasks.coded import OFFERED, Request, offered, read_request, usual_days

REGISTRY = DomainRegistry.load()
EVERYTHING = DomainSelector(REGISTRY).build_active_context(REGISTRY.names)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plan my next bench session", Request("next", ["bench press"])),
        ("schedule my next squat workout", Request("next", ["squat"])),
        ("다음 벤치 세션 계획해줘", Request("next", ["bench press"])),
        ("plan a deload week for bench", Request("deload", ["bench press"])),
        ("디로드 주 계획해줘", Request("deload", [])),
        ("add that to my plan", Request(None, [])),
        ("그거 계획에 넣어줘", Request(None, [])),
        # The person's own numbers, an open request, or no plan at all: the model's.
        ("plan my next bench session at 70kg", None),
        ("plan my next week of bench", None),
        ("plan how to deload my bench next week", None),
        ("add that to my log", None),
        ("what should I do on bench next time?", None),
        ("is my bench stalling?", None),
    ],
)
def test_read_request(text: str, expected: Request | None) -> None:
    assert read_request(text, EVERYTHING, REGISTRY) == expected


def test_the_last_offer_wins() -> None:
    events = [
        ("t1", OFFERED, "u", "next squat"),
        ("t2", "PLAN_PROGRESS", "u", "round 1"),
        ("t3", OFFERED, "u", "deload bench press"),
        ("t4", "DECISION", "u", "cancel by u"),
    ]
    assert offered(events) == ("deload", "bench press")
    assert offered(events[:2]) == ("next", "squat")
    assert offered([]) is None


SUNDAY = date(2026, 11, 22)


def test_usual_days_are_weekdays_trained_twice() -> None:
    # Mondays 11-09, 11-16 and Thursday 11-19 once: only Monday is usual → Monday 11-23.
    days = [date(2026, 11, 9), date(2026, 11, 16), date(2026, 11, 19)]
    assert usual_days(days, SUNDAY, 1) == ([date(2026, 11, 23)], True)
    # Two sessions wanted, one usual day: spread over the week from tomorrow, 7 // 2 = 3 days apart.
    assert usual_days(days, SUNDAY, 2) == ([date(2026, 11, 23), date(2026, 11, 26)], False)
    # Nothing usual: tomorrow.
    assert usual_days([], SUNDAY, 1) == ([SUNDAY + timedelta(days=1)], False)
    # Three a week, no habit: days 1, 1 + 7 // 3 = 3, 1 + 14 // 3 = 5.
    assert usual_days([], SUNDAY, 3)[0] == [date(2026, 11, 23), date(2026, 11, 25), date(2026, 11, 27)]
