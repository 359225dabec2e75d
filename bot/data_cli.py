"""``python -m bot import [strong|hevy|fitnotes] FILE --user KEY`` and ``python -m bot export --user KEY``.

The command-line side of the engine's :class:`~engine.Logbook` (its imports
and exports): settings, a progress line on a terminal, the report, exit
codes. No model is called. Without an app name the file's header says which
app wrote it. The file is never held whole: it is read once to check it and
to find where each workout ends, then again a workout at a time, each batch of
workouts stored in one transaction. Every row left out is counted, the first
ones listed by line with their reason, and every workout another import
already holds (notes, another app) is counted. Exit codes: 0 done (left-out
rows are reported, not fatal), 2 the file or the settings cannot be used.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import Settings, fail, load_settings
from bot.progress import Progress

if TYPE_CHECKING:
    from engine.logbook import LeftOut, WeightUnit

MAX_LISTED = 20


def add_commands(sub: Any) -> None:
    """Add ``import`` and ``export`` to the ``python -m bot`` subcommands."""
    imp = sub.add_parser(
        "import",
        help="import workouts from another app's export (no model needed)",
        description=(
            "Import a Strong, Hevy or FitNotes CSV export: one entry per workout. Importing again adds nothing new."
        ),
    )
    imp.add_argument(
        "source",
        nargs="?",
        default="auto",
        help="strong, hevy, fitnotes (default: told by the file's header), or notes: a folder of daily notes",
    )
    imp.add_argument("file", type=Path, help="the exported CSV file, or the notes folder")
    imp.add_argument("--user", required=True, help="whose entries these are, e.g. console:kim or tg:12345")
    imp.add_argument(
        "--unit",
        choices=["kg", "lb"],
        default="kg",
        help="Strong: weight unit when the file has no Weight Unit column (default: kg)",
    )
    exp = sub.add_parser(
        "export",
        help="write a person's entries as CSV, JSON or a Strong export",
        description=(
            "Write every active entry of a user, oldest first, planned sessions marked as such; "
            "CSV has one row per set, strong writes Strong's own CSV."
        ),
    )
    exp.add_argument("--user", required=True, help="whose entries, e.g. console:kim")
    exp.add_argument(
        "--format",
        choices=["csv", "json", "strong"],
        default=None,
        help="csv (default), json or strong; a .json --output implies json",
    )
    exp.add_argument("--output", "-o", type=Path, default=None, help="file to write (default: standard output)")


USER_KEY = re.compile(r"console:[^\s:]+|tg:\d+|slack:T[A-Z0-9]+:[UW][A-Z0-9]+")
"""The user keys chats use: the console's name, a Telegram user's numeric id, a Slack team and member."""


def run(args: argparse.Namespace) -> int:
    """Run ``import`` or ``export``; returns the exit code."""
    if not USER_KEY.fullmatch(args.user):
        # Entries belong to a user key; "kim" or "tg:abc" would store them where no chat ever looks.
        name = args.user.split(":")[-1] or "kim"
        fail(
            f"--user takes a user key as the chats write it: console:{name}, tg:<your numeric Telegram id> "
            f"or slack:<team id>:<member id> (slack:T0123:U0456), not {args.user!r}"
        )
    settings = load_settings()
    _quiet_logs(settings)
    if args.mode == "import" and args.source == "notes":
        from bot.notes_cli import run_notes_import

        return run_notes_import(settings, args.file, user=args.user)
    if args.mode == "import":
        return run_import(settings, args.file, user=args.user, unit=args.unit, app=args.source)
    return run_export(settings, user=args.user, fmt=args.format, output=args.output)


def _quiet_logs(settings: Settings) -> None:
    from bot.logs import configure_logging

    # Log lines go to stderr so they never mix with an export on stdout.
    configure_logging(settings.log_format, "WARNING", settings.secrets(), stream=sys.stderr)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def run_import(settings: Settings, file: Path, *, user: str, unit: str, app: str = "auto") -> int:
    from engine import DataDirError, DomainFileError, ImportFormatError, Logbook

    if app != "auto" and app not in Logbook.APPS:
        fail(f"import takes strong, hevy or fitnotes (or nothing, to tell by the file), not {app!r}")
    try:
        export = Logbook.open_export(file)  # its first bytes: the encodings it may be in, and its header
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}")
    except ImportFormatError as exc:
        fail(f"{file}: {exc}")
    try:
        logbook = Logbook.open(settings.engine_config())
    except DomainFileError as exc:
        fail(str(exc))
    default_unit: WeightUnit = "lb" if unit == "lb" else "kg"
    progress = Progress(sys.stderr)
    try:
        # The first pass reads the whole file (every row checked for where its workout ends) and stores nothing.
        scanned = logbook.scan_export(
            export, app, unit=default_unit, progress=lambda done, total: progress.show("reading", done, total)
        )
        if scanned is None:
            fail(
                f"{file}: not an export of Strong, Hevy or FitNotes that I know; name the app: import strong|hevy|fitnotes FILE"
            )
        # The second pass: the file's workouts read, built and stored a batch (one transaction) at a time.
        outcome = asyncio.run(
            logbook.import_workouts(
                user, scanned, unit=default_unit, keep=MAX_LISTED,
                progress=lambda done, total: progress.show("importing", done, total),
            )
        )  # fmt: skip
    except ImportFormatError as exc:
        progress.clear()
        fail(f"{file}: {exc}")
    except OSError as exc:
        progress.clear()
        fail(f"cannot read {file}: {exc.strerror or exc}")
    except DataDirError as exc:
        progress.clear()
        fail(str(exc))
    progress.clear()

    report, read, title = outcome.report, outcome.read, outcome.title
    line = f"{file.name}: {_plural(report.added, 'workout')} imported for {user}, {report.present} already present"
    if report.updated:
        line += f", {report.updated} updated (changed in {title} since the last import)"
    print(line)
    if report.duplicates:
        n = sum(report.duplicates.values())
        print(f"skipped {_plural(n, 'workout')} already imported from {report.duplicates_text()}")
    n = read.ignored.count
    _listed(f"ignored {n} {'row that records' if n == 1 else 'rows that record'} no set:", read.ignored)
    _listed(f"skipped {_plural(read.problems.count, 'row')}:", read.problems)
    if not read.workouts and not read.problems.count:
        print("no workouts found in the file")
    return 0


def _listed(title: str, rows: LeftOut) -> None:
    if not rows.count:
        return
    print(title)
    for row in rows.rows[:MAX_LISTED]:
        print(f"  {row}")
    if rows.count > MAX_LISTED:
        print(f"  … and {rows.count - MAX_LISTED} more")


def run_export(settings: Settings, *, user: str, fmt: str | None, output: Path | None) -> int:
    from engine import DataDirError, Logbook

    chosen = "json" if fmt == "json" else "strong" if fmt == "strong" else "csv"
    if fmt is None and output is not None and output.suffix.lower() == ".json":
        chosen = "json"
    try:
        exported = asyncio.run(Logbook(settings.engine_config()).export(user, chosen))
    except DataDirError as exc:
        fail(str(exc))
    text = exported.text
    if chosen == "strong" and (left := exported.left_out):
        what = "entry" if left == 1 else "entries"
        print(f"left out {left} {what} Strong's format cannot hold (planned, meals, notes)", file=sys.stderr)
    if output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.buffer.flush()
    else:
        try:
            output.write_text(text, encoding="utf-8", newline="")
        except OSError as exc:
            fail(f"cannot write {output}: {exc.strerror or exc}")
        count = f"{exported.entries} {'entry' if exported.entries == 1 else 'entries'}"
        print(f"wrote {count} of {user} to {output}", file=sys.stderr)
    if not exported.entries:
        print(f"no entries for {user}", file=sys.stderr)
    return 0
