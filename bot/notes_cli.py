"""``python -m bot import notes DIR --user KEY``: a folder of daily notes into entries.

Each dated note becomes one entry on its day, with its terms read by code.
When the model answers, each new note is also parsed into structured sets
(the LOG flow's Parser, no questions asked); when it does not, the notes are
stored with their terms alone and the report says so. A progress line shows
on a terminal. Importing again adds nothing, and a note whose sets an app's
import already holds is left out and counted. Exit codes: 0 done, 2 the folder
or the settings cannot be used.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TextIO

from bot.config import Settings, fail
from bot.progress import Progress


def NotesProgress(stream: TextIO, enabled: bool | None = None) -> Progress:  # noqa: N802 - reads as the class it was
    """``\\rparsing 12/365 notes`` on a terminal; nothing otherwise."""
    return Progress(stream, enabled, unit="notes")


def run_notes_import(settings: Settings, folder: Path, *, user: str, use_model: bool = True) -> int:
    """Import a folder of daily notes for ``user``; prints a report and returns the exit code."""
    from bot.logs import configure_logging
    from engine import DataDirError, DomainFileError, Logbook

    # Log lines go to stderr, never between the report's lines.
    configure_logging(settings.log_format, "WARNING", settings.secrets(), stream=sys.stderr)
    if not folder.is_dir():
        fail(f"{folder} is not a folder of notes")
    try:
        scan = Logbook.scan_notes(folder)
    except OSError as exc:
        fail(f"cannot read {folder}: {exc.strerror or exc}")
    try:
        logbook = Logbook.open(settings.engine_config())
    except DomainFileError as exc:
        fail(str(exc))
    registry = logbook.registry
    # By the files' precedence (strength first), so its spellings win the few words two domains share.
    names = registry.by_precedence
    progress = NotesProgress(sys.stderr)
    try:
        done = asyncio.run(
            logbook.import_notes(
                user, scan, names, use_model=use_model, progress=lambda n, total: progress.show("reading", n, total)
            )
        )
    except DataDirError as exc:
        progress.clear()
        fail(str(exc))
    progress.clear()
    report, parsed, read_by_code, model_note = done.report, done.by_model, done.by_code, done.model_note
    plural = "" if report.added == 1 else "s"
    line = f"{folder.name}: {report.added} note{plural} imported for {user}, {report.present} already present"
    if report.updated:
        line += f", {report.updated} updated (edited since the last import)"
    print(line)
    if report.duplicates:
        n = sum(report.duplicates.values())
        notes = "note whose workout was" if n == 1 else "notes whose workouts were"
        print(f"skipped {n} {notes} already imported from {report.duplicates_text()}")
    if read_by_code:
        print(f"{read_by_code} read into sets by code, no model needed")
    if model_note:
        print(model_note)
    elif parsed:
        print(f"{parsed} read into sets by the model; the rest kept as notes with their terms")
    if scan.skipped:
        print(f"skipped {len(scan.skipped)} file{'' if len(scan.skipped) == 1 else 's'}:")
        for reason in scan.skipped[:20]:
            print(f"  {reason}")
        if len(scan.skipped) > 20:
            print(f"  … and {len(scan.skipped) - 20} more")
    elif not scan.notes:
        print("no dated notes found (name each file by its day, e.g. 2024-02-01.md)")
    return 0
