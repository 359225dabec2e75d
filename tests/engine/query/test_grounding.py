"""The structural check and rendering: values by reference, rendered by code in the person's language."""

from __future__ import annotations

from datetime import date

import pytest

from engine.facts import Fact
from engine.query.grounding import check_text
from engine.query.number_reading import numerals, stated_values
from engine.query.references import build_table, used
from engine.query.render import language_of, render_text

BEST = Fact(
    key="bench press.all_time.best_e1rm",
    label="best estimated 1RM of bench press, all time",
    value=72.5,
    unit="kg",
    display="72.5 kg (60 kg × 5)",
    on=date(2026, 11, 20),
    entry_ids=["e1"],
)
UP = Fact(
    key="bench press.vs_previous.heaviest",
    label="change in heaviest set of bench press",
    value=2.5,
    unit="kg",
    display="+2.5 kg",
    change=True,
    entry_ids=["e1", "e2"],
)
SETS = Fact(
    key="bench press.last",
    label="last bench press session",
    value=5,
    unit="sets",
    display="55 kg × 10 reps × 5 sets",
    on=date(2026, 11, 20),
)
TABLE = build_table([BEST, UP, SETS], stated=["7 days"], days=[("last Monday", date(2026, 11, 16), date(2026, 11, 16))])


def test_the_prompt_lines_name_value_unit_date_and_sign() -> None:
    assert TABLE.prompt().splitlines() == [
        "F1: best estimated 1RM of bench press, all time = 72.5 kg (60 kg × 5) (2026-11-20)",
        "F2: change in heaviest set of bench press = +2.5 kg (an increase)",
        "F3: last bench press session = 55 kg × 10 reps × 5 sets (2026-11-20)",
        "Q1: a value the person wrote = 7 days",
        "D1: the day the question names (last Monday) = 2026-11-16 (2026-11-16)",
    ]


@pytest.mark.parametrize("written", ["{F1}", "{ f1 }", "[F1]", "{F01}"])
def test_references_are_read_as_models_write_them(written: str) -> None:
    report = check_text(f"Your best is {written}.", TABLE)
    assert report.ok and report.refs == ["F1"]


def test_feedback_names_what_to_fix() -> None:
    report = check_text("You did 60 kg, {F9}, and it went down {F2}.", TABLE)
    assert not report.ok
    assert report.numbers == ["60"] and report.unknown == ["{F9}"]
    feedback = report.feedback()
    assert "“60”" in feedback and "{F9}" in feedback and "F2 is an increase" in feedback


def test_kinds_limit_what_text_may_refer_to() -> None:
    assert not check_text("See {D1}.", TABLE, kinds=["fact"]).ok
    assert check_text("See {F1}.", TABLE, kinds=["fact"]).ok


def test_measure_names_and_list_markers_are_not_values() -> None:
    assert numerals("Your 1RM and e1RM (see 1RM)") == []
    assert numerals("1. first\n2) second") == []
    assert [n.text for n in numerals("Your 5RM is up")] == ["5RM"]


def test_render_english_with_dates_once_per_sentence() -> None:
    report = check_text("On {D1} you went up {F2}. Best: {F1}, last: {F3}.", TABLE)
    assert report.ok and report.attached == ["F2"]
    text = render_text("On {D1} you went up {F2}. Best: {F1}, last: {F3}.", TABLE, "en", attached=report.attached)
    # The change is said by "up", so it is written without its sign; F3's date is already said by F1.
    assert text == (
        "On 2026-11-16 you went up 2.5 kg. Best: 72.5 kg (60 kg × 5) (2026-11-20), last: 55 kg × 10 reps × 5 sets."
    )


def test_a_change_without_a_direction_word_keeps_its_sign() -> None:
    assert render_text("Change: {F2}.", TABLE, "en") == "Change: +2.5 kg."


def test_render_korean_units_dates_and_names() -> None:
    text = render_text("{D1}에 {F3}를 했고, 최고 추정 1RM은 {F1}예요.", TABLE, "ko", {"bench press": "벤치프레스"})
    assert text == (
        "2026년 11월 16일에 55kg × 10회 × 5세트 (2026년 11월 20일)를 했고, 최고 추정 1RM은 72.5kg (60kg × 5회)예요."
    )


def test_language_of_the_question() -> None:
    assert language_of("벤치프레스 최고 기록이 뭐야?") == "ko"
    assert language_of("what's my bench PR?") == "en"
    assert language_of("bench press 최고 기록?") == "ko"


def test_question_values_keep_their_units() -> None:
    got = [(v.text, v.number, v.unit) for v in stated_values("in the last 7 days, 100kg 5x5? 지난 30일, 5/5 sets, 10%")]
    assert got == [
        ("7 days", 7.0, "days"),
        ("100 kg", 100.0, "kg"),
        ("5x5", 5.0, ""),
        ("30 일", 30.0, "일"),
        ("5/5 sets", 5.0, "sets"),
        ("10%", 10.0, "%"),
    ]


def test_issue_examples_are_all_rejected_when_written_as_numbers() -> None:
    # Each of these passed the old value-matching check because the value appeared somewhere in the data.
    for answer in (
        "You ran 10 km.",
        "You moved 5,000 kg.",
        "In 2026 kg terms",
        "That took 30 minutes.",
        "You did it 3 times.",
        "one hundred and twenty",
        "백이십 킬로",
        "다섯 세트",
        "PR120kg",
    ):
        assert not check_text(answer, TABLE).ok, answer


def test_used_lists_ids_in_order() -> None:
    assert used("{F2} then [f1] and {Q1}") == ["F2", "F1", "Q1"]
