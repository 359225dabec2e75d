"""Data is private on a shared machine: what Almanac writes, only its own account can read.

`private_by_default` sets the process umask to 0o077 once, first thing in
``python -m bot``: every file Almanac writes is then created 0600 and every
folder 0700 — the SQLite databases and the -wal, -shm and journal files SQLite
makes beside them, Chroma's files, the console's ``almanac.log``, exports, and
the Slack gateway's ``slack.db`` (the gateway is a child process and inherits
the umask). One rule at the start covers the files libraries create on their
own (SQLite's -wal again after each checkpoint, Chroma's segments), which a
chmod after each open would miss or leave readable for a moment.

Existing folders are not changed behind the owner's back: `open_to_others`
words the warning, with the chmod to run.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path


def private_by_default() -> None:
    """Files and folders this process (and its children) creates: 0600 and 0700."""
    os.umask(0o077)


def open_to_others(data_dir: Path) -> str | None:
    """A warning with the fix when other accounts may read ``data_dir``; None when only its owner can."""
    try:
        mode = data_dir.stat().st_mode
    except OSError:
        return None  # the writability check reports a folder that is not there
    if not mode & 0o077:
        return None
    return f"DATA_DIR {data_dir} can be read by other accounts on this machine; run: chmod -R go-rwx {shlex.quote(str(data_dir))}"
