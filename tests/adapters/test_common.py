"""What every platform shares (adapters/common): the command map, picks → answers, per-conversation queues."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone

from adapters.common import (
    ChatQueues,
    Recent,
    closing_label,
    command_turn,
    control_action,
    decide,
    decide_plan,
    typed_reply,
)
from engine import ApprovalDecision, ApprovalRequest, Ask, ClarificationAnswer, Control, Message, Question, Resume

KEY = "test:1"
AT = datetime(2026, 11, 22, 1, 0, tzinfo=timezone.utc)
ASK = Ask(
    interrupt_id="q1",
    questions=[Question(text="Which exercise?", options=["Bench press", "Squat"])],
    why="",
    if_declined="",
)
PLAN = ApprovalRequest(interrupt_id="p1", title="Plan", plan={}, summary="", confidence=0.9)


def turn(name: str, argument: str = "", *, message_commands: bool = True) -> Control | Message | None:
    return command_turn(
        name, argument, conversation=KEY, user=KEY, message_commands=message_commands, at=AT, message_id="7"
    )


def test_every_spelling_of_a_control_names_one_action() -> None:
    assert turn("/TZ", "Asia/Seoul") == Control(conversation=KEY, user=KEY, at=AT, action="timezone", argument="Asia/Seoul")
    assert turn("timezone", "Asia/Seoul") == turn("/tz", "Asia/Seoul")
    exported = turn("/export", "json")
    assert isinstance(exported, Control) and exported.action == "export" and exported.argument == "json"
    for name in ("reset", "cancel", "retry", "status", "undo", "history", "forget"):
        assert control_action(f"/{name.upper()}") == name
    assert control_action("/dance") is None and control_action("/log") is None


def test_log_and_ask_are_messages_only_where_the_platform_offers_them() -> None:
    logged = turn("/log", "bench 55kg 10x5")
    assert logged == Message(conversation=KEY, user=KEY, at=AT, text="bench 55kg 10x5", message_id="7")
    assert turn("/log", "bench 55kg 10x5", message_commands=False) is None  # the console today
    assert turn("/start") is None and turn("/help") is None and turn("/dance") is None  # the adapter's own, or unknown


def test_picks_answer_the_open_question_or_plan_with_a_label() -> None:
    squat = decide("choice", ASK, index=1)
    assert squat is not None and squat.answer == ClarificationAnswer(answers=["Squat"]) and squat.label == "✓ Squat"
    assert decide("choice", ASK, index=2) is None and decide("choice", ASK, index=-1) is None
    assert decide("choice", None, index=0) is None  # nothing open any more: a stale button
    skipped = decide("skip", ASK)
    assert skipped is not None and skipped.answer == ClarificationAnswer(declined=True) and skipped.label == "Skipped"
    labels = {}
    for pick in ("approve", "revise", "cancel"):
        decision = decide(pick, PLAN)
        assert decision is not None and decision.answer == ApprovalDecision(decision=pick)
        labels[pick] = decision.label
    assert labels == {"approve": "✓ Approved", "revise": "✎ Revise: What should change?", "cancel": "✗ Cancelled"}
    assert decide_plan("revise", "smaller jumps").answer == ApprovalDecision(decision="revise", feedback="smaller jumps")


def test_typed_lines_read_as_picks() -> None:
    assert typed_reply("2", ASK) == ClarificationAnswer(answers=["Squat"])
    assert typed_reply(" Skip ", ASK) == ClarificationAnswer(declined=True)
    assert typed_reply("3", ASK) == ClarificationAnswer(answers=["3"])  # out of range: the person's own words
    assert typed_reply("²", ASK) == ClarificationAnswer(answers=["²"])  # a digit int() cannot read
    assert typed_reply(" deadlift ", ASK) == ClarificationAnswer(answers=["deadlift"])
    assert typed_reply("Revise  smaller jumps ", PLAN) == ApprovalDecision(decision="revise", feedback="smaller jumps")
    assert typed_reply("approve", PLAN) == ApprovalDecision(decision="approve")
    assert typed_reply("what is this plan?", PLAN) is None  # no decision: a message
    assert typed_reply("2", None) is None


def test_closing_labels_say_what_closed_the_question() -> None:
    long = "x" * 150
    assert closing_label(Message(conversation=KEY, user=KEY, text="  the   squat ")) == "✓ the squat"
    assert closing_label(Message(conversation=KEY, user=KEY, text=long)) == "✓ " + "x" * 99 + "…"
    resume = Resume(conversation=KEY, user=KEY, interrupt_id="q1", answer=ClarificationAnswer(answers=["a"]))
    assert closing_label(resume) == "✓ Answered"
    assert closing_label(Control(conversation=KEY, user=KEY, action="cancel")) == "✗ Cancelled"
    assert closing_label(Control(conversation=KEY, user=KEY, action="reset")) == "✗ Closed: fresh conversation"
    assert closing_label(Control(conversation=KEY, user=KEY, action="status")) == "✓ Done"


async def test_queues_keep_order_per_key_and_survive_a_failing_job() -> None:
    ran: list[str] = []
    failed: list[tuple[object, str]] = []

    async def on_error(context: object, exc: Exception) -> None:
        failed.append((context, str(exc)))

    def job(key: str, n: int, fail: bool = False) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            await asyncio.sleep(0)  # yield, so that workers of other keys interleave
            if fail:
                raise RuntimeError(f"{key}{n}")
            ran.append(f"{key}{n}")

        return run

    queues = ChatQueues(on_error)
    for n in range(3):
        queues.submit("a", job("a", n, fail=n == 1), context=f"ctx-a{n}")
        queues.submit("b", job("b", n))
    assert queues.busy("a") and queues.busy("b") and len(queues) == 2
    await queues.drain()
    assert [r for r in ran if r[0] == "a"] == ["a0", "a2"] and [r for r in ran if r[0] == "b"] == ["b0", "b1", "b2"]
    assert failed == [("ctx-a1", "a1")]
    assert not queues.busy("a") and len(queues) == 0


def test_recent_remembers_a_bounded_number_of_keys() -> None:
    seen = Recent(size=2)
    assert seen.add(1) and not seen.add(1)
    assert seen.add(2) and seen.add(3)  # 1 falls out
    assert 1 not in seen and 3 in seen and seen.add(1)
    seen.discard(3)
    assert seen.add(3)

