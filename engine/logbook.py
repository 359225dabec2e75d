"""The second front door: a person's logbook worked on without a conversation.

``bot/``'s offline commands (import, export, search, the vocabulary, the
knowledge base) come through here, as chats come through :class:`Engine`::

    logbook = Logbook.open(config)                       # the domain files (DomainFileError)
    exported = await logbook.export("console:kim", "csv")
    found, count = await logbook.unknown_names("console:kim")

Each method opens the entries database for its work and closes it after, so a
command-line run is a few ``asyncio.run`` calls on one ``Logbook``. No model is
called, except by :meth:`Logbook.import_notes` for a note code cannot read
whole. The result types below are the ones the methods return; everything
they hold stays internal.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.config import EngineConfig
from engine.domains.registry import ActiveDomainContext, DomainRegistry, DomainSelector
from engine.importers import APPS, StoreReport, detect, store_imported, store_workouts
from engine.importers.common import APP_TITLES, ImportFormatError, LeftOut, WeightUnit, WorkoutReader
from engine.importers.files import ExportFile, ScannedExport, open_export, read_export, scan
from engine.importers.strong import ExerciseNamer
from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.model import Chunk, ExpansionResult, IngestReport
from engine.language.unknown import UnknownName
from engine.store.db import Database
from engine.store.entries import EntryStore

if TYPE_CHECKING:
    # Types of what the methods return, for annotations: their modules load only when the work needs them.
    from engine.entries.model import Entry as Entry
    from engine.importers.notes import NotesScan as NotesScan
    from engine.knowledge.base import KnowledgeBase as KnowledgeBase


@dataclass(frozen=True, slots=True)
class FileImport:
    """What importing an app's export did."""

    report: StoreReport
    read: WorkoutReader
    """The rows read: ``ignored`` and ``problems`` (the first ``keep`` of each listed), ``workouts`` built."""
    title: str
    """The app as its name is written: ``Strong``, ``Hevy``, ``FitNotes``."""


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


@dataclass(frozen=True, slots=True)
class Export:
    """A person's entries written out."""

    text: str
    entries: int
    left_out: int = 0
    """Entries the format cannot hold (Strong's: planned sessions, meals, notes)."""


class Logbook:
    """The domain files, the entries database and the knowledge base, for work without a conversation.

    Args:
        registry: The domains; None reads the domain files when first needed (:meth:`open` reads them now).
        knowledge: The knowledge base's settings (``config.knowledge`` when None).
    """

    APPS: tuple[str, ...] = APPS
    """The apps whose exports :meth:`scan_export` reads."""

    def __init__(
        self, config: EngineConfig, registry: DomainRegistry | None = None, *, knowledge: KnowledgeConfig | None = None
    ) -> None:
        self.config = config
        self._registry = registry
        self._knowledge = knowledge if knowledge is not None else config.knowledge

    @classmethod
    def open(cls, config: EngineConfig, *, knowledge: KnowledgeConfig | None = None) -> Logbook:
        """Read the domain files (the built-in ones and ``config.domains_dir``).

        Raises:
            DomainFileError: a domain file cannot be used.
        """
        return cls(config, DomainRegistry.load(config.domains_dir), knowledge=knowledge)

    @property
    def registry(self) -> DomainRegistry:
        """The domain files read (raises DomainFileError when read here, first used, and one cannot be used)."""
        if self._registry is None:
            self._registry = DomainRegistry.load(self.config.domains_dir)
        return self._registry

    @property
    def domain_names(self) -> list[str]:
        return self.registry.names

    def context(self, domains: Sequence[str] | None) -> ActiveDomainContext:
        """The named domains read together (all of them when None), in the order given."""
        return self._selector.build_active_context(self.registry.names if domains is None else domains)

    @cached_property
    def _selector(self) -> DomainSelector:
        return DomainSelector(self.registry)  # it keeps each combination's context

    @cached_property
    def _namer(self) -> ExerciseNamer:
        return ExerciseNamer.from_registry(self.registry)

    @asynccontextmanager
    async def _store(self, *, create: bool) -> AsyncIterator[EntryStore | None]:
        """The entries for one piece of work; None when nothing is stored yet and ``create`` is False.

        Raises:
            DataDirError: the data folder cannot be used.
        """
        path = self.config.entries_db
        if not create and not path.exists():
            yield None
            return
        db = await Database.open(path)
        try:
            yield EntryStore(db)
        finally:
            await db.close()

    async def entries(self, user: str) -> list[Entry]:
        """Every active entry of ``user``, oldest first, planned sessions too (none when nothing is stored)."""
        from engine.entries.export import all_entries

        async with self._store(create=False) as store:
            return [] if store is None else await all_entries(store, user)

    # Imports: an app's export, a folder of notes.

    @staticmethod
    def open_export(file: Path) -> ExportFile:
        """Read the first bytes of an export.

        Raises:
            OSError: the file cannot be read.
            ImportFormatError: it is not text in an encoding an export is written in.
        """
        return open_export(file)

    def scan_export(
        self,
        export: ExportFile,
        app: str = "auto",
        *,
        unit: WeightUnit = "kg",
        progress: Callable[[int, int], None] | None = None,
    ) -> ScannedExport | None:
        """The first pass: the whole file read for where each workout ends, nothing stored.

        Args:
            app: One of :attr:`APPS`, or ``auto`` to tell by the file's header.
            unit: The weight unit when the file has no unit column (Strong).
            progress: Called with (rows read, rows expected) every few hundred rows.

        Returns:
            None when ``auto`` finds no app that wrote the header.

        Raises:
            ValueError: ``app`` is no app of :attr:`APPS`.
            ImportFormatError: the file cannot be read as that app's export.
            OSError: the file cannot be read.
        """
        found = detect(export.head) if app == "auto" else next((a for a in APPS if a == app), None)
        if found is None:
            if app != "auto":
                raise ValueError(f"no importer for {app!r}")
            return None
        return scan(export, found, namer=self._namer, default_unit=unit, progress=progress)

    async def import_workouts(
        self,
        user: str,
        scanned: ScannedExport,
        *,
        unit: WeightUnit = "kg",
        keep: int | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> FileImport:
        """The second pass: the file's workouts read, built and stored a batch (one transaction) at a time.

        Args:
            keep: How many left-out rows to list (all are counted).
            progress: Called with (rows read, rows in the file) after each batch.

        Raises:
            ImportFormatError: the file changed since it was scanned.
            OSError: the file cannot be read.
            DataDirError: the data folder cannot be used.
        """
        async with self._store(create=True) as store:
            assert store is not None
            with read_export(scanned, user_key=user, namer=self._namer, default_unit=unit, keep=keep) as read:
                # Rows read so far are done: stored, or left out and reported.
                report = await store_workouts(
                    store.db,
                    user,
                    read,
                    progress=None if progress is None else lambda _: progress(read.rows, scanned.rows),
                )
        return FileImport(report=report, read=read, title=APP_TITLES[scanned.app])

    async def import_file(
        self,
        user: str,
        file: Path,
        app: str = "auto",
        *,
        unit: WeightUnit = "kg",
        keep: int | None = None,
    ) -> FileImport | None:
        """:meth:`open_export`, :meth:`scan_export` and :meth:`import_workouts` in one (None: no app found)."""
        scanned = self.scan_export(self.open_export(file), app, unit=unit)
        return None if scanned is None else await self.import_workouts(user, scanned, unit=unit, keep=keep)

    @staticmethod
    def scan_notes(folder: Path) -> NotesScan:
        """The dated notes of a folder (``notes``) and the files left out with why (``skipped``).

        Raises:
            OSError: the folder cannot be read.
        """
        from engine.importers.notes import scan_notes

        return scan_notes(folder)

    async def import_notes(
        self,
        user: str,
        notes: NotesScan,
        domains: Sequence[str] | None = None,
        *,
        use_model: bool = True,
        progress: Callable[[int, int], None] | None = None,
    ) -> NotesImport:
        """Store each dated note as an entry on its day, read into sets by code, else by the model.

        A note read into sets before is left alone (the model is the slow part). When the model
        cannot be reached, the rest are kept with their terms and ``model_note`` says so.

        Args:
            domains: The domains the notes are read in, in order (all when None).
            progress: Called with (notes read, notes) before each note.

        Raises:
            DataDirError: the data folder cannot be used.
        """
        from engine.agents.llm import LLM
        from engine.errors import ModelMissing, ModelTimeout, ModelUnreachable
        from engine.importers.notes import note_entry, parse_note, read_note, source_key
        from engine.reading.message import keep_read, log_words

        config = self.config
        ctx = self.context(domains)
        config.data_dir.mkdir(parents=True, exist_ok=True)
        db = await Database.open(config.entries_db)
        llm = LLM(config.llm) if use_model else None
        parsed, read_by_code = 0, 0
        model_note = "" if use_model else "the model was not asked: notes code could not read whole kept with their terms"
        words = log_words(self.registry, ctx)
        items = notes.notes
        try:
            keys = [source_key(user, n, parsed=True) for n in items]
            done_before = await EntryStore(db).existing_source_keys(user, keys)
            entries = []
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
            await db.close()
        return NotesImport(report=report, by_model=parsed, by_code=read_by_code, model_note=model_note)

    # Export.

    async def export(self, user: str, fmt: str = "csv") -> Export:
        """Every active entry of ``user`` as ``csv`` (a row per set), ``json`` or ``strong`` (Strong's CSV).

        Raises:
            DataDirError: the data folder cannot be used.
        """
        from engine.entries.export import ExportFormat, render
        from engine.entries.strong_format import strong_left_out

        chosen: ExportFormat = "json" if fmt == "json" else "strong" if fmt == "strong" else "csv"
        entries = await self.entries(user)
        left = strong_left_out(entries) if chosen == "strong" else 0
        return Export(text=render(entries, chosen), entries=len(entries), left_out=left)

    # How code reads words: the vocabulary, a question.

    async def unknown_names(self, user: str, domains: Sequence[str] | None = None) -> tuple[list[UnknownName], int]:
        """The exercise names ``user`` logged or imported that the domains' vocabulary does not know, most
        used first, and how many entries were read.

        Raises:
            DataDirError: the data folder cannot be used.
        """
        from engine.language.unknown import unknown_names

        entries = await self.entries(user)
        return unknown_names(entries, self.context(domains).vocabulary), len(entries)

    async def search(self, question: str, user: str, today: date, domains: Sequence[str] | None = None) -> dict[str, Any]:
        """How code reads ``question`` on ``today`` in ``domains`` and what retrieval finds in ``user``'s entries,
        as JSON-ready data (``python -m bot search`` prints it).

        Raises:
            DataDirError: the data folder cannot be used.
        """
        from engine.entries.export import all_entries
        from engine.language.unknown import unknown_names
        from engine.query.asking import shows_list
        from engine.query.questions import read_question
        from engine.query.retrieval import RetrievalResult, Retriever, normalize_instructions

        ctx = self.context(domains)
        path = self.config.entries_db
        result = RetrievalResult(warnings=[f"no entries are stored yet ({path} does not exist)"])
        found: list[Entry] = []
        own: list[str] = []
        async with self._store(create=False) as store:
            if store is not None:
                # The person's own unknown names count as terms, so a question can name them.
                own = [u.name for u in unknown_names(await all_entries(store, user), ctx.vocabulary)]
            shape = read_question(question, ctx, today, known_names=own)
            instructions = normalize_instructions([], shape, ctx, lists=shows_list(question))
            if store is not None:
                result, found = await Retriever(store).run(
                    user, instructions, today, shape.wanted, min_days=2 if shape.is_comparison else 1,
                    canonical=ctx.vocabulary.canonicals,
                )  # fmt: skip
        wanted = set(shape.wanted)
        return {
            "question": question,
            "user": user,
            "today": today.isoformat(),
            "domains": ctx.domains_loaded,
            "reading": {
                "terms": shape.terms,
                "families": shape.families,
                "search_terms": shape.wanted,
                "generic_words_ignored": shape.generic,
                "intents": shape.intents,
                "named_day": shape.date.model_dump(mode="json") if shape.date is not None else None,
                "periods": [p.model_dump(mode="json") for p in shape.periods],
                "not_read": shape.unread,
            },
            "instructions": [i.model_dump(mode="json", exclude_defaults=True) for i in instructions],
            "attempts": [a.model_dump(mode="json") for a in result.attempts],
            "warnings": result.warnings,
            "entries": [
                {
                    "date": e.occurred_on.isoformat(),
                    "domain": e.domain,
                    "summary": e.summary,
                    "matched": [t for t in e.terms if t in wanted],
                    "entry_id": e.entry_id,
                }
                for e in found
            ],
        }

    # The knowledge base.

    def open_knowledge(self) -> KnowledgeBase:
        """The knowledge base (close it after); its settings are the ones :meth:`open` was given.

        Raises:
            KnowledgeStoreError: it cannot be reached or opened.
        """
        from engine.knowledge import KnowledgeBase

        if self._knowledge is None:
            raise ValueError("no knowledge base settings: open the Logbook with knowledge=KnowledgeConfig(…)")
        return KnowledgeBase.open(self._knowledge)

    def keywords(self, query: str, domains: Sequence[str] | None = None) -> list[str]:
        """The canonical terms of ``query`` in the domains' vocabularies (all domains when None), which
        the knowledge base's word search adds, as answers search."""
        from engine.knowledge.terms import query_keywords

        return query_keywords(self.registry, query, domains)


__all__ = [
    "Chunk",
    "ExpansionResult",
    "Export",
    "ExportFile",
    "FileImport",
    "ImportFormatError",
    "IngestReport",
    "LeftOut",
    "Logbook",
    "NotesImport",
    "ScannedExport",
    "StoreReport",
    "UnknownName",
    "WeightUnit",
]
