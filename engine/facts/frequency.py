"""How often: sessions, and sessions per week, overall and per domain."""

from __future__ import annotations

from datetime import date

from engine.facts.display import _fmt, weeks_text
from engine.facts.found import _Found
from engine.facts.model import Fact


def _frequency(sessions: dict[str, dict[date, list[str]]], today: date | None, found: _Found) -> list[Fact]:
    """Sessions (one per domain per day) and sessions per week, overall and per domain.

    The rate runs from the first session to ``today`` (or the last session),
    at least one week, so a three-day-old log does not claim 7 a week.
    Labels name the entries found and their days, not a bare date range: a
    keyword search's 38 workouts since 2019 are not all the person did.
    """
    all_days = sorted({d for days in sessions.values() for d in days})
    if not all_days:
        return []
    start = all_days[0]
    end = max(all_days[-1], today) if today is not None else all_days[-1]
    weeks = max(1.0, ((end - start).days + 1) / 7)
    over = f"counted over {weeks_text(weeks)} to {end.isoformat()}"
    out: list[Fact] = []
    rows = [
        (
            "all",
            "workout",
            all_days,
            [i for days in sessions.values() for ids in days.values() for i in ids],
            sum(len(days) for days in sessions.values()),
        )
    ]
    rows += [
        (dom, dom, sorted(days), [i for ids in days.values() for i in ids], len(days))
        for dom, days in sorted(sessions.items())
    ]
    for key, noun, dates, ids, count in rows:
        out.append(
            Fact(
                key=f"{key}.sessions",
                label=f"{noun} sessions {found.words}",
                value=count,
                unit="sessions",
                display=f"{count} session{'s' if count != 1 else ''}",
                dates=dates,
                entry_ids=ids,
                found=found.count,
                found_span=found.span,
            )
        )
        rate = count / weeks
        out.append(
            Fact(
                key=f"{key}.sessions_per_week",
                label=f"{noun} sessions per week {found.words}, {over}",
                value=rate,
                unit="sessions/week",
                display=f"{_fmt(rate)} per week",
                dates=[start, end],
                found=found.count,
                found_span=found.span,
            )
        )
    return out
