"""A console killed after a turn finished but before its outcome was on screen (an approve that
committed the plan): the next start shows what was done. Before: it said nothing, and /status said
"Nothing is waiting", so the person could not tell whether the plan was carried out."""

from __future__ import annotations

import io
from datetime import timedelta

from adapters.console import NOT_SHOWN, ConsoleChat
from engine import Delivery
from engine.language.dates import today_in
from engine.outcomes import ApprovalRequest
from engine.turns import ApprovalDecision, Message, Resume
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts

KEY = "console:kim"


async def test_an_approve_that_committed_before_the_kill_is_shown_at_the_next_start(
    sqlite_engine: OpenEngine, fake: FakeOllama
) -> None:
    logged_on = today_in("Asia/Seoul") - timedelta(days=1)
    fake.script(scripts.router("TASK", ["strength"]))
    fake.script(scripts.good_plan(logged_on=logged_on))
    async with sqlite_engine() as engine:
        await engine.handle(Message(conversation=KEY, user=KEY, text=f"bench 55kg 10x5 {logged_on.isoformat()}"))
        (plan,) = await engine.handle(Message(conversation=KEY, user=KEY, text="plan my week", message_id="l1"))
        assert isinstance(plan, ApprovalRequest)
        # What the console does for "approve" up to the kill: the line recorded, the turn run to its end
        # (the plan committed), and the process gone before the outcome reached the screen.
        approve = Resume(
            conversation=KEY,
            user=KEY,
            interrupt_id=plan.interrupt_id,
            answer=ApprovalDecision(decision="approve"),
            message_id="l2",
        )
        await engine.receive(KEY, [Delivery("l2", approve.model_dump_json(), KEY)])
        await engine.handle(approve)
    async with sqlite_engine() as engine:
        out = io.StringIO()
        await ConsoleChat(engine, "kim", stdin=io.StringIO("/status\n"), stdout=out).run()
        again = io.StringIO()
        await ConsoleChat(engine, "kim", stdin=io.StringIO(""), stdout=again).run()
    shown = out.getvalue()
    assert NOT_SHOWN in shown and "✓ planned" in shown and "Done" in shown, shown
    assert shown.index("✓ planned") < shown.index("Nothing is waiting")
    assert NOT_SHOWN not in again.getvalue()  # shown once
    assert len(fake.calls("TaskFormationOutput")) == 1  # shown from what was kept, nothing ran again
