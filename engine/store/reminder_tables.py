"""The reminder tables: ``engine.store.db`` creates them, `engine.reminders.store` reads and writes them."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS reminders (
    id           INTEGER PRIMARY KEY,
    user_key     TEXT NOT NULL,
    conversation TEXT NOT NULL,          -- where it is sent: the conversation it was made in
    what         TEXT NOT NULL,
    schedule     TEXT NOT NULL,          -- JSON of engine.reminders.schedule.Schedule
    next_due     TEXT,                   -- UTC stamp; NULL when nothing is ahead
    status       TEXT NOT NULL,          -- proposed | active | done | deleted
    language     TEXT NOT NULL DEFAULT 'en',
    created_at   TEXT NOT NULL,
    last_fired   TEXT
);
CREATE INDEX IF NOT EXISTS reminders_due ON reminders (next_due) WHERE status = 'active';
CREATE INDEX IF NOT EXISTS reminders_user ON reminders (user_key, status);
CREATE TABLE IF NOT EXISTS reminder_sends (
    reminder_id  INTEGER NOT NULL,
    due          TEXT NOT NULL,          -- the occurrence's UTC stamp
    user_key     TEXT NOT NULL,
    status       TEXT NOT NULL,          -- claimed | sent | missed
    late         INTEGER NOT NULL DEFAULT 0,
    answer       TEXT,                   -- done | snoozed: a button on the sent message was pressed
    shown        INTEGER NOT NULL DEFAULT 0,  -- a missed one was listed to the person
    claimed_at   TEXT NOT NULL,
    sent_at      TEXT,
    PRIMARY KEY (reminder_id, due)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS reminder_sends_claimed ON reminder_sends (due) WHERE status = 'claimed';
CREATE INDEX IF NOT EXISTS reminder_sends_missed ON reminder_sends (user_key) WHERE status = 'missed' AND shown = 0;
CREATE INDEX IF NOT EXISTS reminder_sends_user ON reminder_sends (user_key);
-- Messages sent first other than reminders (engine/reminders/outbox.py): summaries, nudges, planned days.

CREATE TABLE IF NOT EXISTS outbox (
    id           INTEGER PRIMARY KEY,
    key          TEXT NOT NULL UNIQUE,   -- the occasion: summary:<user>:<week>, nudge:…, planned:<user>:<day>
    user_key     TEXT NOT NULL,
    conversation TEXT NOT NULL,
    platform     TEXT NOT NULL,          -- the conversation key's prefix (tg, slack, console)
    outcomes     TEXT NOT NULL,          -- JSON list of engine.outcomes.Outcome
    due_at       TEXT NOT NULL,          -- UTC stamp: when it was due (the grace is counted from it)
    status       TEXT NOT NULL,          -- claimed | sent | missed
    sent_at      TEXT
);
CREATE INDEX IF NOT EXISTS outbox_claimed ON outbox (platform, due_at) WHERE status = 'claimed';
CREATE INDEX IF NOT EXISTS outbox_user ON outbox (user_key);
"""
