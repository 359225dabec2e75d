"""The real Telegram bot as a child process, killed with SIGKILL and started again, against the fakes.

``python -m bot telegram`` runs exactly as in production, with
``TELEGRAM_API_BASE_URL`` pointing at a `FakeTelegram` and ``OLLAMA_HOST`` at a
`FakeOllama`, both served from the calling process on loopback. `stream`
sends log messages from many private chats, kills the bot at seeded random
moments, starts it again, and at the end `count` says what happened to every
message: stored exactly once, answered, in order.

Used by ``tests/adapters/telegram/test_crash.py`` (small, under a minute) and
``bench/crash.py`` (full size, prints the figures).
"""

from __future__ import annotations

import itertools
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.fakes.ollama_server import Delay, FakeOllama
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers import scripts

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_PREFIXES = (  # the settings a child bot must not inherit from this shell
    "TELEGRAM_",
    "SLACK_",
    "OLLAMA_",
    "ALLOWED_",
    "DATA_DIR",
    "DOMAINS_DIR",
    "LOG_",
    "CHROMA_",
    "KNOWLEDGE_",
    "EMBEDDING_",
    "DATABASE_URL",
)
_WEIGHT = re.compile(r"bench press (\d+) kg")


class BotProcess:
    """``python -m bot telegram`` (or ``worker``) in a child process; stderr (the log) goes to a file."""

    def __init__(
        self,
        tg: FakeTelegram,
        fake: FakeOllama,
        data_dir: Path,
        *,
        read_in_code: bool = False,
        mode: str = "telegram",
        database_url: str | None = None,
        log_name: str = "bot.log",
        env: dict[str, str] | None = None,
    ) -> None:
        extra = env
        env = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS_PREFIXES)}
        env.update(
            TELEGRAM_BOT_TOKEN=tg.token,
            TELEGRAM_API_BASE_URL=tg.base_url,
            OLLAMA_HOST=fake.url,
            OLLAMA_TIMEOUT_S="10",
            # The crash scenarios script the Router and Parser per message (the model's path) unless
            # asked for the default path, where code stores these logs with no model call.
            READ_IN_CODE="true" if read_in_code else "false",
            DATA_DIR=str(data_dir),
            DEFAULT_TIMEZONE="Asia/Seoul",
            LOG_FORMAT="json",
            LOG_LEVEL="INFO",
            KNOWLEDGE_ENABLED="false",  # a minute of first ingest would compete with the kills for the CPU
            PYTHONPATH=str(ROOT),
        )
        if database_url:
            env["DATABASE_URL"] = database_url
        env.update(extra or {})
        self._mode = mode
        self._env = env
        self._cwd = data_dir.parent  # no stray .env is read from the repository
        self.log = data_dir.parent / log_name
        self._tg = tg
        self._proc: subprocess.Popen[bytes] | None = None
        self._started_at_call = 0
        self.starts = 0
        self.kills = 0
        self.startup_kills = 0
        """Kills that landed before the bot polled for updates: they test a restart, not a turn cut short."""

    def start(self) -> None:
        self._started_at_call = len(self._tg.calls())
        with open(self.log, "ab") as log:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "bot", self._mode], env=self._env, cwd=self._cwd, stdout=log, stderr=log
            )
        self.starts += 1

    @property
    def pid(self) -> int:
        assert self._proc is not None
        return self._proc.pid

    def kill(self) -> None:
        """SIGKILL: no drain, no clean-up, as a power switch or the OOM killer would."""
        if self._proc is not None and self._proc.poll() is None:
            ready = self.polled()
            os.kill(self._proc.pid, signal.SIGKILL)
            self.kills += 1
            self.startup_kills += 0 if ready else 1
        if self._proc is not None:
            self._proc.wait(10)

    def stop(self, timeout: float = 40.0) -> int:
        """SIGTERM and wait: the bot drains and exits 0."""
        assert self._proc is not None
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGTERM)
        return self._proc.wait(timeout)

    def polled(self) -> bool:
        """Whether the running bot has asked for updates since it started (it is past its start-up)."""
        return any(c.method == "getUpdates" for c in self._tg.calls()[self._started_at_call :])

    def wait_polling(self, since: int, timeout: float = 30.0) -> None:
        """Until the bot (started after call number ``since``) polls getUpdates: it replayed what it had."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(c.method == "getUpdates" for c in self._tg.calls()[since:]):
                return
            assert self._proc is not None and self._proc.poll() is None, self.tail()
            time.sleep(0.05)
        raise TimeoutError("the bot did not start polling\n" + self.tail())

    def wait_started(self, since_bytes: int, timeout: float = 60.0) -> None:
        """Until the process logged that it started (a worker never polls): written after ``since_bytes``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.log.read_bytes()[since_bytes:] if self.log.exists() else b""
            if b"telegram.started" in text:
                return
            assert self._proc is not None and self._proc.poll() is None, self.tail()
            time.sleep(0.05)
        raise TimeoutError("the process did not start\n" + self.tail())

    def log_size(self) -> int:
        return self.log.stat().st_size if self.log.exists() else 0

    def wait_dead(self, timeout: float = 30.0) -> None:
        """Until the process is gone (killed from elsewhere, e.g. inside a fake's handler)."""
        assert self._proc is not None
        self._proc.wait(timeout)

    def restart(self) -> None:
        since = len(self._tg.calls())
        self.start()
        self.wait_polling(since)

    def tail(self, lines: int = 30) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


def text_of(weight: int) -> str:
    return f"bench {weight}kg 10x5"


def weight_of(body: dict[str, Any]) -> int:
    """The weight in the message the model is asked about (the text after the last "Message:")."""
    content = str(body["messages"][-1]["content"]).rsplit("Message:", 1)[-1]
    found = re.findall(r"bench (\d+)kg", content)
    return int(found[-1]) if found else 1


def script_logs(fake: FakeOllama, model_s: float) -> None:
    """Every message is a LOG of bench press at the weight it names; each model call takes ``model_s``."""
    fake.default("RouterOutput", Delay(model_s, scripts.router("LOG")))
    fake.default("ParserOutput", lambda body: Delay(model_s, scripts.strength("bench press", weight_of(body), 10, 5)))


@dataclass
class Figures:
    """What happened to the messages of one run."""

    sent: int = 0
    lost: int = 0
    """Never stored, never answered."""
    unanswered: int = 0
    """Stored, but no reply ever reached the chat."""
    duplicated: int = 0
    """Stored more than once."""
    out_of_order: int = 0
    """Chats whose replies came in another order than their messages."""
    repeated_replies: int = 0
    """Replies sent twice (a kill between sending a reply and marking the update done)."""
    stale_status: int = 0
    """"⏳ …" status lines still in a chat at the end."""
    details: list[str] = field(default_factory=list)

    def ok(self) -> bool:
        return not (self.lost or self.unanswered or self.duplicated or self.out_of_order or self.stale_status)


def count(tg: FakeTelegram, db_path: Path | str, sent: dict[int, list[int]]) -> Figures:
    """Compare what each chat sent (chat → weights in order) with the database and the chats.

    Args:
        db_path: the SQLite file, or a Postgres URL.
    """
    figures = Figures(sent=sum(len(w) for w in sent.values()))
    if isinstance(db_path, str):
        import psycopg

        with psycopg.connect(db_path) as pg:
            rows = pg.execute("SELECT user_key, raw_text FROM entries").fetchall()
    else:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as db:
            rows = db.execute("SELECT user_key, raw_text FROM entries").fetchall()
    stored = Counter((user, raw) for user, raw in rows)
    for chat, weights in sent.items():
        replies = [m.text for m in tg.sent(chat)]
        figures.stale_status += sum(1 for r in replies if r.startswith("⏳"))
        answered = [int(w) for r in replies for w in _WEIGHT.findall(r)]
        firsts = list(dict.fromkeys(answered))
        figures.repeated_replies += len(answered) - len(firsts)
        if firsts != [w for w in weights if w in firsts] or any(b < a for a, b in itertools.pairwise(answered)):
            figures.out_of_order += 1
            figures.details.append(f"chat {chat}: replies {answered} for {weights}")
        for w in weights:
            n = stored[(f"tg:{chat}", text_of(w))]
            if n == 0 and w not in firsts:
                figures.lost += 1
                figures.details.append(f"chat {chat}: {text_of(w)} lost")
            elif w not in firsts:
                figures.unanswered += 1
                figures.details.append(f"chat {chat}: {text_of(w)} stored but unanswered")
            if n > 1:
                figures.duplicated += 1
                figures.details.append(f"chat {chat}: {text_of(w)} stored {n} times")
    return figures


def all_answered(tg: FakeTelegram, sent: dict[int, list[int]]) -> bool:
    for chat, weights in sent.items():
        answered = {int(w) for m in tg.sent(chat) for w in _WEIGHT.findall(m.text)}
        if not answered.issuperset(weights):
            return False
    return True


def answered_count(tg: FakeTelegram, sent: dict[int, list[int]]) -> int:
    """How many of the messages sent have a reply, over all chats."""
    return sum(
        len({int(w) for m in tg.sent(chat) for w in _WEIGHT.findall(m.text)} & set(weights))
        for chat, weights in sent.items()
    )


def settle(tg: FakeTelegram, sent: dict[int, list[int]], stall_s: float, poll: float = 0.2) -> bool:
    """Wait until every message has its reply, for as long as replies keep coming.

    The figures are counted from the final state: a bot slowed by a loaded
    machine is still working, not losing messages, so the wait ends only when
    everything is answered or no new reply came for ``stall_s`` seconds.
    Returns whether everything was answered.
    """
    seen, quiet_since = -1, time.monotonic()
    while True:
        if all_answered(tg, sent):
            return True
        now_seen = answered_count(tg, sent)
        if now_seen != seen:
            seen, quiet_since = now_seen, time.monotonic()
        elif time.monotonic() - quiet_since > stall_s:
            return False
        time.sleep(poll)


def wait_until(check: Callable[[], bool], timeout: float, poll: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(poll)
    return check()


def stream(
    tg: FakeTelegram,
    bot: BotProcess,
    *,
    seed: int,
    chats: int,
    messages: int,
    kills: int,
    settle_s: float = 60.0,
) -> dict[int, list[int]]:
    """Send ``messages`` log messages from ``chats`` chats while killing the bot ``kills`` times.

    The order of arrival mixes chats at random (each chat's own messages stay
    in order); each kill lands at a random point of the stream, a random
    moment after a burst arrived, while turns run and more wait; now and then
    the bot is killed once more during its start-up (extra kills, counted in
    `BotProcess.kills`, and in `BotProcess.startup_kills` when the bot had not
    polled yet). The stream starts once the bot polls, and ends when every
    message is answered or no reply came for ``settle_s`` seconds (`settle`).
    Returns chat → the weights it sent, in order.
    """
    rng = random.Random(seed)
    sent: dict[int, list[int]] = {1000 + c: [] for c in range(chats)}
    order = [1000 + rng.randrange(chats) for _ in range(messages)]
    cuts = sorted(rng.sample(range(1, messages), kills)) if kills < messages else list(range(1, messages))
    bot.restart()
    start = 0
    for cut in [*cuts, messages]:
        for chat in order[start:cut]:
            weight = 20 + len(sent[chat])
            sent[chat].append(weight)
            tg.enqueue(tg.message(chat, chat, text_of(weight)))
            time.sleep(rng.uniform(0.0, 0.01))
        start = cut
        if cut == messages:
            break
        time.sleep(rng.uniform(0.05, 0.8))  # let it work, then pull the plug mid-stream
        bot.kill()
        if rng.random() < 0.25:  # now and then, once more during start-up (replaying, or not even polling yet)
            bot.start()
            time.sleep(rng.uniform(0.3, 2.5))
            bot.kill()
        bot.restart()
    settle(tg, sent, settle_s)
    return sent
