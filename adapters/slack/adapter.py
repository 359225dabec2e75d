"""Slack adapter: events in, ``engine.handle(...)``, outcomes out (ARCHITECTURE §6–7).

How a request travels:

1. bolt checks the signature and timestamp (HTTP mode) and calls a listener
   below. The app runs with ``process_before_response``: Slack's 200 (or
   the Socket Mode ack) goes out when the listener returns, so whatever the
   listener wrote is on disk *before* Slack learns the request arrived. Each
   listener does only quick things: ``ack()``, one durable write of the
   de-duplication keys and the intake row (`SlackStore.accept`), ``views.open``
   for Revise, and putting a job in its conversation's queue. The model never
   runs before the ack.
2. The job runs in the conversation's queue (`ChatQueues`): one turn at a time
   per conversation, conversations concurrently (`Requests`, `Turns`, `Presses`).
3. A crash between the ack and the end of a turn leaves the intake row
   pending; `SlackAdapter.recover` runs those again at start-up, in order.

Never dropped for ``X-Slack-Retry-Num`` alone: a retry whose original never
arrived is the only copy. Duplicates are recognised by ``event_id`` and by
``(team, channel, ts)``, which also catches the ``app_mention`` twin of a
``message``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from datetime import datetime, timezone
from typing import Any

import structlog
from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from adapters.common import (
    CONFIRM_FIRST,
    CONTROLS,
    MESSAGE_COMMANDS,
    NEEDS_ARGUMENT,
    Budget,
    ChatQueues,
    Recent,
    command_name,
)
from adapters.slack import texts
from adapters.slack.actions import ACTION_PATTERN
from adapters.slack.place import Place
from adapters.slack.presses import REVISE_CALLBACK, Presses
from adapters.slack.render import forget_confirmation, plain
from adapters.slack.requests import Requests
from adapters.slack.send import Outbox
from adapters.slack.store import SlackStore, Thread
from adapters.slack.turns import Turns
from engine import Handler

log = structlog.get_logger("adapters.slack")
Body = dict[str, Any]
Job = Callable[[], Awaitable[None]]
PERSON_SUBTYPES = (None, "thread_broadcast", "file_share")
"""Message subtypes that are a person writing; edits, deletes, joins and bots' posts are not."""


class SlackAdapter:
    """Maps slash commands, mentions, DMs, thread replies and presses onto engine turns.

    Args:
        engine: anything with ``handle(turn, progress)``.
        store: the adapter's durable state (``slack.db``).
        client: the Web API client (base URL and retry handlers set).
        command: the slash command's name, e.g. ``/almanac``.
        allowed_teams: workspace ids allowed; empty = any.
        allowed_users: member ids allowed (``U…`` or ``slack:<team>:U…``); empty = everyone.
        eyes_after: seconds before 👀 shows on a slow turn.
        signs_per_second: slow turns per second that get 👀/✅, across conversations; beyond that they
            are skipped (replies never are). ``reactions.add`` is a Tier 3 method, about 50 a minute.
    """

    def __init__(
        self,
        engine: Handler,
        store: SlackStore,
        client: AsyncWebClient,
        *,
        command: str = "/almanac",
        allowed_teams: Iterable[str] = (),
        allowed_users: Iterable[str] = (),
        eyes_after: float = 1.0,
        signs_per_second: float = 0.8,
    ) -> None:
        self.store = store
        # Turns run on the loop that built the adapter; listeners may run on another (the intake's).
        self._loop = asyncio.get_running_loop()
        self.command = command if command.startswith("/") else f"/{command}"
        self._teams = {t.strip() for t in allowed_teams if t.strip()}
        self._users = {u.strip().rsplit(":", 1)[-1] for u in allowed_users if u.strip()}
        self.outbox = Outbox(client, Budget(per_second=signs_per_second, burst=5))
        self.turns = Turns(engine, self.outbox, store, eyes_after)
        self.queues = ChatQueues(self._job_failed)
        self.requests = Requests(self.turns, store, self.outbox, self.queues)
        self.presses = Presses(self)
        self._refused = Recent()
        self._detached: set[asyncio.Task[None]] = set()
        self.bot_user = ""

    def install(self, app: AsyncApp, bot_user: str) -> None:
        """Register the listeners. ``bot_user``: Almanac's own member id (from ``auth.test``)."""
        self.bot_user = bot_user
        # bolt tries listeners in this order for every request: the most frequent first.
        app.event("message")(self._on_message)
        app.event("app_mention")(self._on_mention)
        app.command(self.command)(self._on_command)
        app.action(ACTION_PATTERN)(self.presses.on_action)
        app.view(REVISE_CALLBACK)(self.presses.on_revise)
        app.error(self._on_error)

    async def recover(self) -> int:
        """Queue again the requests a crash interrupted (acknowledged, not yet handled); how many."""
        pending = await self.store.pending()
        for item in pending:
            log.info("slack.recovered", intake=item.id, kind=item.spec.get("kind"))
            self.requests.submit(item.queue, item.id, item.spec)
        return len(pending)

    async def drain(self, timeout: float | None = None) -> None:
        """Let queued turns and quick replies finish (before the app stops)."""
        await asyncio.sleep(0)  # jobs handed over by listeners just now are queued first
        await self.queues.drain(timeout)
        while self._detached:
            await asyncio.gather(*list(self._detached), return_exceptions=True)

    def allowed(self, team: str, user: str) -> bool:
        """Whether this workspace and member may use Almanac."""
        return (not self._teams or team in self._teams) and (not self._users or user in self._users)

    # ------------------------------------------------------------------ listeners: quick, then queue

    async def _on_command(self, ack: AsyncAck, body: Body) -> None:
        team, user, channel = str(body.get("team_id")), str(body.get("user_id")), str(body.get("channel_id"))
        if not self.allowed(team, user):
            log.info("slack.refused", team=team, user_id=user)
            await ack(texts.REFUSAL)
            return
        text = str(body.get("text") or "").strip()
        word, _, rest = text.partition(" ")
        name, arg = command_name(word), rest.strip()
        if not text or name in ("help", "start"):
            await ack(texts.help_text(self.command))
            return
        place = Place(team, channel, None, user, body.get("response_url"))
        if name in CONFIRM_FIRST:
            confirmation = forget_confirmation(place.user_key, place.conversation)
            await ack(text=confirmation.text, blocks=confirmation.blocks)
            return
        if name in NEEDS_ARGUMENT and not arg:
            await ack(texts.usage(self.command, name))
            return
        if name not in CONTROLS and name not in MESSAGE_COMMANDS:
            name, arg = "log", text  # "/almanac bench 55kg 10x5": the whole text is the message
        await ack()
        trigger = str(body.get("trigger_id"))
        spec = {"kind": "slash", "place": place.to_json(), "name": name, "arg": arg, "at": _now(), "id": trigger}
        await self._accept([f"cmd:{trigger}"], place.conversation, spec)

    async def _on_mention(self, body: Body, event: Body) -> None:
        if not self._from_person(event):
            return
        team, channel = _team(body, event), str(event.get("channel"))
        thread = event.get("thread_ts") or (None if channel.startswith("D") else event.get("ts"))
        await self._post(body, event, Place(team, channel, thread, str(event.get("user"))))

    async def _on_message(self, body: Body, event: Body) -> None:
        if not self._from_person(event):
            return
        team, channel, thread = _team(body, event), str(event.get("channel")), event.get("thread_ts")
        place = Place(team, channel, thread, str(event.get("user")))
        if not place.dm:
            # In channels Almanac hears mentions (their own event) and threads it takes part in.
            if thread is None or not await self.store.owns(team, channel, thread):
                return
        await self._post(body, event, place)

    def _from_person(self, event: Body) -> bool:
        return (
            event.get("subtype") in PERSON_SUBTYPES
            and not event.get("bot_id")
            and bool(event.get("user"))
            and event.get("user") != self.bot_user
        )

    async def _post(self, body: Body, event: Body, place: Place) -> None:
        if not self.allowed(place.team, place.user):
            log.info("slack.refused", team=place.team, user_id=place.user)
            if place.team in self._teams or not self._teams:
                if self._refused.add(place.user):  # one refusal; after that, silence
                    self.detach(self.outbox.ephemeral(place, plain(texts.REFUSAL)[0]))
            return
        text = re.sub(rf"<@{re.escape(self.bot_user)}(\|[^>]*)?>", "", str(event.get("text") or "")).strip()
        ts = str(event.get("ts"))
        keys = [f"event:{body.get('event_id')}", f"post:{place.team}:{place.channel}:{ts}"]
        spec = {"kind": "post", "place": place.to_json(), "text": text, "ts": ts, "at": _now()}
        thread = None
        if not place.dm and place.thread_ts:
            thread = Thread(place.team, place.channel, place.thread_ts, place.user, place.conversation)
        await self._accept(keys, place.conversation, spec, thread)

    async def _accept(self, keys: list[str], queue: str, spec: Body, thread: Thread | None = None) -> int | None:
        intake = await self.store.accept(keys, queue, spec, thread)
        if intake is None:
            log.info("slack.duplicate", keys=keys)
            return None
        self._loop.call_soon_threadsafe(self.requests.submit, queue, intake, spec)
        return intake

    # ------------------------------------------------------------------ jobs (an accepted request's: `Requests`)

    def submit_soon(self, key: str, job: Job, context: object) -> None:
        """Queue a job from a listener: on the turns' loop, in the order listeners call this."""
        self._loop.call_soon_threadsafe(self.queues.submit, key, job, context)

    def detach(self, call: Coroutine[Any, Any, None]) -> None:
        """Run a quick reply outside the queues (an ephemeral notice) on the turns' loop; `drain` waits for it."""
        self._loop.call_soon_threadsafe(self._detach_here, call)

    def _detach_here(self, call: Coroutine[Any, Any, None]) -> None:
        async def guarded() -> None:
            try:
                await call
            except Exception as exc:
                await self._job_failed(None, exc)

        task = asyncio.create_task(guarded())
        self._detached.add(task)
        task.add_done_callback(self._detached.discard)

    # ------------------------------------------------------------------ errors

    async def _job_failed(self, context: object, exc: Exception) -> None:
        """A job raised: log it with its place, and apologise in the thread; never show a traceback."""
        spec = context if isinstance(context, dict) else {}
        log.error("slack.job_failed", kind=spec.get("kind"), exc_info=exc)
        if "place" in spec:
            try:
                await self.outbox.ephemeral(Place.from_json(spec["place"]), plain(texts.APOLOGY)[0])
            except Exception as again:
                log.warning("slack.apology_failed", reason=str(again))

    async def _on_error(self, error: Exception, body: Body) -> None:  # bolt's error handler: a listener raised
        log.error("slack.listener_error", type=body.get("type"), exc_info=error)


def _team(body: Body, event: Body) -> str:
    return str(body.get("team_id") or event.get("team") or "")


def _now() -> float:
    return datetime.now(timezone.utc).timestamp()
