"""Next-session targets through the engine: ``/next bench`` (a `Control`) and the question form ("what
should I do on bench next time?", "다음에 벤치 몇 kg 해야 해?") are answered by code from the log, with no
model call; a lift never logged and a word that names no lift are said plainly."""

from __future__ import annotations

from datetime import datetime, timezone

from engine.outcomes import Answer, Logged, Notice
from engine.turns import Control, Message
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama

CONV = USER = "console:kim"
NOW = datetime(2026, 11, 20, 3, 0, tzinfo=timezone.utc)  # noon in Seoul
LATER = datetime(2026, 11, 22, 3, 0, tzinfo=timezone.utc)


def msg(text: str, at: datetime = LATER) -> Message:
    return Message(conversation=CONV, user=USER, text=text, at=at)


def next_of(lift: str) -> Control:
    return Control(conversation=CONV, user=USER, action="next", argument=lift, at=LATER)


def chat_calls(fake: FakeOllama) -> list[str]:
    return [r.path for r in fake.requests if r.path == "/api/chat"]


async def log(engine: object, *texts: str) -> None:
    for text in texts:
        out = await engine.handle(msg(text, NOW))  # type: ignore[attr-defined]
        assert [type(o) for o in out] == [Logged], text


async def test_next_bench_gives_the_linear_target_with_its_rule_in_english_and_korean(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    async with open_engine(read_in_code=True) as engine:
        await log(engine, "bench 60kg 5x5", "squat 100kg 5x5")
        (bench,) = await engine.handle(next_of("bench"))
        (squat,) = await engine.handle(next_of("스쿼트"))
        (korean,) = await engine.handle(next_of("벤치"))
    assert isinstance(bench, Answer) and bench.text == (
        "Next bench press: 5 × 5 at 62.5 kg — linear progression: every work set of 60 kg × 5 was completed on "
        "2026-11-20, +2.5 kg (upper body).\n"
        "To plan it: “plan my next bench press session” (or “add that to my plan”)."
    )
    assert (
        isinstance(squat, Answer)
        and squat.language == "ko"
        and squat.text
        == (
            "다음 스쿼트: 105 kg로 5회 × 5세트 — 선형 증량: 2026-11-20에 100 kg × 5회 작업 세트를 모두 완료해서 +5 kg (하체).\n"
            "계획에 넣으려면: “다음 스쿼트 세션 계획해줘”."
        )
    )
    assert isinstance(korean, Answer) and "62.5 kg로 5회 × 5세트" in korean.text
    assert chat_calls(fake) == [] and fake.titles() == []


async def test_a_missed_set_repeats_the_weight(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine(read_in_code=True) as engine:
        await log(engine, "bench 60kg 5, 5, 5, 5, 3")
        (out,) = await engine.handle(next_of("bench press"))
    assert isinstance(out, Answer) and out.text == (
        "Next bench press: 5 × 5 at 60 kg again — a set was missed on 2026-11-20 (60 kg: 5, 5, 5, 5, 3), "
        "so the weight stays until every set is completed.\n"
        "To plan it: “plan my next bench press session” (or “add that to my plan”)."
    )
    assert fake.titles() == []


async def test_the_question_form_is_read_and_answered_in_code_in_english_and_korean(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    async with open_engine(read_in_code=True) as engine:
        await log(engine, "bench 60kg 5x5", "curl 12.5kg 12, 11, 10")
        english = await engine.handle(msg("what should I do on bench next time?"))
        korean = await engine.handle(msg("다음에 벤치 몇 kg 해야 해?"))
        curl = await engine.handle(msg("what's my curl target for next session?"))
    assert [type(o) for o in english] == [Answer]
    assert english[0].text.startswith("Next bench press: 5 × 5 at 62.5 kg — linear progression")
    assert [type(o) for o in korean] == [Answer] and korean[0].text.startswith("다음 벤치프레스: 62.5 kg로 5회 × 5세트")
    assert curl[0].text == (
        "Next biceps curl: 3 sets of 12, 12, 11 at 12.5 kg — double progression (8–12 reps): one more rep on "
        "every set below 12 (2026-11-20: 12, 11, 10).\n"
        "To plan it: “plan my next biceps curl session” (or “add that to my plan”)."
    )
    assert chat_calls(fake) == [] and fake.titles() == []  # no Router, Planner or Synthesizer


async def test_no_history_and_an_unknown_lift_are_said_plainly(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine(read_in_code=True) as engine:
        (never,) = await engine.handle(next_of("deadlift"))
        (ko,) = await engine.handle(next_of("데드"))
        (unknown,) = await engine.handle(next_of("xyzzy"))
        (run,) = await engine.handle(next_of("running"))
        asked = await engine.handle(msg("what should I do on squat next time?"))
    assert isinstance(never, Answer) and never.text == (
        "You haven't logged deadlift yet, so there is no last session to build a target from. Log one and ask again."
    )
    assert isinstance(ko, Answer) and ko.text.startswith("아직 데드리프트 기록이 없어")
    assert isinstance(unknown, Notice) and unknown.code == "unknown_lift"
    assert unknown.text == "I don't know a lift called “xyzzy”. Next-session targets are for lifts, e.g. /next bench."
    assert isinstance(run, Notice) and run.code == "unknown_lift"
    assert [o.text for o in asked if isinstance(o, Answer)] == [
        "You haven't logged squat yet, so there is no last session to build a target from. Log one and ask again."
    ]
    assert fake.titles() == []


async def test_two_lifts_named_get_a_target_each(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine(read_in_code=True) as engine:
        await log(engine, "bench 60kg 5x5", "squat 100kg 5x5")
        (asked,) = await engine.handle(msg("what should I do on bench and squat next time?"))
        (command,) = await engine.handle(next_of("bench squat"))
    assert isinstance(asked, Answer) and asked.text.splitlines() == [
        "Next bench press: 5 × 5 at 62.5 kg — linear progression: every work set of 60 kg × 5 was completed on "
        "2026-11-20, +2.5 kg (upper body).",
        "Next squat: 5 × 5 at 105 kg — linear progression: every work set of 100 kg × 5 was completed on "
        "2026-11-20, +5 kg (lower body).",
        "To plan it: “plan my next bench press session” (or “add that to my plan”).",
    ]
    assert isinstance(command, Answer) and command.text == asked.text
    assert fake.titles() == []
