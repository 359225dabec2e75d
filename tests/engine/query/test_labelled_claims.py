"""Labelled sets of answers in the claim form, as a small model writes them, English and Korean.

Right ones make odd but valid choices (a record of another measure, two
exercises compared, ids in braces or lower case, a kind in capitals, notes
and advice in ordinary words). Wrong ones are every kind of wrong measured
from 7B output: an id in the wrong place (a volume as a count, a failed
attempt as a record, a change as a value, two measures compared), a claim
citing an id never offered or of the wrong kind, count words and Korean
numerals in the model's words ("twice", "a couple of times", "both
sessions", "every day", 대여섯 번, 두어 번, 열두 번, 하루만, 매일, 한두, 서너,
십여), a direction or meaning with no number ("went down" for a rise,
"stalled", "getting stronger", 정체, 늘었어요 for a fall), a date, an order
word on an entry that is not the latest, and numbers retyped in advice or an
article's gist.

Each wrong answer lists what must never reach the person; the check and
code's sentences (engine.query.claims, engine.query.sentences) are held to:
0 wrong answers through, at most 1 in 25 right answers losing a claim.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from engine.agents.schemas import SynthesizerOutput
from engine.query.claims import check_claims, schema_for
from engine.query.references import RefTable
from engine.query.sentences import compose
from tests.engine.query.test_labelled_answers import table as base_table
from tests.helpers.scripts import claim, claims


def table() -> RefTable:
    """The labelled answers' values (F1 … F14, E1, Q1, Q2, D1) and a newer entry, a gap and an article."""
    t = base_table()
    t.add("entry", "2026-11-20 · bench press 55 kg × 10 reps × 5 sets", key="e2", on=date(2026, 11, 20))
    t.add(
        "gap",
        "no entries of deadlift in 2021-03-01 to 2021-03-31",
        label="nothing found",
        terms=["deadlift"],
        scope=(date(2021, 3, 1), date(2021, 3, 31)),
    )
    source = t.add("source", "Deload", key="deload#0")
    t.add("article", "4 to 6 weeks", label=f"from {source.id}", key="deload#0")
    return t


def said(reply: dict[str, Any], lang: str) -> tuple[str, int, int]:
    """What the person reads, how many claims were sent, how many were kept."""
    t = table()
    out = SynthesizerOutput.model_validate(reply)
    check = check_claims(out.claims, out.remark, out.sources, t)
    text, _ = compose(check.kept, [], check.remark, t, "ko" if lang == "ko" else "en", {})
    return text, len(out.claims), len(check.kept)


RIGHT_EN = [
    claims(claim("record", "F1")),
    claims(claim("record", "F2")),  # asked "heaviest", answered with the e1RM record: another record, still true
    claims(claim("record", "F1"), claim("record", "F11", note="They are different exercises.")),
    claims(claim("trend", "F3", note="Nice work.")),
    claims(claim("trend", "F4", "F5")),
    claims(claim("count", "F6")),
    claims(claim("record", "F7", note="Great pace.")),
    claims(claim("trend", "F8")),
    claims(claim("count", "F9", note="Solid consistency.")),
    claims(claim("value", "F10")),
    claims(claim("value", "F12", note="It was attempted, not completed.")),
    claims(claim("record", "F13"), remark="Keep it up!"),
    claims(claim("trend", "F14", note="Keep the form tight.")),
    claims(claim("list", "E1")),
    claims(claim("value", "Q1"), claim("list", "E1", "E2")),
    claims(claim("comparison", "F11", "F1")),  # two records of one measure, in either order
    claims(claim("absence", "G1", note="Log one when you can.")),
    claims(claim("article", "K1", note="A deload every {A1} helps fatigue clear.")),
    claims(claim("record", "F1"), claim("advice", note="Try adding a small jump next session.")),
    {
        "claims": [{"kind": "record", "ids": ["{F1}"], "note": ""}],
        "remark": "",
    },  # ids as the prompt's example writes them
    {"claims": [{"kind": "Record", "ids": ["f2"], "note": ""}], "remark": ""},
    claims(claim("record", "F1"), claim("count", "F9"), claim("trend", "F3")),
    claims(claim("value", "F6")),  # a count stated as a value: still true
    claims(claim("value", "D1"), claim("count", "F6")),
    claims(claim("advice", note="Sleep well and eat enough protein before the heavy days.")),
]
RIGHT_KO = [
    claims(claim("record", "F1", note="잘하고 있어요.")),
    claims(claim("count", "F9", note="꾸준함이 보기 좋아요.")),
    claims(claim("trend", "F3", note="좋은 흐름이에요.")),
    claims(claim("comparison", "F1", "F11")),
    claims(claim("list", "E1", note="기록을 잘 남기셨네요.")),
    claims(claim("record", "F1"), claim("advice", note="다음에는 무게를 조금 늘려 보세요.")),
    claims(claim("article", "K1", note="디로드는 {A1}마다 하면 좋아요.")),
    claims(claim("record", "F13"), remark="수고하셨어요!"),
    claims(claim("absence", "G1", note="기록하시면 알려 드릴게요.")),
    claims(claim("value", "F10")),
    claims(claim("trend", "F8", note="페이스 관리가 좋아요.")),
    claims(claim("record", "F2"), claim("trend", "F5")),
    claims(claim("count", "F6", note="운동 습관이 자리 잡고 있어요.")),
    claims(claim("advice", note="무리하지 말고 충분히 쉬세요.")),
    claims(claim("record", "F11", note="트랩바 데드리프트 기록이에요.")),
]

# (reply, what must never reach the person)
WRONG_EN: list[tuple[dict[str, Any], list[str]]] = [
    (claims(claim("count", "F4")), ["250"]),  # a volume change as a count ("you benched {F22} times")
    (claims(claim("record", "F12")), ["105"]),  # a failed attempt as a record
    (claims(claim("record", "F3")), ["2.5"]),  # a change as a record
    (claims(claim("value", "F3", note="your top set")), ["2.5"]),  # a change as a plain value, sign unsaid
    (claims(claim("comparison", "F1", "F9")), ["48"]),  # kg against sessions
    (claims(claim("comparison", "F3", "F4")), ["250"]),  # two changes compared
    (claims(claim("comparison", "F1", "F2")), ["110"]),  # two measures compared (heaviest set vs e1RM)
    (claims(claim("trend", "F1")), ["100 kg"]),
    (claims(claim("list", "F1")), ["100 kg"]),
    (claims(claim("record", "F99")), ["F99"]),
    (claims(claim("absence", "F1")), ["100 kg"]),
    (claims(claim("record", "E1")), ["52.5"]),
    (claims(claim("comparison", "F1")), ["100 kg"]),
    (claims(claim("summary", "F1")), ["100 kg"]),
    (claims(claim("record", "F1", note="That's twice your old best.")), ["twice"]),
    (claims(claim("record", "F1", note="That's once more than before.")), ["once"]),
    (claims(claim("count", "F9", note="About a couple of times a week.")), ["couple"]),
    (claims(claim("count", "F9", note="Both sessions were heavy.")), ["Both"]),
    (claims(claim("count", "F6", note="You trained every day.")), ["every day"]),
    (claims(claim("trend", "F3", note="It went down.")), ["went down"]),  # it rose
    (claims(claim("trend", "F4", note="Your volume rose.")), ["rose"]),  # it fell
    (claims(claim("record", "F1"), remark="Your bench has stalled."), ["stalled"]),  # meaning, no number
    (claims(claim("record", "F1"), remark="You're getting stronger."), ["getting stronger"]),
    (claims(claim("record", "F1", note="Set on June 12.")), ["June"]),
    (claims(claim("record", "F1", note="That's 5 more reps.")), ["5 more"]),
    (claims(claim("list", "E1", note="This was your latest session.")), ["latest"]),  # E1 is the older one
    (claims(claim("record", "F2"), remark="New personal best!"), ["personal best"]),
    (claims(claim("advice", note="Add 2.5 kg next time.")), ["2.5 kg"]),
    (claims(claim("article", "K1", note="Deload every 4 weeks.")), ["4 weeks"]),
    (claims(claim("article", "K1", note="As {F1} shows, rest.")), ["100 kg", "{F1}"]),
    (claims(claim("record", "F1"), remark="{F11} is your best."), ["200", "{F11}"]),
    (claims(claim("value", "Q2", note="You lifted it three times.")), ["three"]),
    (claims(claim("record", "F1", note="{F12}% of your max")), ["105", "%%"]),
]
WRONG_KO: list[tuple[dict[str, Any], list[str]]] = [
    (claims(claim("count", "F9", note="대여섯 번 했어요.")), ["대여섯"]),
    (claims(claim("count", "F9", note="두어 번 더 하면 돼요.")), ["두어"]),
    (claims(claim("count", "F9", note="열두 번 했어요.")), ["열두"]),
    (claims(claim("count", "F6"), remark="매일 운동하셨네요!"), ["매일"]),
    (claims(claim("trend", "F3"), remark="일주일 만에 벤치가 늘었어요."), ["늘었"]),
    (claims(claim("count", "F6", note="하루만 쉬었어요.")), ["하루만"]),
    (claims(claim("count", "F9", note="한두 번 빠졌어요.")), ["한두"]),
    (claims(claim("count", "F9", note="서너 세트씩 했어요.")), ["서너"]),
    (claims(claim("count", "F9", note="십여 번 했어요.")), ["십여"]),
    (claims(claim("trend", "F4", note="볼륨이 늘었어요.")), ["늘었"]),  # it fell
    (claims(claim("record", "F1"), remark="벤치가 정체됐어요."), ["정체"]),  # it rose
    (claims(claim("trend", "F14", note="신기록이에요!")), ["신기록"]),  # no change
    (claims(claim("record", "F1", note="2월 3일에 했어요.")), ["2월"]),
    (claims(claim("record", "F12")), ["105"]),
    (claims(claim("count", "F9", note="세 번 했어요.")), ["세 번"]),
    (claims(claim("trend", "F3", note="지난주보다 좋아졌어요.")), ["좋아졌"]),
    (claims(claim("count", "F4")), ["250"]),
    (claims(claim("list", "E1", note="최근 세션이에요.")), ["최근"]),
    (claims(claim("advice", note="다음엔 오 분 더 쉬세요.")), ["오 분"]),
]


def test_the_sets_are_big_enough() -> None:
    assert len(RIGHT_EN) + len(RIGHT_KO) >= 25 and len(WRONG_EN) + len(WRONG_KO) >= 31


@pytest.mark.parametrize(("reply", "never"), WRONG_EN + WRONG_KO)
def test_wrong_answer_never_reaches_the_person(reply: dict[str, Any], never: list[str]) -> None:
    lang = "ko" if (reply, never) in WRONG_KO else "en"
    text, _, _ = said(reply, lang)
    for words in never:
        assert words not in text, (words, text)


@pytest.mark.parametrize("reply", RIGHT_EN + RIGHT_KO)
def test_right_answer_keeps_its_claims(reply: dict[str, Any]) -> None:
    text, sent, kept = said(reply, "ko" if reply in RIGHT_KO else "en")
    assert kept == sent and text, (reply, text)


def test_figures() -> None:
    """The sets as figures: wrong answers through (target 0); right answers that lose a claim (≤ 1 in 25)."""
    through = [
        r
        for r, never in WRONG_EN + WRONG_KO
        if any(w in said(r, "ko" if (r, never) in WRONG_KO else "en")[0] for w in never)
    ]
    lost = [r for r in RIGHT_EN + RIGHT_KO if (lambda s: s[1] != s[2])(said(r, "ko" if r in RIGHT_KO else "en"))]
    assert len(through) == 0, through
    assert len(lost) * 25 <= len(RIGHT_EN) + len(RIGHT_KO), lost


def test_code_writes_the_numbers_and_the_direction() -> None:
    """A right comparison and a trend as the person reads them: every figure and direction from code."""
    text, _, _ = said(
        claims(claim("comparison", "F11", "F1"), claim("trend", "F4", note="Normal after a hard week.")), "en"
    )
    assert text.splitlines() == [
        "Heaviest completed set of bench press, all time: 100 kg × 3 (2025-06-12); heaviest completed set of "
        "trap bar deadlift: 200 kg × 1 (2024-05-01) — down by 100 kg.",
        "Change in volume of bench press: -250 kg (a decrease). Normal after a hard week.",
    ]
    ko, _, _ = said(claims(claim("trend", "F8")), "ko")
    assert "빨라짐" in ko  # a pace that fell is faster


def test_the_schema_offers_only_the_ids_of_this_turn() -> None:
    """Constrained decoding cannot produce an id that was not offered, nor a kind that does not exist."""
    t = table()
    schema = schema_for(t)
    claim_schema = schema["properties"]["claims"]["items"]
    assert claim_schema["properties"]["ids"]["items"]["enum"] == [r.id for r in t.refs]
    assert "F99" not in claim_schema["properties"]["ids"]["items"]["enum"]
    assert set(claim_schema["properties"]["kind"]["enum"]) == {
        "value",
        "record",
        "count",
        "comparison",
        "trend",
        "list",
        "absence",
        "advice",
        "article",
    }
    assert schema["title"] == "SynthesizerOutput"
