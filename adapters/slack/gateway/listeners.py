"""What bolt calls, in the gateway process: quick checks, ``ack()``, one durable write, then a hand-over.

How a request travels:

1. bolt checks the signature and timestamp (HTTP mode) and calls a listener
   below. The app runs with ``process_before_response``: Slack's 200 (or
   the Socket Mode ack) goes out when the listener returns, so whatever the
   listener wrote is on disk *before* Slack learns the request arrived. Each
   listener does only quick things: ``ack()``, one durable write of the
   de-duplication keys and the intake row (`SlackStore.accept`), ``views.open``
   for Revise, a press's compare-and-set (`SlackStore.claim`), and the
   hand-over to the engine's process (`Handoff`). The model never runs
   before the ack.
2. The engine's process runs what was handed over in its conversation's queue
   (`adapters.slack.worker.adapter`).
3. A crash between the ack and the end of a turn leaves the intake row
   pending; the next start runs it again, in order.

Never dropped for ``X-Slack-Retry-Num`` alone: a retry whose original never
arrived is the only copy. Duplicates are recognised by ``event_id`` and by
``(team, channel, ts)``, which also catches the ``app_mention`` twin of a
``message``.

A button press is acknowledged first. It acts as the member who pressed
(``user.id``, which Slack signs), never as anyone its value names: the value's
owner only refuses others, and its conversation must be the presser's own in
the channel pressed in (`Place.of_press`; the Revise modal's submission alike).
A press by someone other than the person asked is refused; Revise opens its modal
at once (``views.open`` must use the ``trigger_id`` within 3 seconds); every
other press takes the message's buttons with the compare-and-set, so of a
double press, or of two workers, exactly one goes on. Stale, second and
foreign presses get an ephemeral notice and change nothing.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Coroutine, Iterable
from datetime import datetime, timezone
from typing import Any, Protocol

import structlog
from slack_bolt.async_app import AsyncAck, AsyncApp

from adapters.common import (
    CONFIRM_FIRST,
    CONTROLS,
    MESSAGE_COMMANDS,
    NEEDS_ARGUMENT,
    Recent,
    command_name,
)
from adapters.slack import texts
from adapters.slack.actions import ACTION_PATTERN, Press
from adapters.slack.place import Place
from adapters.slack.protocol import ForgetConfirmed, Handed, HomeOpened, Post, Pressed, ReviseSubmitted, Slash
from adapters.slack.render import forget_confirmation, plain, revise_modal
from adapters.slack.send import Outbox
from adapters.slack.store import Store, Thread

log = structlog.get_logger("adapters.slack")
Body = dict[str, Any]
PERSON_SUBTYPES = (None, "thread_broadcast", "file_share")
"""Message subtypes that are a person writing; edits, deletes, joins and bots' posts are not."""
REVISE_CALLBACK = "almanac:revise"


class Handoff(Protocol):
    """Where accepted work goes: the engine's process, in the order handed over."""

    def request(self, queue: str, intake: int, spec: Post | Slash) -> None:
        """A recorded post or slash command (intake row ``intake``)."""
        ...

    def press(self, spec: Handed) -> None:
        """A press that took its message's buttons, a Revise submission, or a confirmed forget."""
        ...


class Listeners:
    """bolt's listeners.

    Args:
        store: the adapter's durable state (``slack.db``).
        outbox: for notices sent from here (refusals, stale presses).
        handoff: where accepted work goes.
        command: the slash command's name, e.g. ``/almanac``.
        allowed_teams: workspace ids allowed; empty = any.
        allowed_users: member ids allowed (``U…`` or ``slack:<team>:U…``); empty = everyone.
    """

    def __init__(
        self,
        store: Store,
        outbox: Outbox,
        handoff: Handoff,
        *,
        command: str = "/almanac",
        allowed_teams: Iterable[str] = (),
        allowed_users: Iterable[str] = (),
    ) -> None:
        self.store, self.outbox, self.handoff = store, outbox, handoff
        self.command = command if command.startswith("/") else f"/{command}"
        self._teams = {t.strip() for t in allowed_teams if t.strip()}
        self._users = {u.strip().rsplit(":", 1)[-1] for u in allowed_users if u.strip()}
        self._refused = Recent()
        self._notices: set[asyncio.Task[None]] = set()
        self.bot_user = ""

    def install(self, app: AsyncApp, bot_user: str) -> None:
        """Register the listeners. ``bot_user``: Almanac's own member id (from ``auth.test``)."""
        self.bot_user = bot_user
        # bolt tries listeners in this order for every request: the most frequent first.
        app.event("message")(self._on_message)
        app.event("app_mention")(self._on_mention)
        app.command(self.command)(self._on_command)
        app.action(ACTION_PATTERN)(self._on_action)
        app.view(REVISE_CALLBACK)(self._on_revise)
        app.event("app_home_opened")(self._on_home)
        app.error(self._on_error)

    def allowed(self, team: str, user: str) -> bool:
        """Whether this workspace and member may use Almanac."""
        return (not self._teams or team in self._teams) and (not self._users or user in self._users)

    async def settle(self) -> None:
        """Wait for the notices sent from here."""
        while self._notices:
            await asyncio.gather(*list(self._notices), return_exceptions=True)

    # ------------------------------------------------------------------ slash command, mentions, DMs, threads

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
        spec = Slash(place=place, name=name, arg=arg, at=_now(), id=trigger)
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

    async def _on_home(self, body: Body, event: Body) -> None:
        """The Home tab opened: the worker publishes the member's summary there (``views.publish``)."""
        if event.get("tab", "home") != "home":  # the Messages tab is the DM itself
            return
        team, user, channel = _team(body, event), str(event.get("user") or ""), str(event.get("channel") or "")
        if not user or not channel or not self.allowed(team, user):
            return
        self.handoff.press(HomeOpened(place=Place(team, channel, None, user)))

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
                    self._notice(place, texts.REFUSAL)
            return
        text = re.sub(rf"<@{re.escape(self.bot_user)}(\|[^>]*)?>", "", str(event.get("text") or "")).strip()
        ts = str(event.get("ts"))
        keys = [f"event:{body.get('event_id')}", f"post:{place.team}:{place.channel}:{ts}"]
        spec = Post(place=place, text=text, ts=ts, at=_now())
        thread = None
        if not place.dm and place.thread_ts:
            thread = Thread(place.team, place.channel, place.thread_ts, place.user, place.conversation)
        await self._accept(keys, place.conversation, spec, thread)

    async def _accept(self, keys: list[str], queue: str, spec: Post | Slash, thread: Thread | None = None) -> None:
        intake = await self.store.accept(keys, queue, spec.model_dump(mode="json"), thread)
        if intake is None:
            log.info("slack.duplicate", keys=keys)
            return
        self.handoff.request(queue, intake, spec)

    # ------------------------------------------------------------------ presses and the Revise modal

    async def _on_action(self, ack: AsyncAck, body: Body) -> None:
        """A button press (``block_actions``)."""
        await ack()
        action = (body.get("actions") or [{}])[0]
        user, team = str(body["user"]["id"]), str((body.get("team") or {}).get("id") or body["user"].get("team_id"))
        container = body.get("container") or {}
        channel = str(container.get("channel_id") or (body.get("channel") or {}).get("id"))
        message_ts = str(container.get("message_ts") or (body.get("message") or {}).get("ts"))
        response_url = body.get("response_url")
        thread = container.get("thread_ts") or (body.get("message") or {}).get("thread_ts")
        here = Place(team, channel, str(thread) if thread else None, user, response_url)
        if not self.allowed(team, user):
            self._notice(here, texts.REFUSAL)
            return
        action_id, value = str(action.get("action_id", "")), str(action.get("value", ""))
        press = Press.parse(action_id, value)
        if press is None:
            self._notice(here, texts.BROKEN_BUTTON)
            return
        # The press acts as the presser (Slack signs user.id and where it came from), never as the value says.
        place = Place.of_press(
            press.conversation, press.owner, team=team, channel=channel, user=user, response_url=response_url
        )
        if place is None:
            self._notice(here, texts.NOT_YOURS)
            return
        # An ephemeral message (an answer sent through a response URL) can only be replaced through one.
        ephemeral = bool(container.get("is_ephemeral"))
        if press.kind == "revise":
            # First, before anything slow: the trigger_id expires 3 seconds after the press.
            meta = json.dumps({"v": press.value, "c": channel, "m": message_ts, "r": response_url, "e": ephemeral})
            await self.outbox.api.call("views_open", trigger_id=body["trigger_id"], view=revise_modal(meta))
            return
        if press.kind == "forget":
            if place.response_url is not None:
                self._send(self.outbox.respond(place, plain(texts.FORGET_DELETING)[0], replace_original=True))
            self.handoff.press(ForgetConfirmed(place=place))
            return
        if not await self.store.claim(channel, message_ts):
            self._notice(place, texts.ALREADY)
            return
        blocks = list((body.get("message") or {}).get("blocks") or [])
        label = str((action.get("text") or {}).get("text") or "")
        # Parsed once, here: the worker gets the press itself, not the button's strings to read again.
        self.handoff.press(
            Pressed(
                place=place,
                press=press,
                channel=channel,
                ts=message_ts,
                blocks=blocks,
                ephemeral=ephemeral,
                label=label,
            )
        )

    async def _on_revise(self, ack: AsyncAck, body: Body, view: Body) -> None:
        """The Revise modal was submitted: its text is the feedback on the plan."""
        values = (view.get("state") or {}).get("values") or {}
        feedback = str(((values.get("feedback") or {}).get("text") or {}).get("value") or "").strip()
        if not feedback:
            # Keeps the modal open with the error under the field.
            await ack(response_action="errors", errors={"feedback": texts.EMPTY_FEEDBACK})
            return
        await ack()
        user = str(body["user"]["id"])
        team = str((body.get("team") or {}).get("id") or body["user"].get("team_id"))
        meta = _metadata(view)
        value, channel, message_ts = str(meta.get("v", "")), str(meta.get("c")), str(meta.get("m"))
        press = Press.parse("almanac:revise", value)
        # As for a press: the submitter acts, and only on their own plan in the channel it was pressed in.
        place = (
            None
            if press is None
            else Place.of_press(
                press.conversation, press.owner, team=team, channel=channel, user=user, response_url=meta.get("r")
            )
        )
        if press is None or place is None:
            log.warning("slack.bad_revise_submission", user_id=user)
            return
        if not await self.store.claim(channel, message_ts):
            self._notice(place, texts.ALREADY)
            return
        self.handoff.press(
            ReviseSubmitted(
                place=place,
                press=press,
                channel=channel,
                ts=message_ts,
                feedback=feedback,
                ephemeral=bool(meta.get("e")),
            )
        )

    # ------------------------------------------------------------------ notices and errors

    def _notice(self, place: Place, text: str) -> None:
        """An ephemeral note, sent after the ack (the listener does not wait for it)."""
        self._send(self.outbox.ephemeral(place, plain(text)[0]))

    def _send(self, call: Coroutine[Any, Any, None]) -> None:
        async def guarded() -> None:
            try:
                await call
            except Exception as exc:
                log.warning("slack.notice_failed", error=f"{type(exc).__name__}: {exc}")

        task = asyncio.create_task(guarded())
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)

    async def _on_error(self, error: Exception, body: Body) -> None:  # bolt's error handler: a listener raised
        log.error("slack.listener_error", type=body.get("type"), exc_info=error)


def _metadata(view: Body) -> Body:
    """The Revise modal's ``private_metadata`` (what `_on_action` put there); empty if it is not that."""
    try:
        meta = json.loads(view.get("private_metadata") or "{}")
    except ValueError:
        return {}
    return meta if isinstance(meta, dict) else {}


def _team(body: Body, event: Body) -> str:
    return str(body.get("team_id") or event.get("team") or "")


def _now() -> float:
    return datetime.now(timezone.utc).timestamp()
