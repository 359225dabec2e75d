"""``/summary`` and ``/quiet``, read in code (no model call):

* ``/summary``: last week's summary now (``/summary 지난주`` in Korean);
* ``/summary weekly on [day] [hour]``: every week at that time in the person's zone, Monday 08:00 by default
  (``/summary weekly on friday 18:30``, ``/summary weekly on 월요일 8시``, ``오후 7시``); ``/summary weekly off``;
* ``/quiet``: nudges off; ``/quiet off``: back on; ``/quiet behind``: only when the week is behind its plan.

Setting the same thing twice sets it once: neither command needs recording to be safe on redelivery.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime, time
from pathlib import Path

from engine.domains.registry import DomainRegistry
from engine.outcomes import Notice, Outcome
from engine.query.render import Language, language_of
from engine.store.db import Database
from engine.summary import texts as t
from engine.summary.prefs import NudgeMode, SummaryPrefs
from engine.summary.weekly import last_week, weekly_summary

HOME = "home"
"""``summary home``: last week's summary without its chart (Slack's Home tab, refreshed after every log)."""
_DAYS = {
    **{
        name: i for i, name in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))
    },
    **{name: i for i, name in enumerate(("mon", "tue", "wed", "thu", "fri", "sat", "sun"))},
    **{name: i for i, name in enumerate("월화수목금토일")},
}
_DAY = re.compile(r"\b([a-z]{3,9})\b|([월화수목금토일])(?:요일)?", re.I)
_CLOCK = re.compile(r"(오전|오후)?\s*(\d{1,2})(?:\s*[:시]\s*(\d{2})?\s*(?:분)?)?\s*(am|pm|a\.m\.|p\.m\.)?(?!\d)", re.I)
_ON = re.compile(r"^(?:weekly|매주|주간)\s+(on|off|켜기|켜|끄기|꺼|끄)\b(.*)$", re.I)


def read_weekly(said: str) -> tuple[bool, int, time] | None:
    """``weekly on friday 18:30`` → (True, 4, 18:30); ``weekly off`` → (False, …); None when it is no such words."""
    m = _ON.match(said.strip())
    if m is None:
        return None
    on = m.group(1).lower() in ("on", "켜기", "켜")
    rest = m.group(2)
    weekday = 0
    for d in _DAY.finditer(rest):
        word = (d.group(1) or d.group(2) or "").lower()
        if word in _DAYS:
            weekday = _DAYS[word]
            rest = rest.replace(d.group(0), " ", 1)
            break
    at = time(8, 0)
    c = _CLOCK.search(rest)
    if c is not None:
        hour, minute = int(c.group(2)), int(c.group(3) or 0)
        half = (c.group(1) or c.group(4) or "").lower()
        if half in ("오후", "pm", "p.m.") and hour < 12:
            hour += 12
        elif half in ("오전", "am", "a.m.") and hour == 12:
            hour = 0
        if hour > 23 or minute > 59:
            return None
        at = time(hour, minute)
    return on, weekday, at


async def summary_command(
    db: Database,
    registry: DomainRegistry,
    user: str,
    conversation: str,
    argument: str,
    now: datetime,
    tz: str,
    charts_dir: Path | None,
    spellings: Mapping[str, Iterable[str]] | None = None,
) -> list[Outcome]:
    """``/summary [weekly on|off …]`` for ``user`` (zone ``tz``), said in ``conversation`` at ``now``."""
    said = argument.strip()
    prefs = SummaryPrefs(db)
    kept = await prefs.get(user)
    lang: Language = language_of(said) if said else (kept.language if kept is not None else "en")
    weekly = read_weekly(said)
    if weekly is not None:
        on, weekday, at = weekly
        if not on:
            await prefs.weekly_off(user, now)
            return [Notice(text=t.weekly_off(lang), code="summary_off")]
        await prefs.weekly_on(user, conversation, weekday, at, tz, lang, now)
        return [Notice(text=t.weekly_on(weekday, at, tz, lang), code="summary_on")]
    if said and said.lower() not in (HOME, "now", "last week", "지난주", "지난 주", "요약"):
        return [Notice(text=t.summary_usage(lang), code="usage")]
    # The Home tab shows no picture (a Home view takes images only from a public URL): draw none for it.
    drawn = None if said == HOME else charts_dir
    summary = await weekly_summary(db, registry, user, last_week(tz, now), lang, drawn, spellings)
    return summary.outcomes


async def quiet_command(db: Database, user: str, conversation: str, argument: str, now: datetime) -> list[Outcome]:
    """``/quiet`` (nudges off), ``/quiet off`` (back on), ``/quiet behind`` (only when behind the plan)."""
    said = argument.strip().lower()
    lang = language_of(said) if said else "en"
    prefs = SummaryPrefs(db)
    kept = await prefs.get(user)
    if not said and kept is not None:
        lang = kept.language
    modes: dict[str, NudgeMode] = {"": "off", "on": "off", "off": "on", "behind": "behind", "뒤처질 때만": "behind"}
    mode = modes.get(said)
    if mode is None:
        usage = (
            "사용법: /quiet, /quiet off, /quiet behind" if lang == "ko" else "Usage: /quiet, /quiet off, /quiet behind"
        )
        return [Notice(text=usage, code="usage")]
    await prefs.set_nudges(user, conversation, mode, lang, now)
    return [Notice(text=t.quiet_set(mode, lang), code="quiet")]
