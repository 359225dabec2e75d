"""An export's records read into workouts: every record to a set or a reason, a workout's sets into one entry.

A workout is the sets sharing a start and a name (:meth:`SetRow.identity`).
:class:`WorkoutReader` reads the records as they come and builds a workout
into its entry as soon as its last row is read, when it is told where that
is (a first pass over the file, :mod:`engine.importers.files`): a file of any
size then holds only the workouts still open, one at a time for every app's
own export. Told nothing (a file held in memory, :func:`read_workouts`), it
builds every workout at the end, oldest first.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from engine.entries.model import NewEntry
from engine.importers.common.csvfile import Records, Table
from engine.importers.common.rows import App, ImportResult, Progress, RowProblem, SetRow
from engine.importers.common.workout import build_entry

if TYPE_CHECKING:
    from engine.importers.strong.names import ExerciseNamer

WorkoutKey = tuple[str, str]
"""A workout's (start, name), as :meth:`SetRow.identity` gives it."""


@dataclass(frozen=True, slots=True)
class NotASet:
    """A row that records no set (a rest timer, an empty set): left out and reported with what it was."""

    reason: str


class RowReader(Protocol):
    """Reads one record of an app's export."""

    def read(self, line: int, values: list[str]) -> SetRow | NotASet | list[str]:
        """The set, what the row was instead, or what is wrong with it (one reason per field)."""
        ...

    def workout_of(self, values: list[str]) -> WorkoutKey:
        """The workout a set read from this row belongs to, read cheaply (only its start and name).

        Equal to ``read(...).identity()`` whenever ``read`` gives a set; any key for a row that is none.
        """
        ...


@dataclass(slots=True)
class LeftOut:
    """Rows left out of an import: how many, and the first of them in file order."""

    keep: int | None = None
    """How many rows to keep (None: every one); a long file of rest timers then costs no memory."""
    count: int = 0
    rows: list[RowProblem] = field(default_factory=list)

    def add(self, row: RowProblem) -> None:
        self.count += 1
        if self.keep is None or len(self.rows) < self.keep:
            self.rows.append(row)


@dataclass(frozen=True, slots=True)
class Workout:
    """One workout read from an export."""

    entry: NewEntry
    rows: int
    """Set rows behind it."""
    start: str
    """Its start as read (``2024-01-15T18:30:00``), to order workouts as the file's oldest-first list did."""
    line: int
    """The line of its first row."""


class WorkoutReader:
    """Reads an export's records into workouts, yielding each once its last row is read.

    Args:
        ends: Line -> the workout whose last row is on that line (what a first pass over the
            file found); None builds every workout once all records are read, oldest first.
        keep: How many problem and ignored rows to keep (counted all the same).
    """

    def __init__(
        self,
        app: App,
        records: Records,
        reader: RowReader,
        *,
        user_key: str,
        namer: ExerciseNamer,
        ends: Mapping[int, WorkoutKey] | None = None,
        keep: int | None = None,
    ) -> None:
        self.app = app
        self._records = records
        self._reader = reader
        self._user_key = user_key
        self._namer = namer
        self._ends = ends
        self.problems = LeftOut(keep)
        """Rows that could not be read (a bad number, date or unit)."""
        self.ignored = LeftOut(keep)
        """Rows that are no set (rest timers, empty sets), each with what it was."""
        self.rows = 0
        """Data rows read so far."""
        self.workouts = 0
        """Workouts built so far."""

    def __iter__(self) -> Iterator[Workout]:
        width, delimiter = len(self._records.header), self._records.delimiter
        open_: dict[WorkoutKey, list[SetRow]] = {}
        built: set[WorkoutKey] = set()
        for line, values in self._records.rows:
            self.rows += 1
            # A record with more fields than the header (a stray delimiter in a name)
            # is reported rather than read with its columns shifted.
            if len(values) > width and any(v.strip() for v in values[width:]):
                read: SetRow | NotASet | list[str] = [
                    f"{len(values)} fields but the header has {width} (a stray {delimiter!r}?)"
                ]
            else:
                read = self._reader.read(line, values)
            if isinstance(read, SetRow):
                key = read.identity()
                if key in built:
                    # workout_of disagrees with read: storing on would split one workout in two.
                    raise RuntimeError(f"line {line} belongs to a workout already built: {key}")
                open_.setdefault(key, []).append(read)
            elif isinstance(read, NotASet):
                self.ignored.add(RowProblem(line, read.reason))
            else:
                self.problems.add(RowProblem(line, "; ".join(read)))
            if self._ends is not None and (end := self._ends.get(line)) is not None:
                if (rows := open_.pop(end, None)) is not None:
                    built.add(end)
                    yield self._built(rows)
        for _, rows in sorted(open_.items(), key=lambda item: (item[0][0], item[1][0].line)):
            yield self._built(rows)

    def _built(self, rows: list[SetRow]) -> Workout:
        self.workouts += 1
        entry = build_entry(self.app, self._user_key, rows, self._namer)
        return Workout(entry=entry, rows=len(rows), start=rows[0].start, line=rows[0].line)


def read_workouts(
    app: App,
    table: Table,
    reader: RowReader,
    *,
    user_key: str,
    namer: ExerciseNamer,
    columns: dict[str, str],
    progress: Progress | None = None,
) -> ImportResult:
    """Read every record of a file held in memory; its workouts come out oldest first."""
    total = len(table.records)

    def records() -> Iterator[tuple[int, list[str]]]:
        for done, record in enumerate(table.records, 1):
            yield record
            if progress is not None and (done % 500 == 0 or done == total):
                progress(done, total)

    workouts = WorkoutReader(
        app, Records(table.header, table.delimiter, records()), reader, user_key=user_key, namer=namer
    )
    read = list(workouts)
    return ImportResult(
        app=app,
        entries=[w.entry for w in read],
        rows_per_entry=[w.rows for w in read],
        problems=workouts.problems.rows,
        ignored=workouts.ignored.rows,
        rows=total,
        delimiter=table.delimiter,
        columns=columns,
    )
