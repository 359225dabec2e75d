"""One process at a time on an embedded Chroma folder.

Chroma's embedded store (``PersistentClient``) is not safe for two processes
on one folder: their index writers race and can corrupt the collection. The
bot holds its knowledge base open for its whole life, so ``python -m bot
ingest`` run beside it would be that second process. An advisory lock on a
file in the folder turns that into a clear refusal. Within one process Chroma
shares one client per folder, so opens there are counted, not refused. A
Chroma server (``CHROMA_HOST``) needs no lock: it serves any number of clients.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from engine.knowledge.errors import KnowledgeStoreError

try:
    import fcntl
except ImportError:  # Windows: no advisory locks here; one process at a time stays the user's rule
    fcntl = None  # type: ignore[assignment]

LOCK_FILE = ".almanac.lock"

_held: dict[Path, tuple[int, int]] = {}
"""Folder -> (open file descriptor holding the lock, opens in this process)."""
_guard = threading.Lock()


class FolderInUse(KnowledgeStoreError):
    """Another process has the embedded store open."""

    def __init__(self, folder: Path) -> None:
        super().__init__(
            f"the knowledge base in {folder} is open in another Almanac process (the bot, or an ingest): the "
            "embedded store takes one process at a time. Stop the other one, or share a Chroma server (CHROMA_HOST)"
        )


def acquire(folder: Path) -> None:
    """Take the folder for this process (again, if it has it already).

    Raises:
        FolderInUse: another process holds it.
    """
    folder = folder.resolve()
    with _guard:
        if folder in _held:
            fd, count = _held[folder]
            _held[folder] = (fd, count + 1)
            return
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise FolderInUse(folder) from None
        _held[folder] = (fd, 1)


def release(folder: Path) -> None:
    """Give one open back; the lock goes with the last one."""
    folder = folder.resolve()
    with _guard:
        if folder not in _held:
            return
        fd, count = _held[folder]
        if count > 1:
            _held[folder] = (fd, count - 1)
            return
        del _held[folder]
        os.close(fd)  # closing the descriptor releases the lock
