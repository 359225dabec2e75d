"""What the Telegram adapter itself says (HTML), and the command menu."""

from __future__ import annotations

COMMANDS: list[tuple[str, str]] = [
    ("start", "What Almanac does and what it keeps"),
    ("help", "How to use Almanac"),
    ("log", "Log a workout: /log bench 55kg 10x5"),
    ("ask", "Ask about your training"),
    ("cancel", "Drop the open question or plan"),
    ("reset", "Start a fresh conversation (entries are kept)"),
    ("retry", "Run again a message that failed"),
    ("status", "Show the open question or plan"),
    ("undo", "Undo the last approved change"),
    ("history", "What was planned, decided and changed here"),
    ("next", "Next session's target for a lift: /next bench"),
    ("chart", "A progress chart: /chart bench 6 months"),
    ("summary", "Last week's summary; /summary weekly on for every week"),
    ("quiet", "No nudges about unlogged planned sessions"),
    ("remind", "A reminder: /remind in 10m stretch"),
    ("reminders", "Your reminders, with Done / Snooze / Delete"),
    ("timezone", "Set your time zone: /timezone Asia/Seoul"),
    ("export", "Download your entries as a CSV file"),
    ("forget", "Delete all your entries and this conversation"),
]
"""Registered with setMyCommands at start-up, in menu order."""

HELP = """\
Write what you did, in your own words: <i>bench 55kg 10x5</i>, <i>어제 스쿼트 100키로 5x5</i>, <i>5k in 25:30</i>.
Ask about it: <i>is my bench better than last week?</i>
When I am not sure, I ask — tap a choice or just type the answer.
Plans and corrections change nothing until you tap Approve.
In a group, mention me or reply to me; everyone's entries stay their own.

/log <i>text</i> — log this
/ask <i>question</i> — ask about your training
/cancel — drop the open question or plan
/reset — start a fresh conversation (entries are kept)
/retry — run again a message that failed
/status — show the open question or plan again
/undo — undo the last approved change
/history — what was planned, decided and changed here
/next <i>lift</i> — the next session's sets, reps and weight, from your log
/chart <i>lift or measure</i> [<i>period</i>] — a progress chart: /chart bench, /chart volume 3 months, /chart running, /chart bodyweight, /chart days
/summary — last week's summary; /summary weekly on [<i>day</i>] [<i>hour</i>] every week (Monday 08:00), /summary weekly off
/quiet — no nudges about unlogged planned sessions (/quiet off, /quiet behind: only when behind the plan)
/remind <i>when what</i> — a reminder: /remind in 10m stretch, /remind at 18:30 gym, /remind every Monday 7:00 leg day
/reminders — your reminders, with Done / Snooze 1h / Delete
/timezone <i>Area/City</i> — your time zone, so “yesterday” and reminders mean yours
/export — your entries as a CSV file
/forget — delete all your entries and this conversation"""

START = f"""\
<b>Almanac</b> keeps your training log and answers questions about it.

<b>What it keeps:</b> the entries you log (what, when, how much), the messages you send it, and \
the state of this conversation — on the server of whoever runs this Almanac, with its own language model. \
Your entries are yours alone, also in groups.
<b>How to delete it:</b> /export downloads your entries; /forget deletes all of them and this conversation.

{HELP}"""

APOLOGY = "Sorry, something went wrong on my side. It is logged; please try again in a moment."
"""Only for a turn that did not run: one that ran gets `adapters.common.reply_not_shown` instead."""


REFUSAL = "Sorry, this Almanac is private: it only talks to the people its owner allowed."
NOT_YOURS = "Only the person who was asked can answer that."
ALREADY = "That was already answered."
BROKEN_BUTTON = "This button no longer works."
QUEUED = "Got it: right after the current message."
FORGET_CONFIRM = (
    "<b>Delete everything Almanac keeps about you?</b>\n"
    "All your entries and this conversation are deleted for good. /export first if you want a copy."
)
FORGET_EXPIRED = "This confirmation has expired; send /forget again."
EXPORT_SENT_PRIVATELY = "Sent to you in a private chat, so your log stays yours."


def export_private_first(username: str) -> str:
    """The hint when a group member's export cannot reach them privately."""
    return (
        f"Your export goes to you privately, not into the group: open a chat with @{username}, "
        "press Start, then send /export again (here or there)."
    )


ATTACHMENT_HINT = "I read text only: tell me in words what you did, e.g. <i>bench 55kg 10x5</i>."


def usage(command: str) -> str:
    """A one-line hint for a command that needs an argument."""
    examples = {
        "log": "/log bench 55kg 10x5",
        "ask": "/ask is my bench better than last week?",
        "timezone": "/timezone Asia/Seoul",
        "next": "/next bench",
        "remind": "/remind in 10m stretch",
    }
    return f"Usage: <code>{examples[command]}</code>"


def unknown(command: str) -> str:
    """The hint for a command Almanac does not know (the name is escaped by the caller)."""
    return f"I don't know /{command}. /help lists what I understand."
