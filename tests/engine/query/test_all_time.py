"""All-time questions on an imported Strong export (tests/data/strong_history.csv), with a
model that states wrong numbers in every field: the person sees the true records
from code and none of the model's numbers, in English and in Korean."""

from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest

from engine.engine import Engine
from engine.outcomes import Answer
from engine.turns import Message
from tests.conftest import OpenEngine
from tests.engine.facts.test_history import import_history
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts

CONV = USER = "console:lee"
NOW = datetime(2026, 11, 22, 1, 0, tzinfo=timezone.utc)  # Sunday 10:00 in Seoul

# Every number the model says, in every field of every agent.
LIES_EN = "Your heaviest bench press ever is 125 kg, set on 2024-03-01 for five reps: 30% more than in 2023."
LIES_KO = "역대 벤치프레스 최고 기록은 125kg이고 2024년 3월 1일에 다섯 번 들었어요. 작년보다 삼십 퍼센트 늘었어요."
MODEL_NUMBERS = ("125", "2024-03-01", "five", "30%", "2023", "다섯", "삼십", "2024년 3월 1일", "12 times", "7 days")


def lying_model(fake: FakeOllama, answer: str, domains: list[str] | None = None) -> None:
    router = scripts.router("QUERY", domains or ["strength"])
    router.reasoning = "they benched 125 kg five times"
    fake.default("RouterOutput", router)
    planner = scripts.planner("retrieve", "date_range", 7, ["bench press 125 kg"])
    planner.reasoning, planner.sub_queries = "125 kg in the last 7 days", ["was it 125 kg on 2024-03-01?"]
    fake.default("PlannerOutput", planner)
    analyzer = scripts.analyzer("sufficient")
    analyzer.findings, analyzer.patterns = ["heaviest bench 125 kg on 2024-03-01"], ["up 30% since 2023, 12 times"]
    fake.default("AnalyzerOutput", analyzer)
    fake.default("SynthesizerOutput", lies(answer))


def lies(remark: str) -> dict[str, object]:
    """Claims a lying model sends: false words in every note and the remark, and ids that do not fit
    their kind (a count citing the first value offered, a record citing the second, an id never offered)."""
    return scripts.claims(
        scripts.claim("count", "F1", note="You benched 125 kg five times."),
        scripts.claim("record", "F2", note="30% more than in 2023, on 2024-03-01."),
        scripts.claim("trend", "F3", note="It went up twelve times in 7 days."),
        scripts.claim("record", "F999", note="125 kg"),
        scripts.claim("value", "E1", note="역대 최고 기록은 125kg이고 다섯 번 들었어요."),
        remark=remark,
    )


async def ask(engine: Engine, text: str) -> Answer:
    (answer,) = await engine.handle(Message(conversation=CONV, user=USER, text=text, at=NOW))
    assert isinstance(answer, Answer), answer
    for number in MODEL_NUMBERS:
        assert not re.search(rf"(?<![\w.-]){re.escape(number)}(?![\w.-])", answer.text), (number, answer.text)
    return answer


async def imported(engine: Engine) -> None:
    await import_history(engine.entries.db, USER)


async def test_heaviest_bench_ever_in_english(open_engine: OpenEngine, fake: FakeOllama) -> None:
    lying_model(fake, LIES_EN)
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, "What is my heaviest bench press variation ever?")  # a family word: every variation
    # Code states the records the question asks for, one per variation, whatever the model chose.
    lines = answer.text.splitlines()
    assert lines[:3] == [
        "Heaviest completed set of bench press, all time: 100 kg × 3 (2025-06-12).",
        "Heaviest completed set of incline bench press, all time: 75 kg × 5 (2025-06-07).",
        "Heaviest completed set of dumbbell bench press, all time: 35.5 kg × 8 (2025-06-07).",
    ]
    # The liar's record claim on a record (F2) is stated by code, truly; its words are not.
    assert "Best estimated 1RM (Epley) of bench press, all time: 110.8 kg (95 kg × 5) (2025-06-07)." in lines
    assert "105" not in answer.text  # the failed attempt is never a record
    assert not answer.partial
    assert any(c.on is not None and c.on.isoformat() == "2025-06-12" for c in answer.citations)
    # One call: some claims were usable, the rest dropped in code; nothing to ask again.
    assert len(fake.calls("SynthesizerOutput")) == 1


async def test_heaviest_bench_ever_in_korean(open_engine: OpenEngine, fake: FakeOllama) -> None:
    lying_model(fake, LIES_KO)
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, "역대 벤치프레스 최고 기록이 뭐야?")
    assert (
        answer.text.splitlines()[0] == "벤치프레스 최고 중량 (완료한 세트) (전체 기간): 100kg × 3회 (2025년 6월 12일)."
    )
    assert "Korean" in str(fake.calls("SynthesizerOutput")[0]["messages"][0]["content"])
    assert not re.search(r"[A-Za-z]{4,}", answer.text.replace("RM", "")), answer.text  # no English words


async def test_deadlift_variations_are_named_apart(open_engine: OpenEngine, fake: FakeOllama) -> None:
    lying_model(fake, "Your best deadlift is 230 kg.")
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, "What's my heaviest deadlift variation ever?")
    assert "230" not in answer.text
    assert "Heaviest completed set of deadlift, all time: 175 kg × 2 (2024-09-15)." in answer.text
    assert "Heaviest completed set of trap bar deadlift, all time: 200 kg × 1 (2025-03-03)." in answer.text
    assert "185" not in answer.text  # the set marked F is no record


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How often did I train in March 2021?", "Days with a workout, 2021-03-01 to 2021-03-31: 6 days."),
        ("2021년 3월에 몇 번 운동했어?", "운동한 날 (2021년 3월): 6일."),
        ("How many days did I train last year?", "Days with a workout, 2025-01-01 to 2025-12-31: 17 days."),
        ("작년에 몇 번 운동했어?", "운동한 날 (2025년): 17일."),
    ],
)
async def test_frequency_over_a_named_period(
    open_engine: OpenEngine, fake: FakeOllama, question: str, expected: str
) -> None:
    lying_model(fake, "You trained 12 times in 7 days.")
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, question)
    assert answer.text.splitlines()[0] == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # A count in a named month: the bench sessions of March 2021 (2021-03-02 and 2021-03-17).
        (
            "How many times did I bench in March 2021?",
            ["Sessions of bench press, 2021-03-01 to 2021-03-31: 2 sessions."],
        ),
        ("2021년 3월에 벤치 몇 번 했어?", ["벤치프레스 세션 수 (2021년 3월): 2회."]),
        # A volume in a named month: two squat days of 3 × 80×5 (the 60×10 warm-ups are no working sets).
        (
            "What was my squat volume in March 2021?",
            ["Volume (weight × reps) of squat, 2021-03-01 to 2021-03-31: 2400 kg."],
        ),
        ("2021년 3월 스쿼트 볼륨은?", ["스쿼트 볼륨 (2021년 3월): 2400kg."]),
        # Two named weeks: 82.5 kg × 5 on 2021-04-11 against 80 kg × 5 on 2021-03-22; the direction is code's.
        (
            "Compare my squat in the fourth week of March 2021 with the second week of April 2021",
            [
                "Heaviest completed set of squat, 2021-04-08 to 2021-04-14: 82.5 kg × 5 (2021-04-11); heaviest completed "
                "set of squat, 2021-03-22 to 2021-03-28: 80 kg × 5 (2021-03-22) — up by 2.5 kg.",
                "Volume (weight × reps) of squat, 2021-04-08 to 2021-04-14: 1237.5 kg; volume (weight × reps) of squat, "
                "2021-03-22 to 2021-03-28: 1200 kg — up by 37.5 kg.",
            ],
        ),
        (
            "2021년 4월 둘째 주 스쿼트가 2021년 3월 넷째 주보다 나아졌어?",
            [
                "스쿼트 최고 중량 (완료한 세트) (2021년 4월 8일 ~ 2021년 4월 14일): 82.5kg × 5회 (2021년 4월 11일); "
                "스쿼트 최고 중량 (완료한 세트) (2021년 3월 22일 ~ 2021년 3월 28일): 80kg × 5회 (2021년 3월 22일) — 2.5kg 늘었어요.",
                "스쿼트 볼륨 (2021년 4월 8일 ~ 2021년 4월 14일): 1237.5kg; 스쿼트 볼륨 (2021년 3월 22일 ~ 2021년 3월 28일): "
                "1200kg — 37.5kg 늘었어요.",
            ],
        ),
    ],
)
async def test_named_periods_answer_with_true_figures(
    open_engine: OpenEngine, fake: FakeOllama, question: str, expected: list[str]
) -> None:
    """Counts and volumes in a named month, and two named weeks compared: the figures are code's,
    stated first, whatever the lying model chose."""
    lying_model(fake, LIES_KO if "주" in question or "월" in question else LIES_EN)
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, question)
    assert answer.text.splitlines()[: len(expected)] == expected, answer.text
    assert not answer.partial


async def test_strongest_lift_and_longest_run(open_engine: OpenEngine, fake: FakeOllama) -> None:
    lying_model(fake, "Your strongest lift is a 125 kg bench and your longest run was 42 km.", ["strength", "running"])
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, "What is my strongest lift, and my longest run ever?")
    assert "42" not in answer.text
    assert "trap bar deadlift, all time: 200 kg × 1 (2025-03-03)." in answer.text
    assert "ongest run, all time: 21.1 km (2023-10-08)." in answer.text


async def test_a_right_answer_in_claims_reads_in_korean(open_engine: OpenEngine, fake: FakeOllama) -> None:
    lying_model(fake, "")
    fake.default(
        "SynthesizerOutput",
        scripts.cite(
            ("record", "heaviest completed set of bench press, all time"),
            ("value", "heaviest failed attempt (not completed, never a record) of bench press"),
            remark="무리하지 말고 자세를 지키세요.",
        ),
    )
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, "벤치프레스 역대 최고 기록 알려줘")
    assert not answer.partial
    assert answer.text.splitlines() == [
        "벤치프레스 최고 중량 (완료한 세트) (전체 기간): 100kg × 3회 (2025년 6월 12일).",
        "벤치프레스 가장 무거운 실패 시도 (기록 아님) (전체 기간): 105kg (시도, 완료 못 함) (2025년 7월 1일).",
        "무리하지 말고 자세를 지키세요.",
    ]
    assert not re.search(r"\d+ reps|\d+ sets", answer.text)


def unusable(fake: FakeOllama) -> None:
    """A model whose every claim fails the check, every time it is asked."""
    fake.default(
        scripts.claims(
            scripts.claim("count", "F999", note="125 kg"),
            scripts.claim("summary", "F1"),
            remark="12 times in 7 days",
        )
    )


async def test_how_often_is_answered_with_the_count_when_the_model_gives_nothing_usable(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    """The fallback answers the question asked: for "how often", the count, not a list of records."""
    lying_model(fake, "")
    unusable(fake)
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, "How often did I bench in March 2021?")
    assert answer.text == "Sessions of bench press, 2021-03-01 to 2021-03-31: 2 sessions."
    assert len(fake.calls("SynthesizerOutput")) == 1  # code answered the question it read: nothing to ask again


async def test_a_fallback_is_short_and_entirely_korean(open_engine: OpenEngine, fake: FakeOllama) -> None:
    """No usable claim and nothing code read the question to ask: code's own short answer, in Korean only."""
    lying_model(fake, "")
    unusable(fake)
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, "내 스쿼트 어때?")
    lines = answer.text.splitlines()
    assert answer.partial and lines[0].startswith("확인된 답변을 쓰지 못해")
    assert 2 <= len(lines) <= 6, lines
    assert all("스쿼트" in line for line in lines[1:]), lines  # about what was asked
    assert not re.search(r"[A-Za-z]{3,}", answer.text.replace("RM", "")), answer.text
    assert answer.language == "ko"
    assert len(fake.calls("SynthesizerOutput")) == 2  # asked again once, with the reasons
