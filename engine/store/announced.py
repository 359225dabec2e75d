"""The records said to a person when they logged, kept so that each is said once ever
(:mod:`engine.store.records` reads and writes it; ``/forget`` clears it by trigger).

The primary key is the index of the one read: a person's subjects, then kind and at, grouped.
"""

SCHEMA = """
CREATE TABLE IF NOT EXISTS announced_records (
    user_key     TEXT NOT NULL,
    subject      TEXT NOT NULL,          -- the lift (canonical, lower case) or the sport
    kind         TEXT NOT NULL,          -- first | heaviest | reps_at | e1rm | volume | longest | pace
    at           TEXT NOT NULL,          -- the weight (kg) of reps_at, the distance of pace; else ''
    score        REAL NOT NULL,          -- higher is better: kg, reps, distance, or minus the pace
    entry_id     TEXT NOT NULL,          -- the entry that set it (it may since be undone)
    occurred_on  TEXT NOT NULL,
    announced_at TEXT NOT NULL,
    PRIMARY KEY (user_key, subject, kind, at, entry_id)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS announced_records_forget AFTER DELETE ON entries
WHEN NOT EXISTS (SELECT 1 FROM entries WHERE user_key = old.user_key)
BEGIN
    DELETE FROM announced_records WHERE user_key = old.user_key;
END;
"""
