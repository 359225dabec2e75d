"""The console on the default path: what the README shows, with no model running at all."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from adapters.console import ConsoleChat
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama


async def test_a_log_and_a_greeting_with_the_model_down(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.stop()  # no model at all: code reads these
    out = io.StringIO()
    async with open_engine() as engine:
        lines = "hello\nbench 55kg 10x5\n스쿼트 100키로 5x5\n"
        await ConsoleChat(engine, "kim", stdin=io.StringIO(lines), stdout=out).run()
        assert await engine.entries.count("console:kim") == 2
    shown = out.getvalue()
    assert "Hi!" in shown
    assert "bench press 55 kg × 10 reps × 5 sets" in shown and "squat 100 kg × 5 reps × 5 sets" in shown
    assert "can't reach" not in shown


async def test_questions_on_an_imported_strong_history_show_only_true_figures(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    """A record, a count in a named month, a volume in a named month and two named weeks, asked through
    the console of a model that lies in every field it fills: what the person reads is code's figures."""
    from tests.engine.facts.test_history import import_history
    from tests.engine.query.test_all_time import LIES_EN, MODEL_NUMBERS, lying_model

    lying_model(fake, LIES_EN)
    out = io.StringIO()
    questions = [
        "What is my heaviest bench press ever?",
        "How many times did I bench in March 2021?",
        "What was my squat volume in March 2021?",
        "Compare my squat in the fourth week of March 2021 with the second week of April 2021",
    ]
    async with open_engine() as engine:
        await import_history(engine.entries.db, "console:lee")
        await ConsoleChat(engine, "lee", stdin=io.StringIO("\n".join(questions) + "\n"), stdout=out).run()
    shown = out.getvalue()
    for line in [
        "Heaviest completed set of bench press, all time: 100 kg × 3 (2025-06-12).",
        "Sessions of bench press, 2021-03-01 to 2021-03-31: 2 sessions.",
        "Volume (weight × reps) of squat, 2021-03-01 to 2021-03-31: 2400 kg.",
        "80 kg × 5 (2021-03-22) — up by 2.5 kg.",
    ]:
        assert line in shown, shown
    for number in MODEL_NUMBERS:
        assert number not in shown, (number, shown)
    assert "partial answer" not in shown


async def test_quit_with_words_after_it_leaves(open_engine: OpenEngine, fake: FakeOllama) -> None:
    """ "/quit now" is /quit, not an unknown command (and nothing after it runs)."""
    out = io.StringIO()
    async with open_engine() as engine:
        await ConsoleChat(engine, "kim", stdin=io.StringIO("/quit now\nbench 55kg 10x5\n"), stdout=out).run()
        assert await engine.entries.count("console:kim") == 0
    assert "bye" in out.getvalue() and "Unknown command" not in out.getvalue()


@pytest.mark.parametrize("word", ["quit", "exit", " Quit "])
async def test_a_bare_quit_leaves_like_at_any_prompt(open_engine: OpenEngine, fake: FakeOllama, word: str) -> None:
    """Before: a plain "quit" went to the model as a message ("I can't reach the language model…")."""
    out = io.StringIO()
    async with open_engine() as engine:
        await ConsoleChat(engine, "kim", stdin=io.StringIO(f"{word}\nbench 55kg 10x5\n"), stdout=out).run()
        assert await engine.entries.count("console:kim") == 0
    assert out.getvalue().rstrip().endswith("bye"), out.getvalue()
    assert fake.requests == [], fake.requests


async def test_quit_inside_a_sentence_is_a_message(open_engine: OpenEngine, fake: FakeOllama) -> None:
    """Only the bare word leaves: "quit smoking" is a message like any other."""
    out = io.StringIO()
    async with open_engine() as engine:
        await ConsoleChat(engine, "kim", stdin=io.StringIO("quit smoking\nbench 55kg 10x5\n"), stdout=out).run()
        assert await engine.entries.count("console:kim") == 1, out.getvalue()


async def test_a_second_export_of_the_day_keeps_the_first(
    open_engine: OpenEngine, fake: FakeOllama, tmp_path: Path
) -> None:
    """Before: a second /export of the day wrote over the first file."""
    out = io.StringIO()
    folder = tmp_path / "exports"
    folder.mkdir()
    async with open_engine() as engine:
        lines = "bench 55kg 10x5\n/export json\nsquat 100kg 5x5\n/export json\n"
        await ConsoleChat(engine, "kim", stdin=io.StringIO(lines), stdout=out, export_dir=folder).run()
    files = sorted((p.name for p in folder.iterdir()), key=len)
    assert len(files) == 2 and files[1] == files[0].replace(".json", "-2.json"), files
    first, second = (len((folder / f).read_text(encoding="utf-8")) for f in files)
    assert first < second  # the first holds one entry, the second two


async def test_a_question_code_reads_is_answered_with_the_model_down(open_engine: OpenEngine, fake: FakeOllama) -> None:
    """Before: "I can't reach the language model" for a question code had already read and computed.
    Now the facts that answer it come, written by code, with a line saying why there is nothing more."""
    fake.stop()
    out = io.StringIO()
    async with open_engine() as engine:
        lines = "bench 55kg 10x5\nwhat is my heaviest bench?\n최근 2주 동안 벤치 몇 번 했어?\n"
        await ConsoleChat(engine, "kim", stdin=io.StringIO(lines), stdout=out).run()
    shown = out.getvalue()
    assert "The language model did not answer, so here is what you asked, computed by code:" in shown
    assert "Heaviest completed set of bench press, all time: 55 kg × 10 (" in shown
    assert "언어 모델이 응답하지 않아" in shown and "벤치프레스 세션 수" in shown
    assert "can't reach" not in shown


async def test_next_gives_the_target_computed_from_the_log_with_the_model_down(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    fake.stop()  # no model at all: the target is code's
    out = io.StringIO()
    lines = "bench 60kg 5, 5, 5, 5, 3\n/next bench\n/next 벤치\n/next deadlift\n/next xyzzy\n/next\n"
    async with open_engine() as engine:
        await ConsoleChat(engine, "kim", stdin=io.StringIO(lines), stdout=out).run()
    shown = out.getvalue()
    assert "Next bench press: 5 × 5 at 60 kg again — a set was missed on " in shown
    assert "(60 kg: 5, 5, 5, 5, 3), so the weight stays until every set is completed." in shown
    assert "다음 벤치프레스: 60 kg 그대로 5회 × 5세트 — " in shown
    assert "You haven't logged deadlift yet" in shown
    assert "I don't know a lift called “xyzzy”" in shown
    assert "Usage: /next bench" in shown
    assert "can't reach" not in shown


async def test_a_record_is_shown_under_the_confirmation(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.stop()
    out = io.StringIO()
    async with open_engine() as engine:
        lines = "bench 55kg 10x5\n벤치프레스 60키로 5x5\n"
        await ConsoleChat(engine, "kim", stdin=io.StringIO(lines), stdout=out).run()
    shown = out.getvalue().splitlines()
    assert "🆕 First time logged: bench press." in shown
    (record,) = [line for line in shown if line.startswith("🏆")]
    assert record.startswith("🏆 벤치프레스 최고 중량 경신: 60 kg × 5 (이전: 55 kg × 10, ")


async def test_chart_writes_a_png_under_the_data_folder_and_prints_its_path(
    open_engine: OpenEngine, fake: FakeOllama, tmp_path: Path
) -> None:
    """`/chart bench` on an imported Strong history: the PNG lands in DATA_DIR/charts/, the console prints
    its path and the caption's true figures (by hand: tests/engine/test_charts.py), Korean included."""
    from PIL import Image

    from tests.engine.facts.test_history import import_history

    fake.stop()  # no model at all: a chart is code's
    out = io.StringIO()
    async with open_engine() as engine:
        await import_history(engine.entries.db, "console:lee")
        lines = "/chart bench all time\n/chart 벤치프레스 전체 기간\n"
        await ConsoleChat(engine, "lee", stdin=io.StringIO(lines), stdout=out).run()
    shown = out.getvalue()
    paths = [line.split(": ", 1)[1] for line in shown.splitlines() if line.strip().startswith(("Chart: ", "차트: "))]
    assert len(paths) == 2, shown
    for path in paths:
        assert Path(path).parent == tmp_path / "data" / "charts"
        with Image.open(path) as image:
            assert image.format == "PNG"
    assert "best 110.8 kg on 2025-06-07 (from 95 kg × 5)" in shown and "latest 110.8 kg (2026-10-10)" in shown
    assert "최고 110.8 kg (2025년 6월 7일, 95 kg × 5회 기준)" in shown
