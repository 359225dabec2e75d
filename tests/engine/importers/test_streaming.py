"""Issue 23.6: an export read from its file in two passes and stored a batch at a time.

The command line reads a file with :mod:`engine.importers.files` and stores it
with :func:`store_workouts`, holding one workout at a time; everything the
whole-text path (:func:`parse_export`, :func:`store_imported`) ever did must
come out the same: the same entries and source keys, the same problems and
ignored rows by line, the same counts, the same order of a day's workouts,
and the same choice of encoding as :func:`decode` makes on the whole file.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.domains.registry import DomainRegistry
from engine.entries.export import all_entries
from engine.entries.model import NewEntry, SetDetail
from engine.importers import detect, parse_export, store_imported, store_workouts
from engine.importers.common import ImportFormatError, ImportResult, Workout, decode
from engine.importers.common.textfile import PREFIX_BYTES
from engine.importers.files import open_export, read_export, scan
from engine.importers.strong import ExerciseNamer
from engine.store.db import Database
from engine.store.entries import EntryStore
from tests.conftest import OpenDb

DATA = Path(__file__).resolve().parents[2] / "data"
USER = "console:kim"
HEADER = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Notes\n"
# Excel's separator line, CRLF and bare CR line ends, a note over two lines, a blank line, a bad row.
ODD = (
    "sep=;\r\nDate;Workout Name;Exercise Name;Set Order;Weight;Reps;Notes\r\n"
    '2024-03-02 08:05:00;Home;Squat (Barbell);1;100;5;"first line\r\nsecond line"\r\n'
    "\r\n"
    "2024-03-02 08:05:00;Home;Squat (Barbell);2;100;x;\r"
    "2024-03-03 08:05:00;Home;Squat (Barbell);1;102,5;5;\n"
)


@pytest.fixture(scope="module")
def namer() -> ExerciseNamer:
    return ExerciseNamer.from_registry(DomainRegistry.load())


@pytest.fixture
async def db(open_db: OpenDb) -> AsyncIterator[Database]:
    database = await open_db()
    try:
        yield database
    finally:
        await database.close()


def by_file(path: Path, namer: ExerciseNamer) -> tuple[list[Workout], ImportResult]:
    """The workouts the file path reads, in the order it yields them, and what the text path reads."""
    text = decode(path.read_bytes())
    app = detect(text)
    assert app is not None
    export = open_export(path)
    assert detect(export.head) == app
    scanned = scan(export, app, namer=namer)
    with read_export(scanned, user_key=USER, namer=namer) as read:
        workouts = list(read)
    expected = parse_export(app, text, user_key=USER, namer=namer)
    assert (scanned.rows, scanned.delimiter, scanned.columns) == (expected.rows, expected.delimiter, expected.columns)
    assert (read.rows, read.workouts) == (expected.rows, len(expected.entries))
    assert (read.problems.rows, read.problems.count) == (expected.problems, len(expected.problems))
    assert (read.ignored.rows, read.ignored.count) == (expected.ignored, len(expected.ignored))
    return workouts, expected


def oldest_first(workouts: list[Workout]) -> list[NewEntry]:
    return [w.entry for w in sorted(workouts, key=lambda w: (w.start, w.line))]


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.csv")))
def test_the_file_path_reads_every_sample_as_the_text_path_does(name: str, namer: ExerciseNamer) -> None:
    workouts, expected = by_file(DATA / name, namer)
    assert oldest_first(workouts) == expected.entries
    assert [w.rows for w in sorted(workouts, key=lambda w: (w.start, w.line))] == expected.rows_per_entry


def test_separator_line_line_ends_and_quoted_newlines(tmp_path: Path, namer: ExerciseNamer) -> None:
    workouts, expected = by_file(write(tmp_path / "odd.csv", ODD), namer)
    assert oldest_first(workouts) == expected.entries and len(workouts) == 2
    # Line numbers count the note's two lines and the blank line, as the text path always has.
    assert [str(p) for p in expected.problems] == ["line 6: reps 'x' is not a number"]


def test_each_workout_is_built_as_soon_as_its_last_row_is_read(namer: ExerciseNamer) -> None:
    path = DATA / "strong_history.csv"
    scanned = scan(open_export(path), "strong", namer=namer)
    # Where each workout's last row is, by the csv module alone: (Date, Workout Name) in a plain file.
    lines = path.read_text(encoding="utf-8-sig").splitlines()[1:]
    last = {tuple(line.split(",")[:2]): n for n, line in enumerate(lines, 1)}
    seen: list[int] = []
    with read_export(scanned, user_key=USER, namer=namer) as read:
        for _ in read:
            seen.append(read.rows)
    assert seen == sorted(last.values()) and len(seen) == 117  # never more than one workout held


@pytest.mark.parametrize("order", ["newest first", "shuffled"])
def test_a_file_in_another_order_gives_the_same_workouts(order: str, tmp_path: Path, namer: ExerciseNamer) -> None:
    """Hevy lists the newest first; a spreadsheet may sort by anything. The workouts and their keys stay."""
    header, *rows = (DATA / "strong_history.csv").read_text(encoding="utf-8-sig").splitlines()
    if order == "newest first":
        rows.reverse()
    else:
        random.Random(23).shuffle(rows)
    path = write(tmp_path / "reordered.csv", "\n".join([header, *rows]) + "\n")
    workouts, expected = by_file(path, namer)
    assert oldest_first(workouts) == expected.entries
    original = parse_export("strong", decode((DATA / "strong_history.csv").read_bytes()), user_key=USER, namer=namer)
    assert sorted(w.entry.source_key for w in workouts) == sorted(e.source_key for e in original.entries)


async def test_a_newest_first_file_stores_a_days_workouts_in_the_same_order(
    tmp_path: Path, db: Database, namer: ExerciseNamer
) -> None:
    """Entries of one day are listed by when they were stored: a batch never splits a day, and is sorted."""
    rows = [
        "2024-05-02 07:00:00,Pull,Pull Up,1,0,8,",
        "2024-05-01 18:00:00,Evening,Squat (Barbell),1,100,5,",
        "2024-05-01 07:00:00,Morning,Bench Press (Barbell),1,60,5,",
    ]
    path = write(tmp_path / "newest.csv", HEADER + "\n".join(rows) + "\n")
    scanned = scan(open_export(path), "strong", namer=namer)
    with read_export(scanned, user_key=USER, namer=namer) as read:
        report = await store_workouts(db, USER, read, batch_size=1)
    assert (report.added, report.present) == (3, 0)
    names = [e.data["import"]["workout_name"] for e in await all_entries(EntryStore(db), USER)]
    assert names == ["Morning", "Evening", "Pull"]


async def test_each_batch_is_one_transaction(db: Database, namer: ExerciseNamer, tmp_path: Path) -> None:
    await store_imported(db, USER, parse_export("strong", decode((DATA / "strong_en.csv").read_bytes()),
                                                user_key=USER, namer=namer).entries)  # fmt: skip
    # A newer export: Push Day edited in Strong, one workout more.
    text = (DATA / "strong_en.csv").read_text(encoding="utf-8-sig").replace(",62.5,6,", ",65,6,")
    text += '2024-01-21 18:00:00,"Push Day",1h,"Bench Press (Barbell)",1,65,5,0,0,"","","",\n'
    scanned = scan(open_export(write(tmp_path / "newer.csv", text)), "strong", namer=namer)
    commits = 0
    commit = db.conn.commit

    async def counted() -> None:
        nonlocal commits
        commits += 1
        await commit()

    db.conn.commit = counted  # type: ignore[method-assign]
    with read_export(scanned, user_key=USER, namer=namer) as read:
        report = await store_workouts(db, USER, read, batch_size=2)
    db.conn.commit = commit  # type: ignore[method-assign]
    assert (report.added, report.updated, report.present) == (1, 1, 2)
    assert commits == 2  # four workouts, two batches: the replacement and the new workout each in theirs


async def test_a_batch_that_cannot_replace_stores_nothing(db: Database, namer: ExerciseNamer) -> None:
    push, legs, run = parse_export("strong", decode((DATA / "strong_en.csv").read_bytes()),
                                   user_key=USER, namer=namer).entries  # fmt: skip
    store = EntryStore(db)
    with pytest.raises(KeyError):
        await store.add_imported(USER, [legs, run], replacing=[("e-no-such-entry", push)])
    assert await store.count(USER) == 0


def test_the_encoding_is_chosen_over_the_whole_file(tmp_path: Path, namer: ExerciseNamer) -> None:
    """Korean Excel writes CP949; an English header and plain rows may fill the first part."""
    plain = "".join(
        f"2024-01-{1 + n // 400:02d} 18:00:00,A,Squat (Barbell),{n % 400 + 1},100,5,\n" for n in range(2400)
    )
    text = HEADER + plain + "2024-01-20 18:00:00,B,스쿼트 (바벨),1,100,5,무릎 괜찮음\n"
    assert len(HEADER + plain) > PREFIX_BYTES
    path = write(tmp_path / "cp949.csv", text, "cp949")
    export = open_export(path)
    assert export.encodings == ("utf-8-sig", "cp949")
    scanned = scan(export, "strong", namer=namer)
    assert scanned.encoding == "cp949"
    workouts, expected = by_file(path, namer)
    assert oldest_first(workouts) == expected.entries
    assert workouts[-1].entry.data["exercises"][0]["source_name"] == "스쿼트 (바벨)"


def test_utf16_and_a_character_cut_by_the_first_part(tmp_path: Path, namer: ExerciseNamer) -> None:
    text = (DATA / "strong_ko.csv").read_text(encoding="utf-8-sig")
    workouts, expected = by_file(write(tmp_path / "utf16.csv", "\ufeff" + text, "utf-16-le"), namer)
    assert oldest_first(workouts) == expected.entries
    # A three-byte character across the end of the first part is no reason to leave UTF-8.
    pad = "x" * (PREFIX_BYTES - len(HEADER) - len("2024-01-01 18:00:00,") - 1)
    cut = write(tmp_path / "cut.csv", f"{HEADER}2024-01-01 18:00:00,{pad}스쿼트,Squat (Barbell),1,100,5,\n")
    assert cut.read_bytes()[PREFIX_BYTES - 1 : PREFIX_BYTES + 2].decode("utf-8") == "스"
    assert open_export(cut).encodings[0] == "utf-8-sig"
    assert scan(open_export(cut), "strong", namer=namer).encoding == "utf-8-sig"


def test_a_file_that_is_no_text_is_refused(tmp_path: Path, namer: ExerciseNamer) -> None:
    junk = tmp_path / "junk.csv"
    junk.write_bytes(b"\x80\xff" * 50)
    with pytest.raises(ImportFormatError, match="not UTF-8 text"):
        open_export(junk)
    # Text at first, no text later (neither UTF-8 nor CP949): refused before anything is stored.
    late = tmp_path / "late.csv"
    late.write_bytes((HEADER + "2024-01-01 18:00:00,A,Squat,1,100,5,\n" * 3000).encode() + b"\xff\xff\xff\n")
    with pytest.raises(ImportFormatError, match="not UTF-8 text"):
        scan(open_export(late), "strong", namer=namer)


def test_a_file_changed_between_the_passes_is_not_read_on(tmp_path: Path, namer: ExerciseNamer) -> None:
    path = write(tmp_path / "a.csv", HEADER + "2024-01-01 18:00:00,A,Squat (Barbell),1,100,5,\n")
    scanned = scan(open_export(path), "strong", namer=namer)
    with path.open("a", encoding="utf-8") as f:
        f.write("2024-01-02 18:00:00,A,Squat (Barbell),1,100,5,\n")
    with pytest.raises(ImportFormatError, match="changed"), read_export(scanned, user_key=USER, namer=namer):
        pass


def test_only_the_first_problems_are_kept_and_all_are_counted(tmp_path: Path, namer: ExerciseNamer) -> None:
    bad = "".join(f"2024-01-01 18:00:00,A,Squat (Barbell),{n},100,x{n},\n" for n in range(1, 51))
    scanned = scan(open_export(write(tmp_path / "bad.csv", HEADER + bad)), "strong", namer=namer)
    with read_export(scanned, user_key=USER, namer=namer, keep=20) as read:
        assert list(read) == []
    assert read.problems.count == 50 and len(read.problems.rows) == 20
    assert str(read.problems.rows[-1]) == "line 21: reps 'x20' is not a number"


def test_stored_sets_are_set_details_compact_form(namer: ExerciseNamer) -> None:
    """Sets are written out as dicts, not built as models: they must be what ``SetDetail`` dumps, key order too."""
    checked = 0
    for path in DATA.glob("*.csv"):
        text = decode(path.read_bytes())
        app = detect(text)
        assert app is not None
        for entry in parse_export(app, text, user_key=USER, namer=namer).entries:
            for exercise in entry.data["exercises"]:
                for d in exercise["set_details"]:
                    assert list(SetDetail.model_validate(d).model_dump(mode="json").items()) == list(d.items())
                    checked += 1
    assert checked > 500


def test_an_exercise_of_more_sets_than_a_log_holds_is_still_summarized(namer: ExerciseNamer) -> None:
    rows = "".join(f"2024-01-01 18:00:00,A,Squat (Barbell),{n},100,5,\n" for n in range(1, 102))
    (entry,) = parse_export("strong", HEADER + rows, user_key=USER, namer=namer).entries
    assert entry.summary == "squat 100 kg × 5 reps × 101 sets"
