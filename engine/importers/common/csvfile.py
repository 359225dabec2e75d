"""An export file's text and rows: encoding, delimiter, header, and each record with its line number."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

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


def read_table(text: str) -> Table:
    """Read a CSV export whatever its delimiter (``,`` ``;`` or tab, or Excel's ``sep=`` line).

    Raises:
        ImportFormatError: the file is empty or has no header line.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise ImportFormatError("the file is empty")
    delimiter = _delimiter(lines[first])
    skip = 0
    if (hint := lines[first].strip()).casefold().startswith("sep=") and len(hint) == 5:
        delimiter, skip = hint[4], first + 1  # Excel's "sep=;" first line
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    records: list[tuple[int, list[str]]] = []
    header: list[str] | None = None
    last = 0
    for values in reader:
        start, last = last + 1, reader.line_num
        if start <= skip:
            continue
        if header is None:
            if any(v.strip() for v in values):
                header = values
            continue
        if values and any(v.strip() for v in values):
            records.append((start, values))
    if header is None:
        raise ImportFormatError("the file has no header line")
    return Table(header=header, records=records, delimiter=delimiter)


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
