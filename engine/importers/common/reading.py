"""A whole export read: every record to a set or a reason, sets grouped into workouts, workouts into entries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from engine.importers.common.csvfile import Table
from engine.importers.common.rows import App, ImportResult, Progress, RowProblem, SetRow
from engine.importers.common.workout import build_entry

if TYPE_CHECKING:
    from engine.importers.strong.names import ExerciseNamer


@dataclass(frozen=True, slots=True)
class NotASet:
    """A row that records no set (a rest timer, an empty set): left out and reported with what it was."""

    reason: str


class RowReader(Protocol):
    """Reads one record of an app's export."""

    def read(self, line: int, values: list[str]) -> SetRow | NotASet | list[str]:
        """The set, what the row was instead, or what is wrong with it (one reason per field)."""
        ...


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
    """Read every record of ``table``; a workout is the rows sharing a start and a name.

    A record with more fields than the header (a stray delimiter in a name)
    is reported rather than read with its columns shifted.
    """
    problems: list[RowProblem] = []
    ignored: list[RowProblem] = []
    workouts: dict[tuple[str, str], list[SetRow]] = {}
    width, total = len(table.header), len(table.records)
    for done, (line, values) in enumerate(table.records, 1):
        if len(values) > width and any(v.strip() for v in values[width:]):
            read: SetRow | NotASet | list[str] = [
                f"{len(values)} fields but the header has {width} (a stray {table.delimiter!r}?)"
            ]
        else:
            read = reader.read(line, values)
        if isinstance(read, SetRow):
            workouts.setdefault(read.identity(), []).append(read)
        elif isinstance(read, NotASet):
            ignored.append(RowProblem(line, read.reason))
        else:
            problems.append(RowProblem(line, "; ".join(read)))
        if progress is not None and (done % 500 == 0 or done == total):
            progress(done, total)

    ordered = sorted(workouts.items(), key=lambda item: (item[0][0], item[1][0].line))
    return ImportResult(
        app=app,
        entries=[build_entry(app, user_key, rows, namer) for _, rows in ordered],
        rows_per_entry=[len(rows) for _, rows in ordered],
        problems=problems,
        ignored=ignored,
        rows=total,
        delimiter=table.delimiter,
        columns=columns,
    )
