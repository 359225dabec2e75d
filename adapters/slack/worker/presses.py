"""Button presses and Revise submissions, in the engine's process: what a press that took its buttons does.

The gateway (`adapters.slack.gateway.listeners`) acknowledged the press,
refused foreign ones, read the button (`Press`, once), opened the Revise modal
and took the message's buttons with a compare-and-set; what it hands over here
(`adapters.slack.protocol.Handed`) waits its turn in the
conversation's queue, checks that its question or plan is still the open
one, shows who decided what and when (``chat.update``, buttons gone) and
resumes the engine. A stale press gets an ephemeral notice and changes
nothing. A reminder's button (`_reminder`) needs no open question: its
message shows what was pressed, and the engine runs the ``reminders`` control,
which itself refuses a stale press.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, assert_never

from adapters.common import decide
from adapters.slack import texts
from adapters.slack.actions import Press
from adapters.slack.place import Place
from adapters.slack.protocol import ForgetConfirmed, Handed, HomeOpened, Pressed, ReviseSubmitted
from adapters.slack.render import decided_message, plain
from adapters.slack.send import Outbox
from adapters.slack.store import Store
from adapters.slack.text import as_typed, shorten
from adapters.slack.worker.turns import Turns
from engine import ClarificationAnswer, Control, Notice, Resume

Body = dict[str, Any]


class Presses:
    """Runs handed-over presses (in their conversation's queue)."""

    def __init__(self, turns: Turns, store: Store, outbox: Outbox) -> None:
        self.turns, self.store, self.outbox = turns, store, outbox

    async def run(self, spec: Handed) -> None:
        """A press, a Revise submission or a confirmed forget, as the gateway handed it over."""
        place = spec.place
        match spec:
            case ForgetConfirmed():
                turn = Control(conversation=place.conversation, user=place.user_key, action="forget")
                await self.turns.run(place, turn, private=True)
            case Pressed() if spec.press.kind == "reminder":
                await self._reminder(spec)
            case Pressed():
                await self._decide(
                    place, spec.press, spec.channel, spec.ts, list(spec.blocks), ephemeral=spec.ephemeral
                )
            case ReviseSubmitted():
                # A modal's submission carries no message: the stored prompt has its blocks.
                stored = await self.store.prompt(place.conversation)
                blocks = stored.blocks if stored is not None and stored.ts == spec.ts else []
                await self._decide(
                    place, spec.press, spec.channel, spec.ts, blocks, spec.feedback, ephemeral=spec.ephemeral
                )
            case HomeOpened():
                await self.turns.home.publish(place)
            case _:
                assert_never(spec)

    async def _reminder(self, spec: Pressed) -> None:
        """A reminder's button: its buttons go (the press's label shown instead), then the ``reminders``
        control runs as the presser; answered where the card was (privately when it was ephemeral)."""
        place = spec.place
        label = f"✓ {spec.label}" if spec.label else "✓"
        shown = decided_message(list(spec.blocks), label, place.user, datetime.now(timezone.utc))
        if spec.ephemeral and place.response_url is not None:
            await self.outbox.respond(place, shown, replace_original=True)
        else:
            await self.outbox.update(spec.channel, spec.ts, shown)
        turn = Control(
            conversation=place.conversation, user=place.user_key, action="reminders", argument=spec.press.interrupt_id
        )
        await self.turns.run(place, turn, private=spec.ephemeral)

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
        pending = await self.turns.pending(place)
        current = pending if pending is not None and pending.interrupt_id == press.interrupt_id else None
        assert press.kind in ("choice", "skip", "approve", "revise", "cancel")
        decision = decide(press.kind, current, index=press.index, feedback=feedback)
        if current is None or decision is None or (current.asked_by and current.asked_by != place.user_key):
            await self.store.release(channel, ts)  # the right press may still come
            probe = Resume(
                conversation=place.conversation,
                user=place.user_key,
                interrupt_id=press.interrupt_id,
                answer=decision.answer if decision is not None else ClarificationAnswer(answers=[]),
            )
            outcomes = await self.turns.engine.handle(probe)  # refuses without changing anything
            reason = next((o.text for o in outcomes if isinstance(o, Notice)), texts.BROKEN_BUTTON)
            await self.outbox.ephemeral(place, plain(as_typed(reason, self.turns.command))[0])
            return
        label = decision.label if press.kind != "revise" else f"✎ Revise: {shorten(feedback, 200)}"
        await self.store.drop_prompt(place.conversation, ts)
        shown = decided_message(blocks, label, place.user, datetime.now(timezone.utc))
        if ephemeral and place.response_url is not None:
            await self.outbox.respond(place, shown, replace_original=True)
        else:
            await self.outbox.update(channel, ts, shown)
        turn = Resume(
            conversation=place.conversation,
            user=place.user_key,
            interrupt_id=press.interrupt_id,
            answer=decision.answer,
        )
        await self.turns.run(place, turn)
