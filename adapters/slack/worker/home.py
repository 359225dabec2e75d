"""Almanac's Home tab: the member's weekly summary (``/almanac summary``'s answer), published with
``views.publish`` when they open the tab and again after they log.

The summary is the engine's `summary` control, run like any read-only command (nothing recorded), asked
without its chart (a Home view shows images only from a public URL, and a refresh after every log should
not draw one). Who opened the tab is
kept in memory only: after a restart the next opening publishes again, so nothing is lost but a refresh.
"""

from __future__ import annotations

from typing import Any

import structlog
from slack_sdk.errors import SlackApiError

from adapters.common.charts import caption_text
from adapters.slack.link import LinkClosed
from adapters.slack.place import Place
from adapters.slack.send import Outbox
from adapters.slack.text import SECTION_LIMIT, as_typed, esc, split
from engine import Answer, Chart, Control, Handler, Notice, Outcome

HOME = "home"
"""The summary control's argument for the Home tab: the text only, no chart drawn (`engine.summary.command`)."""

log = structlog.get_logger("adapters.slack")
Body = dict[str, Any]
HOME_TITLE = ("Your week", "이번 주 요약")
MAX_BLOCKS = 100
"""Slack's limit of blocks in a Home view."""


def home_view(outcomes: list[Outcome], command: str) -> Body:
    """A Home view of the summary's outcomes: a header, the text in sections, a chart's caption as context."""
    korean = any(isinstance(o, Answer | Chart) and o.language == "ko" for o in outcomes)
    blocks: list[Body] = [{"type": "header", "text": {"type": "plain_text", "text": HOME_TITLE[korean]}}]
    for outcome in outcomes:
        if isinstance(outcome, Answer | Notice):
            for part in split(esc(as_typed(outcome.text, command)), SECTION_LIMIT):
                blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": part}})
        elif isinstance(outcome, Chart):
            for part in split(esc(caption_text(outcome)), SECTION_LIMIT):
                blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": part}]})
    return {"type": "home", "blocks": blocks[:MAX_BLOCKS]}


class Home:
    """Publishes members' Home tabs."""

    def __init__(self, engine: Handler, outbox: Outbox, command: str) -> None:
        self.engine, self.outbox, self.command = engine, outbox, command
        self._opened: dict[str, Place] = {}

    async def publish(self, place: Place) -> None:
        """The member's summary on their Home tab (the tab was opened, or they logged)."""
        self._opened[place.user_key] = place
        turn = Control(conversation=place.conversation, user=place.user_key, action="summary", argument=HOME)
        outcomes = await self.engine.handle(turn)
        await self.outbox.api.call("views_publish", user_id=place.user, view=home_view(outcomes, self.command))
        log.info("slack.home_published", user=place.user_key)

    async def refresh(self, user_key: str) -> None:
        """After a log: publish again for a member who opened the tab; a failure here costs only the refresh."""
        place = self._opened.get(user_key)
        if place is None:
            return
        try:
            await self.publish(place)
        except LinkClosed:
            raise
        except (SlackApiError, OSError) as exc:
            log.warning("slack.home_refresh_failed", user=user_key, error=str(exc))
