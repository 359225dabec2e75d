"""Progress charts through the engine: ``/chart bench`` (a `Control`) and trend questions ("show my bench
progress", "지난 3개월 스쿼트 그래프") come back as a `Chart` drawn by code, with no model call; the outcome
is plain JSON in the checkpoint; an imported Strong history's chart states its true best and latest."""

from __future__ import annotations

import csv
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

from PIL import Image
from pydantic import TypeAdapter

from engine import Logbook
from engine.outcomes import Chart, Logged, Notice, Outcome
from engine.turns import Control, Message
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama

CONV = USER = "console:kim"
NOW = datetime(2026, 11, 20, 3, 0, tzinfo=timezone.utc)  # noon in Seoul
NEXT_DAY = datetime(2026, 11, 21, 3, 0, tzinfo=timezone.utc)
LATER = datetime(2026, 11, 22, 3, 0, tzinfo=timezone.utc)
STRONG = Path(__file__).resolve().parents[1] / "data" / "strong_history.csv"


def msg(text: str, at: datetime = LATER, message_id: str | None = None) -> Message:
    return Message(conversation=CONV, user=USER, text=text, at=at, message_id=message_id)


def chart_of(words: str) -> Control:
    return Control(conversation=CONV, user=USER, action="chart", argument=words, at=LATER)


async def log(engine: object, text: str, at: datetime) -> None:
    out = await engine.handle(msg(text, at))  # type: ignore[attr-defined]
    assert [type(o) for o in out] == [Logged], text


def png_size(path: str) -> tuple[int, int]:
    with Image.open(path) as image:
        assert image.format == "PNG"
        return image.size


async def test_chart_bench_draws_from_the_log_with_no_model_call(
    open_engine: OpenEngine, fake: FakeOllama, tmp_path: Path
) -> None:
    async with open_engine(read_in_code=True) as engine:
        await log(engine, "bench 60kg 5x5", NOW)
        await log(engine, "bench 65kg 5, 5, 3", NEXT_DAY)
        (out,) = await engine.handle(chart_of("bench"))
    assert isinstance(out, Chart) and out.language == "en"
    assert Path(out.path).parent == tmp_path / "data" / "charts" and png_size(out.path) == (900, 500)
    assert out.title == "bench press: estimated 1RM and top set per session"
    # 60 × 5 → 60 × (1 + 5/30) = 70; 65 × 5 → 75.8333…; the second session is a new best.
    assert out.caption.splitlines() == [
        "bench press, 2025-11-23 – 2026-11-22 (the last 12 months; no period was named): 2 sessions.",
        "Estimated 1RM (Epley): first 70 kg (2026-11-20), latest 75.8 kg (2026-11-21), best 75.8 kg on 2026-11-21 "
        "(from 65 kg × 5), change +5.8 kg.",
        "Top set: first 60 kg × 5, latest 65 kg × 5, heaviest 65 kg × 5 on 2026-11-21.",
        "New best estimates: 1 (marked ▲).",
    ]
    assert out.alt.startswith("Line chart of bench press estimated 1RM per session")
    assert fake.titles() == [] and [r for r in fake.requests if r.path == "/api/chat"] == []


async def test_trend_questions_are_drawn_in_code_in_english_and_korean(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    async with open_engine(read_in_code=True) as engine:
        await log(engine, "bench 60kg 5x5", NOW)
        await log(engine, "squat 100kg 5x5", NOW)
        english = await engine.handle(msg("show my bench progress", message_id="m1"))
        korean = await engine.handle(msg("지난 3개월 스쿼트 그래프"))
        again = await engine.handle(msg("show my bench progress", message_id="m1"))  # a redelivery
        thread = await engine.conversations.thread_id(CONV)
        state = await engine.graph.aget_state({"configurable": {"thread_id": thread}})
    assert [type(o) for o in english] == [Chart] and isinstance(english[0], Chart)
    assert english[0].title == "bench press: estimated 1RM and top set per session"
    assert "first 70 kg (2026-11-20)" in english[0].caption
    (ko,) = korean
    assert isinstance(ko, Chart) and ko.language == "ko" and ko.title == "스쿼트: 세션별 추정 1RM과 탑 세트"
    # 100 × 5 → 116.7; the period named: the last 3 months.
    assert ko.caption.splitlines()[0] == "스쿼트, 2026년 8월 23일 ~ 2026년 11월 22일: 1회."
    assert "처음 116.7 kg (2026년 11월 20일)" in ko.caption
    assert again == english  # the recorded outcome, read back from JSON
    kept = TypeAdapter(list[Outcome]).validate_python(state.values["outcomes"])
    assert kept == korean  # the checkpoint holds the chart as plain JSON
    assert fake.titles() == []


async def test_nothing_to_draw_and_words_that_name_nothing(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine(read_in_code=True) as engine:
        await log(engine, "bench 60kg 5x5", NOW)
        (never,) = await engine.handle(chart_of("deadlift"))
        (unknown,) = await engine.handle(chart_of("xyzzy"))
        (korean,) = await engine.handle(chart_of("데드 3개월"))
        (days,) = await engine.handle(chart_of(""))
    assert isinstance(never, Notice) and never.code == "no_data"
    assert never.text == "There is nothing to chart for deadlift between 2025-11-23 and 2026-11-22: nothing logged."
    assert isinstance(unknown, Notice) and unknown.code == "unknown_chart" and "/chart bench" in unknown.text
    assert isinstance(korean, Notice) and korean.text.startswith("2026년 8월 23일 ~ 2026년 11월 22일 사이에 데드리프트")
    assert isinstance(days, Chart) and "1 days over 53 weeks" in days.caption
    assert fake.titles() == []


def _bench_by_hand() -> dict[str, list[tuple[float, int]]]:
    """Barbell bench work sets per day, read straight from the CSV (no engine code): numbered sets
    (not W warm-ups or F failures) with weight and reps above 0."""
    days: dict[str, list[tuple[float, int]]] = defaultdict(list)
    with STRONG.open(encoding="utf-8-sig") as f:
        for row in csv.DictReader(f):
            weight, reps = float(row["Weight"]), int(row["Reps"])
            if row["Exercise Name"] == "Bench Press (Barbell)" and row["Set Order"].isdigit() and weight and reps:
                days[row["Date"][:10]].append((weight, reps))
    return days


async def test_an_imported_strong_history_charts_its_true_best_and_latest(
    open_engine: OpenEngine, fake: FakeOllama, tmp_path: Path
) -> None:
    imported = await Logbook.open(open_engine.config()).import_file(USER, STRONG)
    assert imported is not None and imported.report.added > 100
    async with open_engine(read_in_code=True) as engine:
        (out,) = await engine.handle(chart_of("bench all time"))
        (ko,) = await engine.handle(chart_of("벤치프레스 전체 기간"))
    days = _bench_by_hand()

    def e1rm(s: tuple[float, int]) -> float:
        return s[0] if s[1] == 1 else s[0] * (1 + s[1] / 30)

    best_day = min(days, key=lambda d: (-max(map(e1rm, days[d])), d))
    last_day = max(days)
    # By hand: the best estimate is 95 kg × 5 → 110.8 kg, first on 2025-06-07; the latest session is
    # 2026-10-10, 95 kg × 5 again; the heaviest set is 100 kg × 3 on 2025-06-12 (105 kg × 0 failed).
    assert (best_day, round(max(map(e1rm, days[best_day])), 1), last_day) == ("2025-06-07", 110.8, "2026-10-10")
    assert isinstance(out, Chart)
    assert out.caption.splitlines()[0] == f"bench press, 2021-03-02 – 2026-11-22: {len(days)} sessions."
    assert "latest 110.8 kg (2026-10-10), best 110.8 kg on 2025-06-07 (from 95 kg × 5)" in out.caption
    assert "heaviest 100 kg × 3 on 2025-06-12" in out.caption
    assert isinstance(ko, Chart) and "최고 110.8 kg (2025년 6월 7일, 95 kg × 5회 기준)" in ko.caption
    assert ko.title.startswith("벤치프레스")
    assert fake.titles() == []


async def test_a_chart_is_drawn_again_each_time_and_never_recorded(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine(read_in_code=True) as engine:
        await log(engine, "bench 60kg 5x5", NOW)
        command = chart_of("벤치").model_copy(update={"message_id": "c1"})
        (first,) = await engine.handle(command)
        (second,) = await engine.handle(command)  # the same delivery again: read-only, so simply drawn again
        (asked,) = await engine.handle(msg("벤치 그래프 보여줘"))
        recorded = await engine.inbox.items(CONV, ("done",))
    assert isinstance(first, Chart) and isinstance(second, Chart) and first.path != second.path
    assert first.language == "ko" and first.title == "벤치프레스: 세션별 추정 1RM과 탑 세트"
    assert isinstance(asked, Chart) and asked.caption == first.caption
    assert all(item.kind != "control" for item in recorded)
    assert fake.titles() == []
