"""Web API calls that put things on screen: posts in threads, ephemeral notes, edits, files.

Calls go through `adapters.slack.api` (made in the gateway process, whose
client retries 429s and dropped connections: see
`adapters.slack.gateway.setup.web_client`); what reaches here as a ``SlackApiError``
is a real refusal. Where Almanac is not in the channel, a
slash command's ``response_url`` carries the answer instead.

A reply is worth more than the client's three waits: one that Slack still
refuses with 429 (`RateLimited`) is kept and sent when Slack allows it, for
up to ``keep_s`` after it was first tried, so that a busy workspace gets its
answers late rather than not at all. The wait happens inside the
conversation's job, so later replies in the thread wait behind it and the
order stays. Signs of work (reactions) are never kept.
"""

from __future__ import annotations

import asyncio
from typing import Any

import structlog
from slack_sdk.errors import SlackApiError

from adapters.common.budget import Budget
from adapters.common.charts import cut, filename
from adapters.slack.api import Data, RateLimited, SlackApi
from adapters.slack.link import CallFailed
from adapters.slack.place import Place
from adapters.slack.render import SlackMessage
from adapters.slack.text import esc
from engine import Chart, Document

log = structlog.get_logger("adapters.slack")

ALT_LIMIT = 1000
"""Slack's limit for a file's ``alt_txt``, in characters."""
NOT_MEMBER = frozenset({"not_in_channel", "channel_not_found", "is_archived"})
"""Errors that mean: Almanac cannot post here (answer through the response URL instead)."""


class Outbox:
    """Sends what the person should see.

    Args:
        api: the Web API (here, or through the gateway).
        budget: shared by optional calls (progress reactions); replies never wait for it.
        keep_s: how long a reply that Slack rate-limits is kept and sent again when ``Retry-After``
            allows, counted from its first try; 0 gives up after the client's own retries.
    """

    def __init__(self, api: SlackApi, budget: Budget, keep_s: float = 0.0) -> None:
        self.api = api
        self.budget = budget
        self.keep_s = keep_s

    async def _send(self, method: str, **args: Any) -> Data:
        """``api.call`` for what the person should see: kept through rate limits for up to ``keep_s``.

        Raises:
            RateLimited: the next wait would end more than ``keep_s`` after the first try.
        """
        loop = asyncio.get_running_loop()
        until = loop.time() + self.keep_s
        while True:
            try:
                return await self.api.call(method, **args)
            except RateLimited as exc:
                if loop.time() + exc.retry_after > until:
                    raise
                log.warning("slack.reply_kept", method=method, channel=args.get("channel"), wait_s=exc.retry_after)
                await asyncio.sleep(exc.retry_after)

    async def post(self, place: Place, message: SlackMessage) -> str | None:
        """Post in the place's thread (or top level of a DM); the new message's ts.

        Returns None when the message went through the response URL instead
        (Almanac is not in the channel): it cannot be edited later.
        """
        if place.response_url is None or place.thread_ts is not None or place.dm:
            try:
                sent = await self._send(
                    "chat_postMessage",
                    channel=place.channel,
                    thread_ts=place.thread_ts,
                    text=message.text,
                    blocks=message.blocks,
                )
                return str(sent["ts"])
            except SlackApiError as exc:
                if place.response_url is None or exc.response.get("error") not in NOT_MEMBER:
                    raise
        await self.respond(place, message)
        return None

    async def start_thread(self, place: Place, text: str) -> str | None:
        """Post the top-level message a slash command's thread hangs from; None if Almanac is not in the channel."""
        try:
            sent = await self._send("chat_postMessage", channel=place.channel, text=text)
        except SlackApiError as exc:
            if exc.response.get("error") in NOT_MEMBER:
                return None
            raise
        return str(sent["ts"])

    async def ephemeral(self, place: Place, message: SlackMessage) -> None:
        """A note only this member sees, in the channel (and thread) of the place."""
        if place.response_url is not None and not place.dm:
            await self.respond(place, message)
            return
        try:
            await self._send(
                "chat_postEphemeral",
                channel=place.channel,
                user=place.user,
                thread_ts=place.thread_ts,
                text=message.text,
                blocks=message.blocks,
            )
        except SlackApiError as exc:
            if exc.response.get("error") not in NOT_MEMBER:
                raise
            log.info("slack.ephemeral_undeliverable", channel=place.channel, reason=exc.response.get("error"))

    async def respond(self, place: Place, message: SlackMessage, **extra: Any) -> None:
        """Answer through the response URL (ephemeral unless told otherwise)."""
        assert place.response_url is not None
        await self.api.respond(
            place.response_url, text=message.text, blocks=message.blocks, response_type="ephemeral", **extra
        )

    async def update(self, channel: str, ts: str, message: SlackMessage) -> None:
        """Replace a message's text and blocks (a question or plan after its decision)."""
        await self._send("chat_update", channel=channel, ts=ts, text=message.text, blocks=message.blocks)

    async def _dm(self, place: Place) -> str:
        """The member's direct-message channel with Almanac."""
        if place.dm:
            return place.channel
        opened = await self._send("conversations_open", users=place.user)
        return str(opened["channel"]["id"])

    async def send_privately(self, place: Place, document: Document) -> None:
        """Upload a file to the member's direct messages with Almanac (never into a shared channel)."""
        channel = await self._dm(place)
        await self._send(
            "files_upload_v2",
            channel=channel,
            filename=document.filename,
            title=document.filename,
            content=document.content,  # text: it crosses the pipe as JSON (LocalApi encodes it)
            initial_comment=esc(document.caption) or None,  # parsed as a message's text
            thread_ts=place.thread_ts if place.dm else None,
        )

    async def upload_chart(self, place: Place, chart: Chart, png_base64: str, privately: bool = False) -> None:
        """Upload a chart's PNG into the place's thread (the answer's place), or to the member's DMs.

        ``files_upload_v2``: ``files.getUploadURLExternal`` (name, length, alt text), the bytes to the
        URL it returns, then ``files.completeUploadExternal`` (title, channel, thread, the caption as
        its comment). Kept through rate limits like any reply; a refusal after those is raised
        (``not_in_channel`` among them: the caller decides where it goes instead).

        Args:
            png_base64: the picture, as base64 text (it may cross the pipe to the gateway, as JSON).
            privately: to the member's direct messages instead (a chart asked for privately).
        """
        channel, thread_ts = place.channel, place.thread_ts
        if privately and not place.dm:
            channel, thread_ts = await self._dm(place), None
        await self._send(
            "files_upload_v2",
            channel=channel,
            thread_ts=thread_ts,
            filename=filename(chart),
            title=chart.title,
            alt_txt=cut(chart.alt, ALT_LIMIT) or None,
            content_base64=png_base64,
            initial_comment=esc(chart.caption) or None,  # parsed as a message's text
        )

    async def react(self, channel: str, ts: str, name: str, add: bool = True) -> None:
        """Add or remove a reaction; a sign of work, so failures only get logged (the gateway's too).

        The ✅ goes on after ``engine.handle`` returned: were its failure to escape, a turn that
        was done would end in "please try again".
        """
        try:
            if add:
                await self.api.call("reactions_add", channel=channel, timestamp=ts, name=name)
            else:
                await self.api.call("reactions_remove", channel=channel, timestamp=ts, name=name)
        except SlackApiError as exc:
            log.info("slack.reaction_failed", name=name, reason=exc.response.get("error"))
        except CallFailed as exc:
            log.info("slack.reaction_failed", name=name, reason=str(exc))
