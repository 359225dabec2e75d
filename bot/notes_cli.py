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
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.config import Settings, fail
from bot.progress import Progress

if TYPE_CHECKING:
    from engine.domains.registry import ActiveDomainContext, DomainRegistry
    from engine.importers import StoreReport
    from engine.importers.notes import Note


def NotesProgress(stream: TextIO, enabled: bool | None = None) -> Progress:  # noqa: N802 - reads as the class it was
    """``\\rparsing 12/365 notes`` on a terminal; nothing otherwise."""
    return Progress(stream, enabled, unit="notes")


def run_notes_import(settings: Settings, folder: Path, *, user: str, use_model: bool = True) -> int:
    """Import a folder of daily notes for ``user``; prints a report and returns the exit code."""
    from bot.logs import configure_logging
    from engine.domains.registry import DomainFileError, DomainRegistry, DomainSelector
    from engine.importers.notes import scan_notes
    from engine.importers.overlap import sources_text
    from engine.store.db import DataDirError

    # Log lines go to stderr, never between the report's lines.
    configure_logging(settings.log_format, "WARNING", settings.secrets(), stream=sys.stderr)
    if not folder.is_dir():
        fail(f"{folder} is not a folder of notes")
    try:
        scan = scan_notes(folder)
    except OSError as exc:
        fail(f"cannot read {folder}: {exc.strerror or exc}")
    try:
        registry = DomainRegistry.load(settings.domains_dir)
    except DomainFileError as exc:
        fail(str(exc))
    # By the files' precedence (strength first), so its spellings win the few words two domains share.
    names = registry.by_precedence
    ctx = DomainSelector(registry).build_active_context(names)
    progress = NotesProgress(sys.stderr)
    try:
        report, parsed, read_by_code, model_note = asyncio.run(
            _import(settings, registry, ctx, scan.notes, user, use_model, progress)
        )
    except DataDirError as exc:
        progress.clear()
        fail(str(exc))
    progress.clear()
    plural = "" if report.added == 1 else "s"
    line = f"{folder.name}: {report.added} note{plural} imported for {user}, {report.present} already present"
    if report.updated:
        line += f", {report.updated} updated (edited since the last import)"
    print(line)
    if report.duplicates:
        n = sum(report.duplicates.values())
        notes = "note whose workout was" if n == 1 else "notes whose workouts were"
        print(f"skipped {n} {notes} already imported from {sources_text(report.duplicates)}")
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


async def _import(
    settings: Settings,
    registry: DomainRegistry,
    ctx: ActiveDomainContext,
    notes: list[Note],
    user: str,
    use_model: bool,
    progress: Progress,
) -> tuple[StoreReport, int, int, str]:
    from engine.agents.llm import LLM
    from engine.errors import ModelMissing, ModelTimeout, ModelUnreachable
    from engine.importers import _existing_keys, store_imported
    from engine.importers.notes import note_entry, parse_note, read_note, source_key
    from engine.reading.message import keep_read, log_words
    from engine.store.db import Database

    config = settings.engine_config()
    config.data_dir.mkdir(parents=True, exist_ok=True)
    db = await Database.open(config.entries_db)
    llm = LLM(config.llm) if use_model else None
    parsed, read_by_code = 0, 0
    model_note = "" if use_model else "the model was not asked: notes code could not read whole kept with their terms"
    words = log_words(registry, ctx)
    try:
        keys = [source_key(user, n, parsed=True) for n in notes]
        done_before = await _existing_keys(db, user, keys)
        entries = []
        for done, note in enumerate(notes, start=1):
            progress.show("reading", done, len(notes))
            if source_key(user, note, parsed=True) in done_before:
                continue  # read into sets before: nothing left to do (and the model is the slow part)
            # Code reads what it can be sure of first; the model only reads a note code could not read whole.
            reading, whole = read_note(note, words)
            by_code = reading is not None
            if whole:
                read_by_code += 1
                entries.append(note_entry(user, note, ctx, reading))
                continue
            if llm is not None:
                try:
                    by_model = await parse_note(llm, ctx, note)
                except (ModelUnreachable, ModelTimeout, ModelMissing) as exc:
                    # One clear line, then the rest without the model rather than a failure per note.
                    model_note = f"{exc} Notes were kept with their terms; import again later to read the sets."
                    await llm.aclose()
                    llm = None
                    by_model = None
                if by_model is not None:
                    parsed += 1
                    reading, by_code = (keep_read(by_model, reading) if reading else by_model), False
            entries.append(note_entry(user, note, ctx, reading, by_code=by_code))
        report = await store_imported(db, user, entries)
        report = replace(report, present=report.present + len(done_before))
    finally:
        if llm is not None:
            await llm.aclose()
        await db.close()
    return report, parsed, read_by_code, model_note
