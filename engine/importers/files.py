"""An export read from its file in two passes, so that an import's memory stays flat in the file's size.

* :func:`open_export` reads the file's first bytes: which encodings can be
  its own, and enough text to tell the app by its header (:func:`detect`).
* :func:`scan` reads every record once, keeping only where each workout's
  last row is (a line number per workout) and how many rows there are. It
  also proves that the file decodes as a whole, in the encoding ``decode``
  would choose, and that its header has the columns the app needs, before
  anything is stored.
* :func:`read_export` reads the file again through a
  :class:`~engine.importers.common.WorkoutReader`, which builds each workout
  into its entry once its last row is read; the caller stores them in
  batches (:func:`engine.importers.store_workouts`).

Order. Every app's own export lists a workout's rows together, oldest or
newest workout first, so one workout is open at a time.
A file in any other order (sorted by exercise in a spreadsheet) is read right
all the same: its workouts stay open until their last rows, which costs
memory in proportion to how far apart one workout's rows lie, never a workout
split or merged.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from engine.importers import StoreReport, store_workouts
from engine.importers.common import (
    APP_TITLES,
    App,
    ImportFormatError,
    Progress,
    TextFile,
    WeightUnit,
    WorkoutKey,
    WorkoutReader,
    encodings,
    read_records,
)
from engine.importers.common.textfile import NOT_TEXT, PREFIX_BYTES, head_text
from engine.importers.detect import row_reader
from engine.importers.strong import ExerciseNamer
from engine.store.db import Database

PROGRESS_EVERY = 500
"""Rows between progress calls."""


@dataclass(frozen=True, slots=True)
class ExportFile:
    """An export on disk, before it is read."""

    path: Path
    head: str
    """The file's first part as text: enough to tell the app by its header (:func:`detect`)."""
    encodings: tuple[str, ...]
    """The encodings it may be in, in the order ``decode`` tries them."""
    stamp: tuple[int, int]
    """Size and modification time: a file changed between the passes is not read on."""


def _stamp(path: Path) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_size, info.st_mtime_ns


def open_export(path: Path) -> ExportFile:
    """Read the first bytes of an export.

    Raises:
        OSError: the file cannot be read.
        ImportFormatError: it is not text in an encoding an export is written in.
    """
    with path.open("rb") as f:
        prefix = f.read(PREFIX_BYTES + 1)
    whole = len(prefix) <= PREFIX_BYTES
    found = encodings(prefix[:PREFIX_BYTES], whole=whole)
    head = head_text(prefix[:PREFIX_BYTES], found[0], whole=whole) or ""
    return ExportFile(path=path, head=head, encodings=found, stamp=_stamp(path))


@dataclass(frozen=True, slots=True)
class ScannedExport:
    """What the first pass found."""

    file: ExportFile
    app: App
    encoding: str
    """The encoding the whole file decodes in."""
    rows: int
    """Data rows (header and blank lines not counted)."""
    delimiter: str
    columns: dict[str, str]
    """Field -> the header it is read from."""
    ends: dict[int, WorkoutKey]
    """Line -> the workout whose last row is on that line."""


def scan(
    file: ExportFile,
    app: App,
    *,
    namer: ExerciseNamer,
    default_unit: WeightUnit = "kg",
    progress: Progress | None = None,
) -> ScannedExport:
    """Read the whole file once, for where each workout ends; nothing is built.

    Args:
        progress: Called with (rows read, rows expected) every few hundred rows; the
            rows expected are estimated from the bytes read until the last call.

    Raises:
        MissingColumnsError: the header lacks a column the app's importer needs.
        ImportFormatError: the file is empty, or not text in any encoding ``decode`` knows.
        OSError: the file cannot be read.
    """
    for encoding in file.encodings:
        try:
            return _scan(file, app, encoding, namer=namer, default_unit=default_unit, progress=progress)
        except UnicodeDecodeError:
            continue  # what decode does: the next encoding, for the whole file
    raise ImportFormatError(NOT_TEXT)


def _scan(
    file: ExportFile,
    app: App,
    encoding: str,
    *,
    namer: ExerciseNamer,
    default_unit: WeightUnit,
    progress: Progress | None,
) -> ScannedExport:
    with TextFile(file.path, encoding) as text:
        records = read_records(text.lines)
        reader, columns = row_reader(app, records.header, namer=namer, default_unit=default_unit)
        last: dict[WorkoutKey, int] = {}
        rows = 0
        for line, values in records.rows:
            rows += 1
            last[reader.workout_of(values)] = line
            if progress is not None and rows % PROGRESS_EVERY == 0:
                progress(rows, max(rows, round(rows / max(text.done(), 1e-9))))
    if progress is not None:
        progress(rows, rows)
    return ScannedExport(
        file=file,
        app=app,
        encoding=encoding,
        rows=rows,
        delimiter=records.delimiter,
        columns=columns,
        ends={line: key for key, line in last.items()},
    )


@contextmanager
def read_export(
    scanned: ScannedExport,
    *,
    user_key: str,
    namer: ExerciseNamer,
    default_unit: WeightUnit = "kg",
    keep: int | None = None,
) -> Iterator[WorkoutReader]:
    """The file's workouts, each built once its last row is read (the file is open meanwhile).

    Args:
        keep: How many problem and ignored rows to keep (all are counted).

    Raises:
        ImportFormatError: the file changed since it was scanned.
        OSError: the file cannot be read.
    """
    changed = ImportFormatError("the file changed while it was being imported; import it again")
    if _stamp(scanned.file.path) != scanned.file.stamp:
        raise changed
    with TextFile(scanned.file.path, scanned.encoding) as text:
        records = read_records(text.lines)
        reader, _ = row_reader(scanned.app, records.header, namer=namer, default_unit=default_unit)
        try:
            yield WorkoutReader(
                scanned.app, records, reader, user_key=user_key, namer=namer, ends=scanned.ends, keep=keep
            )
        except UnicodeDecodeError:
            raise changed from None  # it decoded whole in the first pass


@dataclass(frozen=True, slots=True)
class FileImport:
    """What importing an app's export did."""

    report: StoreReport
    read: WorkoutReader
    """The rows read: ``ignored`` and ``problems`` (the first ``keep`` of each listed), ``workouts`` built."""
    title: str
    """The app as its name is written: ``Strong``, ``Hevy``, ``FitNotes``."""


async def store_export(
    db: Database,
    user: str,
    scanned: ScannedExport,
    *,
    namer: ExerciseNamer,
    unit: WeightUnit = "kg",
    keep: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> FileImport:
    """The second pass: the file's workouts read, built and stored a batch (one transaction) at a time;
    ``progress`` gets (rows read, rows in the file) after each batch."""
    with read_export(scanned, user_key=user, namer=namer, default_unit=unit, keep=keep) as read:
        # Rows read so far are done: stored, or left out and reported.
        report = await store_workouts(
            db, user, read, progress=None if progress is None else lambda _: progress(read.rows, scanned.rows)
        )
    return FileImport(report=report, read=read, title=APP_TITLES[scanned.app])
