"""The weekly summary against the hand-computed figures of :mod:`tests.engine.summary.seeded`, in English
and Korean; a week with nothing; the chart drawn when there are weeks to compare."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import pytest

from engine.domains.registry import DomainSelector
from engine.outcomes import Answer, Chart
from engine.store.db import Database
from engine.summary import weekly_summary
from tests.conftest import OpenDb
from tests.engine.summary.seeded import USER, WEEK, seed
from tests.helpers.domains import BUILTIN

SPELLINGS = DomainSelector(BUILTIN).build_active_context(BUILTIN.names).vocabulary_map

EN = """Last week (2026-11-16 to 2026-11-22)
Sessions: 3 of 4 planned done (3 training days logged)
PRs: 2 — bench press: heaviest 80 kg, estimated 1RM 93.3 kg
Volume (weight × reps of working sets): 4,200 kg, +16.7% against the 4-week average of 3,600 kg
Stalling:
• Your overhead press has stalled: no new best estimated 1RM or heavier work set in the last 3 sessions \
(2026-11-04 58.3 kg, 2026-11-11 58.3 kg, 2026-11-18 58.3 kg; the best before them: 58.3 kg on 2026-10-21). \
A deload week at 90% may help: say “plan a deload week for overhead press”.
This week's targets:
• Next squat: 5 × 5 at 105 kg — linear progression: every work set of 100 kg × 5 was completed on 2026-11-16, \
+5 kg (lower body).
• Next bench press: 3 × 5 at 82.5 kg — linear progression: every work set of 80 kg × 5 was completed on \
2026-11-22, +2.5 kg (upper body).
• Next overhead press: 2 × 5 at 52.5 kg — linear progression: every work set of 50 kg × 5 was completed on \
2026-11-18, +2.5 kg (upper body)."""


@pytest.fixture
async def db(open_db: OpenDb) -> AsyncIterator[Database]:
    opened = await open_db()
    await seed(opened, BUILTIN)
    yield opened
    await opened.close()


async def test_the_figures_match_the_hand_table(db: Database) -> None:
    s = await weekly_summary(db, BUILTIN, USER, WEEK, "en")
    f = s.figures
    assert (f.start, f.end) == (date(2026, 11, 16), date(2026, 11, 22))
    assert (f.planned, f.done, f.training_days) == (4, 3, 3)
    assert [(r.subject, r.kind, round(r.score, 2)) for r in f.records] == [
        ("bench press", "heaviest", 80.0),
        ("bench press", "e1rm", 93.33),
    ]
    assert f.volume_kg == 4200 and f.average_kg == 3600
    assert f.change_pct is not None and round(f.change_pct, 1) == 16.7
    assert [(st.exercise, st.rule, st.since) for st, _ in f.stalls] == [
        ("overhead press", "plateau", date(2026, 10, 21))
    ]
    assert [(x.exercise, x.weight, x.reps) for x in f.targets] == [
        ("squat", 105, [5] * 5),
        ("bench press", 82.5, [5] * 3),
        ("overhead press", 52.5, [5] * 2),
    ]
    assert s.text == EN
    assert s.chart is None and s.outcomes == [Answer(text=EN)]


async def test_the_summary_in_korean(db: Database) -> None:
    s = await weekly_summary(db, BUILTIN, USER, WEEK, "ko", spellings=SPELLINGS)
    lines = s.text.split("\n")
    assert lines[:4] == [
        "지난주 요약 (2026년 11월 16일 ~ 2026년 11월 22일)",
        "세션: 계획 4회 중 3회 완료 (운동한 날 3일)",
        "개인 기록: 2개 — 벤치프레스: 최고 중량 80 kg, 추정 1RM 93.3 kg",
        "볼륨 (작업 세트 중량 × 횟수): 4,200 kg, 이전 4주 평균 3,600 kg 대비 +16.7%",
    ]
    assert lines[4] == "정체된 종목:" and lines[5].startswith("• 오버헤드프레스 정체: 최근 3회 세션")
    assert lines[6] == "이번 주 목표:"
    assert lines[7] == (
        "• 다음 스쿼트: 105 kg로 5회 × 5세트 — 선형 증량: 2026-11-16에 100 kg × 5회 작업 세트를 모두 완료해서 +5 kg (하체)."
    )
    assert "82.5 kg로 5회 × 3세트" in lines[8] and "52.5 kg로 5회 × 2세트" in lines[9]
    assert s.outcomes == [Answer(text=s.text, language="ko")]


async def test_a_week_with_nothing_says_so(db: Database) -> None:
    s = await weekly_summary(db, BUILTIN, USER, date(2026, 9, 7), "en")
    assert s.text == "Last week (2026-09-07 to 2026-09-13)\nNothing was logged from 2026-09-07 to 2026-09-13."
    # A day inside the week reads as its Monday.
    again = await weekly_summary(db, BUILTIN, USER, date(2026, 11, 19), "en")
    assert again.text == EN


async def test_the_week_before_has_no_plan_and_an_average_of_what_came_before(db: Database) -> None:
    # Week of 11-09: 3,600 against (0 + 3000 + 3600 + 4200) / 4 = 2,700: +33.3 %.
    s = await weekly_summary(db, BUILTIN, USER, date(2026, 11, 9), "en")
    assert s.text.split("\n")[1:4] == [
        "Sessions: 3 training days logged (none planned)",
        "PRs: none",
        "Volume (weight × reps of working sets): 3,600 kg, +33.3% against the 4-week average of 2,700 kg",
    ]


async def test_a_volume_chart_of_the_five_weeks(db: Database, tmp_path: Path) -> None:
    s = await weekly_summary(db, BUILTIN, USER, WEEK, "en", tmp_path / "charts")
    assert isinstance(s.chart, Chart) and Path(s.chart.path).is_file()
    assert s.chart.title == "Weekly volume per lift"
    assert "2026-10-19" in s.chart.caption and "2026-11-22" in s.chart.caption
    assert [type(o) for o in s.outcomes] == [Answer, Chart]
