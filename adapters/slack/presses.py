"""Button presses and the Revise modal.

A press is acknowledged first. Then, still in the listener: a press by
someone other than the person asked is refused (the owner is in the button);
Revise opens its modal at once — ``views.open`` must use the ``trigger_id``
within 3 seconds, so nothing slow may come before it; every other press
takes the message's buttons with a durable compare-and-set
(`SlackStore.claim`), so of a double press, or of two workers, exactly one
goes on. That one waits its turn in the conversation's queue, checks that
its question or plan is still the open one, shows who decided what and when
(``chat.update``, buttons gone) and resumes the engine. Stale, second and
foreign presses get an ephemeral notice and change nothing.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

import structlog
from slack_bolt.async_app import AsyncAck
from slack_sdk.web.async_client import AsyncWebClient

from adapters.common import decide
from adapters.slack import texts
from adapters.slack.actions import Press
from adapters.slack.place import Place
from adapters.slack.render import SlackMessage, decided, plain, revise_modal
from adapters.slack.text import shorten
from engine import ClarificationAnswer, Control, Notice, Resume

if TYPE_CHECKING:
    from adapters.slack.adapter import SlackAdapter

log = structlog.get_logger("adapters.slack")
Body = dict[str, Any]
REVISE_CALLBACK = "almanac:revise"


class Presses:
    """Turns presses and modal submissions into resumes (or refusals)."""

    def __init__(self, adapter: SlackAdapter) -> None:
        self._a = adapter

    async def on_action(self, ack: AsyncAck, body: Body, client: AsyncWebClient) -> None:
        """A button press (``block_actions``)."""
        await ack()
        a = self._a
        action = (body.get("actions") or [{}])[0]
        user, team = str(body["user"]["id"]), str((body.get("team") or {}).get("id") or body["user"].get("team_id"))
        container = body.get("container") or {}
        channel = str(container.get("channel_id") or (body.get("channel") or {}).get("id"))
        message_ts = str(container.get("message_ts") or (body.get("message") or {}).get("ts"))
        response_url = body.get("response_url")
        press = Press.parse(str(action.get("action_id", "")), str(action.get("value", "")))
        place = Place.of_conversation(press.conversation, user, response_url) if press else None
        if not a.allowed(team, user):
            a.detach(self._notice(Place(team, channel, None, user, response_url), texts.REFUSAL))
            return
        if press is None or place is None:
            a.detach(self._notice(Place(team, channel, None, user, response_url), texts.BROKEN_BUTTON))
            return
        if press.owner and press.owner != user:
            a.detach(self._notice(place, texts.NOT_YOURS))
            return
        if press.kind == "revise":
            # First, before anything slow: the trigger_id expires 3 seconds after the press.
            meta = json.dumps({"v": press.value, "c": channel, "m": message_ts, "r": response_url,
                               "e": bool(container.get("is_ephemeral"))})
            await client.views_open(trigger_id=body["trigger_id"], view=revise_modal(meta))
            return
        if press.kind == "forget":
            await self._forget(place, body)
            return
        if not await a.store.claim(channel, message_ts):
            a.detach(self._notice(place, texts.ALREADY))
            return
        blocks = list((body.get("message") or {}).get("blocks") or [])
        # An ephemeral message (an answer sent through a response URL) can only be replaced through one.
        ephemeral = bool(container.get("is_ephemeral"))

        async def job() -> None:
            await self._decide(place, press, channel, message_ts, blocks, ephemeral=ephemeral)

        a.submit_soon(place.conversation, job, {"kind": "press", "place": place.to_json()})

    async def on_revise(self, ack: AsyncAck, body: Body, view: Body) -> None:
        """The Revise modal was submitted: its text is the feedback on the plan."""
        values = (view.get("state") or {}).get("values") or {}
        feedback = str(((values.get("feedback") or {}).get("text") or {}).get("value") or "").strip()
        if not feedback:
            # Keeps the modal open with the error under the field.
            await ack(response_action="errors", errors={"feedback": texts.EMPTY_FEEDBACK})
            return
        await ack()
        a = self._a
        meta = json.loads(view.get("private_metadata") or "{}")
        user = str(body["user"]["id"])
        press = Press.parse("almanac:revise", str(meta.get("v", "")))
        place = Place.of_conversation(press.conversation, user, meta.get("r")) if press else None
        if press is None or place is None or (press.owner and press.owner != user):
            log.warning("slack.bad_revise_submission", user_id=user)
            return
        channel, message_ts = str(meta.get("c")), str(meta.get("m"))
        if not await a.store.claim(channel, message_ts):
            a.detach(self._notice(place, texts.ALREADY))
            return
        stored = await a.store.prompt(place.conversation)
        blocks = stored.blocks if stored is not None and stored.ts == message_ts else []

        async def job() -> None:
            await self._decide(place, press, channel, message_ts, blocks, feedback, ephemeral=bool(meta.get("e")))

        a.submit_soon(place.conversation, job, {"kind": "revise", "place": place.to_json()})

    async def _decide(
        self,
        place: Place,
        press: Press,
        channel: str,
        ts: str,
        blocks: list[Body],
        feedback: str = "",
        ephemeral: bool = False,
    ) -> None:
        """In the queue: apply the press if its question or plan is still open, else say why not."""
        a = self._a
        pending = await a.turns.pending(place)
        current = pending if pending is not None and pending.interrupt_id == press.interrupt_id else None
        assert press.kind in ("choice", "skip", "approve", "revise", "cancel")
        decision = decide(press.kind, current, index=press.index, feedback=feedback)
        if current is None or decision is None or (current.asked_by and current.asked_by != place.user_key):
            await a.store.release(channel, ts)  # the right press may still come
            probe = Resume(
                conversation=place.conversation,
                user=place.user_key,
                interrupt_id=press.interrupt_id,
                answer=decision.answer if decision is not None else ClarificationAnswer(answers=[]),
            )
            outcomes = await a.turns.engine.handle(probe)  # refuses without changing anything
            reason = next((o.text for o in outcomes if isinstance(o, Notice)), texts.BROKEN_BUTTON)
            await a.outbox.ephemeral(place, plain(reason)[0])
            return
        label = decision.label if press.kind != "revise" else f"✎ Revise: {shorten(feedback, 200)}"
        await a.store.drop_prompt(place.conversation, ts)
        shown = decided(blocks, label, place.user, datetime.now(timezone.utc))
        if ephemeral and place.response_url is not None:
            await a.outbox.respond(place, SlackMessage(label, shown), replace_original=True)
        else:
            await a.outbox.update(channel, ts, label, shown)
        turn = Resume(
            conversation=place.conversation, user=place.user_key, interrupt_id=press.interrupt_id, answer=decision.answer
        )
        await a.turns.run(place, turn)

    async def _forget(self, place: Place, body: Body) -> None:
        """The confirmed /almanac forget (an ephemeral message: answered through its response URL)."""
        a = self._a
        if place.response_url is not None:
            a.detach(a.outbox.respond(place, plain(texts.FORGET_DELETING)[0], replace_original=True))
        turn = Control(conversation=place.conversation, user=place.user_key, action="forget")

        async def job() -> None:
            await a.turns.run(place, turn, private=True)

        a.submit_soon(place.conversation, job, {"kind": "forget", "place": place.to_json()})

    async def _notice(self, place: Place, text: str) -> None:
        await self._a.outbox.ephemeral(place, plain(text)[0])
