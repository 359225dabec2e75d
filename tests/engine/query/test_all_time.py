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
    router["reasoning"] = "they benched 125 kg five times"
    fake.default("RouterOutput", router)
    planner = scripts.planner("retrieve", "date_range", 7, ["bench press 125 kg"])
    planner["reasoning"], planner["sub_queries"] = "125 kg in the last 7 days", ["was it 125 kg on 2024-03-01?"]
    fake.default("PlannerOutput", planner)
    analyzer = scripts.analyzer("sufficient")
    analyzer["findings"], analyzer["patterns"] = ["heaviest bench 125 kg on 2024-03-01"], ["up 30% since 2023, 12 times"]
    fake.default("AnalyzerOutput", analyzer)
    fake.default("SynthesizerOutput", scripts.synthesizer(answer))
    fake.default("EvaluatorOutput", scripts.evaluator("pass", feedback="all 125 kg correct"))


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
    assert answer.partial and answer.text.startswith("I couldn't write a checked answer")
    assert "- heaviest completed set of bench press, all time: 100 kg × 3 (2025-06-12)" in answer.text
    # The failed 105 kg is named as attempted, never as the record.
    assert "heaviest failed attempt (not completed, never a record) of bench press" in answer.text
    assert "105 kg (attempted, not completed) (2025-07-01)" in answer.text
    # Variations stay apart and are named.
    assert "dumbbell bench press, all time: 35.5 kg × 8" in answer.text
    assert any(c.on is not None and c.on.isoformat() == "2025-06-12" for c in answer.citations)
    # The answer was checked three times (first try and two re-writes), each rejected in code.
    assert len(fake.calls("SynthesizerOutput")) == 3 and fake.calls("EvaluatorOutput") == []


async def test_heaviest_bench_ever_in_korean(open_engine: OpenEngine, fake: FakeOllama) -> None:
    lying_model(fake, LIES_KO)
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, "역대 벤치프레스 최고 기록이 뭐야?")
    assert answer.text.startswith("확인된 답변을 쓰지 못해")
    assert "- 벤치프레스 최고 중량 (완료한 세트) (전체 기간): 100kg × 3회 (2025년 6월 12일)" in answer.text
    assert "105kg (시도, 완료 못 함)" in answer.text
    assert "Write in Korean" in str(fake.calls("SynthesizerOutput")[0]["messages"][0]["content"])


async def test_deadlift_variations_are_named_apart(open_engine: OpenEngine, fake: FakeOllama) -> None:
    lying_model(fake, "Your best deadlift is 230 kg.")
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, "What's my heaviest deadlift variation ever?")
    assert "230" not in answer.text
    assert "heaviest completed set of deadlift, all time: 175 kg × 2 (2024-09-15)" in answer.text
    assert "heaviest completed set of trap bar deadlift, all time: 200 kg × 1 (2025-03-03)" in answer.text
    assert "185 kg (attempted, not completed)" in answer.text  # the set marked F


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How often did I train in March 2021?", "- days with a workout, 2021-03-01 to 2021-03-31: 6 days"),
        ("2021년 3월에 몇 번 운동했어?", "- 운동한 날 (2021년 3월): 6일"),
        ("How many days did I train last year?", "- days with a workout, 2025-01-01 to 2025-12-31: 17 days"),
        ("작년에 몇 번 운동했어?", "- 운동한 날 (2025년): 17일"),
    ],
)
async def test_frequency_over_a_named_period(open_engine: OpenEngine, fake: FakeOllama, question: str, expected: str) -> None:
    lying_model(fake, "You trained 12 times in 7 days.")
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, question)
    assert expected in answer.text


async def test_strongest_lift_and_longest_run(open_engine: OpenEngine, fake: FakeOllama) -> None:
    lying_model(fake, "Your strongest lift is a 125 kg bench and your longest run was 42 km.", ["strength", "running"])
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, "What is my strongest lift, and my longest run ever?")
    assert "42" not in answer.text
    assert "trap bar deadlift, all time: 200 kg × 1 (2025-03-03)" in answer.text
    assert "longest run, all time: 21.1 km (2023-10-08)" in answer.text


async def test_a_right_answer_by_reference_reads_in_korean(open_engine: OpenEngine, fake: FakeOllama) -> None:
    lying_model(fake, "")
    fake.default(
        "SynthesizerOutput",
        scripts.refer(
            "역대 최고 기록은 {top}이에요. {miss}는 시도했지만 기록은 아니에요.",
            top="heaviest completed set of bench press, all time",
            miss="heaviest failed attempt (not completed, never a record) of bench press",
        ),
    )
    async with open_engine() as engine:
        await imported(engine)
        answer = await ask(engine, "벤치프레스 역대 최고 기록 알려줘")
    assert not answer.partial
    assert answer.text == (
        "역대 최고 기록은 100kg × 3회 (2025년 6월 12일)이에요. "
        "105kg (시도, 완료 못 함) (2025년 7월 1일)는 시도했지만 기록은 아니에요."
    )
    assert not re.search(r"\d+ reps|\d+ sets", answer.text)
