"""``python -m bot ingest PATH [--domain D]`` and ``python -m bot retrieve "query" [--depth N] [--domain D]``.

The command-line side of the knowledge base (through :class:`~engine.Logbook`): settings, a progress bar on
a terminal (without one, a line every few seconds), the report. No chat model
is called (embeddings come from the built-in model, or from Ollama with
``EMBEDDING_BACKEND=ollama``). Exit codes:
0 done (skipped files are reported, not fatal), 2 the path, a domain or the
settings cannot be used, or the knowledge base cannot be reached.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import Settings, fail, load_settings

if TYPE_CHECKING:
    from engine import Logbook
    from engine.logbook import Chunk, ExpansionResult, IngestReport, KnowledgeBase

MAX_LISTED = 20
SNIPPET = 220
PROGRESS_EVERY_S = 5.0
"""Without a terminal (a pipe, a log file, cron), how often a line says how far the work is."""


def add_commands(sub: Any) -> None:
    """Add ``ingest`` and ``retrieve`` to the ``python -m bot`` subcommands."""
    ing = sub.add_parser(
        "ingest",
        help="add Markdown or text articles to the knowledge base",
        description="Read .md, .markdown and .txt files (a file or a folder, recursively) into the knowledge base. "
        "Ingesting again changes only what changed; files gone from the folder are removed.",
    )
    ing.add_argument("path", type=Path, help="a file or a folder")
    ing.add_argument(
        "--domain", default=None, help="the domain of every file (default: each file's folder name, e.g. strength/)"
    )
    ret = sub.add_parser(
        "retrieve",
        help="search the knowledge base as the assistant does (no model needed)",
        description="Hybrid search (meaning + exact words) and link expansion; prints what each step found.",
    )
    ret.add_argument("query", help="the question or words to search for, any language")
    ret.add_argument(
        "--depth",
        type=int,
        choices=[0, 1, 2],
        default=None,
        help="links to follow from the chunks found (default: CONTEXT_EXPANSION_DEPTH)",
    )
    ret.add_argument("--domain", action="append", default=None, help="search only this domain (repeatable)")
    ret.add_argument(
        "--top-k", type=int, default=None, help="chunks to find before expansion (default: KNOWLEDGE_TOP_K)"
    )


def run(args: argparse.Namespace) -> int:
    """Run ``ingest`` or ``retrieve``; returns the exit code."""
    from engine import DomainFileError, Logbook

    settings = load_settings()
    _quiet_logs(settings)
    try:
        logbook = Logbook.open(settings.engine_config(), knowledge=settings.knowledge_config())
    except DomainFileError as exc:
        fail(str(exc))
    known = logbook.domain_names
    domains = [args.domain] if isinstance(args.domain, str) else list(args.domain or [])
    unknown = [d for d in domains if d not in known]
    if unknown:
        fail(f"unknown domain {unknown[0]!r}; known: {', '.join(known)}")
    if args.mode == "ingest" and not args.path.exists():
        fail(f"cannot read {args.path}: no such file or folder")
    with _knowledge(logbook) as kb:
        if args.mode == "ingest":
            return run_ingest(kb, args.path, domain=args.domain, known=known)
        keywords = logbook.keywords(args.query, domains or None)
        return run_retrieve(kb, args.query, depth=args.depth, domains=domains, top_k=args.top_k, keywords=keywords)


def _quiet_logs(settings: Settings) -> None:
    from bot.logs import configure_logging

    configure_logging(settings.log_format, "WARNING", settings.secrets(), stream=sys.stderr)


@contextmanager
def _knowledge(logbook: Logbook) -> Iterator[KnowledgeBase]:
    from engine import EmbeddingError, KnowledgeStoreError

    try:
        kb = logbook.open_knowledge()
    except KnowledgeStoreError as exc:
        fail(str(exc))
    try:
        yield kb
    except (EmbeddingError, KnowledgeStoreError) as exc:
        fail(str(exc))
    finally:
        kb.close()


@contextmanager
def _progress(label: str) -> Iterator[Callable[[int, int, str], None]]:
    """A rich progress bar on stderr when it is a terminal; otherwise a line on stdout every few seconds."""
    if not sys.stderr.isatty():
        with _progress_lines(label) as update:
            yield update
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(file=sys.stderr),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int, _path: str) -> None:
            bar.update(task, completed=done, total=total)

        yield update


@contextmanager
def _progress_lines(label: str) -> Iterator[Callable[[int, int, str], None]]:
    """``ingesting: 3/40 files after 15 s (…/deload.md)`` on stdout every ``PROGRESS_EVERY_S``.

    A timer, not the updates, writes the lines: one slow file (a big article, a
    slow embedding server) still shows a line every few seconds, naming it.
    """
    started = time.monotonic()
    latest: list[tuple[int, int, str]] = []
    stop = threading.Event()

    def update(done: int, total: int, path: str) -> None:
        latest[:] = [(done, total, path)]

    def tell() -> None:
        while not stop.wait(PROGRESS_EVERY_S):
            if latest:
                done, total, path = latest[0]
                # flush: stdout to a pipe or file is block-buffered, and the point is to be seen now
                print(f"{label}: {done}/{total} files after {time.monotonic() - started:.0f} s ({path})", flush=True)

    ticker = threading.Thread(target=tell, name="progress-lines", daemon=True)
    ticker.start()
    try:
        yield update
    finally:
        stop.set()
        ticker.join()


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def run_ingest(kb: KnowledgeBase, path: Path, *, domain: str | None, known: list[str]) -> int:
    with _progress("ingesting") as progress:
        report = kb.ingest(path, domain=domain, known_domains=known, progress=progress)
    print(
        f"{path}: {_plural(report.files, 'file')} read: {report.added} added, {report.updated} updated, "
        f"{report.unchanged} unchanged, {report.removed} removed "
        f"({_plural(report.chunks_written, 'chunk')} written, {report.chunks_deleted} deleted)"
    )
    _print_skipped(report)
    return 0


def _print_skipped(report: IngestReport) -> None:
    if not report.skipped:
        return
    print(f"skipped {_plural(len(report.skipped), 'file')}:")
    for where, reason in report.skipped[:MAX_LISTED]:
        print(f"  {where}: {reason}")
    if len(report.skipped) > MAX_LISTED:
        print(f"  … and {len(report.skipped) - MAX_LISTED} more")


def run_retrieve(
    kb: KnowledgeBase, query: str, *, depth: int | None, domains: list[str], top_k: int | None, keywords: list[str]
) -> int:
    # A fresh install has no articles yet: bring the built-in ones in first (once).
    with _progress("preparing the built-in articles") as progress:
        _print_skipped(kb.ensure_builtin_ingested(progress))
    result = kb.retrieve(query, domains or None, top_k, depth, keywords, topics=keywords)  # as answers search
    stats = result.stats
    print(
        f"{query!r}: top {top_k or kb.config.top_k}, domains: {', '.join(domains) or 'all'}, "
        f"expansion depth {stats.depth}{'' if stats.enabled else ' (disabled)'}; model {kb.model_id}"
    )
    if keywords:
        print(f"vocabulary terms added to the word search: {', '.join(keywords)}")
    print()
    print("found:" if result.initial else "found: nothing")
    for i, chunk in enumerate(result.initial, start=1):
        _print_chunk(f"{i:>2}.", chunk, _search_scores(chunk))
    if result.added:
        print()
        print("added by link expansion:")
        for chunk in result.added:
            similarity = f"  similarity {chunk.vector_similarity:.3f}" if chunk.vector_similarity is not None else ""
            _print_chunk(" +", chunk, f"depth {chunk.depth} via {chunk.via}{similarity}")
    print()
    print(_stats_line(result))
    return 0


def _search_scores(chunk: Chunk) -> str:
    parts = [f"score {chunk.score:.4f}"]
    if chunk.vector_rank is not None:
        parts.append(f"vector #{chunk.vector_rank} ({chunk.vector_similarity or 0:.3f})")
    if chunk.lexical_rank is not None:
        parts.append(f"bm25 #{chunk.lexical_rank}")
    return "  ".join(parts)


def _print_chunk(marker: str, chunk: Chunk, scores: str) -> None:
    print(f"{marker} {chunk.heading}  [{chunk.domain}]  {scores}")
    print(f"    {chunk.source}")
    text = " ".join(chunk.text.split())
    print(textwrap.indent(textwrap.fill(textwrap.shorten(text, SNIPPET, placeholder=" …"), 96), "    "))


def _stats_line(result: ExpansionResult) -> str:
    s = result.stats
    if not s.enabled or s.depth == 0:
        return f"expansion: {'disabled' if not s.enabled else 'depth 0'}; {_plural(s.final_count, 'chunk')}"
    per_depth = ", ".join(
        f"depth {d}: {s.links_extracted.get(d, 0)} links, {n} added" for d, n in s.added_per_depth.items()
    )
    line = (
        f"expansion: {s.initial_count} found; {per_depth}; {s.final_count} in all"
        f"; {s.skipped_seen} links to articles already there"
    )
    if s.missing_links:
        line += f"; missing articles: {', '.join(s.missing_links)}"
    if s.truncated:
        line += "; stopped at CONTEXT_EXPANSION_MAX_CHUNKS"
    return line
