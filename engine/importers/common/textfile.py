"""An export on disk read as text a line at a time, in the encodings :func:`~.csvfile.decode` knows.

``decode`` reads a whole file's bytes: UTF-16 when a byte-order mark says so,
else UTF-8 (with or without BOM), else CP949 (Korean Excel). Here the file's
first bytes rule out what they can (:func:`encodings`), and the file is then
read through an incremental decoder (:class:`TextFile`). A first part that
reads as UTF-8 may still be followed by CP949 (an English header, Korean
names further down); the caller reads the whole file with each candidate in
turn until one decodes it all, which is what ``decode`` decides.
"""

from __future__ import annotations

import codecs
import io
import os
from pathlib import Path
from types import TracebackType

from engine.importers.common.csvfile import ImportFormatError

PREFIX_BYTES = 64 * 1024
"""What is read first: enough for the header and the lines :func:`~engine.importers.detect.detect` reads."""
NOT_TEXT = "the file is not UTF-8 text; save the export as UTF-8 CSV"


def encodings(prefix: bytes, *, whole: bool) -> tuple[str, ...]:
    """The encodings ``decode`` would try on a file starting with ``prefix``, less those it rules out.

    Args:
        whole: ``prefix`` is the whole file (a cut character at its end is then an error).

    Raises:
        ImportFormatError: none of them fits.
    """
    if prefix.startswith((b"\xff\xfe", b"\xfe\xff")):
        return ("utf-16",)
    fits = tuple(e for e in ("utf-8-sig", "cp949") if head_text(prefix, e, whole=whole) is not None)
    if not fits:
        raise ImportFormatError(NOT_TEXT)
    return fits


def head_text(prefix: bytes, encoding: str, *, whole: bool = False) -> str | None:
    """``prefix`` decoded (a character cut at its end left out), or None when it is not ``encoding``."""
    try:
        return codecs.getincrementaldecoder(encoding)().decode(prefix, final=whole)
    except UnicodeDecodeError:
        return None


class TextFile:
    """A file's lines, decoded as they are read, with ``\\r\\n`` and ``\\r`` read as ``\\n``.

    Raises:
        OSError: the file cannot be opened.
    """

    def __init__(self, path: Path, encoding: str) -> None:
        self._raw = path.open("rb")
        self.size = os.fstat(self._raw.fileno()).st_size
        self.lines = io.TextIOWrapper(self._raw, encoding=encoding, newline=None)
        """The lines; iterating raises ``UnicodeDecodeError`` where the bytes are not ``encoding``."""

    def done(self) -> float:
        """How much of the file has been read, 0 to 1 (a chunk ahead of the lines handed out)."""
        return min(1.0, self._raw.tell() / self.size) if self.size else 1.0

    def close(self) -> None:
        self.lines.close()

    def __enter__(self) -> TextFile:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
