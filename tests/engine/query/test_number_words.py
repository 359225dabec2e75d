"""Count and frequency words a 7B model writes in answers, English and Korean.

Each FOUND sentence states a number without a digit (once, both days, every
day, 열두 번, 서너 번, 하루만, 매일) and must be caught with the words named;
each NOT_FOUND sentence only looks like one (once you, at once, a few, 일주일
만에, 벤치만, 좋은 하루, 두 번째) and must pass. The rules are in the
docstring of :mod:`engine.query.number_reading`.
"""

from __future__ import annotations

import pytest

from engine.query.number_reading import Numeral, numerals
from engine.query.references import REF

FOUND_EN = [
    ("You benched once this week.", ["once"]),
    ("Only once this week did you squat.", ["once"]),
    ("You deadlifted once.", ["once"]),
    ("You trained once a week.", ["once"]),
    ("You ran once or twice.", ["once", "twice"]),
    ("You've hit {F1} more than once.", ["once"]),
    ("You benched twice this week.", ["twice"]),
    ("You squatted thrice last month.", ["thrice"]),
    ("You benched a couple of times this week.", ["a couple of times"]),
    ("You ran a couple times.", ["a couple times"]),
    ("You skipped a couple of sessions.", ["a couple of sessions"]),
    ("You added a couple more sets.", ["a couple more sets"]),
    ("You trained legs both days.", ["both days"]),
    ("Both sessions were heavy.", ["Both sessions"]),
    ("You hit {F1} both times.", ["both times"]),
    ("Both of your bench workouts went up.", ["Both of your bench workouts"]),
    ("You trained every day this week.", ["every day"]),
    ("You benched every single day.", ["every single day"]),
    ("You've been running daily.", ["daily"]),
    ("You squatted every other day.", ["every other day"]),
    ("Each day you trained, your volume rose.", ["Each day"]),
    ("You did a single session this week.", ["a single"]),
    ("Not a single session was missed.", ["a single"]),
    ("You hit a single at {F1}.", ["a single"]),
    ("There were no sessions last week.", ["no sessions"]),
    ("You logged zero runs.", ["zero"]),
    ("You've logged a dozen sessions.", ["dozen"]),
]
FOUND_KO = [
    # Native numerals past ten: the tens word and the unit are one number.
    ("벤치프레스를 열두 번 했어요.", ["열두 번"]),
    ("열한 번 운동했어요.", ["열한 번"]),
    ("스쿼트를 열세 세트 했네요.", ["열세 세트"]),
    ("열네 번이나 달렸어요.", ["열네 번이나"]),
    ("열다섯 세트를 했어요.", ["열다섯"]),
    ("열여섯 번 들었어요.", ["열여섯"]),
    ("열일곱 세트였어요.", ["열일곱"]),
    ("열여덟 번 반복했어요.", ["열여덟"]),
    ("열아홉 세트를 끝냈어요.", ["열아홉"]),
    ("세트가 모두 열하나예요.", ["열하나예요"]),
    ("스물한 번 했어요.", ["스물한 번"]),
    ("스물두 세트를 했네요.", ["스물두 세트를"]),
    ("서른세 번 달렸어요.", ["서른세 번"]),
    ("세트 수가 스물하나였어요.", ["스물하나였어요"]),
    ("열두번 했어요.", ["열두번"]),
    ("열한번 반복했어요.", ["열한번"]),
    # Approximate counts are still counts.
    ("이번 주에 한두 번 빠졌어요.", ["한두 번"]),
    ("두세 번 더 하면 돼요.", ["두세 번"]),
    ("서너 번 달렸어요.", ["서너 번"]),
    ("종목을 서너 가지 했어요.", ["서너 가지"]),
    ("한두 군데 아팠어요.", ["한두"]),
    ("너댓 번 했어요.", ["너댓 번"]),
    ("네댓 세트 했어요.", ["네댓 세트"]),
    ("대여섯 번 반복했어요.", ["대여섯 번"]),
    ("예닐곱 번 들었어요.", ["예닐곱 번"]),
    ("두어 번 쉬었어요.", ["두어 번"]),
    ("십여 번 기록했어요.", ["십여 번"]),
    ("수십 번 반복했어요.", ["수십 번"]),
    ("지금까지 수백 킬로를 들었어요.", ["수백 킬로를"]),
    ("빠진 날이 서넛이에요.", ["서넛이에요"]),
    # Days and frequency.
    ("하루만 쉬었어요.", ["하루만"]),
    ("하루 쉬었어요.", ["하루"]),
    ("하루를 쉬셨네요.", ["하루를"]),
    ("하루도 빠짐없이 운동하셨네요.", ["하루도"]),
    ("단 하루 만에 회복했어요.", ["하루"]),
    ("하루밖에 안 쉬었어요.", ["하루밖에"]),
    ("매일 운동하셨네요.", ["매일"]),
    ("매일매일 달리셨어요.", ["매일매일"]),
    ("날마다 스쿼트를 했어요.", ["날마다"]),
    ("격일로 운동했어요.", ["격일"]),
    ("이틀을 쉬었어요.", ["이틀을"]),
    ("이틀간 쉬었어요.", ["이틀간"]),
    ("사흘째 쉬고 있어요.", ["사흘째"]),
    ("이틀만 쉬세요.", ["이틀만"]),
    # Zero said with one: "not even once".
    ("한 번도 안 했어요.", ["한 번도"]),
    ("한번도 빠지지 않았어요.", ["한번도"]),
    ("이번 주는 한번만 했어요.", ["한번만"]),
    # A counter with a copula or a longer particle after it.
    ("지난주에는 두 번이었어요.", ["두 번이었어요"]),
    ("세 번밖에 안 했어요.", ["세 번밖에"]),
    ("이번 주는 한 번뿐이에요.", ["한 번뿐이에요"]),
    ("오 분이에요.", ["오 분이에요"]),
    ("삼 회를 반복했어요.", ["삼 회를"]),
    # Sino-Korean, as before.
    ("십이 번 반복했어요.", ["십이 번"]),
    ("이십 회 했어요.", ["이십 회"]),
    ("백 킬로를 들었어요.", ["백 킬로를"]),
    ("오십 키로 들었어요.", ["오십 키로"]),
    ("만 보를 걸었어요.", ["만 보를"]),
    ("만보 걷기를 했어요.", ["만보"]),
    ("세 번째 세트가 무거웠어요.", ["세 번째"]),
    # 만 after a span is "after", not 10,000: only the span is a number.
    ("한 달 만에 {F1}를 들었어요.", ["한 달"]),
    ("이틀 만에 다시 운동하셨네요.", ["이틀"]),
]
NOT_FOUND_EN = [
    "Once you finish your warm-up, try to beat {F1}.",
    "Once your volume recovers, add weight.",
    "Once that feels easy, add weight.",
    "Once it's done, rest.",
    "Once recovered, try {F1} again.",
    "Don't change everything at once.",
    "Once again, your best is {F2}.",
    "Once more, your volume fell {F4}.",
    "For once, your volume went up {F4}.",
    "Once in a while, take a deload.",
    "Someone who trains like you should rest.",
    "Anyone can improve with time.",
    "One of your best sessions was {E1}.",
    "The one you did last was {E1}.",
    "Your first session was {F10}.",
    "That was the first time you deadlifted.",
    "Your second set was the heaviest.",
    "Your last session was {E1}.",
    "You trained a few times this week.",
    "You trained several times last month.",
    "Many lifters plateau; your best is {F1}.",
    "Both lifts went well.",
    "Both are good exercises: {F11} and {F1}.",
    "A couple of tips: rest well and eat protein.",
    "Try a single-leg deadlift.",
    "No one gets stronger every week.",
    "Every session counts.",
]
NOT_FOUND_KO = [
    "일주일 만에 무게가 늘었네요.",
    "오랜만에 운동하셨네요!",
    "며칠 만에 다시 시작하셨네요.",
    "얼마 만이에요!",
    "벤치만 했어요.",
    "스쿼트만 꾸준히 하셨네요.",
    "스쿼트 만 하셨네요.",
    "오늘도 수고하셨어요.",
    "이번 주에는 쉬세요.",
    "이상한 점은 없어요.",
    "일요일에는 쉬세요.",
    "사실 볼륨이 {F4} 줄어든 건 정상이에요.",
    "천천히 회복하세요.",
    "만약 다음에 {F1}를 넘기면 신기록이에요.",
    "만족스러운 결과예요.",
    "새 루틴을 만들어 보세요.",
    "한번 도전해 보세요.",
    "한번해 보세요.",
    "한편 볼륨은 {F4} 줄었어요.",
    "모두 한가지로 중요해요.",
    "세트 사이에 충분히 쉬세요.",
    "여러 번 시도하셨네요.",
    "몇 번 했는지 기록해 보세요.",
    "많이 늘었어요.",
    "조금 줄었어요.",
    "자주 운동하셨네요.",
    "가끔 쉬는 것도 좋아요.",
    "꾸준히 하셨네요.",
    "매주 운동하셨네요.",
    "매번 잘하셨어요.",
    "좋은 하루 보내세요!",
    "오늘 하루도 수고하셨어요.",
    "하루 종일 바쁘셨죠?",
    "하루종일 서 계셨네요.",
    "하루에 단백질을 충분히 드세요.",
    "하루하루 꾸준히 하세요.",
    "하루빨리 회복하세요.",
    "하루가 다르게 강해지고 있어요.",
    "하루를 가볍게 시작하세요.",
    "둘 다 좋은 운동이에요.",
    "두 번째 세트가 가장 무거웠어요.",
    "둘째 주에 더 좋아졌어요.",
    "첫째, 잘 쉬세요.",
    "천만에요!",
    "천만다행이에요.",
    "오늘은 이만 줄일게요.",
    "일만 하느라 바쁘셨죠?",
    "물병을 옆에 두세요.",
    "그냥 두어 보세요.",
    "회복에 집중하세요.",
    "열심히 하셨어요.",
    "열량을 챙기세요.",
    "두 다리를 모두 써요.",
]


def read(answer: str) -> list[Numeral]:
    """The numerals of an answer as the grounding check reads it: references blanked first."""
    return numerals(REF.sub(lambda m: " " * len(m.group()), answer))


@pytest.mark.parametrize(("answer", "words"), FOUND_EN + FOUND_KO)
def test_count_words_are_numbers(answer: str, words: list[str]) -> None:
    assert [n.text for n in read(answer)] == words


@pytest.mark.parametrize("answer", NOT_FOUND_EN + NOT_FOUND_KO)
def test_words_that_only_look_like_counts_are_not(answer: str) -> None:
    assert read(answer) == []


def test_found_spans_point_at_the_words() -> None:
    answer = "이번 주에 열두 번, 매일 하셨어요. You ran a couple of times."
    assert [answer[n.start : n.end].strip() for n in numerals(answer)] == [n.text for n in numerals(answer)]
