"""Errors every adapter shares: the one the runner reports, and the one for a turn whose reply was lost.

- `SetupError` — the platform refused to start.
- `ReplyNotShown`, `after_the_turn`, `reply_not_shown` — the engine handled a
  turn (what it logged is stored) but its reply did not all reach the chat:
  the person hears so, never "please try again", which would do it twice.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager

from engine import Outcome


class SetupError(Exception):
    """The platform will not let the bot start: a rejected token, an unreachable API.

    ``bot/runner.py`` turns it into one line on stderr and exit code 2, with
    secrets masked; its message says what to fix (``Telegram rejected
    TELEGRAM_BOT_TOKEN; copy it again from @BotFather``). Anything else that
    escapes an adapter is a bug and keeps its traceback.
    """


class ReplyNotShown(Exception):
    """The engine handled the turn (what it logged is stored) but its reply did not all reach the chat.

    Raised from the error that stopped the reply (``__cause__``), so that the
    person hears their message was handled instead of "please try again":
    trying again would do it twice.
    """

    def __init__(self, kinds: Sequence[str]) -> None:
        super().__init__(f"reply not shown: {', '.join(kinds)}")
        self.kinds = list(kinds)
        """The kinds of the turn's outcomes (``logged``, ``answer``, ``ask``, …)."""


@contextmanager
def after_the_turn(outcomes: Sequence[Outcome], passing: tuple[type[Exception], ...] = ()) -> Iterator[None]:
    """Around what follows ``engine.handle``: a failure there becomes `ReplyNotShown`.

    Args:
        outcomes: what the engine returned for the turn.
        passing: errors that go through unchanged, because the adapter deals with them otherwise
            (Slack: the gateway is gone, so the delivery stays pending and runs again at the next start).
    """
    try:
        yield
    except ReplyNotShown:
        raise
    except passing:
        raise
    except Exception as exc:
        raise ReplyNotShown([o.kind for o in outcomes]) from exc


def _slash(name: str) -> str:
    return f"/{name}"


def reply_not_shown(kinds: Collection[str], command: Callable[[str], str] = _slash) -> str:
    """What the person hears instead of an apology when the turn ran but its reply could not be shown.

    Never "try again" for what was done. Plain text: the adapter escapes it for its markup.

    Args:
        kinds: the kinds of the outcomes that were not all shown (``logged``, ``ask``, ``failure``, …).
        command: how the platform writes a command by its name (``retry`` → ``/retry``, on Slack
            ``/almanac retry``).
    """
    done = "Your entry is saved" if "logged" in kinds else "I handled your message"
    text = f"{done}, so there is no need to send it again — but my reply to it did not get through."
    if "failure" in kinds:
        text += f" It did not complete: {command('retry')} runs it again."
    elif {"ask", "approval"} & set(kinds):
        text += f" {command('status')} shows my question."
    elif "chart" in kinds:  # drawing it again changes nothing that is stored
        text += " Ask for the chart again to see it."
    return text
