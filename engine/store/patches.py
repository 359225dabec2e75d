"""Committing approved patches, undoing them, and the conversation's planning events.

A patch commits in one transaction through ``commit`` and only once: its id
is derived from the turn and the plan, so a replayed EXECUTE node finds it
already committed and changes nothing. ``undo`` reverts a user's last
committed patch, also in one transaction, and says what each change went
back to.

A correction changes the set details behind the numbers
(:func:`engine.entries.corrections.correct`), so the summary and everything
computed from the sets follow. One that would change nothing (the entry was
corrected or replaced since the plan was shown) stores nothing and says why;
a patch that changed nothing is kept as ``unchanged`` and never undone.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from typing import Any

from engine.entries.corrections import correct
from engine.entries.model import ExerciseLog, NewEntry, SetDetail
from engine.entries.summaries import exercise_line
from engine.store.db import Database
from engine.store.entry_rows import COLUMNS, INSERT_SQL, entry_id_for, insert_params, row_to_entry
from engine.tasks.model import Patch, PatchOp


@dataclass
class CommitResult:
    """What a commit did (or had done, when it was a replay)."""

    patch_id: str
    created: list[str] = field(default_factory=list)
    """Entry ids added (planned sessions, corrected copies)."""
    superseded: list[str] = field(default_factory=list)
    goals: list[int] = field(default_factory=list)
    replaced_goals: list[int] = field(default_factory=list)
    replay: bool = False
    lines: list[str] = field(default_factory=list)
    """One line per change, for the confirmation."""
    reverts: list[str] = field(default_factory=list)
    """One line per change as undo will say it (``… back to …``)."""
    unchanged: list[str] = field(default_factory=list)
    """Why an operation changed nothing."""

    @property
    def changed(self) -> bool:
        return bool(self.created or self.superseded or self.goals or self.replaced_goals)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


_turn_events: ContextVar[tuple[str, Counter[str]] | None] = ContextVar("turn_events", default=None)


@contextmanager
def events_of_turn(turn: str) -> Iterator[None]:
    """Within this block, planning events are keyed by the turn, their kind and their ordinal.

    A turn that runs again (``/retry``, a restart after a crash) re-executes its
    nodes from the top, so its n-th ``PLAN_PROGRESS`` gets the same key as the
    first time and is recorded once (`PatchStore.record_event`).
    """
    token = _turn_events.set((turn, Counter()))
    try:
        yield
    finally:
        _turn_events.reset(token)


def planned_entry(op: PatchOp, patch_id: str, index: int) -> NewEntry:
    """A future-dated entry marked planned."""
    name = op.exercise or "session"
    details = [SetDetail(set_num=i, weight=op.weight, reps=op.reps) for i in range(1, (op.sets or 0) + 1)]
    unit = op.unit if op.unit in ("kg", "lb") else None
    ex = ExerciseLog(name=name, sets=op.sets or 0, weight_unit=unit, set_details=details)
    summary = "planned: " + exercise_line(ex)
    return NewEntry(
        occurred_on=date.fromisoformat(op.date or ""),
        domain=op.domain,
        activity_type=op.domain,
        kind="planned",
        summary=summary,
        data={
            "activity_type": op.domain,
            "domain": op.domain,
            "exercises": [ex.model_dump(mode="json")],
            "planned": True,
            **({"purpose": op.purpose} if op.purpose else {}),
        },
        raw_text=summary,
        terms=[name],
        source="plan",
        source_key=f"{patch_id}:{index}",
    )


def corrected_data(data: dict[str, Any], op: PatchOp) -> dict[str, Any]:
    """The entry's data with the correction applied to every set it concerns (see ``correct``)."""
    return correct(data, op.exercise, op.field or "", op.old_value, op.new_value).data


class PatchStore:
    """Patches, goals and planning events in the application database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def commit(self, user_key: str, conversation: str, patch: Patch) -> CommitResult:
        """Apply every op of ``patch`` in one transaction; a second call commits nothing."""
        conn = self._db.conn
        async with self._db.lock:
            async with conn.execute("SELECT undo FROM patches WHERE patch_id = ?", (patch.patch_id,)) as cur:
                row = await cur.fetchone()
            if row is not None:
                done = json.loads(row[0])
                # Rows committed by earlier versions lack the newer keys; their defaults are empty.
                return CommitResult(patch_id=patch.patch_id, replay=True, **done)
            result = CommitResult(patch_id=patch.patch_id)
            now = _now()
            try:
                for i, op in enumerate(patch.ops):
                    await self._apply(user_key, patch.patch_id, i, op, now, result)
                keys = ("created", "superseded", "goals", "replaced_goals", "lines", "reverts", "unchanged")
                undo = {k: getattr(result, k) for k in keys}
                # A patch that changed nothing is remembered (a replay must not run it again) but never undone.
                status = "committed" if result.changed else "unchanged"
                await conn.execute(
                    "INSERT INTO patches (patch_id, user_key, conversation, ops, undo, status, committed_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (patch.patch_id, user_key, conversation, patch.model_dump_json(), json.dumps(undo), status, now),
                )
                await conn.commit()
            except BaseException:
                await conn.rollback()
                raise
        return result

    async def _apply(self, user: str, patch_id: str, i: int, op: PatchOp, now: str, result: CommitResult) -> None:
        conn = self._db.conn
        if op.op == "add_planned_session":
            entry = planned_entry(op, patch_id, i)
            await conn.execute(INSERT_SQL, insert_params(user, entry, now))
            result.created.append(entry_id_for(user, entry.source_key))
            result.lines.append(f"{entry.occurred_on.isoformat()} {entry.summary}")
            result.reverts.append(f"{entry.occurred_on.isoformat()} {entry.summary} removed")
        elif op.op == "set_goal":
            async with conn.execute(
                "SELECT id FROM goals WHERE user_key = ? AND domain = ? AND status = 'active'", (user, op.domain)
            ) as cur:
                old = [r[0] for r in await cur.fetchall()]
            await conn.executemany("UPDATE goals SET status = 'replaced' WHERE id = ?", [(g,) for g in old])
            async with conn.execute(
                "INSERT INTO goals (user_key, domain, goal, status, patch_id, set_at) VALUES (?, ?, ?, 'active', ?, ?) "
                "RETURNING id",
                (user, op.domain, op.goal or "", patch_id, now),
            ) as cur2:
                made = await cur2.fetchone()
            result.goals.append(int(made[0]) if made else 0)
            result.replaced_goals.extend(old)
            result.lines.append(f"goal ({op.domain}): {op.goal}")
            before = ""
            if old:
                marks = ",".join("?" * len(old))
                async with conn.execute(f"SELECT goal FROM goals WHERE id IN ({marks})", old) as cur:
                    before = "; ".join(r[0] for r in await cur.fetchall())
            result.reverts.append(f"goal ({op.domain}): {op.goal} back to " + (before or "no goal"))
        else:  # correct_entry
            async with conn.execute(
                f"SELECT {COLUMNS} FROM entries WHERE entry_id = ? AND user_key = ? AND status = 'active'",
                (op.entry_id, user),
            ) as cur:
                row = await cur.fetchone()
            if row is None:  # corrected, undone or forgotten since the plan was shown
                result.unchanged.append(f"the {op.exercise or 'entry'} entry shown in the plan was changed since")
                return
            original = row_to_entry(row)
            fix = correct(original.data, op.exercise, op.field or "", op.old_value, op.new_value)
            if not fix.changes_anything:
                what = f"{op.exercise or 'entry'} {op.field} {op.old_value or ''} → {op.new_value}".replace("  ", " ")
                result.unchanged.append(f"{original.occurred_on.isoformat()} {original.summary}: {what} matches no set")
                return
            summary = fix.summary or original.summary
            fixed = NewEntry(
                occurred_on=original.occurred_on,
                domain=original.domain,
                activity_type=original.activity_type,
                kind=original.kind,
                summary=summary,
                data=fix.data,
                raw_text=original.raw_text + f"\n(corrected: {op.field} {op.old_value or '?'} -> {op.new_value})",
                terms=original.terms,
                source="correction",
                source_key=f"{patch_id}:{i}",
            )
            await conn.execute(INSERT_SQL, insert_params(user, fixed, now, supersedes=original.entry_id))
            await conn.execute("UPDATE entries SET status = 'superseded' WHERE entry_id = ?", (original.entry_id,))
            result.created.append(entry_id_for(user, fixed.source_key))
            result.superseded.append(original.entry_id)
            day = original.occurred_on.isoformat()
            result.lines.append(f"{day} {original.summary} → {summary} ({fix.which_sets()})")
            result.reverts.append(f"{day} {summary} back to {original.summary}")

    async def last_committed_at(self, user_key: str) -> datetime | None:
        """When the user's latest patch still in effect was committed."""
        async with self._db.conn.execute(
            "SELECT committed_at FROM patches WHERE user_key = ? AND status = 'committed' "
            "ORDER BY committed_at DESC, rowid DESC LIMIT 1",
            (user_key,),
        ) as cur:
            row = await cur.fetchone()
        return datetime.fromisoformat(row[0]) if row is not None else None

    async def undo_last(self, user_key: str) -> tuple[str, list[str]] | None:
        """Revert the user's last committed patch; returns its id and one ``… back to …`` line per change, or None."""
        conn = self._db.conn
        async with self._db.lock:
            async with conn.execute(
                "SELECT patch_id, undo FROM patches WHERE user_key = ? AND status = 'committed' "
                "ORDER BY committed_at DESC, rowid DESC LIMIT 1",
                (user_key,),
            ) as cur:
                row = await cur.fetchone()
            if row is None:
                return None
            patch_id, undo = row[0], json.loads(row[1])
            try:
                await conn.executemany(
                    "UPDATE entries SET status = 'deleted' WHERE entry_id = ?", [(e,) for e in undo["created"]]
                )
                await conn.executemany(
                    "UPDATE entries SET status = 'active' WHERE entry_id = ?", [(e,) for e in undo["superseded"]]
                )
                await conn.executemany("UPDATE goals SET status = 'undone' WHERE id = ?", [(g,) for g in undo["goals"]])
                await conn.executemany(
                    "UPDATE goals SET status = 'active' WHERE id = ?", [(g,) for g in undo["replaced_goals"]]
                )
                await conn.execute("UPDATE patches SET status = 'undone' WHERE patch_id = ?", (patch_id,))
                await conn.commit()
            except BaseException:
                await conn.rollback()
                raise
        return patch_id, list(undo.get("reverts") or undo.get("lines", []))

    async def active_goals(self, user_key: str) -> list[tuple[str, str]]:
        async with self._db.conn.execute(
            "SELECT domain, goal FROM goals WHERE user_key = ? AND status = 'active' ORDER BY id", (user_key,)
        ) as cur:
            return [(r[0], r[1]) for r in await cur.fetchall()]

    async def forget_user(self, user_key: str) -> None:
        """Drop a user's patches, goals and planning events (``/forget``)."""
        async with self._db.lock:
            for table in ("patches", "goals", "events"):
                await self._db.conn.execute(f"DELETE FROM {table} WHERE user_key = ?", (user_key,))
            await self._db.conn.commit()

    async def record_event(self, conversation: str, user_key: str, kind: str, detail: str) -> None:
        """Record a planning event; inside `events_of_turn`, once per turn however often the turn runs."""
        scope = _turn_events.get()
        key = None
        if scope is not None:
            turn, seen = scope
            seen[kind] += 1
            key = f"{turn}:{kind}:{seen[kind]}"
        async with self._db.lock:
            await self._db.conn.execute(
                "INSERT INTO events (conversation, user_key, kind, detail, at, turn_key) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (conversation, user_key, kind, detail[:500], _now(), key),
            )
            await self._db.conn.commit()

    async def last_event_at(self, conversation: str) -> datetime | None:
        """When the conversation's latest planning event (proposed, decided, undone…) happened."""
        async with self._db.conn.execute(
            "SELECT at FROM events WHERE conversation = ? ORDER BY id DESC LIMIT 1", (conversation,)
        ) as cur:
            row = await cur.fetchone()
        return datetime.fromisoformat(row[0]) if row is not None else None

    async def events(self, conversation: str, limit: int = 20) -> list[tuple[str, str, str, str]]:
        """The newest events of a conversation, oldest first: (at, kind, user, detail)."""
        async with self._db.conn.execute(
            "SELECT at, kind, user_key, detail FROM events WHERE conversation = ? ORDER BY id DESC LIMIT ?",
            (conversation, limit),
        ) as cur:
            rows = await cur.fetchall()
        return [(r[0], r[1], r[2], r[3]) for r in reversed(list(rows))]
