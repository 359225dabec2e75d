"""``import notes``: a folder of daily notes becomes entries with terms, parsed sets when the model answers."""

from __future__ import annotations

import asyncio
import io
from datetime import date
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.notes_cli import NotesProgress, run_notes_import
from engine.entries.export import all_entries
from engine.importers.notes import note_day, scan_notes
from engine.store.entries import EntryStore
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts
from tests.helpers.database import settings_database

USER = "console:kim"


def vault(root: Path) -> Path:
    folder = root / "vault"
    (folder / "Daily" / "2024").mkdir(parents=True)
    (folder / ".obsidian").mkdir()
    (folder / ".obsidian" / "2024-01-01.md").write_text("settings", encoding="utf-8")
    (folder / "Daily" / "2024" / "2024-02-01.md").write_text(
        "---\ntags: [gym]\n---\n# 목요일\n푸쉬프레스 60키로 5x3\n", encoding="utf-8"
    )
    (folder / "Daily" / "2024" / "2024-02-02 Friday.md").write_text("오늘은 쉼. 산책 30분", encoding="utf-8")
    (folder / "20240203.txt").write_text("시티드 프레스 40키로 10x3? 무게 기억 안 남", encoding="utf-8")
    (folder / "ideas.md").write_text("no date here", encoding="utf-8")
    (folder / "2024-02-04.md").write_text("   \n", encoding="utf-8")
    return folder


def test_note_days_come_from_file_names() -> None:
    assert note_day("2024-02-01") == date(2024, 2, 1)
    assert note_day("2024-02-02 Friday") == date(2024, 2, 2)
    assert note_day("20240203") == date(2024, 2, 3)
    assert note_day("Daily 2024_02_05 notes") == date(2024, 2, 5)
    assert note_day("2024-13-40") is None and note_day("ideas") is None


def test_scan_reads_dated_notes_and_says_what_it_skips(tmp_path: Path) -> None:
    scan = scan_notes(vault(tmp_path))
    assert [(n.path, n.day.isoformat()) for n in scan.notes] == [
        ("20240203.txt", "2024-02-03"),
        ("Daily/2024/2024-02-01.md", "2024-02-01"),
        ("Daily/2024/2024-02-02 Friday.md", "2024-02-02"),
    ]
    assert scan.notes[1].text == "# 목요일\n푸쉬프레스 60키로 5x3"  # front matter dropped
    assert scan.skipped == ["2024-02-04.md: empty", "ideas.md: no date in the file name"]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database_url: str | None) -> Path:
    monkeypatch.chdir(tmp_path)
    if database_url:
        monkeypatch.setenv("DATABASE_URL", database_url)
    else:
        monkeypatch.delenv("DATABASE_URL", raising=False)  # SQLite files, whatever the shell says
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def stored() -> list[tuple[str, str, str, list[str]]]:
    async def read() -> list[tuple[str, str, str, list[str]]]:
        db = await settings_database()
        try:
            entries = await all_entries(EntryStore(db), USER)
        finally:
            await db.close()
        return [(e.occurred_on.isoformat(), e.kind, e.summary, e.terms) for e in entries]

    return asyncio.run(read())


def test_without_a_model_notes_keep_their_terms_and_import_once(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")  # nothing listens there
    folder = vault(env)
    assert run_notes_import(load_settings(), folder, user=USER) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"vault: 3 notes imported for {USER}, 0 already present"
    assert "import again later" in out[1]
    assert stored() == [
        ("2024-02-01", "note", "note: 목요일", ["push press"]),
        ("2024-02-02", "note", "note: 오늘은 쉼. 산책 30분", ["walking"]),
        ("2024-02-03", "note", "note: 시티드 프레스 40키로 10x3? 무게 기억 안 남", ["seated overhead press"]),
    ]
    assert run_notes_import(load_settings(), folder, user=USER) == 0
    assert capsys.readouterr().out.startswith(f"vault: 0 notes imported for {USER}, 3 already present")


def test_with_a_model_notes_are_read_into_sets(
    env: Path, fake: FakeOllama, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", fake.url)
    folder = vault(env)
    unsure = scripts.plain(scripts.strength("seated overhead press", None, 10, 3)) | {"status": "needs_clarification"}
    fake.script(
        "ParserOutput",
        scripts.plain(scripts.strength("seated overhead press", 40, 10, 3))
        | unsure,  # 20240203.txt: unsure, stays a note
        scripts.strength("push press", 60, 3, 5),  # 2024-02-01
        {
            **scripts.plain(scripts.strength("x", None, 1, 1)),
            "exercises": [],
            "status": "parsed",
        },  # a rest day: nothing to read
    )
    assert run_notes_import(load_settings(), folder, user=USER) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"vault: 3 notes imported for {USER}, 0 already present",
        "1 read into sets by the model; the rest kept as notes with their terms",
        "skipped 2 files:",
        "  2024-02-04.md: empty",
        "  ideas.md: no date in the file name",
    ]
    rows = stored()
    assert rows[0][:3] == ("2024-02-01", "parsed", "push press 60 kg × 3 reps × 5 sets")
    assert [r[1] for r in rows] == ["parsed", "note", "note"]
    assert len(fake.calls("ParserOutput")) == 3
    # Again: the parsed note is not sent to the model a second time; the plain ones are tried again.
    fake.default("ParserOutput", unsure)
    assert run_notes_import(load_settings(), folder, user=USER) == 0
    assert capsys.readouterr().out.startswith(f"vault: 0 notes imported for {USER}, 3 already present")
    assert len(fake.calls("ParserOutput")) == 5


def test_progress_line_on_a_terminal_only() -> None:
    shown = io.StringIO()
    bar = NotesProgress(shown, enabled=True)
    bar.show("reading", 3, 3)
    bar.clear()
    assert shown.getvalue().startswith("\rreading 3/3 notes") and shown.getvalue().endswith("\r")
    quiet = io.StringIO()
    NotesProgress(quiet).show("reading", 3, 3)  # a StringIO is not a terminal
    assert quiet.getvalue() == ""


def test_code_reads_what_it_is_sure_of_and_never_a_set_the_note_does_not_pin_down(
    env: Path, fake: FakeOllama, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")  # no model at first
    folder = env / "notes"
    folder.mkdir()
    (folder / "2019-02-01.md").write_text("스쿼트 100키로 5x5\n오버헤드프레스 40키로 5x5\n", encoding="utf-8")
    (folder / "2019-02-03.md").write_text("105키로 1개 들어봄! 75까지 드랍해서 6세트\n", encoding="utf-8")
    (folder / "2019-02-05.md").write_text(
        "벤치 60키로 10회 5세트\n오늘 컨디션 별로. 스트레칭 좀 함\n", encoding="utf-8"
    )
    (folder / "2019-02-07.md").write_text("5km 28분 달림\n", encoding="utf-8")
    assert run_notes_import(load_settings(), folder, user=USER) == 0
    assert "2 read into sets by code, no model needed" in capsys.readouterr().out
    rows = {r[0]: r for r in stored()}
    assert rows["2019-02-01"][1:3] == (
        "parsed",
        "squat 100 kg × 5 reps × 5 sets; overhead press 40 kg × 5 reps × 5 sets",
    )
    assert rows["2019-02-07"][1:3] == ("parsed", "running: distance 5 km, duration 28:00")
    assert rows["2019-02-03"][1] == "note"  # a lossy summary: no set is made up from it
    # Code's sure part of a note it could not read whole is kept, and the model reads the rest later.
    assert rows["2019-02-05"][1:3] == ("parsed", "bench press 60 kg × 10 reps × 5 sets")
    monkeypatch.setenv("OLLAMA_HOST", fake.url)
    liar = scripts.plain(
        scripts.strength("bench press", 80, 3, 1)
    )  # the model misreads the bench and adds the stretching
    liar["exercises"].append({"name": "stretching", "sets": 1, "weight_unit": None, "set_details": [{"set_num": 1}]})
    fake.default("ParserOutput", liar)
    assert run_notes_import(load_settings(), folder, user=USER) == 0
    # The two notes code could not read whole go to the model (and only those).
    assert capsys.readouterr().out.startswith(f"notes: 0 notes imported for {USER}, 2 already present, 2 updated")
    rows = {r[0]: r for r in stored()}
    # The model added the stretching; the bench stays as code read it, not the model's 80 kg.
    assert rows["2019-02-05"][2] == "bench press 60 kg × 10 reps × 5 sets; stretching × 1 set"
    assert fake.titles() == ["ParserOutput"] * 2
