"""Records a log sets, said in the same reply as "✓ logged" (issue 24): heaviest set, most reps at a
weight, best estimated 1RM, best session volume, longest run and fastest pace at a distance; the first
time a lift is logged; each said once ever, never for warm-ups, failed attempts or imports. Real
engine, real ollama client, fake model over HTTP; code reads the logs unless a test scripts the Parser."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from engine import Logbook
from engine.agents.schemas import ParserOutput
from engine.domains.registry import DomainRegistry
from engine.outcomes import ApprovalRequest, Logged, Record
from engine.store.records import RecordStore
from engine.turns import ApprovalDecision, Control, Message, Resume
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts

CONV = USER = "console:kim"
DAY1 = datetime(2026, 11, 20, 3, 0, tzinfo=timezone.utc)  # noon in Seoul


def on(day: int, text: str) -> Message:
    """A message sent on day ``day`` (1 = 2026-11-20), at noon in Seoul."""
    return Message(conversation=CONV, user=USER, text=text, at=DAY1 + timedelta(days=day - 1))


def records(out: list[object]) -> list[Record]:
    """The records a log set (a stall said in the same place is tests/engine/test_stalls_logged.py's)."""
    (logged,) = [o for o in out if isinstance(o, Logged)]
    return [r for e in logged.entries for r in e.records if r.kind != "stall"]


def lines(out: list[object]) -> list[str]:
    return [r.text for r in records(out)]


async def test_a_heavier_set_is_a_record_with_the_best_before_it_and_its_day(open_engine: OpenEngine) -> None:
    async with open_engine() as engine:
        assert lines(await engine.handle(on(1, "bench 55kg 10x5"))) == ["First time logged: bench press."]
        out = await engine.handle(on(3, "bench 60kg 5x5"))
    (heaviest,) = records(out)
    assert heaviest.kind == "heaviest" and heaviest.subject == "bench press"
    assert (heaviest.value, heaviest.unit, heaviest.previous, heaviest.previous_on) == (
        60,
        "kg",
        55,
        date(2026, 11, 20),
    )
    assert heaviest.text == "New heaviest bench press: 60 kg × 5 (before: 55 kg × 10, 2026-11-20)"


async def test_a_record_is_said_in_korean_to_a_korean_log(open_engine: OpenEngine) -> None:
    async with open_engine() as engine:
        assert lines(await engine.handle(on(1, "벤치프레스 55키로 10x5"))) == ["벤치프레스 첫 기록이에요."]
        out = await engine.handle(on(3, "벤치프레스 60키로 5x5"))
    assert lines(out) == ["벤치프레스 최고 중량 경신: 60 kg × 5 (이전: 55 kg × 10, 2026년 11월 20일)"]


async def test_every_kind_of_lift_record_is_said_at_once(open_engine: OpenEngine) -> None:
    async with open_engine() as engine:
        await engine.handle(on(1, "bench 60kg 5x5"))
        out = await engine.handle(on(2, "bench 60kg 8x5"))
    assert lines(out) == [
        "Most reps at 60 kg on bench press: 60 kg × 8 (before: 60 kg × 5, 2026-11-20)",
        "New best estimated 1RM on bench press: 76 kg, from 60 kg × 8 (before: 70 kg, from 60 kg × 5, 2026-11-20)",
        "Best bench press session volume: 2,400 kg (before: 1,500 kg, 2026-11-20)",
    ]


async def test_the_same_log_again_sets_no_record(open_engine: OpenEngine) -> None:
    async with open_engine() as engine:
        await engine.handle(on(1, "bench 55kg 10x5"))
        await engine.handle(on(2, "bench 60kg 5x5"))
        assert records(await engine.handle(on(3, "bench 60kg 5x5"))) == []


async def test_an_undone_record_logged_again_is_not_said_again(open_engine: OpenEngine) -> None:
    async with open_engine() as engine:
        await engine.handle(on(1, "bench 55kg 10x5"))
        assert [r.kind for r in records(await engine.handle(on(2, "bench 60kg 5x5")))] == ["heaviest"]
        await engine.handle(Control(conversation=CONV, user=USER, action="undo"))
        assert records(await engine.handle(on(3, "bench 60kg 5x5"))) == []
        # A heavier set still is one: the bar is what was said, not more.
        assert [r.previous for r in records(await engine.handle(on(4, "bench 62.5kg 5x5")))] == [60]


async def test_a_typo_taken_back_does_not_hide_later_records(open_engine: OpenEngine) -> None:
    """Before: a 600 kg typo, announced and then undone, stayed the bar, so no real record was said again."""
    async with open_engine() as engine:
        await engine.handle(on(1, "bench 55kg 10x5"))
        assert "heaviest" in [r.kind for r in records(await engine.handle(on(2, "bench 600kg 5x5")))]
        await engine.handle(Control(conversation=CONV, user=USER, action="undo"))
        out = records(await engine.handle(on(3, "bench 60kg 5x5")))
        assert [(r.kind, r.previous) for r in out] == [("heaviest", 55)]
        # The typo's own value, logged for real later, is not said a second time.
        assert records(await engine.handle(on(4, "bench 600kg 5x5"))) == []


async def test_a_first_lift_undone_and_logged_again_is_not_first_again(open_engine: OpenEngine) -> None:
    async with open_engine() as engine:
        assert [r.kind for r in records(await engine.handle(on(1, "squat 100kg 5x5")))] == ["first"]
        await engine.handle(Control(conversation=CONV, user=USER, action="undo"))
        assert records(await engine.handle(on(2, "squat 100kg 5x5"))) == []


async def test_dumbbell_and_barbell_bench_are_separate_lifts(open_engine: OpenEngine) -> None:
    async with open_engine() as engine:
        await engine.handle(on(1, "bench 60kg 5x5"))
        out = await engine.handle(on(2, "dumbbell bench 30kg 10x5"))
        assert [(r.kind, r.subject) for r in records(out)] == [("first", "dumbbell bench press")]
        out = await engine.handle(on(3, "dumbbell bench 32.5kg 5x5"))
        assert [(r.kind, r.subject) for r in records(out)] == [("heaviest", "dumbbell bench press")]
        # 50 kg on the barbell is no record, though it beats every dumbbell set.
        assert records(await engine.handle(on(4, "bench 50kg 5x5"))) == []


async def test_a_longer_run_is_the_longest_and_a_faster_one_the_fastest(open_engine: OpenEngine) -> None:
    async with open_engine() as engine:
        assert lines(await engine.handle(on(1, "ran 5km in 30:00"))) == ["First time logged: run."]
        out = await engine.handle(on(2, "ran 8km in 48:00"))
        assert lines(out) == ["Longest run: 8 km (before: 5 km, 2026-11-20)"]
        out = await engine.handle(on(3, "ran 5km in 27:30"))
        assert lines(out) == ["Fastest run pace over 5 km: 5:30 /km (before: 6:00 /km, 2026-11-20)"]
        assert records(await engine.handle(on(4, "ran 5km in 29:00"))) == []


def _sets(kinds: list[tuple[float, int, str]]) -> ParserOutput:
    parsed = scripts.strength("bench press", 0, 0, 1)
    ex = parsed.exercises[0].model_copy(
        update={
            "sets": len(kinds),
            "set_details": [
                parsed.exercises[0].set_details[0].model_copy(update={"set_num": i, "weight": w, "reps": r, "kind": k})
                for i, (w, r, k) in enumerate(kinds, start=1)
            ],
        }
    )
    return parsed.model_copy(update={"exercises": [ex]})


async def test_warm_ups_and_failed_attempts_set_no_record(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(_sets([(80, 3, "warmup"), (90, 0, "failure"), (85, 1, "failure"), (50, 5, "normal")]))
    async with open_engine() as engine:
        await engine.handle(on(1, "bench 60kg 5x5"))
        out = await engine.handle(on(2, "bench: warm-up 80x3, missed 90, failed 85, then 50x5"))
    assert records(out) == []


async def test_a_first_entry_of_only_warm_ups_leaves_first_time_to_the_first_working_set(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(_sets([(40, 10, "warmup"), (60, 0, "failure")]))
    async with open_engine() as engine:
        warmed = await engine.handle(on(1, "bench: warm-up 40x10, missed 60"))
        out = await engine.handle(on(2, "bench 50kg 5x5"))
    assert records(warmed) == []
    assert lines(out) == ["First time logged: bench press."]


async def test_a_planned_session_is_no_record(open_engine: OpenEngine) -> None:
    async with open_engine() as engine:
        await engine.handle(on(1, "bench 60kg 5x5"))
        planned = scripts.bench_entry(date(2026, 11, 21), 100, 5, 5).model_copy(update={"kind": "planned"})
        await engine.entries.add(USER, [planned])
        # The plan's 100 kg is not a best to beat, and doing the session completes the plan.
        heaviest, *_ = records(await engine.handle(on(2, "bench 62.5kg 5x5")))
        assert heaviest.text == "New heaviest bench press: 62.5 kg × 5 (before: 60 kg × 5, 2026-11-20)"
        assert await engine.entries.recent(USER, kinds=("planned",)) == []


async def test_an_imported_heavier_history_is_said_of_nothing_and_beaten_by_nothing_below_it(
    open_engine: OpenEngine, tmp_path: Path
) -> None:
    csv = tmp_path / "strong.csv"
    csv.write_text(
        "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
        '2025-03-01 18:30:00,"Push",1h,"Bench Press (Barbell)",1,100,5,0,0,"","",\n'
        '2025-03-01 18:30:00,"Push",1h,"Bench Press (Barbell)",2,100,5,0,0,"","",\n',
        encoding="utf-8",
    )
    async with open_engine() as engine:
        await engine.handle(on(1, "bench 55kg 10x5"))
    imported = await Logbook.open(open_engine.config()).import_file(USER, csv)
    assert imported is not None and imported.report.added == 1
    async with open_engine() as engine:
        assert records(await engine.handle(on(2, "bench 90kg 5x5"))) == []
        out = await engine.handle(on(3, "bench 102.5kg 1x1"))
    assert lines(out) == ["New heaviest bench press: 102.5 kg × 1 (before: 100 kg × 5, 2025-03-01)"]


async def test_a_corrected_log_says_no_record_and_its_value_is_not_said_later(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    async with open_engine() as engine:
        await engine.handle(on(1, "bench 55kg 10x5"))
        assert [r.kind for r in records(await engine.handle(on(2, "bench 57.5kg 10x5")))] == [
            "heaviest",
            "e1rm",
            "volume",
        ]
        fake.script(scripts.router("CORRECTION", ["strength"]))
        fake.script(scripts.former(goal="Fix today's bench", operations=[scripts.op_correct("57.5 kg", "60 kg")]))
        (req,) = await engine.handle(on(2, "that was 60kg, not 57.5"))
        assert isinstance(req, ApprovalRequest)
        decision = ApprovalDecision(decision="approve")
        out = await engine.handle(Resume(conversation=CONV, user=USER, interrupt_id=req.interrupt_id, answer=decision))
        (corrected,) = [o for o in out if isinstance(o, Logged)]
        assert [e.action for e in corrected.entries] == ["corrected"] and corrected.entries[0].records == []
        # 60 kg is in the history now: logging it again is no record.
        assert records(await engine.handle(on(3, "bench 60kg 10x5"))) == []


# A small history, computed by hand: each log, and every line it must set (Epley: w × (1 + reps/30)).
GOLDEN: list[tuple[str, list[str]]] = [
    ("bench 50kg 10x5", ["First time logged: bench press."]),  # e1RM 66.7, volume 2,500
    (
        "bench 55kg 8x5",  # e1RM 69.7, volume 2,200
        [
            "New heaviest bench press: 55 kg × 8 (before: 50 kg × 10, 2026-11-20)",
            "New best estimated 1RM on bench press: 69.7 kg, from 55 kg × 8 (before: 66.7 kg, from 50 kg × 10, 2026-11-20)",
        ],
    ),
    (
        "bench 55kg 10x5",  # e1RM 73.3, volume 2,750
        [
            "Most reps at 55 kg on bench press: 55 kg × 10 (before: 55 kg × 8, 2026-11-21)",
            "New best estimated 1RM on bench press: 73.3 kg, from 55 kg × 10 (before: 69.7 kg, from 55 kg × 8, 2026-11-21)",
            "Best bench press session volume: 2,750 kg (before: 2,500 kg, 2026-11-20)",
        ],
    ),
    (
        "bench 50kg 12x5",  # e1RM 70, volume 3,000
        [
            "Most reps at 50 kg on bench press: 50 kg × 12 (before: 50 kg × 10, 2026-11-20)",
            "Best bench press session volume: 3,000 kg (before: 2,750 kg, 2026-11-22)",
        ],
    ),
    ("bench 45kg 10x5", []),  # no earlier set at 45 kg, nothing beaten
    ("squat 100kg 5x5", ["First time logged: squat."]),
    # The best before is the heaviest set with the most reps at it (a tie goes to the day it was set).
    ("bench 60kg 3 reps x 5 sets", ["New heaviest bench press: 60 kg × 3 (before: 55 kg × 10, 2026-11-22)"]),
    ("bench 60kg 3 reps x 5 sets", []),
]


async def test_a_hand_computed_history_entry_by_entry(open_engine: OpenEngine) -> None:
    async with open_engine() as engine:
        for day, (text, expected) in enumerate(GOLDEN, start=1):
            assert lines(await engine.handle(on(day, text))) == expected, text


async def test_a_store_run_again_says_the_same_records_and_stores_once(open_engine: OpenEngine) -> None:
    """A node re-runs from its top when a thread resumes: the same entry stored again says what it said."""
    async with open_engine() as engine:
        await engine.handle(on(1, "bench 55kg 10x5"))
        store = RecordStore(engine.entries.db, DomainRegistry.load())
        entry = scripts.bench_entry(date(2026, 11, 21), 60, 5, source_key="turn:x:0").model_copy(
            update={"source": "chat"}
        )
        first = await store.log(USER, entry, "en")
        again = await store.log(USER, entry, "en")
        assert [r.kind for r in first.records] == ["heaviest"] and again == first
        assert await engine.entries.count(USER) == 2


async def test_a_longer_run_in_korean_names_the_sport_in_korean(open_engine: OpenEngine) -> None:
    async with open_engine() as engine:
        assert lines(await engine.handle(on(1, "러닝 5km 30분"))) == ["러닝 첫 기록이에요."]
        out = await engine.handle(on(2, "러닝 8km 48분"))
    assert lines(out) == ["러닝 최장 거리 경신: 8 km (이전: 5 km, 2026년 11월 20일)"]


async def test_a_bodyweight_lift_counts_reps_in_a_set(open_engine: OpenEngine) -> None:
    async with open_engine() as engine:
        await engine.handle(on(1, "pull-ups 8 reps x 3 sets"))
        out = await engine.handle(on(2, "pull-ups 10 reps x 3 sets"))
    assert lines(out) == ["Most reps in one set of pull-up: BW × 10 (before: BW × 8, 2026-11-20)"]
