"""Who asked for the weekly summary and nudges, and what was sent (:mod:`engine.summary.prefs` reads and
writes them; the tables are made here so that :class:`engine.store.db.Database` makes every table).

``next_due`` is the one thing the scheduler scans: the partial index holds only the rows that are on.
A claim row (``summary_sent`` keyed by person and week, ``nudge_sent`` by person and planned entry) is
inserted in the transaction that advances ``next_due``, so a summary or nudge is claimed once ever.
"""

SCHEMA = """
CREATE TABLE IF NOT EXISTS summary_prefs (
    user_key     TEXT PRIMARY KEY,
    conversation TEXT NOT NULL,          -- where the summary and nudges go: where they were turned on
    weekly       INTEGER NOT NULL DEFAULT 0,
    weekday      INTEGER NOT NULL DEFAULT 0,  -- 0 = Monday
    at           TEXT NOT NULL DEFAULT '08:00',  -- wall-clock time in tz
    tz           TEXT NOT NULL DEFAULT 'UTC',
    language     TEXT NOT NULL DEFAULT 'en',
    next_due     TEXT,                   -- UTC instant (ISO); NULL while the weekly summary is off
    nudges       TEXT NOT NULL DEFAULT 'on',  -- on | off (/quiet) | behind (only when behind the plan)
    updated_at   TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS summary_prefs_due ON summary_prefs (next_due) WHERE next_due IS NOT NULL;
CREATE TABLE IF NOT EXISTS summary_sent (
    user_key     TEXT NOT NULL,
    week_start   TEXT NOT NULL,          -- the Monday of the week summarised
    claimed_at   TEXT NOT NULL,
    PRIMARY KEY (user_key, week_start)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS nudge_sent (
    user_key     TEXT NOT NULL,
    entry_id     TEXT NOT NULL,          -- the planned entry nudged about
    claimed_at   TEXT NOT NULL,
    PRIMARY KEY (user_key, entry_id)
) WITHOUT ROWID;
"""
