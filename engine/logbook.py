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
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.config import EngineConfig
from engine.domains.registry import ActiveDomainContext, DomainRegistry, DomainSelector
from engine.entries.export import Export
from engine.importers import APPS, StoreReport, detect
from engine.importers.common import ImportFormatError, LeftOut, WeightUnit
from engine.importers.files import ExportFile, FileImport, ScannedExport, open_export, scan, store_export
from engine.importers.notes_folder import NotesImport
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
        return cls(
            config, DomainRegistry.load(config.domains_dir, increments=config.plate_increment), knowledge=knowledge
        )

    @property
    def registry(self) -> DomainRegistry:
        """The domain files read (raises DomainFileError when read here, first used, and one cannot be used)."""
        if self._registry is None:
            self._registry = DomainRegistry.load(self.config.domains_dir, increments=self.config.plate_increment)
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
        if not create and not self.config.database and not path.exists():
            yield None
            return
        db = await Database.open_either(self.config.database, path)
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
        """Read the first bytes of an export (raises OSError: unreadable; ImportFormatError: not text an
        export is written in)."""
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
            return await store_export(
                store.db, user, scanned, namer=self._namer, unit=unit, keep=keep, progress=progress
            )

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
        from engine.importers.notes_folder import store_notes

        llm = self.config.llm if use_model else None
        async with self._store(create=True) as store:
            assert store is not None
            return await store_notes(
                store.db, llm, self.registry, self.context(domains), user, notes.notes, progress=progress
            )

    # Export.

    async def export(self, user: str, fmt: str = "csv") -> Export:
        """Every active entry of ``user`` as ``csv`` (a row per set), ``json`` or ``strong`` (Strong's CSV).

        Raises:
            DataDirError: the data folder cannot be used.
        """
        from engine.entries.export import written_out

        return written_out(await self.entries(user), fmt)

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

    async def search(
        self, question: str, user: str, today: date, domains: Sequence[str] | None = None
    ) -> dict[str, Any]:
        """How code reads ``question`` on ``today`` in ``domains`` and what retrieval finds in ``user``'s entries,
        as JSON-ready data (``python -m bot search`` prints it).

        Raises:
            DataDirError: the data folder cannot be used.
        """
        from engine.query.search import search_report

        async with self._store(create=False) as store:
            return await search_report(store, question, user, today, self.context(domains), self.config.entries_db)

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
