"""What every platform shares (adapters/common): the command map, picks → answers, per-conversation queues."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone

import pytest

from adapters.common import (
    EDIT_HINT,
    ChatQueues,
    Recent,
    ReplyNotShown,
    Typed,
    after_the_turn,
    closing_label,
    command_turn,
    control_action,
    decide,
    decide_plan,
    read_command,
    read_typed,
    reply_not_shown,
    visible,
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


def turn(name: str, argument: str = "") -> Control | Message | None:
    return command_turn(name, argument, conversation=KEY, user=KEY, at=AT, message_id="7")


def test_every_spelling_of_a_control_names_one_action() -> None:
    assert turn("/TZ", "Asia/Seoul") == Control(
        conversation=KEY, user=KEY, at=AT, action="timezone", argument="Asia/Seoul"
    )
    assert turn("timezone", "Asia/Seoul") == turn("/tz", "Asia/Seoul")
    exported = turn("/export", "json")
    assert isinstance(exported, Control) and exported.action == "export" and exported.argument == "json"
    for name in ("reset", "cancel", "retry", "status", "undo", "history", "forget"):
        assert control_action(f"/{name.upper()}") == name
    assert control_action("/dance") is None and control_action("/log") is None


def test_log_and_ask_are_messages_on_every_platform() -> None:
    logged = turn("/log", "bench 55kg 10x5")
    assert logged == Message(conversation=KEY, user=KEY, at=AT, text="bench 55kg 10x5", message_id="7")
    assert turn("/start") is None and turn("/help") is None and turn("/dance") is None  # the adapter's own, or unknown


def read(name: str, argument: str = "") -> tuple[str | None, str, Control | Message | None]:
    got = read_command(name, argument, conversation=KEY, user=KEY, at=AT)
    return got.own, got.usage, got.turn


def test_commands_read_the_same_on_every_platform() -> None:
    # Issue 11: /help with words after it was an unknown command in the console; /tz alone set the zone "".
    assert (
        read("/help", "extra words")[0] == "help" and read("/HELP")[0] == "help" and read("/start", "x")[0] == "start"
    )
    assert read("/tz") == ("usage", "Usage: /timezone Asia/Seoul", None)
    assert read("/timezone", "  ") == ("usage", "Usage: /timezone Asia/Seoul", None)
    assert read("/log")[:2] == ("usage", "Usage: /log bench 55kg 10x5") and read("/ask")[0] == "usage"
    assert read("/forget")[0] == "confirm" and read("/forget", "yes")[0] == "confirm"  # the adapter asks first
    assert read("/dance") == ("unknown", "", None)
    zone = read("/tz", " Asia/Seoul ")[2]
    assert isinstance(zone, Control) and zone.action == "timezone" and zone.argument == "Asia/Seoul"
    assert read("/log", "bench 55kg 10x5")[2] == Message(conversation=KEY, user=KEY, at=AT, text="bench 55kg 10x5")


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
    assert decide_plan("revise", "smaller jumps").answer == ApprovalDecision(
        decision="revise", feedback="smaller jumps"
    )


def answer(line: str, pending: Ask | ApprovalRequest | None, user: str = KEY) -> object:
    typed = read_typed(line, pending, user)
    if typed is None:
        return None
    return typed.answer or ("ask feedback" if typed.ask_feedback else typed.hint)


def test_typed_answers_to_a_question() -> None:
    assert answer("2", ASK) == ClarificationAnswer(answers=["Squat"])
    assert answer("2번", ASK) == answer("2.", ASK) == ClarificationAnswer(answers=["Squat"])
    assert (
        answer(" Skip ", ASK) == answer("skip.", ASK) == answer("건너뛰기", ASK) == ClarificationAnswer(declined=True)
    )
    # Issue 11: a number not on the list went to the model as the answer; now it gets a hint.
    assert answer("9", ASK) == "Pick a number from 1 to 2, type your own answer, or type skip."
    assert answer("0", ASK) == answer("3", ASK) != ClarificationAnswer(answers=["3"])
    # The person's own words are no pick: they go to the engine as a message, which reads whether they
    # answer the question or are a log or question of their own (issue 22; engine.conversation.admission.taken_as).
    assert answer("²", ASK) is None  # a digit int() cannot read: the person's words
    assert answer(" deadlift ", ASK) is None and answer("5k in 25:30", ASK) is None
    open_question = Ask(interrupt_id="q2", questions=[Question(text="How many sets?")], why="", if_declined="")
    assert answer("5", open_question) is None  # no choices: a number is the person's words too
    assert answer("2", None) is None


def test_typed_decisions_on_a_plan() -> None:
    approve, cancel = ApprovalDecision(decision="approve"), ApprovalDecision(decision="cancel")
    # Issue 11: "approve." and "approved" were refused, while any line starting with "approve" approved.
    for word in ("approve", "approve.", "Approved!", "ok", "OK", "yes", "승인", "승인합니다"):
        assert answer(word, PLAN) == approve, word
    for word in ("cancel", "Cancel.", "no", "취소"):
        assert answer(word, PLAN) == cancel, word
    assert answer("approve? what does it change", PLAN) is None and answer("approve only week 1", PLAN) is None
    assert answer("Revise  smaller jumps ", PLAN) == ApprovalDecision(decision="revise", feedback="smaller jumps")
    assert answer("revise: 3 weeks", PLAN) == ApprovalDecision(decision="revise", feedback="3 weeks")
    assert answer("수정 무게를 줄여줘", PLAN) == ApprovalDecision(decision="revise", feedback="무게를 줄여줘")
    # Issue 11: a bare "revise" re-formed the same plan; now it asks what should change.
    assert answer("revise", PLAN) == answer("Revise.", PLAN) == answer("수정", PLAN) == "ask feedback"
    assert answer("revised", PLAN) is None and answer("what is this plan?", PLAN) is None


def test_zero_width_characters_are_invisible() -> None:
    assert visible("\u200b\u200d\ufeff") == "" and visible("ap\u200bprove") == "approve"
    assert read_typed("\u200b\u200b", PLAN, KEY) is None  # empty: the engine says so
    assert answer("ap\u200bproved", PLAN) == ApprovalDecision(decision="approve")
    assert answer("건너\u200b뛰기", ASK) == ClarificationAnswer(declined=True)


def test_someone_elses_question_is_not_answered_by_typing() -> None:
    theirs = ASK.model_copy(update={"asked_by": "test:ann"})
    assert read_typed("2", theirs, "test:bob") is None and answer("2", theirs, "test:ann") == ClarificationAnswer(
        answers=["Squat"]
    )
    assert isinstance(read_typed("2", ASK, "test:bob"), Typed)  # asked of nobody in particular
    assert "Edits aren't applied" in EDIT_HINT and "/undo" in EDIT_HINT


def test_closing_labels_say_what_closed_the_question() -> None:
    long = "x" * 150
    assert closing_label(Message(conversation=KEY, user=KEY, text="  the   squat ")) == "✓ the squat"
    assert closing_label(Message(conversation=KEY, user=KEY, text=long)) == "✓ " + "x" * 99 + "…"
    resume = Resume(conversation=KEY, user=KEY, interrupt_id="q1", answer=ClarificationAnswer(answers=["a"]))
    assert closing_label(resume) == "✓ a"  # a typed answer reads like what was typed
    skipped = resume.model_copy(update={"answer": ClarificationAnswer(declined=True)})
    assert closing_label(skipped) == "Skipped"
    approved = resume.model_copy(update={"answer": ApprovalDecision(decision="approve")})
    assert closing_label(approved) == "✓ Approved"
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


def test_a_failure_after_the_turn_is_a_reply_not_shown_never_try_again() -> None:
    """What follows ``engine.handle`` fails: the turn was done, so nobody is asked to send it again."""
    with pytest.raises(ReplyNotShown) as lost, after_the_turn([ASK]):
        raise RuntimeError("the post failed")
    assert lost.value.kinds == ["ask"] and isinstance(lost.value.__cause__, RuntimeError)
    # What the adapter deals with otherwise goes through unchanged.
    with pytest.raises(ConnectionError), after_the_turn([ASK], passing=(ConnectionError,)):
        raise ConnectionError("the gateway is gone")
    assert reply_not_shown(["logged"]).startswith("Your entry is saved, so there is no need to send it again")
    assert reply_not_shown(["ask"]).endswith(" /status shows my question.")
    slack = reply_not_shown(["failure"], command=lambda name: f"`/almanac {name}`")
    assert slack.startswith("I handled your message") and slack.endswith(" `/almanac retry` runs it again.")
    assert not any("try again" in reply_not_shown(kinds) for kinds in (["logged"], ["answer"], ["failure"], ["ask"]))
