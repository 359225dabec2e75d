"""What Almanac says first besides reminders, claimed for the scheduler (:mod:`engine.reminders.scheduler`):
a weekly summary when its time comes, the evening nudge of a planned day not logged, and the morning
message of a planned day ("planned sessions from approved plans remind on their day").

Each is claimed once ever, in one transaction with its row in the outbox (:mod:`engine.reminders.outbox`),
and the scheduler pushes the outbox: recorded before sent, as reminders are. The morning message follows the
nudge setting (``/quiet`` turns both off; "behind" mode keeps only the evening nudge when behind), and
goes where nudges go.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import cast

import aiosqlite
import structlog

from engine.domains.registry import DomainRegistry
from engine.outcomes import Notice, Outcome
from engine.query.render import Language
from engine.reminders.outbox import Outbox, insert
from engine.reminders.schedule import instant
from engine.store.db import Conn, Database
from engine.summary import texts as t
from engine.summary.nudges import EVENING, PATCH_OF_PLANNED, DueNudge, Nudges
from engine.summary.prefs import DueSummary, SummaryPrefs
from engine.summary.weekly import weekly_summary

log = structlog.get_logger("engine.summary")

MORNING = time(7, 0)
"""When a planned day's morning message is due, in the person's zone."""

Spellings = Callable[[], Mapping[str, Iterable[str]]]


def _platform(conversation: str) -> str:
    return conversation.split(":", 1)[0]


class Chores:
    """Claims what is due besides reminders into the outbox; the scheduler sends it."""

    def __init__(
        self,
        db: Database,
        registry: DomainRegistry,
        charts_dir: Path | None,
        default_tz: str,
        spellings: Spellings | None = None,
        *,
        morning: time = MORNING,
        evening: time = EVENING,
    ) -> None:
        self._db = db
        self._registry = registry
        self._charts = charts_dir
        self._default_tz = default_tz
        self._spellings = spellings
        self._morning, self._evening = morning, evening
        self.outbox = Outbox(db)
        self.prefs = SummaryPrefs(db)
        self.nudges = Nudges(db, registry, default_tz)

    async def claim(self, now: datetime, platforms: Sequence[str]) -> int:
        """Claim everything due at ``now`` for ``platforms`` into the outbox; the number claimed."""
        claimed = 0
        for due in await self.prefs.due_summaries(now):
            if _platform(due.conversation) in platforms:
                claimed += await self._summary(due, now)
        for nudge in await self.nudges.due_nudges(now, self._evening):
            if _platform(nudge.conversation) in platforms:
                claimed += await self._nudge(nudge, now)
        for user, conversation, day, due_at, summaries, lang in await self._planned_today(now):
            if _platform(conversation) in platforms:
                text = t.planned_today(summaries, day, lang)
                outcomes: list[Outcome] = [Notice(text=text, code="planned_today")]
                claimed += await self.outbox.claim(f"planned:{user}:{day}", user, conversation, outcomes, due_at)
        return claimed

    async def _summary(self, due: DueSummary, now: datetime) -> bool:
        # Read-only, so made before the claim: a crash here claims nothing and it is made again.
        spellings = self._spellings() if self._spellings is not None and due.language == "ko" else None
        made = await weekly_summary(
            self._db, self._registry, due.user, due.week_start, due.language, self._charts, spellings
        )
        key = f"summary:{due.user}:{due.week_start}"

        async def record(conn: Conn) -> None:
            await insert(conn, key, due.user, due.conversation, made.outcomes, due.due_at)

        done = await self.prefs.mark_sent(due, now, also=record)
        log.info("summary.claimed", user=due.user, week=due.week_start.isoformat(), claimed=done)
        return done

    async def _nudge(self, nudge: DueNudge, now: datetime) -> bool:
        key = f"nudge:{nudge.user}:{nudge.day}:{','.join(e.entry_id for e in nudge.entries)}"
        outcomes: list[Outcome] = [Notice(text=nudge.text, code="nudge")]

        async def record(conn: Conn) -> None:
            await insert(conn, key, nudge.user, nudge.conversation, outcomes, nudge.due_at)

        return await self.nudges.mark_nudged(nudge, now, also=record)

    async def _planned_today(self, now: datetime) -> list[tuple[str, str, date, datetime, list[str], Language]]:
        """Each person's planned sessions of their today whose morning has come (before their evening, when
        the nudge takes over), with where to send them; none for a person who is ``/quiet``."""
        utc_day = now.astimezone(timezone.utc).date()
        async with self._db.conn.execute(
            "SELECT e.user_key, e.occurred_on, e.summary, coalesce(u.timezone, :tz) AS tz, "
            "coalesce(p.conversation, pa.conversation) AS conversation, coalesce(p.nudges, 'on') AS mode, "
            "coalesce(p.language, 'en') AS lang "
            "FROM entries e LEFT JOIN users u ON u.user_key = e.user_key "
            "LEFT JOIN summary_prefs p ON p.user_key = e.user_key "
            f"LEFT JOIN patches pa ON pa.patch_id = {PATCH_OF_PLANNED} "
            "WHERE e.kind = 'planned' AND e.status = 'active' AND e.occurred_on BETWEEN :a AND :b "
            "ORDER BY e.user_key, e.occurred_on, e.rowid",
            {"tz": self._default_tz, "a": (utc_day - timedelta(days=1)).isoformat(),
             "b": (utc_day + timedelta(days=1)).isoformat()},
        ) as cur:  # fmt: skip
            rows = list(await cur.fetchall())
        days: dict[tuple[str, date], list[aiosqlite.Row]] = defaultdict(list)
        for r in rows:
            if r["conversation"] is not None and r["mode"] == "on":
                days[(r["user_key"], date.fromisoformat(r["occurred_on"]))].append(r)
        out = []
        for (user, day), found in days.items():
            tz = found[0]["tz"]
            due = instant(day, self._morning, tz)
            if not (due <= now < instant(day, self._evening, tz)):
                continue
            summaries = [str(r["summary"] or "") for r in found]
            out.append((user, found[0]["conversation"], day, due, summaries, cast(Language, found[0]["lang"])))
        return out
