"""A stall said by code: under "✓ logged" once per stall, and when the lift is asked about ("is my bench
stalling?", "벤치 정체야?", ``/next bench``), with no model call.

The history, Mondays and Thursdays, 3 sets each (e1RM by Epley, w × (1 + r/30)):

  s1 10-26 100 × 5   116.7      s5 11-09 105 × 4   119
  s2 10-29 102.5 × 5 119.6      s6 11-12 105 × 5   122.5   ← plateau: s4–s6 tie s3's 122.5, no heavier set
  s3 11-02 105 × 5   122.5      s7 11-16 105 × 5   122.5   ← the same stall (since s3): not said again
  s4 11-05 105 × 5   122.5      s8 11-19 105 × 4   119

Trend of s3–s6: slope −0.35 a session, a fall of 1.05 < 2.5 % of 121.6: no decline; of s5–s8: slope 0.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

from engine.outcomes import Answer, Logged, Record
from engine.turns import Control, Message
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama

CONV = USER = "console:lee"
HISTORY = [
    (date(2026, 10, 26), "bench 100kg 5, 5, 5"),
    (date(2026, 10, 29), "bench 102.5kg 5, 5, 5"),
    (date(2026, 11, 2), "bench 105kg 5, 5, 5"),
    (date(2026, 11, 5), "bench 105kg 5, 5, 5"),
    (date(2026, 11, 9), "bench 105kg 4, 4, 4"),
    (date(2026, 11, 12), "bench 105kg 5, 5, 5"),
    (date(2026, 11, 16), "bench 105kg 5, 5, 5"),
    (date(2026, 11, 19), "bench 105kg 4, 4, 4"),
]
ASKED = datetime(2026, 11, 22, 1, 0, tzinfo=timezone.utc)  # Sunday 10:00 in Seoul
PLATEAU_EN = (
    "Your bench press has stalled: no new best estimated 1RM or heavier work set in the last 3 sessions "
    "(2026-11-05 122.5 kg, 2026-11-09 119 kg, 2026-11-12 122.5 kg; the best before them: 122.5 kg on 2026-11-02). "
    "A deload week at 90% may help: say “plan a deload week for bench press”."
)


def at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 1, 0, tzinfo=timezone.utc)


def stalls(out: list[object]) -> list[Record]:
    (logged,) = [o for o in out if isinstance(o, Logged)]
    return [r for e in logged.entries for r in e.records if r.kind == "stall"]


async def log_history(engine: object, upto: int = len(HISTORY)) -> list[list[Record]]:
    said = []
    for day, text in HISTORY[:upto]:
        out = await engine.handle(Message(conversation=CONV, user=USER, text=text, at=at(day)))  # type: ignore[attr-defined]
        said.append(stalls(out))
    return said


async def test_the_plateau_is_said_once_when_logged(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        said = await log_history(engine)
    assert [len(s) for s in said] == [0, 0, 0, 0, 0, 1, 0, 0]
    (stall,) = said[5]
    assert stall.text == PLATEAU_EN
    assert (stall.subject, stall.value, stall.unit, stall.previous_on) == (
        "bench press",
        122.5,
        "kg",
        date(2026, 11, 2),
    )
    assert fake.titles() == []


async def test_asked_in_english_and_korean_and_under_next(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        await log_history(engine, 6)
        english = await engine.handle(Message(conversation=CONV, user=USER, text="is my bench stalling?", at=ASKED))
        korean = await engine.handle(Message(conversation=CONV, user=USER, text="벤치 정체야?", at=ASKED))
        (nxt,) = await engine.handle(Control(conversation=CONV, user=USER, action="next", argument="bench", at=ASKED))
    assert [type(o) for o in english] == [Answer] and english[0].text == PLATEAU_EN
    assert [type(o) for o in korean] == [Answer] and korean[0].text == (
        "벤치프레스 정체: 최근 3회 세션에서 추정 1RM과 최고 중량 모두 경신이 없어요 (2026년 11월 5일 122.5 kg, "
        "2026년 11월 9일 119 kg, 2026년 11월 12일 122.5 kg; 그 전 최고: 2026년 11월 2일 122.5 kg). "
        "90% 디로드 주가 도움이 될 수 있어요: “벤치프레스 디로드 주 계획해줘”."
    )
    assert isinstance(nxt, Answer) and nxt.text.splitlines() == [
        "Next bench press: 3 × 5 at 107.5 kg — linear progression: every work set of 105 kg × 5 was completed on "
        "2026-11-12, +2.5 kg (upper body).",
        PLATEAU_EN,
        "To plan it: “plan my next bench press session” (or “add that to my plan”).",
    ]
    assert fake.titles() == []


async def test_no_stall_is_said_with_its_numbers(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        await log_history(engine, 4)
        (few,) = await engine.handle(Message(conversation=CONV, user=USER, text="is my squat stalling?", at=ASKED))
        (bench,) = await engine.handle(Message(conversation=CONV, user=USER, text="is my bench stalling?", at=ASKED))
    assert isinstance(few, Answer) and few.text.startswith("You haven't logged squat yet")
    # s2–s4: best 122.5 (11-02) against 116.7 (10-26) before them; the trend s1–s4 rises.
    assert isinstance(bench, Answer) and bench.text == (
        "No stall on bench press: the best estimated 1RM of the last 3 sessions is 122.5 kg on 2026-11-02 "
        "(the best before them: 116.7 kg on 2026-10-26), and it is not trending down."
    )
