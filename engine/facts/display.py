"""How facts read: one decimal, clock times, ISO weeks, and the prompt lines."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from engine.facts.model import Fact


def _fmt(x: float) -> str:
    """At most one decimal: 73.333 -> "73.3", 2750.0 -> "2750"."""
    text = f"{x:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def _signed(x: float) -> str:
    text = _fmt(x)
    return text if text.startswith("-") or text == "0" else "+" + text


def weeks_text(weeks: float) -> str:
    """``1 week``, ``2 weeks``, ``408.3 weeks``."""
    shown = _fmt(weeks)
    return f"{shown} week{'' if shown == '1' else 's'}"


def _with_unit(text: str, unit: str) -> str:
    return f"{text} {unit}" if unit else text


def clock(seconds: float) -> str:
    """``M:SS`` or ``H:MM:SS``, rounded to the nearest second."""
    total = int(seconds + 0.5)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _week(day: date) -> str:
    iso = day.isocalendar()
    return f"{iso.year}-W{iso.week:02d}"


def _dates_text(fact: Fact) -> str:
    if fact.on is not None:
        return f" ({fact.on.isoformat()})"
    if not fact.dates:
        return ""
    if len(fact.dates) <= 3:
        return " (" + ", ".join(d.isoformat() for d in fact.dates) + ")"
    # A long list would flood the prompt; the span is what the reader needs.
    return f" ({fact.dates[0].isoformat()} … {fact.dates[-1].isoformat()})"


def facts_text(facts: Iterable[Fact]) -> str:
    """Facts as prompt lines: ``- label: display (date(s))``."""
    return "\n".join(f"- {f.label}: {f.display}{_dates_text(f)}" for f in facts)
