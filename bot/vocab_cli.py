"""``python -m bot vocab unknown --user KEY`` and ``python -m bot search "question" --user KEY``.

Two windows on how code reads words, with no model involved:

* ``vocab unknown`` lists the exercise names a person logged or imported that
  the vocabulary does not know (each kept as its own canonical term), so they
  can be added to a domain file.
* ``search`` shows how code reads a question (terms, families, generic words,
  dates, the retrieval strategy and its widening tiers) and the entries that
  retrieval finds, each with its date.

Exit codes: 0 done, 2 the settings or the domain files cannot be used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import date, datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from bot.config import Settings, fail, load_settings

if TYPE_CHECKING:
    from engine import Logbook


def add_commands(sub: Any) -> None:
    """Add ``vocab`` and ``search`` to the ``python -m bot`` subcommands."""
    vocab = sub.add_parser("vocab", help="what the vocabulary knows (no model needed)")
    vocab_sub = vocab.add_subparsers(dest="vocab_command", required=True)
    unknown = vocab_sub.add_parser(
        "unknown",
        help="exercise names a person logged that the vocabulary does not know",
        description="List logged or imported exercise names outside the vocabulary, most used first.",
    )
    unknown.add_argument("--user", required=True, help="whose entries, e.g. console:kim or tg:12345")
    unknown.add_argument("--json", action="store_true", help="print JSON instead of text")
    search = sub.add_parser(
        "search",
        help="show how a question is read and what retrieval finds (no model needed)",
        description="Read a question as the engine does, run retrieval over the person's entries and print both.",
    )
    search.add_argument("question", help='the question, e.g. "how is my overhead press going?"')
    search.add_argument("--user", required=True, help="whose entries, e.g. console:kim or tg:12345")
    search.add_argument("--json", action="store_true", help="print JSON instead of text")
    search.add_argument(
        "--today", type=date.fromisoformat, default=None, help="the day to read the question on (YYYY-MM-DD)"
    )
    search.add_argument("--domains", default=None, help="comma-separated domains to read it in (default: all)")


def run(args: argparse.Namespace) -> int:
    """Run ``vocab unknown`` or ``search``; returns the exit code."""
    if ":" not in args.user:
        fail(f"--user takes a user key such as console:{args.user} or tg:<id>, not {args.user!r}")
    settings = load_settings()
    from bot.logs import configure_logging

    configure_logging(settings.log_format, "WARNING", settings.secrets(), stream=sys.stderr)
    logbook = _logbook(settings)
    if args.mode == "vocab":
        return _unknown(logbook, args.user, as_json=args.json)
    today = args.today or datetime.now(ZoneInfo(settings.default_timezone)).date()
    names = [n.strip() for n in args.domains.split(",")] if args.domains else None
    return _search(logbook, args.question, args.user, today, names, as_json=args.json)


def _logbook(settings: Settings) -> Logbook:
    from engine import DomainFileError, Logbook

    try:
        return Logbook.open(settings.engine_config())
    except DomainFileError as exc:
        fail(str(exc))


def _domains(logbook: Logbook, names: list[str] | None) -> list[str]:
    """The domains to read in, in order (every one when ``names`` is None)."""
    registry = logbook.registry
    if names is None:
        # The order a question is read in when no Router picks the domains: by the files' precedence
        # (strength first), so its spellings win the few words two domains share.
        names = registry.by_precedence
    unknown = [n for n in names if registry.get(n) is None]
    if unknown:
        fail(f"unknown domain {unknown[0]!r}; known: {', '.join(registry.names)}")
    return names


def _unknown(logbook: Logbook, user: str, *, as_json: bool) -> int:
    from engine import DataDirError

    try:
        found, entries = asyncio.run(logbook.unknown_names(user, _domains(logbook, None)))
    except DataDirError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps([u.as_dict() for u in found], ensure_ascii=False, indent=2))
        return 0
    if not found:
        print(f"every exercise name of {user} is in the vocabulary ({entries} entries)")
        return 0
    print(f"{len(found)} exercise name{'' if len(found) == 1 else 's'} of {user} not in the vocabulary:")
    for u in found:
        span = f"{u.first}" if u.first == u.last else f"{u.first}..{u.last}"
        line = f"  {u.name}  ({u.entries} entr{'y' if u.entries == 1 else 'ies'}, {span})"
        extras = (
            [f"written {', '.join(s for s in u.sources if s != u.name)}"]
            if len(u.sources) > 1 or u.sources != [u.name]
            else []
        )
        if u.contains:
            extras.append(f"contains {', '.join(u.contains)}")
        print(line + (f"; {'; '.join(extras)}" if extras else ""))
    print("add them to a vocabulary file under engine/domains/data/ (or DOMAINS_DIR) to group them with their family")
    return 0


def _search(
    logbook: Logbook,
    question: str,
    user: str,
    today: date,
    names: list[str] | None,
    *,
    as_json: bool,
) -> int:
    from engine import DataDirError

    domains = _domains(logbook, names)
    try:
        report = asyncio.run(logbook.search(question, user, today, domains))
    except DataDirError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        _print_search(report)
    return 0


def _print_search(report: dict[str, Any]) -> None:
    reading = report["reading"]
    print(f"question: {report['question']}")
    print(f"read on {report['today']} in {', '.join(report['domains'])}")
    print(f"  terms: {', '.join(reading['terms']) or '(none)'}")
    for family, members in reading["families"].items():
        print(f"  family {family}: {', '.join(members)}")
    if reading["generic_words_ignored"]:
        print(f"  generic words (not searched): {', '.join(reading['generic_words_ignored'])}")
    print(f"  intents: {', '.join(reading['intents']) or '(none)'}")
    day = reading["named_day"]
    print(f"  named day: {day['phrase']} = {day['on'] or day['status']}" if day else "  named day: (none)")
    for period in reading["periods"]:
        print(f"  period: {period['phrase']} = {period['start']}..{period['end']}")
    for words in reading["not_read"]:
        print(f"  not read as dates: {words}")
    print("retrieval:")
    for a in report["attempts"]:
        span = f" {a['start']}..{a['end']}" if a.get("start") else ""
        tier = f" tier {a['expansion_tier']}" if a["strategy"] == "date_range" else ""
        terms = f" terms={', '.join(a['terms'])}" if a.get("terms") else ""
        print(f"  {a['strategy']}{span}{tier}{terms}: {a['found']} found")
    for warning in report["warnings"]:
        print(f"  warning: {warning}")
    entries = report["entries"]
    print(f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}:")
    for e in entries:
        matched = f"  [{', '.join(e['matched'])}]" if e["matched"] else ""
        print(f"  {e['date']}  {e['domain']}: {e['summary']}{matched}")
