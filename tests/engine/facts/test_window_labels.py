"""Facts over the entries a search fetched say so (issue 21, point 5 "Every fact says what it covers").

Each case is one from a real Strong export where a planner fetched the last
30 days or searched a keyword: the window's record, count, last session and
frequency were labelled as if they covered all history ("heaviest set of
deadlift: 160 kg" beside a true all-time 180 kg). Their labels now name the
entries found and their first and last days, and ``found``/``found_span``
mark them for code that renders labels itself.
"""

from __future__ import annotations

from datetime import date, timedelta

from engine.entries.model import Entry
from engine.facts import Fact, compare_latest, compute_facts, facts_text
from tests.helpers.domains import BUILTIN
from tests.helpers.entries import MONTH, TODAY, lift, metrics, nov, strength

OCT_27 = date(2026, 10, 27)


def by_key(facts: list[Fact]) -> dict[str, Fact]:
    return {f.key: f for f in facts}


def last_30_days() -> list[Entry]:
    """What a planner's 30-day fetch found: three deadlift days, a curl day, a run."""
    return [
        strength(OCT_27, lift("deadlift", "kg", [(140, 5)] * 3), key="a"),
        strength(nov(6), lift("deadlift", "kg", [(150, 3)] * 3), lift("barbell curl", "kg", [(30, 10)] * 3), key="b"),
        metrics(nov(12), "running", distance_km="8", duration="40:00"),
        strength(nov(20), lift("deadlift", "kg", [(160, 3), (160, 2)]), key="c"),
        strength(nov(25), lift("bench press", "kg", [(80, 5)] * 3), key="d"),
    ]


WINDOW = "in the 5 entries found (2026-10-27 to 2026-11-25)"


def test_a_windows_heaviest_set_says_it_covers_the_entries_found() -> None:
    top = by_key(compute_facts(last_30_days(), today=TODAY, domains=BUILTIN))["deadlift.heaviest_set"]
    assert top.display == "160 kg × 3"
    assert top.label == f"heaviest set of deadlift {WINDOW}"
    assert (top.found, top.found_span, top.scope) == (5, (OCT_27, nov(25)), None)


def test_a_keyword_searchs_last_session_is_the_last_one_found() -> None:
    # A search for "deadlift" found two sessions in 2022; the person's true latest is in 2023.
    found = [
        strength(date(2022, 3, 20), lift("deadlift", "kg", [(150, 5)]), key="x"),
        strength(date(2022, 3, 27), lift("deadlift", "kg", [(155, 5)]), key="y"),
    ]
    got = by_key(compute_facts(found, exercises=["deadlift"], today=TODAY, domains=BUILTIN))
    last = got["deadlift.last"]
    assert (last.on, last.display) == (date(2022, 3, 27), "155 kg × 5 reps × 1 set")
    assert last.label == "last deadlift session in the 2 entries found (2022-03-20 to 2022-03-27)"
    assert got["deadlift.days_since_last"].label == (
        "days since the last deadlift session in the 2 entries found (2022-03-20 to 2022-03-27)"
    )
    assert got["deadlift.days_since_last"].found == 2


def test_a_windows_session_count_says_it_covers_the_entries_found() -> None:
    sessions = by_key(compute_facts(last_30_days(), today=TODAY, domains=BUILTIN))["barbell curl.sessions"]
    assert sessions.value == 1
    assert sessions.label == f"barbell curl sessions {WINDOW}"
    assert "logged" not in sessions.label  # "sessions logged" read as every one ever logged
    assert sessions.found == 5


def test_a_windows_frequency_is_not_labelled_like_all_history() -> None:
    # A keyword search found 38 workouts from 2019 on; the person logged 92. Today is 2026-11-25.
    first, today = date(2019, 1, 29), date(2026, 11, 25)
    found = [
        strength(first + timedelta(days=76 * i), lift("deadlift", "kg", [(100, 5)]), key=f"k{i}") for i in range(38)
    ]
    last = found[-1].occurred_on
    assert last == date(2026, 10, 11)
    got = by_key(compute_facts(found, today=today, domains=BUILTIN))
    sessions, rate = got["all.sessions"], got["all.sessions_per_week"]
    assert sessions.display == "38 sessions"
    # Before: "workout sessions (2019-01-29 to 2026-11-25, 408.3 weeks)", a range reaching today.
    assert sessions.label == "workout sessions in the 38 entries found (2019-01-29 to 2026-10-11)"
    assert not sessions.label.startswith("workout sessions (")
    assert today.isoformat() not in sessions.label
    assert rate.label == (
        "workout sessions per week in the 38 entries found (2019-01-29 to 2026-10-11), counted over 408.3 weeks"
        " to 2026-11-25"
    )
    assert got["strength.sessions"].label == "strength sessions in the 38 entries found (2019-01-29 to 2026-10-11)"
    for fact in (sessions, rate):
        assert (fact.found, fact.found_span, fact.scope) == (38, (first, last), None)


def test_every_best_and_total_names_the_entries_found() -> None:
    got = by_key(compute_facts(MONTH, today=TODAY, domains=BUILTIN))
    # MONTH: 18 entries, of which a superseded one, a note and a plan do not count.
    where = "in the 15 entries found (2026-11-01 to 2026-11-20)"
    for key in (
        "bench press.best_e1rm",
        "bench press.best_set",
        "bench press.best_volume",
        "pull-up.most_reps",
        "pull-up.best_total_reps",
        "running.total_distance",
        "running.longest",
        "running.best_pace",
        "swimming.best_pace.freestyle",
        "bench press.sessions",
        "bench press.last",
        "running.sessions",
    ):
        assert got[key].label.endswith(where), (key, got[key].label)
        assert got[key].found == 15, key
    assert got["deadlift.heaviest_set"].label == f"heaviest set of deadlift (lb converted to kg) {where}"
    assert got["running.longest"].label == f"longest run {where}"
    assert got["swimming.best_pace.freestyle"].label == f"fastest average pace of a freestyle swim {where}"


def test_facts_about_one_session_or_week_keep_their_labels() -> None:
    got = by_key(compute_facts(MONTH, exercises=["bench press"], today=TODAY, domains=BUILTIN))
    unchanged = {
        "bench press.volume.2026-11-20": "volume (weight × reps) of bench press on 2026-11-20",
        "bench press.week_volume.2026-W47": "volume (weight × reps) of bench press in week 2026-W47 (2026-11-16 to 2026-11-22)",
        "bench press.latest.heaviest": "heaviest set in the latest bench press session",
        "bench press.previous.heaviest": "heaviest set in the previous bench press session",
        "bench press.vs_previous.heaviest": "change in heaviest set of bench press, latest 2026-11-20 vs the previous session 2026-11-13",
        "running.2026-11-15.pace": "average pace of the run on 2026-11-15",
    }  # fmt: skip
    for key, label in unchanged.items():
        assert (got[key].label, got[key].found, got[key].found_span) == (label, None, None), key


def test_the_previous_best_is_the_best_found() -> None:
    got = by_key(compare_latest(MONTH, "bench press"))
    where = "in the 15 entries found (2026-11-01 to 2026-11-20)"
    assert got["bench press.previous_best.e1rm"].label == (
        f"previous best estimated 1RM of bench press (before the latest session) {where}"
    )
    # "A new best" is a best among the entries found, not a lifetime record.
    assert got["bench press.vs_previous_best.e1rm"].label == (
        f"change in estimated 1RM of bench press, latest 2026-11-20 vs the previous best 2026-11-02 {where}, a new best"
    )
    assert got["bench press.vs_previous_best.e1rm_pct"].found == 15


def test_facts_text_shows_what_each_fact_covers() -> None:
    text = facts_text(compute_facts(last_30_days(), exercises=["deadlift"], today=TODAY, domains=BUILTIN))
    assert f"- heaviest set of deadlift {WINDOW}: 160 kg × 3 (2026-11-20)\n" in text
    assert f"- deadlift sessions {WINDOW}: 3 sessions (2026-10-27, 2026-11-06, 2026-11-20)\n" in text
    assert f"- workout sessions {WINDOW}: 5 sessions" in text


def test_one_entry_found() -> None:
    rows = [strength(nov(2), lift("row", "kg", [(60, 8)]))]
    (one,) = [f for f in compute_facts(rows, domains=BUILTIN) if f.key == "row.heaviest_set"]
    assert one.label == "heaviest set of row in the 1 entry found (2026-11-02)"
    assert one.found_span == (nov(2), nov(2))
