"""Tables derived from entries for whole-history questions, kept in step by SQLite itself.

* ``entry_sets``: one row per logged strength set of an active parsed entry,
  with its weight in kg for comparing units, whether it was completed (reps
  above 0 and not a failure), and its estimated 1RM (Epley). Triggers on
  ``entries`` fill it on insert, rebuild an entry's rows when its status
  changes (a correction supersedes, an undo restores) and drop them on
  delete, so every write path (chat, import, plan commit) keeps it right
  without Python. Records, first and last times, counts and progressions are
  then indexed aggregates over it, never a load of the entries.
* ``entry_volumes``: one row per exercise of an entry, its working sets'
  weight × reps in kg (a session's volume), kept by triggers on ``entry_sets``,
  so the best session is one indexed row, never a sum over the history.
* ``user_exercises``: the exercises a person ever logged and in which units,
  for "my strongest lift" and for showing kg beside lb without scanning sets.
* ``entry_bouts``: one row per run or swim (distance, seconds, pace). Reading
  a duration ("25:30", "52분", "1h 5m") needs Python, so it is filled lazily by
  :mod:`engine.store.history` up to a per-user watermark; deletes clear it by
  trigger, and queries join the entry's current status.
"""

from __future__ import annotations

import aiosqlite

_LB = 0.45359237

# Rows of one entry's sets; {e} is ``new`` in a trigger, the entries alias in the backfill.
_SET_ROWS = """
SELECT {e}.rowid, {e}.entry_id, {e}.user_key, {e}.occurred_on,
       lower(trim(json_extract(ex.value, '$.name'))),
       json_extract(s.value, '$.set_num'),
       json_extract(s.value, '$.weight'),
       coalesce(json_extract(ex.value, '$.weight_unit'), ''),
       json_extract(s.value, '$.weight') * (CASE json_extract(ex.value, '$.weight_unit') WHEN 'lb' THEN {lb} ELSE 1.0 END),
       json_extract(s.value, '$.reps'),
       coalesce(json_extract(s.value, '$.kind'), 'normal'),
       (coalesce(json_extract(s.value, '$.reps'), 0) > 0 AND {not_failed}),
       CASE WHEN json_extract(s.value, '$.weight') IS NULL OR coalesce(json_extract(s.value, '$.reps'), 0) <= 0
                 OR NOT {not_failed} THEN NULL
            WHEN json_extract(s.value, '$.reps') = 1
                 THEN json_extract(s.value, '$.weight') * (CASE json_extract(ex.value, '$.weight_unit') WHEN 'lb' THEN {lb} ELSE 1.0 END)
            ELSE json_extract(s.value, '$.weight') * (CASE json_extract(ex.value, '$.weight_unit') WHEN 'lb' THEN {lb} ELSE 1.0 END)
                 * (1 + json_extract(s.value, '$.reps') / 30.0) END
FROM json_each({e}.data, '$.exercises') AS ex, json_each(ex.value, '$.set_details') AS s
WHERE {e}.status = 'active' AND {e}.kind = 'parsed'
  AND json_type(ex.value, '$.set_details') = 'array'
  AND trim(coalesce(json_extract(ex.value, '$.name'), '')) != ''
"""
# A failed attempt: kind "failure" (also as older data or other apps spell it); 0 reps is one too.
_NOT_FAILED = "lower(coalesce(json_extract(s.value, '$.kind'), '')) NOT IN ('failure', 'failed', 'f')"
_COLUMNS = "entry_rowid, entry_id, user_key, occurred_on, exercise, set_num, weight, unit, weight_kg, reps, kind, done, e1rm_kg"
_INSERT = f"INSERT INTO entry_sets ({_COLUMNS}) " + _SET_ROWS.format(e="new", lb=_LB, not_failed=_NOT_FAILED) + ";"
_EXERCISES = (
    "INSERT OR IGNORE INTO user_exercises (user_key, exercise, unit) "
    "SELECT DISTINCT user_key, exercise, unit FROM entry_sets WHERE entry_rowid = new.rowid;"
)

WORK_SET = "done = 1 AND kind != 'warmup'"
"""A working set, the one reading every record, chart, stall and history answer counts: completed (reps above
0, not a failed attempt) and not a warm-up. Drop sets count. Planned sessions never reach ``entry_sets``."""


def work_set(alias: str = "") -> str:
    """`WORK_SET` for a table named ``alias`` in a query (``work_set("s")``: ``s.done = 1 AND s.kind …``)."""
    return WORK_SET if not alias else f"{alias}.done = 1 AND {alias}.kind != 'warmup'"


SCHEMA = f"""
CREATE TABLE IF NOT EXISTS entry_sets (
    id           INTEGER PRIMARY KEY,
    entry_rowid  INTEGER NOT NULL,
    entry_id     TEXT NOT NULL,
    user_key     TEXT NOT NULL,
    occurred_on  TEXT NOT NULL,
    exercise     TEXT NOT NULL,          -- canonical name, lower case
    set_num      INTEGER,
    weight       REAL,                   -- as logged; NULL for bodyweight
    unit         TEXT NOT NULL,          -- kg | lb | '' (bodyweight or unknown)
    weight_kg    REAL,                   -- for ordering across units
    reps         INTEGER,
    kind         TEXT NOT NULL,          -- normal | warmup | drop | failure
    done         INTEGER NOT NULL,       -- 1: completed (reps > 0, not a failure)
    e1rm_kg      REAL                    -- Epley, completed weighted sets only
);
CREATE INDEX IF NOT EXISTS entry_sets_entry ON entry_sets (entry_rowid);
CREATE INDEX IF NOT EXISTS entry_sets_top ON entry_sets (user_key, exercise, done, weight_kg DESC, reps DESC, occurred_on);
CREATE INDEX IF NOT EXISTS entry_sets_e1rm ON entry_sets (user_key, exercise, e1rm_kg DESC, occurred_on)
    WHERE e1rm_kg IS NOT NULL;
CREATE INDEX IF NOT EXISTS entry_sets_day ON entry_sets (user_key, exercise, occurred_on, done, weight_kg);
CREATE TABLE IF NOT EXISTS user_exercises (
    user_key     TEXT NOT NULL,
    exercise     TEXT NOT NULL,
    unit         TEXT NOT NULL,          -- each unit it was ever logged in ('' for bodyweight)
    PRIMARY KEY (user_key, exercise, unit)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS entry_volumes (
    entry_id     TEXT NOT NULL,
    exercise     TEXT NOT NULL,
    user_key     TEXT NOT NULL,
    occurred_on  TEXT NOT NULL,
    volume_kg    REAL NOT NULL,          -- weight_kg x reps of the entry's working sets (done, not warm-ups)
    PRIMARY KEY (entry_id, exercise)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS entry_volumes_best ON entry_volumes (user_key, exercise, volume_kg DESC, occurred_on);
CREATE TRIGGER IF NOT EXISTS entry_volumes_ai AFTER INSERT ON entry_sets
WHEN {work_set("new")} AND new.weight_kg IS NOT NULL
BEGIN
    INSERT INTO entry_volumes (entry_id, exercise, user_key, occurred_on, volume_kg)
    VALUES (new.entry_id, new.exercise, new.user_key, new.occurred_on, new.weight_kg * new.reps)
    ON CONFLICT (entry_id, exercise) DO UPDATE SET volume_kg = volume_kg + excluded.volume_kg;
END;
-- An entry's sets always leave together (its status changed, or it was deleted).
CREATE TRIGGER IF NOT EXISTS entry_volumes_ad AFTER DELETE ON entry_sets
BEGIN
    DELETE FROM entry_volumes WHERE entry_id = old.entry_id AND exercise = old.exercise;
END;
CREATE TABLE IF NOT EXISTS entry_bouts (
    entry_id     TEXT PRIMARY KEY,
    user_key     TEXT NOT NULL,
    occurred_on  TEXT NOT NULL,
    sport        TEXT NOT NULL,          -- the domain (one whose file has a [bout])
    kind         TEXT NOT NULL,          -- run type or stroke
    distance     REAL,                   -- km (runs) or m (swims)
    seconds      REAL,
    pace         REAL                    -- seconds per km or per 100 m
);
CREATE INDEX IF NOT EXISTS entry_bouts_distance ON entry_bouts (user_key, sport, distance DESC, occurred_on);
CREATE INDEX IF NOT EXISTS entry_bouts_pace ON entry_bouts (user_key, sport, pace, occurred_on) WHERE pace IS NOT NULL;
CREATE TABLE IF NOT EXISTS derived_sync (
    user_key     TEXT PRIMARY KEY,
    bouts_rowid  INTEGER NOT NULL        -- entries up to this rowid are in entry_bouts
);
CREATE INDEX IF NOT EXISTS entries_user_domain ON entries (user_key, domain);
-- Training days in a period without reading the rows (the index holds kind and domain).
CREATE INDEX IF NOT EXISTS entries_user_days ON entries (user_key, status, kind, occurred_on, domain);
CREATE TRIGGER IF NOT EXISTS entry_sets_ai AFTER INSERT ON entries
WHEN new.status = 'active' AND new.kind = 'parsed'
BEGIN
    {_INSERT}
    {_EXERCISES}
END;
CREATE TRIGGER IF NOT EXISTS entry_sets_au AFTER UPDATE OF status ON entries
WHEN old.status IS NOT new.status
BEGIN
    DELETE FROM entry_sets WHERE entry_rowid = new.rowid;
    {_INSERT}
    {_EXERCISES}
END;
CREATE TRIGGER IF NOT EXISTS entry_sets_ad AFTER DELETE ON entries
BEGIN
    DELETE FROM entry_sets WHERE entry_rowid = old.rowid;
    DELETE FROM entry_bouts WHERE entry_id = old.entry_id;
    -- Forgotten means forgotten: nothing derived outlives the person's last entry.
    DELETE FROM user_exercises WHERE user_key = old.user_key
        AND NOT EXISTS (SELECT 1 FROM entries WHERE user_key = old.user_key);
    DELETE FROM derived_sync WHERE user_key = old.user_key;
END;
"""

BACKFILL = f"INSERT INTO entry_sets ({_COLUMNS}) " + _SET_ROWS.format(e="e", lb=_LB, not_failed=_NOT_FAILED).replace(
    "FROM json_each(e.data", "FROM entries AS e, json_each(e.data"
)

# Made from entry_sets once, for a database whose entry_sets came before entry_volumes.
VOLUMES_BACKFILL = (
    "INSERT OR IGNORE INTO entry_volumes (entry_id, exercise, user_key, occurred_on, volume_kg) "
    "SELECT entry_id, exercise, user_key, min(occurred_on), sum(weight_kg * reps) FROM entry_sets "
    f"WHERE {WORK_SET} AND weight_kg IS NOT NULL GROUP BY entry_id, exercise"
)


async def migrate(conn: aiosqlite.Connection) -> None:
    """Create the derived tables; fill ``entry_sets`` once for a database made before them."""
    async with conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'entry_sets'") as cur:
        existed = await cur.fetchone() is not None
    async with conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'entry_volumes'") as cur:
        volumes = await cur.fetchone() is not None
    await conn.executescript(SCHEMA)
    if existed and not volumes:
        await conn.execute(VOLUMES_BACKFILL)
    if not existed:
        await conn.execute(BACKFILL)
        await conn.execute(
            "INSERT OR IGNORE INTO user_exercises SELECT DISTINCT user_key, exercise, unit FROM entry_sets"
        )
    await conn.commit()
