"""Nudges that know the log (issue 25, item 3): a planned session not logged by the evening of its day gets
one gentle nudge; ``/quiet`` turns them off; "only when behind" nudges only when the week's logged
sessions fall short of the planned ones so far.

For the scheduler: ``for due in await nudges.due_nudges(now)`` (each person's day whose evening has come,
with its planned entries no log completed and the text to send), then ``if await nudges.mark_nudged(due,
now, also=record)`` records the claim (one row per planned entry) in one transaction with ``also``, like
:meth:`engine.summary.prefs.SummaryPrefs.mark_sent`; False: nudged before, send nothing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import cast

from engine.domains.registry import DomainRegistry
from engine.query.render import Language
from engine.reminders.schedule import instant
from engine.store.db import Database
from engine.summary import texts as t
from engine.summary.prefs import Also, NudgeMode
from engine.summary.reads import Unlogged, WeekReads
from engine.summary.weekly import monday_of

PATCH_OF_PLANNED = (
    "CASE WHEN instr(e.source_key, ':') > 0 THEN substr(e.source_key, 1, instr(e.source_key, ':') - 1) END"
)
"""The patch a planned entry ``e`` came from (its ``source_key`` is ``<patch_id>:<n>``); NULL for a key with no
':', where SQLite's ``substr(…, -1)`` gave '' and Postgres's raises an error."""

EVENING = time(19, 0)
"""When a planned day's nudge is due, in the person's zone, unless the scheduler says otherwise."""


@dataclass(frozen=True, slots=True)
class DueNudge:
    """A person's planned day whose evening has come with sessions unlogged."""

    user: str
    conversation: str
    day: date
    due_at: datetime
    """The evening of ``day`` in the person's zone, as a UTC instant."""
    entries: list[Unlogged]
    language: Language
    text: str
    """The nudge, in the person's language (the week's figures too in "behind" mode)."""


class Nudges:
    """Which planned sessions went unlogged, and whether a week is behind its plan."""

    def __init__(self, db: Database, registry: DomainRegistry, default_tz: str = "UTC") -> None:
        """``default_tz``: the zone of a person who never set one (the engine's default)."""
        self._db = db
        self._reads = WeekReads(db, registry.not_training)
        self._default_tz = default_tz

    async def unlogged_planned(self, user: str, day: date) -> list[Unlogged]:
        """The planned entries of ``day`` that no log completed."""
        return await self._reads.unlogged(user, day)

    async def week_so_far(self, user: str, day: date) -> tuple[int, int]:
        """Training days logged and days planned, from the Monday of ``day``'s week to ``day``."""
        start = monday_of(day)
        logged = await self._reads.training_days(user, start, day)
        planned = await self._reads.planned_days(user, start, day)
        return len(logged), len(planned)

    async def behind_plan(self, user: str, day: date) -> bool:
        """Whether the week of ``day`` has fewer training days logged than days planned, up to ``day``."""
        logged, planned = await self.week_so_far(user, day)
        return logged < planned

    async def due_nudges(self, now: datetime, evening: time = EVENING) -> list[DueNudge]:
        """Every person's planned day (today or the two before, in their zone) whose ``evening`` has passed by
        ``now``, with its planned entries unlogged and not nudged about; none for a person who is ``/quiet``,
        and in "behind" mode none unless the week is behind its plan.

        A nudge goes to the conversation the person chose (``/quiet``, ``/summary weekly on``), else to the
        one where the plan was approved; a planned entry with neither is skipped.
        """
        utc_day = now.astimezone(timezone.utc).date()
        async with self._db.conn.execute(
            "SELECT e.user_key, e.entry_id, e.occurred_on, e.summary, coalesce(u.timezone, :tz), "
            "coalesce(p.conversation, pa.conversation), coalesce(p.nudges, 'on'), coalesce(p.language, 'en') "
            "FROM entries e LEFT JOIN users u ON u.user_key = e.user_key "
            "LEFT JOIN summary_prefs p ON p.user_key = e.user_key "
            f"LEFT JOIN patches pa ON pa.patch_id = {PATCH_OF_PLANNED} "
            "WHERE e.kind = 'planned' AND e.status = 'active' AND e.occurred_on BETWEEN :a AND :b "
            "AND NOT EXISTS (SELECT 1 FROM nudge_sent n WHERE n.user_key = e.user_key AND n.entry_id = e.entry_id) "
            "ORDER BY e.user_key, e.occurred_on, e.rowid",
            {"tz": self._default_tz, "a": (utc_day - timedelta(days=3)).isoformat(), "b": utc_day.isoformat()},
        ) as cur:
            rows = list(await cur.fetchall())
        days: dict[tuple[str, date], list[tuple[str, str, str, str, str, str]]] = defaultdict(list)
        for user, entry_id, on, summary, tz, conversation, mode, lang in rows:
            if conversation is None or mode == "off":
                continue
            days[(user, date.fromisoformat(on))].append((entry_id, summary, tz, conversation, mode, lang))
        out = []
        for (user, day), found in days.items():
            _, _, tz, conversation, mode, lang = found[0]
            due = instant(day, evening, tz)
            # Today's evening has come, and the day is at most two days old in the person's zone.
            if due > now or due < now - timedelta(days=2):
                continue
            language = cast(Language, lang)
            text = t.nudge([s for _, s, *_ in found], day, language)
            if cast(NudgeMode, mode) == "behind":
                logged, planned = await self.week_so_far(user, day)
                if logged >= planned:
                    continue
                text += "\n" + t.behind_nudge(logged, planned, language)
            entries = [Unlogged(entry_id, day, s) for entry_id, s, *_ in found]
            out.append(DueNudge(user, conversation, day, due, entries, language, text))
        return out

    async def mark_nudged(self, due: DueNudge, now: datetime, also: Also | None = None) -> bool:
        """Claim the nudge of ``due`` once ever (a row per planned entry), with ``also`` in the same transaction.

        Returns:
            True when this call claimed it (send it); False when any of its entries was nudged about before.
        """
        conn = self._db.conn
        async with self._db.lock:
            try:
                claimed = True
                for e in due.entries:
                    cur = await conn.execute(
                        "INSERT INTO nudge_sent (user_key, entry_id, claimed_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                        (due.user, e.entry_id, now.astimezone(timezone.utc).isoformat()),
                    )
                    claimed = claimed and cur.rowcount == 1
                if not claimed:
                    await conn.rollback()
                    return False
                if also is not None:
                    await also(conn)
                await conn.commit()
            except BaseException:
                await conn.rollback()
                raise
        return True
