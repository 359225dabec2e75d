"""A folder of daily notes stored as entries: code reads each note first, the model only what code cannot.

:class:`engine.Logbook` opens the database and hands the notes here (``python -m bot import notes``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.config import LLMConfig
from engine.domains.registry import ActiveDomainContext, DomainRegistry
from engine.errors import ModelMissing, ModelTimeout, ModelUnreachable
from engine.importers import StoreReport, store_imported
from engine.store.db import Database
from engine.store.entries import EntryStore

if TYPE_CHECKING:
    from engine.entries.model import NewEntry
    from engine.importers.notes import Note

NOT_ASKED = "the model was not asked: notes code could not read whole kept with their terms"


@dataclass(frozen=True, slots=True)
class NotesImport:
    """What importing a folder of daily notes did."""

    report: StoreReport
    by_model: int
    """New notes the model read into sets."""
    by_code: int
    """New notes code read into sets whole, no model needed."""
    model_note: str
    """Why the model read none (not asked, or not reachable), or empty."""


async def store_notes(
    db: Database,
    llm_config: LLMConfig | None,
    registry: DomainRegistry,
    ctx: ActiveDomainContext,
    user: str,
    items: Sequence[Note],
    *,
    progress: Callable[[int, int], None] | None = None,
) -> NotesImport:
    """Store each dated note as an entry on its day, read into sets by code, else by the model
    (``llm_config`` None: not asked). A note read into sets before is left alone (the model is the slow
    part); when the model cannot be reached the rest are kept with their terms and ``model_note`` says so."""
    # The model client and the note reader load only for an import of notes (``engine.logbook`` imports
    # this module for ``NotesImport``).
    from engine.agents.llm import LLM
    from engine.importers.notes import note_entry, parse_note, read_note, source_key
    from engine.reading.message import keep_read, log_words

    llm = LLM(llm_config) if llm_config is not None else None
    parsed, read_by_code = 0, 0
    model_note = "" if llm is not None else NOT_ASKED
    words = log_words(registry, ctx)
    try:
        keys = [source_key(user, n, parsed=True) for n in items]
        done_before = await EntryStore(db).existing_source_keys(user, keys)
        entries: list[NewEntry] = []
        for done, note in enumerate(items, start=1):
            if progress is not None:
                progress(done, len(items))
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
    return NotesImport(report=report, by_model=parsed, by_code=read_by_code, model_note=model_note)
