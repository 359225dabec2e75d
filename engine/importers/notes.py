"""A folder of daily notes (Obsidian and similar: one Markdown or text file per day) into entries.

Each file whose name carries a date (``2024-02-01.md``, ``2024-02-01 Thursday.md``,
``20240201.txt``) becomes one entry on that day. Code reads its terms through
the vocabulary, so the note is found by any spelling of what it names. When a
model parsed the note (the same LOG parsing as a chat message, with no
clarification questions), the entry carries the structured sets; a note the
Parser could not read without guessing stays a plain note.

Importing the same folder again adds nothing: an entry's ``source_key`` is a
hash of the user, the file, its text and whether it was read into sets. A file
edited since the last import replaces its earlier entry (its identity is the
file's path), and so does a note kept plain while the model was away once a
later import reads it into sets. A note whose sets another import already
holds (the day's Strong workout) is not stored at all: see
:mod:`engine.importers.overlap`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Literal

from engine.agents.llm import LLM
from engine.agents.parser import parse, parser_input
from engine.agents.schemas import ParserOutput
from engine.domains.registry import ActiveDomainContext
from engine.entries.model import ExerciseLog, Metric, NewEntry
from engine.entries.summaries import summarize
from engine.errors import ModelFailed, ModelInvalid
from engine.language.logs import LogWords, read_log
from engine.language.vocab import normalize_name

SUFFIXES = (".md", ".markdown", ".txt")
MAX_NOTE_CHARS = 20_000
"""Longer files are cut here: a daily note past this is rarely a training log."""
_DAY = re.compile(r"(?<!\d)(\d{4})[-_.]?(\d{2})[-_.]?(\d{2})(?!\d)")
_WORDS = re.compile(r"[^\W_]", re.UNICODE)
_FRONT_MATTER = re.compile(r"\A---\s*\n.*?\n---\s*(\n|\Z)", re.DOTALL)


@dataclass(frozen=True)
class Note:
    """One day's note."""

    path: str
    """Path inside the folder, with ``/`` (the note's identity across imports)."""
    day: date
    text: str


@dataclass
class NotesScan:
    """What a folder holds."""

    notes: list[Note] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """Files left out, each with the reason."""


def note_day(name: str) -> date | None:
    """The date a file name carries, if any (``2024-02-01 Thu.md`` -> 2024-02-01)."""
    for m in _DAY.finditer(name):
        try:
            return date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            continue
    return None


def scan_notes(folder: Path) -> NotesScan:
    """Read every dated Markdown or text file under ``folder`` (hidden folders such as ``.obsidian`` skipped).

    Raises:
        OSError: the folder cannot be listed.
    """
    scan = NotesScan()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts) or path.suffix.lower() not in SUFFIXES:
            continue
        day = note_day(path.stem)
        if day is None:
            scan.skipped.append(f"{rel.as_posix()}: no date in the file name")
            continue
        try:
            raw = path.read_bytes()
        except OSError as exc:
            scan.skipped.append(f"{rel.as_posix()}: {exc.strerror or exc}")
            continue
        text = _FRONT_MATTER.sub("", raw.decode("utf-8", errors="replace")).strip()[:MAX_NOTE_CHARS]
        if not text:
            scan.skipped.append(f"{rel.as_posix()}: empty")
            continue
        scan.notes.append(Note(path=rel.as_posix(), day=day, text=text))
    return scan


Reading = Literal["note", "code", "parsed"]
"""How a note was read: kept as text, its sure sets read by code (the rest left for the model), or read whole."""


def source_key(user_key: str, note: Note, *, parsed: bool = False, reading: Reading | None = None) -> str:
    """``notes:<sha256>`` of the user, the file, its text and its reading: the same note imports once."""
    how = reading or ("parsed" if parsed else "note")
    material = "\n".join(["notes/1", how, user_key, note.path, note.text])
    return "notes:" + hashlib.sha256(material.encode()).hexdigest()


def read_note(note: Note, words: LogWords) -> tuple[ParserOutput | None, bool]:
    """What code reads of a note for certain, and whether that is all of it.

    Each line is read like a chat message; a line that is not read completely
    (a lossy summary such as "105키로 1개 들어봄! 75까지 드랍해서 6세트", a
    journal line) adds nothing, so no set the person did not write is stored.

    Returns:
        Code's reading (None when no line was read) and True when every line with
        words in it was read, so the note needs no model.
    """
    exercises: list[ExerciseLog] = []
    metrics: list[Metric] = []
    domains: set[str] = set()
    whole = True
    for line in note.text.splitlines():
        line = line.strip().lstrip("#-*• \t")
        if not line or not _WORDS.search(line):
            continue
        reading = read_log(line, words, note.day)
        day = reading.day.on if reading.day is not None else None
        if not reading.complete or (day is not None and day != note.day):
            whole = False
            continue
        exercises.extend(reading.exercises)
        metrics.extend(reading.metrics)
        domains.add(reading.domain)
    if len(domains) != 1 or (metrics and exercises) or (len(metrics) > 2 and not exercises):
        # Nothing read, or a run and lifts (or two runs) in one note: one entry cannot hold them; the model's part.
        return None, False
    (domain,) = domains
    numbered = [
        e.model_copy(
            update={"set_details": [d.model_copy(update={"set_num": i}) for i, d in enumerate(e.set_details, 1)]}
        )
        for e in exercises
    ]
    parsed = ParserOutput(
        activity_type=domain if metrics else words.lift_domain,
        domain=domain,
        exercises=numbered,
        metrics=metrics,
        summary="",
        status="parsed",
    )
    return parsed, whole


def _domain_of(terms: Sequence[str], ctx: ActiveDomainContext) -> str:
    """The loaded domain whose vocabulary holds most of the note's terms (the first one on a tie)."""
    counts = {d.name: sum(t in d.vocabulary for t in terms) for d in ctx.domains}
    best = max(counts.values(), default=0)
    if best == 0:
        # Nothing known: the fallback domain when it is loaded (or nothing is), else the first one.
        fallback = next((d.name for d in ctx.domains if d.fallback), None)
        return fallback or (ctx.registry.fallback or "" if not counts else ctx.domains_loaded[0])
    return next(name for name, n in counts.items() if n == best)


def note_entry(
    user_key: str, note: Note, ctx: ActiveDomainContext, parsed: ParserOutput | None = None, *, by_code: bool = False
) -> NewEntry:
    """One note as an entry: parsed sets when ``parsed`` holds a usable reading, else a plain note.

    Args:
        user_key: Whose note.
        note: The day's note.
        ctx: The active domains (vocabulary for the terms).
        parsed: The reading, or None when there is none (no model, or it
            could not read the note without guessing).
        by_code: ``parsed`` is code's part of a note the model has not read yet: a later
            import with the model reads the rest and replaces this entry.
    """
    terms = ctx.vocabulary.terms(note.text)
    imported: dict[str, Any] = {"app": "notes", "workout_id": note.path}
    usable = parsed is not None and parsed.status == "parsed" and (parsed.exercises or parsed.metrics)
    if parsed is not None and usable:
        names = [e.name if ctx.vocabulary.canonical(e.name) else normalize_name(e.name) for e in parsed.exercises]
        data = parsed.model_dump(mode="json", exclude={"status", "missing", "summary", "date_text"})
        data["import"] = imported
        return NewEntry(
            occurred_on=note.day,
            domain=parsed.domain,
            activity_type=parsed.activity_type,
            summary=summarize(parsed),
            data=data,
            raw_text=note.text,
            terms=list(dict.fromkeys([*terms, *names])),
            source="import",
            source_key=source_key(user_key, note, reading="code" if by_code else "parsed"),
        )
    first_line = next((line.strip("#-* \t") for line in note.text.splitlines() if line.strip("#-* \t")), "")
    return NewEntry(
        occurred_on=note.day,
        domain=_domain_of(terms, ctx),
        activity_type="note",
        kind="note",
        summary="note: " + (first_line[:57] + "…" if len(first_line) > 60 else first_line),
        data={"import": imported},
        raw_text=note.text,
        terms=terms,
        source="import",
        source_key=source_key(user_key, note),
    )


async def parse_note(llm: LLM, ctx: ActiveDomainContext, note: Note) -> ParserOutput | None:
    """The LOG parsing of one note, dated on its day, with no clarification questions.

    Returns:
        The Parser's reading, or None when the note holds no sets or metrics, cannot
        be read without a guess (it is then kept as a plain note), or the model kept
        answering badly.

    Raises:
        ModelUnreachable, ModelTimeout, ModelMissing: the model cannot be used at all.
    """
    try:
        out = await parse(llm, ctx, parser_input(ctx, note.text, note.day))
    except (ModelInvalid, ModelFailed):
        return None
    # Nothing to read (a rest day, a journal line) is a plain note, not an empty workout.
    return out if out.status == "parsed" and (out.exercises or out.metrics) else None
