"""Two labelled sets of model answers, English and Korean: every wrong one is kept
from the person, every right one passes (the structural check, engine.query.grounding).

Wrong: numbers written by the model (digits, glued to letters, thousands,
years, times, percentages), number words (English, Korean native and
Sino-Korean), unit quantities, unknown references, and direction words that
disagree with a change's sign or a comparison's order. Right: the same
answers by reference, with ordinary words that look like numerals (no one,
one of, once you, 이번 주, 오늘, 일주일, 이상, 오일, 한번, 하나도, 천천히 …).
"""

from __future__ import annotations

from datetime import date

import pytest

from engine.facts import Fact
from engine.query.grounding import check_text
from engine.query.references import RefTable, build_table

F = [
    Fact(
        key="bench press.all_time.heaviest_set",
        label="heaviest completed set of bench press, all time",
        value=100,
        unit="kg",
        display="100 kg × 3",
        on=date(2025, 6, 12),
    ),
    Fact(
        key="bench press.all_time.best_e1rm",
        label="best estimated 1RM (Epley) of bench press, all time",
        value=110,
        unit="kg",
        display="110 kg (100 kg × 3)",
        on=date(2025, 6, 12),
    ),
    Fact(
        key="bench press.vs_previous.heaviest",
        label="change in heaviest set of bench press",
        value=2.5,
        unit="kg",
        display="+2.5 kg",
        change=True,
    ),
    Fact(
        key="bench press.vs_previous.volume",
        label="change in volume of bench press",
        value=-250,
        unit="kg",
        display="-250 kg",
        change=True,
    ),
    Fact(
        key="bench press.vs_previous.e1rm_pct",
        label="change in estimated 1RM of bench press in percent",
        value=4.8,
        unit="%",
        display="+4.8%",
        change=True,
    ),
    Fact(
        key="all.period.sessions",
        label="days with a workout, 2021-03-01 to 2021-03-31",
        value=12,
        unit="days",
        display="12 days",
    ),
    Fact(
        key="running.all_time.best_pace",
        label="fastest average pace of a run, all time",
        value=5.1,
        unit="min/km",
        display="5:06/km",
        on=date(2024, 1, 19),
        lower_is_better=True,
    ),
    Fact(
        key="running.vs_previous.pace",
        label="change in average pace of a run",
        value=-0.2,
        unit="min/km",
        display="-0:12/km",
        change=True,
        lower_is_better=True,
    ),
    Fact(
        key="squat.all_time.sessions",
        label="sessions of squat, all time",
        value=48,
        unit="sessions",
        display="48 sessions",
    ),
    Fact(
        key="deadlift.all_time.first",
        label="first session of deadlift, all time",
        value=738000,
        unit="date",
        display="2021-03-02",
        on=date(2021, 3, 2),
    ),
    Fact(
        key="trap bar deadlift.all_time.heaviest_set",
        label="heaviest completed set of trap bar deadlift",
        value=200,
        unit="kg",
        display="200 kg × 1",
        on=date(2024, 5, 1),
    ),
    Fact(
        key="bench press.all_time.failed_attempt",
        label="heaviest failed attempt of bench press",
        value=105,
        unit="kg",
        display="105 kg (attempted, 0 reps)",
        on=date(2025, 7, 1),
    ),
    Fact(
        key="running.all_time.longest",
        label="longest run, all time",
        value=21.1,
        unit="km",
        display="21.1 km",
        on=date(2024, 4, 7),
    ),
    Fact(
        key="squat.vs_previous.heaviest",
        label="change in heaviest set of squat",
        value=0,
        unit="kg",
        display="0 kg",
        change=True,
    ),
]


def table() -> RefTable:
    t = build_table(F, stated=["7 days", "100 kg"], days=[("March 2021", date(2021, 3, 1), date(2021, 3, 31))])
    t.add("entry", "2026-11-15 · bench press 52.5 kg × 10 reps × 5 sets", key="e1", on=date(2026, 11, 15))
    return t


WRONG_EN = [
    "Your heaviest bench press ever is 125 kg.",
    "You ran 10 km.",
    "Your total volume was 5,000 kg.",
    "In 2026 you improved a lot.",
    "You trained 3 times last week.",
    "Your run took 30 minutes.",
    "Your best is one hundred and twenty kilos.",
    "You benched PR120kg!",
    "Your bench is {F3} less than last time.",
    "Your volume went up {F4}.",
    "Your e1RM dropped {F5}.",
    "Your pace got slower by {F8}.",
    "Your pace is {F8} worse.",
    "You trained twice a week.",
    "You lifted a kilo more than last time.",
    "Your squat went up {F14}.",
    "Your best is {F99}.",
    "Your best is {X1}.",
    "You hit {F1}, that's 5 more reps than before.",
    "You did five sets.",
    "Half your sessions were squats.",
    "You benched 100 kg × 3 on June 12.",
    "Your e1RM rose 4.8%.",
    "You did ten reps at {Q2}.",
    "Your longest run was twenty-one km.",
    "You've logged a dozen sessions.",
    "Your pace was 5:06/km.",
    "You improved by ½ a kilo.",
    "You benched {F1}, heavier than your best e1RM {F2}.",
    "Your trap bar deadlift {F11} is lighter than your bench {F1}.",
    "",
    "That was the third time in a row.",
    "Your volume didn't drop: {F4}.",
    "That's an hour faster than before.",
    "Your bench is up {F4} since last time.",
]
WRONG_KO = [
    "벤치프레스 최고 기록은 125kg입니다.",
    "10km를 달렸어요.",
    "총 볼륨은 5,000kg이에요.",
    "2026년에 많이 늘었어요.",
    "지난주에 세 번 운동했어요.",
    "다섯 세트를 했어요.",
    "백이십 킬로를 들었어요.",
    "벤치가 {F3} 줄었어요.",
    "볼륨이 {F4} 늘었어요.",
    "추정 1RM이 {F5} 감소했어요.",
    "페이스가 {F8} 느려졌어요.",
    "스쿼트가 {F14} 증가했어요.",
    "최고 기록은 {F77}입니다.",
    "한 번 더 하면 {F1}를 넘을 거예요.",
    "일주일에 두 번 운동했어요.",
    "삼십 분 동안 달렸어요.",
    "오십 퍼센트 늘었어요.",
    "열 번 반복했어요.",
    "이틀 전에 {F1}를 들었어요.",
    "스무 세트를 했네요.",
    "최고 기록은 100킬로입니다.",
    "2월에 12번 운동했어요.",
    "지난 30일 동안 {F6} 운동했어요.",
    "볼륨이 {F4} 줄지 않았어요.",
    "{F11}은 {F1}보다 가벼워요.",
    "절반 이상이 스쿼트였어요.",
    "하나의 세트가 실패했어요.",
    "두 배로 늘었어요.",
    "여덟 회 반복했어요.",
    "백 퍼센트 완료했어요.",
    "오 분 빨라졌어요.",
    "십일월에 최고 기록을 세웠어요.",
    "벤치가 {F4} 증가했어요.",
]
RIGHT_EN = [
    "Your heaviest bench press ever is {F1}.",
    "Your best estimated 1RM on bench press is {F2}.",
    "Your top set went up by {F3} since last time.",
    "Your volume dropped {F4} compared with last time.",
    "Your e1RM rose {F5}.",
    "In {D1} you trained on {F6}.",
    "Your fastest pace is {F7}.",
    "Your pace got faster by {F8}.",
    "You have logged {F9} of squats.",
    "Your first deadlift session was on {F10}.",
    "Your trap bar deadlift record is {F11}, and your bench press record is {F1}; they are different exercises.",
    "You attempted {F12} but did not complete it, so it is not a record.",
    "Your longest run was {F13}.",
    "Your squat stayed the same: {F14}.",
    "In the last {Q1} you logged {E1}.",
    "You asked about {Q2}; your heaviest completed set is {F1}.",
    "Nice work! Keep it up.",
    "One of your best sessions was {E1}.",
    "No one gets stronger every week; your volume fell {F4} and that's normal.",
    "Your e1RM (an estimate of your 1RM) is {F2}.",
    "Your bench improved: {F3} more on your top set.",
    "At first your volume was higher; it is down {F4} now.",
    "Your last session was {E1}.",
    "Your best e1RM, {F2}, is heavier than your heaviest completed set, {F1}.",
    "Your trap bar deadlift {F11} is heavier than your bench {F1}.",
    "Warm-up sets don't count; your heaviest completed set is {F1}.",
    "Your volume didn't go up: it fell {F4}.",
    "Once you recover, try to beat {F1}.",
    "Your best e1RM is {F2}; that is your personal best.",
    "The first time you deadlifted was {F10}, and your latest session shows {E1}.",
    "You trained a few times this week and several times last month.",
    "1. Your record: {F1}\n2. Your estimate: {F2}",
    "Your top set is up {F3} and your volume is down {F4}.",
    "Someone who trains like you should rest; your e1RM is {F2}.",
]
RIGHT_KO = [
    "벤치프레스 최고 기록은 {F1}입니다.",
    "추정 1RM 최고치는 {F2}예요.",
    "지난번보다 최고 중량이 {F3} 늘었어요.",
    "볼륨은 {F4} 줄었어요.",
    "추정 1RM이 {F5} 증가했어요.",
    "{D1}에는 {F6} 운동했어요.",
    "가장 빠른 페이스는 {F7}이에요.",
    "페이스가 {F8} 빨라졌어요.",
    "스쿼트는 지금까지 {F9} 기록했어요.",
    "데드리프트 첫 세션은 {F10}이었어요.",
    "트랩바 데드리프트 기록은 {F11}이고 벤치프레스 기록은 {F1}입니다.",
    "{F12}를 시도했지만 실패해서 기록으로 치지 않아요.",
    "최장 거리는 {F13}입니다.",
    "스쿼트는 {F14}로 그대로예요.",
    "지난 {Q1} 동안 {E1}을 기록했어요.",
    "이번 주에도 꾸준히 운동하셨네요!",
    "오늘도 수고하셨어요. 천천히 회복하세요.",
    "일주일 동안 푹 쉬는 것도 좋아요.",
    "이상한 점은 없어요. 최근 세션은 {E1}이에요.",
    "올리브 오일 같은 건강한 지방도 도움이 돼요.",
    "일일 권장량을 지키세요.",
    "이 세트가 가장 무거웠어요: {F1}.",
    "한번 {F1}에 도전해 보세요.",
    "하나도 빠짐없이 기록하셨네요.",
    "사실 볼륨이 {F4} 줄어든 건 정상이에요.",
    "{F11}은 {F1}보다 무거워요.",
    "볼륨이 {F4} 늘지 않았어요.",
    "첫 세션보다 많이 발전했어요. 최고 기록은 {F1}입니다.",
    "열심히 하셨어요! 추정 1RM은 {F2}예요.",
    "영양 섭취도 중요해요. 최근 기록은 {E1}입니다.",
    "사회생활과 운동을 병행하느라 고생 많으셨어요.",
    "만약 다음에 {F1}를 넘기면 신기록이에요.",
    "둘 다 좋은 운동이에요: {F11}, {F1}.",
    "일요일에는 쉬고 월요일에 다시 시작하세요.",
]


def test_the_sets_are_big_enough() -> None:
    assert min(len(WRONG_EN), len(WRONG_KO), len(RIGHT_EN), len(RIGHT_KO)) >= 30


@pytest.mark.parametrize("answer", WRONG_EN + WRONG_KO)
def test_wrong_answer_never_reaches_the_person(answer: str) -> None:
    report = check_text(answer, table())
    assert not report.ok, answer
    assert report.feedback()


@pytest.mark.parametrize("answer", RIGHT_EN + RIGHT_KO)
def test_right_answer_is_never_rejected(answer: str) -> None:
    report = check_text(answer, table())
    assert report.ok, (answer, report)


def test_figures() -> None:
    """The two sets as figures: wrong answers let through, right answers rejected."""
    t = table()
    wrong_through = [a for a in WRONG_EN + WRONG_KO if check_text(a, t).ok]
    right_rejected = [a for a in RIGHT_EN + RIGHT_KO if not check_text(a, t).ok]
    assert (len(wrong_through), len(right_rejected)) == (0, 0), (wrong_through, right_rejected)
