"""An export file's text and rows: encoding, delimiter, header, and each record with its line number."""

from __future__ import annotations

import csv
import io
import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

_SPACES = re.compile(r"\s+")


class ImportFormatError(Exception):
    """The file as a whole cannot be imported; the message says why."""


class MissingColumnsError(ImportFormatError):
    """Required columns are absent; ``missing`` names them."""

    def __init__(self, missing: Sequence[str], found: Sequence[str]) -> None:
        self.missing = list(missing)
        self.found = list(found)
        shown = ", ".join(found) if found else "nothing"
        super().__init__(f"missing required column(s): {', '.join(missing)}; the header has: {shown}")


def fold(text: str) -> str:
    """A header as compared: NFC, casefolded, single spaces, no quotes."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text).casefold()).strip().strip('"').strip()


@lru_cache(maxsize=4096)  # an export repeats its exercise and workout names on every row
def clean(text: str | None) -> str:
    """A cell's text: NFC, whitespace runs (newlines too) made single spaces, trimmed."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text or "")).strip()


def decode(data: bytes) -> str:
    """The text of an export: UTF-8 (with or without BOM), UTF-16 with BOM, or CP949 (Korean Excel).

    Raises:
        ImportFormatError: none of these fit.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    for encoding in ("utf-8-sig", "cp949"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ImportFormatError("the file is not UTF-8 text; save the export as UTF-8 CSV")


def _delimiter(header_line: str) -> str:
    counts = {d: header_line.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


@dataclass(frozen=True, slots=True)
class Table:
    """A CSV file read: its header and its records, each with the line it starts on."""

    header: list[str]
    records: list[tuple[int, list[str]]]
    """(1-based line where the record starts, its values); blank lines are left out."""
    delimiter: str


@dataclass(slots=True)
class Records:
    """A CSV export being read: its header, its delimiter, and its records as they come."""

    header: list[str]
    delimiter: str
    rows: Iterator[tuple[int, list[str]]]
    """(1-based line where the record starts, its values); blank lines are left out."""


def read_records(lines: Iterable[str]) -> Records:
    """Start reading a CSV export whatever its delimiter (``,`` ``;`` or tab, or Excel's ``sep=`` line).

    Args:
        lines: The file's lines with ``\n`` ends (a file opened in text mode, or a ``StringIO``).
            Only what precedes the header is read here; the records are read as ``rows`` is.

    Raises:
        ImportFormatError: the file is empty or has no header line.
    """
    source = iter(lines)
    head: list[str] = []
    for line in source:
        head.append(line if head else line.lstrip("\ufeff"))
        if head[-1].strip():
            break
    if not head or not head[-1].strip():
        raise ImportFormatError("the file is empty")
    delimiter = _delimiter(head[-1])
    skip = 0
    if (hint := head[-1].strip()).casefold().startswith("sep=") and len(hint) == 5:
        delimiter, skip = hint[4], len(head)  # Excel's "sep=;" first line
    reader = csv.reader(itertools.chain(head, source), delimiter=delimiter)

    def rows(last: int) -> Iterator[tuple[int, list[str]]]:
        for values in reader:
            # A record starts on the line after the previous one ended (a quoted field may span lines).
            start, last = last + 1, reader.line_num
            if values and any(v.strip() for v in values):
                yield start, values

    last = 0
    for values in reader:
        start, last = last + 1, reader.line_num
        if start > skip and any(v.strip() for v in values):
            return Records(header=values, delimiter=delimiter, rows=rows(last))
    raise ImportFormatError("the file has no header line")


def read_table(text: str) -> Table:
    """Read a whole CSV export held in memory (see :func:`read_records`).

    Raises:
        ImportFormatError: the file is empty or has no header line.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    records = read_records(io.StringIO(text))
    return Table(header=records.header, records=list(records.rows), delimiter=records.delimiter)


def find_columns(header: Sequence[str], spellings: dict[str, tuple[str, ...]]) -> tuple[dict[str, int], dict[str, str]]:
    """Field -> column index, and field -> the header as written, for the fields whose spelling the header has."""
    index: dict[str, int] = {}
    names: dict[str, str] = {}
    lookup = {fold(spelling): fld for fld, options in spellings.items() for spelling in options}
    for i, raw in enumerate(header):
        fld = lookup.get(fold(raw))
        if fld is not None and fld not in index:
            index[fld] = i
            names[fld] = raw.strip()
    return index, names
