"""Start-up shared by every platform: checks, logging, running to the end, exit codes.

Each ``bot/run_<platform>.py`` reads what its platform needs from the
settings and hands `run` a coroutine that opens the engine and serves.

Exit codes: 0 after a normal end (``/quit``, SIGINT, SIGTERM); 2 with one
line on stderr when the set-up is wrong — settings (`bot.config.load_settings`),
a data directory that is not writable, a broken domain file, or a platform
that refuses to start (`adapters.common.SetupError`: a rejected token, an
unreachable API), and a disk that fails under it (full: the log cannot be
written). Secrets are masked in that line too. A data directory other
accounts can read is warned about once, with the chmod that fixes it
(`bot.privacy`).
"""

from __future__ import annotations

import asyncio
import errno
import signal
import sys
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, TextIO

import structlog

from adapters.common import SetupError
from bot.config import Settings, fail
from bot.logs import SecretMasker, configure_logging
from bot.privacy import open_to_others
from engine import DataDirError, DomainFileError, check_writable

log = structlog.get_logger("bot")


def run(
    settings: Settings,
    mode: str,
    main: Callable[[], Coroutine[Any, Any, None]],
    *,
    log_file: Path | None = None,
) -> None:
    """Check the data directory, set up logging, then run ``main()`` to its end.

    Args:
        settings: the loaded settings.
        mode: the platform's name, for the start-up log line.
        main: opens the engine and serves until done.
        log_file: where log lines go; stderr when None. The console passes a file
            beside the data, because it owns the terminal.
    """
    try:
        check_writable(settings.data_dir)
        stream = open(log_file, "a", encoding="utf-8") if log_file is not None else None  # noqa: SIM115
    except DataDirError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(_cannot_write_log(log_file, exc))
    exposed = open_to_others(settings.data_dir)
    try:
        configure_logging(settings.log_format, settings.log_level, settings.secrets(), stream=stream)
        log.info("start", mode=mode, data_dir=str(settings.data_dir))
        if exposed is not None:  # once per start: on the terminal, and in the log for whoever reads that
            print(f"almanac: warning: {exposed}", file=sys.stderr)
            log.warning("data_dir.open_to_others", warning=exposed)
        asyncio.run(main())
    except (SetupError, DataDirError, DomainFileError) as exc:
        # Error texts from HTTP layers may carry a URL; a token must not reach the terminal.
        fail(SecretMasker(settings.secrets()).mask(str(exc)))
    except OSError as exc:  # the terminal, a file or the disk failed under us: one line, not a traceback
        log.error("stopped", error=str(exc))
        fail(SecretMasker(settings.secrets()).mask(f"stopped: {exc.strerror or exc}"))
    except KeyboardInterrupt:
        print("\nbye", file=sys.stderr)
    finally:
        if stream is not None:
            # Lines the log still holds are written once more here; unless a line already said why
            # the process stops, a disk that refuses them (full) is one more line, not a traceback.
            _close_log(stream, quiet=sys.exc_info()[0] is not None)


def _cannot_write_log(path: object, exc: OSError) -> str:
    hint = "; free some space" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else ""
    return f"cannot write the log {path} ({exc.strerror or exc}){hint}"


def _close_log(stream: TextIO, *, quiet: bool) -> None:
    try:
        stream.close()
    except OSError as exc:
        if not quiet:
            fail(_cannot_write_log(stream.name, exc))


async def until_stopped(serve: Callable[[asyncio.Event], Awaitable[None]]) -> None:
    """Run ``serve(stopped)`` with ``stopped`` set by SIGINT or SIGTERM, so a server drains and stops cleanly."""
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopped.set)
    await serve(stopped)
