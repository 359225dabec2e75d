"""Plans code forms (engine.tasks.coded): a next-session target or a deload week as planned sessions, through
the usual Approve / Revise / Cancel, with no model call until a Revise asks for one.

The history (seeded), Mondays and Thursdays, 3 sets each: 10-26 100 × 5, 10-29 102.5 × 5, then 105 kg on
11-02, 11-05, 11-09, 11-12, 11-16, 11-19 (the last × 4). Asked on Sunday 2026-11-22:

* usual days: Monday and Thursday (4 times each in the last 8 weeks) → Mon 11-23, Thu 11-26;
* weekly frequency: 8 sessions in the last 4 weeks → 2 a week;
* deload: 90 % of 105 kg = 94.5, down to the 2.5 kg plate → 92.5 kg, 3 × 4 (the last session's sets and reps);
* next target: every set of 105 × 4 completed → +2.5 kg (upper body) → 107.5 kg, 3 × 4, on Monday 11-23.
"""

from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any

from engine.engine import Engine
from engine.outcomes import Answer, ApprovalRequest, Logged, Notice
from engine.turns import ApprovalDecision, Control, Message, Resume
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts
from tests.helpers.outcomes import after_closing

CONV = USER = "console:park"
NOW = datetime(2026, 11, 22, 1, 0, tzinfo=timezone.utc)  # Sunday 10:00 in Seoul
SESSIONS = [
    (date(2026, 10, 26), 100, 5), (date(2026, 10, 29), 102.5, 5), (date(2026, 11, 2), 105, 5),
    (date(2026, 11, 5), 105, 5), (date(2026, 11, 9), 105, 4), (date(2026, 11, 12), 105, 5),
    (date(2026, 11, 16), 105, 5), (date(2026, 11, 19), 105, 4),
]  # fmt: skip


def say(text: str) -> Message:
    return Message(conversation=CONV, user=USER, text=text, at=NOW)


def decide(req: ApprovalRequest, decision: str, feedback: str = "") -> Resume:
    return Resume(
        conversation=CONV,
        user=USER,
        interrupt_id=req.interrupt_id,
        answer=ApprovalDecision(decision=decision, feedback=feedback),  # type: ignore[arg-type]
        at=NOW,
    )


async def seed(engine: Engine) -> None:
    await engine.entries.add(USER, [scripts.bench_entry(d, w, reps=r, sets=3) for d, w, r in SESSIONS])


async def planned(engine: Engine) -> list[tuple[str, Any, Any, int]]:
    found = await engine.entries.between(USER, date(2026, 11, 20), date(2026, 12, 31), kinds=("planned",))
    out = []
    for e in found:
        (ex,) = e.data["exercises"]
        details = ex["set_details"]
        out.append((e.occurred_on.isoformat(), details[0]["weight"], details[0]["reps"], len(details)))
    return sorted(out)


async def test_a_deload_week_is_planned_in_code_and_approve_adds_exactly_it(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    async with open_engine() as engine:
        await seed(engine)
        (req,) = await engine.handle(say("plan a deload week for bench"))
        assert isinstance(req, ApprovalRequest) and req.confidence == 1.0
        assert fake.titles() == []  # no Router, no Former
        assert req.title == "Plan a deload week of bench press"
        assert req.summary.splitlines() == [
            "1. Deload bench press 2 times (2 a week over the last 4 weeks): 3 × 4 at 92.5 kg each — 90% of the "
            "last work weight, 105 kg (2026-11-19), rounded down to the plate increment.",
            "2. When: 2026-11-23 (Monday), 2026-11-26 (Thursday) — your usual bench press days (last 8 weeks).",
            "Changes (2):",
            "- plan 2026-11-23: bench press 3×4 @ 92.5 kg",
            "- plan 2026-11-26: bench press 3×4 @ 92.5 kg",
        ]
        assert req.evidence and req.evidence[0].ref.startswith("entry:") and req.evidence[0].on == date(2026, 11, 19)
        assert await planned(engine) == []  # nothing until Approve
        out = after_closing(await engine.handle(decide(req, "approve")), req, "Approved")
        assert isinstance(out[0], Logged) and {e.action for e in out[0].entries} == {"planned"}
        assert await planned(engine) == [("2026-11-23", 92.5, 4, 3), ("2026-11-26", 92.5, 4, 3)]
    assert fake.titles() == []


async def test_add_that_to_my_plan_after_next_plans_the_target(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        await seed(engine)
        (nxt,) = await engine.handle(Control(conversation=CONV, user=USER, action="next", argument="bench", at=NOW))
        assert isinstance(nxt, Answer) and nxt.text.startswith("Next bench press: 3 × 4 at 107.5 kg")
        (req,) = await engine.handle(say("add that to my plan"))
        assert isinstance(req, ApprovalRequest) and req.title == "Plan the next bench press session"
        assert req.summary.splitlines()[1:] == [
            "2. When: 2026-11-23 (Monday) — your usual bench press day (last 8 weeks).",
            "Changes (1):",
            "- plan 2026-11-23: bench press 3×4 @ 107.5 kg",
        ]
        after_closing(await engine.handle(decide(req, "approve")), req, "Approved")
        assert await planned(engine) == [("2026-11-23", 107.5, 4, 3)]
    assert fake.titles() == []


async def test_korean_next_session_then_cancel_adds_nothing(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        await seed(engine)
        (req,) = await engine.handle(say("다음 벤치 세션 계획해줘"))
        assert isinstance(req, ApprovalRequest) and req.title == "다음 벤치프레스 세션 계획"
        assert "날짜: 2026-11-23 (월요일) — 평소 벤치프레스 하는 요일이에요 (최근 8주)." in req.summary
        assert "- plan 2026-11-23: bench press 3×4 @ 107.5 kg" in req.summary
        out = after_closing(await engine.handle(decide(req, "cancel")), req)
        assert isinstance(out[-1], Notice) and out[-1].code == "cancelled"
        assert await planned(engine) == []
    assert fake.titles() == []


async def test_korean_deload_of_the_lift_a_stall_answer_named(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        await seed(engine)
        (stall,) = await engine.handle(say("벤치 정체야?"))
        assert isinstance(stall, Answer) and "디로드 주 계획해줘" in stall.text
        (req,) = await engine.handle(say("디로드 주 계획해줘"))
        assert isinstance(req, ApprovalRequest) and req.title == "벤치프레스 디로드 주 계획"
        assert req.summary.splitlines()[0] == (
            "1. 벤치프레스 디로드 2회 (최근 4주 주당 2회): 세션마다 92.5 kg로 4회 × 3세트 — 최근 작업 중량 "
            "105 kg(2026-11-19)의 90%, 원판 단위로 내림."
        )
    assert fake.titles() == []


async def test_revise_goes_to_the_model_with_the_code_plan_as_previous(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    fake.script("TaskFormationOutput", scripts.good_plan((95, 95, 95)))
    async with open_engine() as engine:
        await seed(engine)
        (req,) = await engine.handle(say("plan a deload week for bench"))
        assert isinstance(req, ApprovalRequest) and fake.titles() == []
        await engine.handle(decide(req, "revise", "three sessions please"))
        (former,) = fake.calls("TaskFormationOutput")
        prompt = former["messages"][1]["content"]
        assert "three sessions please" in prompt and "bench press 3×4 @ 92.5 kg" in prompt
        assert await planned(engine) == []


async def test_a_done_deload_is_neither_a_stall_nor_a_decline(open_engine: OpenEngine, fake: FakeOllama) -> None:
    # Counted, 92.5 × 4 (e1RM 104.8) on 11-23 and 11-26 would make the last four 122.5, 119, 104.8, 104.8: a
    # decline. Left out, the last three are still 11-12, 11-16, 11-19 against 122.5 on 11-02: the plateau.
    async with open_engine() as engine:
        await seed(engine)
        (req,) = await engine.handle(say("plan a deload week for bench"))
        assert isinstance(req, ApprovalRequest)
        after_closing(await engine.handle(decide(req, "approve")), req, "Approved")
        for day in (23, 26):
            when = datetime(2026, 11, day, 1, 0, tzinfo=timezone.utc)
            out = await engine.handle(Message(conversation=CONV, user=USER, text="bench 92.5kg 4, 4, 4", at=when))
            assert isinstance(out[0], Logged)
        later = datetime(2026, 11, 27, 1, 0, tzinfo=timezone.utc)
        (answer,) = await engine.handle(Message(conversation=CONV, user=USER, text="is my bench stalling?", at=later))
        assert await planned(engine) == []  # both planned deload sessions are done
    assert isinstance(answer, Answer) and answer.text.startswith(
        "Your bench press has stalled: no new best estimated 1RM or heavier work set in the last 3 sessions "
        "(2026-11-12 122.5 kg, 2026-11-16 122.5 kg, 2026-11-19 119 kg; the best before them: 122.5 kg on 2026-11-02)."
    )


async def test_the_deployment_plate_increment_snaps_targets_and_deloads(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    # Microplates: 1.25 kg. Deload: 94.5 kg → 93.75 (not 92.5); a curl of 12.5 kg × 12, 12, 12 at the top of its
    # 8–12 range → +1.25 kg = 13.75 kg × 8 (not 15).
    async with open_engine(plate_increment={"kg": 1.25}) as engine:
        await seed(engine)
        curl = await engine.handle(Message(conversation=CONV, user=USER, text="curl 12.5kg 12, 12, 12", at=NOW))
        assert isinstance(curl[0], Logged)
        (nxt,) = await engine.handle(Control(conversation=CONV, user=USER, action="next", argument="curl", at=NOW))
        (req,) = await engine.handle(say("plan a deload week for bench"))
    assert isinstance(req, ApprovalRequest) and "- plan 2026-11-23: bench press 3×4 @ 93.75 kg" in req.summary
    assert isinstance(nxt, Answer) and nxt.text.startswith("Next biceps curl: 3 × 8 at 13.75 kg")
