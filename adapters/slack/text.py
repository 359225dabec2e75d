"""Text for Slack: mrkdwn escaping, commands as typed in Slack, and splitting long text at natural boundaries.

Pure functions, no Slack client. Slack's limits are counted in characters:
one ``markdown`` block may hold about 12,000 (cumulative per message), a
``section``'s or a context element's text 3,000.
"""

from __future__ import annotations

import re

from adapters.common.commands import ALIASES, CONTROLS, MESSAGE_COMMANDS, OWN

MARKDOWN_LIMIT = 12_000
"""Characters of ``markdown`` block text in one message (Slack's cumulative limit)."""
SECTION_LIMIT = 3_000
"""Characters in one ``section`` text or context element."""


def esc(text: str) -> str:
    """Escape engine text for mrkdwn: only ``&``, ``<`` and ``>`` are control characters there.

    Without it, ``<!channel>`` in a log line would ping a whole channel and
    ``<https://x|y>`` would become a disguised link.
    """
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


COMMAND = "/almanac"
"""The slash command unless the settings name another (``SLACK_COMMAND``)."""
_COMMAND_WORD = re.compile(
    r"(?<![^\s(\[{\"'“‘`])"  # at the start, or after a space, an opening bracket or quote: not in a URL or word
    r"/(" + "|".join(sorted({*CONTROLS, *ALIASES, *MESSAGE_COMMANDS, *OWN}, key=len, reverse=True)) + r")"
    r"(?![\w/@-])(?!\.\w)"  # the whole word: not /retrying, /retry/x, /retry.html
)


def as_typed(text: str, command: str = COMMAND) -> str:
    """Engine text with its command mentions as a person types them in Slack: ``/retry`` → ``/almanac retry``.

    The engine names commands the way most platforms type them (``send /retry``); in Slack every
    command is a word after the one slash command. Only a command of the command map
    (`adapters.common.commands`) standing as a word is rewritten, never a path in a URL.
    """
    slash = command if command.startswith("/") else f"/{command}"
    return _COMMAND_WORD.sub(lambda m: f"{slash} {m.group(1)}", text)


def split(text: str, limit: int) -> list[str]:
    """Cut ``text`` into parts of at most ``limit`` characters.

    Cuts fall between paragraphs where possible, else between lines, else
    after a space; only a single word longer than ``limit`` is cut inside.
    Joining the parts with the separator that was cut at gives the text back.
    """
    if len(text) <= limit:
        return [text]
    parts: list[str] = []
    rest = text
    while len(rest) > limit:
        cut, skip = _cut(rest, limit)
        parts.append(rest[:cut])
        rest = rest[cut + skip :]
    if rest:
        parts.append(rest)
    return parts


def _cut(text: str, limit: int) -> tuple[int, int]:
    """Where to cut (the first part's length) and how many separator characters to drop."""
    for sep in ("\n\n", "\n", " "):
        at = text.rfind(sep, 0, limit + len(sep))  # the separator may end just past the limit
        if 0 < at <= limit:
            return at, len(sep)
    return limit, 0


def shorten(text: str, limit: int) -> str:
    """``text`` on one line, cut with an ellipsis to fit ``limit`` characters (button labels, previews)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
