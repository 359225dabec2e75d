"""What the Slack adapter itself says (mrkdwn), apart from the engine's outcomes."""

from __future__ import annotations

from collections.abc import Collection

from adapters import common


def help_text(command: str) -> str:
    """The help shown (privately) for ``/almanac`` and ``/almanac help``."""
    return f"""\
*Almanac* keeps your training log and answers questions about it. Your entries are yours alone, also in channels.
Write what you did in your own words — `{command} bench 55kg 10x5`, `{command} 어제 스쿼트 100키로 5x5` — \
or mention me in a channel, or write to me directly. I answer in a thread; reply there without mentioning me.
When I am not sure, I ask: press a choice or reply in the thread. Plans change nothing until you press Approve.

`{command} log <text>` — log this
`{command} ask <question>` — ask about your training
`{command} status` — show your open question or plan again
`{command} cancel` — drop your open question or plan
`{command} reset` — start a fresh conversation here (entries are kept)
`{command} retry` — run again a message that failed
`{command} undo` — undo the last approved change
`{command} history` — what was planned, decided and changed
`{command} next <lift>` — the next session's sets, reps and weight, from your log
`{command} chart <lift or measure> [period]` — a progress chart, sent to you privately (`chart bench 6 months`, `chart volume`, `chart running`, `chart days`); ask in a thread ("show my bench progress") to get it there
`{command} summary` — last week's summary; `summary weekly on [day] [hour]` sends it every week (Monday 08:00 by default), `summary weekly off` stops it; also on Almanac's Home tab
`{command} quiet` — no nudges about planned sessions you have not logged (`quiet off`: back on; `quiet behind`: only when behind your plan)
`{command} timezone <Area/City>` — your time zone, so "yesterday" means yours
`{command} export` — your entries as a CSV file, sent to you privately (`json`, `strong`: Strong's CSV)
`{command} forget` — delete all your entries (asks first)"""


def usage(command: str, sub: str) -> str:
    """A one-line hint for a subcommand that needs an argument."""
    examples = {
        "log": "log bench 55kg 10x5",
        "ask": "ask is my bench better than last week?",
        "timezone": "timezone Asia/Seoul",
        "next": "next bench",
    }
    return f"Usage: `{command} {examples.get(sub, sub)}`"


REFUSAL = "Sorry, this Almanac is private: it only talks to the people its owner allowed."
NOT_YOURS = "Only the person who was asked can answer that."
ALREADY = "That was already answered."
BROKEN_BUTTON = "This button no longer works."
EMPTY_FEEDBACK = "Say what should change — or close this and press Cancel on the plan."
REVISE_BY_PRESS = (
    "To revise the plan, press Revise on it, or type revise and what should change (e.g. “revise smaller jumps”)."
)
"""Said to a bare typed "revise" (plain text: it goes out as a `Notice`)."""
APOLOGY = "Sorry, something went wrong on my side. It is logged; please try again in a moment."
"""Only for a job whose turn did not run: one that ran gets `reply_not_shown` instead."""
EXPORT_SENT = "Your export is in your direct messages with me."
FORGET_DELETING = "Deleting everything…"


def reply_not_shown(kinds: Collection[str], command: str) -> str:
    """`adapters.common.reply_not_shown` with commands as typed in Slack (`` `/almanac retry` ``)."""
    return common.reply_not_shown(kinds, command=lambda name: f"`{command} {name}`")
