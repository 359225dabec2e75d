"""A Strong file's text and header: its encoding, delimiter and which column is which."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

# Field -> header spellings (folded: NFC, casefolded, single spaces).
_HEADERS: dict[str, tuple[str, ...]] = {
    "date": ("date", "날짜", "일자", "일시"),
    "workout": ("workout name", "워크아웃 이름", "워크아웃", "운동 세션 이름"),
    "exercise": ("exercise name", "운동 이름", "운동명", "exercise"),
    "set_order": ("set order", "세트 순서", "세트 번호"),
    "weight": ("weight", "체중", "무게", "중량"),
    "weight_unit": ("weight unit", "무게 단위", "체중 단위", "중량 단위"),
    "reps": ("reps", "렙", "반복", "반복 횟수", "횟수"),
    "distance": ("distance", "거리"),
    "distance_unit": ("distance unit", "거리 단위"),
    "seconds": ("seconds", "초"),
    "rpe": ("rpe",),
    "notes": ("notes", "exercise notes", "메모", "노트", "운동 메모"),
    "workout_notes": ("workout notes", "워크아웃 메모", "워크아웃 노트"),
    "duration": ("duration", "workout duration", "워크아웃 시간", "지속 시간", "운동 시간", "기간"),
}
_LABELS = {
    "date": "Date (날짜)",
    "exercise": "Exercise Name (운동 이름)",
    "reps": "Reps (렙)",
    "seconds": "Seconds (초)",
}
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


def _fold(text: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text).casefold()).strip().strip('"').strip()


def _clean(text: str | None) -> str:
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


def _columns(header: list[str]) -> tuple[dict[str, int], dict[str, str]]:
    index: dict[str, int] = {}
    names: dict[str, str] = {}
    lookup = {spelling: fld for fld, spellings in _HEADERS.items() for spelling in spellings}
    for i, raw in enumerate(header):
        fld = lookup.get(_fold(raw))
        if fld is not None and fld not in index:
            index[fld] = i
            names[fld] = raw.strip()
    return index, names
