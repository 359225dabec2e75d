"""Which app wrote an export, told by its header, and reading it with that app's importer."""

from __future__ import annotations

from engine.importers.common import App, ImportResult, Progress, RowReader, WeightUnit, find_columns, fold, read_table
from engine.importers.fitnotes import fitnotes_reader, parse_fitnotes_csv
from engine.importers.hevy import hevy_reader, parse_hevy_csv
from engine.importers.strong import ExerciseNamer, parse_strong_csv, strong_reader
from engine.importers.strong.columns import HEADERS as STRONG_HEADERS

APPS: tuple[App, ...] = ("strong", "hevy", "fitnotes")


def detect(text: str) -> App | None:
    """The app whose export this is, by its header line; None when no importer knows it.

    Args:
        text: The file's text, or its first part (only the first lines are read).

    Raises:
        ImportFormatError: the file is empty.
    """
    head = "\n".join(text.lstrip("\ufeff").splitlines()[:3])
    header = read_table(head).header
    folded = {fold(h) for h in header}
    if {"exercise_title", "set_index"} <= folded:
        return "hevy"
    if {"exercise", "category"} <= folded:
        return "fitnotes"
    index, _ = find_columns(header, STRONG_HEADERS)
    if "date" in index and "exercise" in index:
        return "strong"
    return None


def parse_export(
    app: App,
    text: str,
    *,
    user_key: str,
    namer: ExerciseNamer,
    default_unit: WeightUnit = "kg",
    progress: Progress | None = None,
) -> ImportResult:
    """Read ``text`` with ``app``'s importer (``default_unit`` only matters for Strong, whose file may not say).

    Raises:
        MissingColumnsError: the file lacks a column that importer needs.
        ImportFormatError: the file is empty.
    """
    if app == "hevy":
        return parse_hevy_csv(text, user_key=user_key, namer=namer, progress=progress)
    if app == "fitnotes":
        return parse_fitnotes_csv(text, user_key=user_key, namer=namer, progress=progress)
    return parse_strong_csv(text, user_key=user_key, namer=namer, default_unit=default_unit, progress=progress)


def row_reader(
    app: App, header: list[str], *, namer: ExerciseNamer, default_unit: WeightUnit = "kg"
) -> tuple[RowReader, dict[str, str]]:
    """``app``'s reader of a file with this header, and field -> the header it reads.

    Raises:
        MissingColumnsError: the header lacks a column that importer needs.
    """
    if app == "hevy":
        return hevy_reader(header)
    if app == "fitnotes":
        return fitnotes_reader(header, namer=namer)
    return strong_reader(header, namer=namer, default_unit=default_unit)
