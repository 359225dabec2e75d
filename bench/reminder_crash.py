"""Reminder crash benchmark: the real Telegram bot killed with SIGKILL around its reminders' due times.

Run it from the repository root (a script, not a pytest test)::

    .venv/bin/python bench/reminder_crash.py                        # 20 seeds x 30 reminders x 4 kills
    .venv/bin/python bench/reminder_crash.py --seeds 2 --reminders 5  # quick look

For each seed, reminders (each to its own private chat, "stretch <n>") are put in a fresh database
through the engine's own store, due at random instants over ``--span`` seconds starting once the bot
has had time to start. ``python -m bot telegram`` then runs against the fake Bot API
(``tests/helpers/crash.py``'s `BotProcess`) and is killed with SIGKILL at ``--kills`` random moments
over the same span (a kill that lands while the bot is still starting counts as ``start-up``), and
started again at once after each. When every reminder is settled (sent or missed in the database) the
bot is stopped with SIGTERM and each reminder's messages are counted in the fake's chats:

* sent — delivered exactly once (``late`` counts those sent after their minute, marked "⏰ late:");
* missed — never delivered;
* duplicated — delivered more than once. The one window for it: a kill after Telegram took the message
  and before the bot recorded it sent (Telegram has no idempotent send). Reported, not hidden.

Exits 1 when missed or duplicated is not zero.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.reminders.schedule import Schedule  # noqa: E402
from engine.reminders.store import ReminderStore  # noqa: E402
from engine.store.db import Database  # noqa: E402
from tests.fakes.ollama_server import FakeOllama  # noqa: E402
from tests.fakes.telegram_api import FakeTelegram  # noqa: E402
from tests.helpers.crash import BotProcess  # noqa: E402

TZ = "Asia/Seoul"
FIRST_CHAT = 5001


@dataclass
class Figures:
    reminders: int = 0
    sent: int = 0
    late: int = 0
    missed: int = 0
    duplicated: int = 0
    kills: int = 0
    startup_kills: int = 0


async def seed_reminders(db_path: Path, dues: list[datetime]) -> None:
    """Active reminders, one per chat, through the engine's store (as a confirmed /remind leaves them)."""
    db = await Database.open(db_path)
    try:
        store = ReminderStore(db)
        now = datetime.now(timezone.utc)
        for n, due in enumerate(dues):
            local = due.astimezone(ZoneInfo(TZ))
            schedule = Schedule(repeat="once", at=local.time().replace(microsecond=0), on=local.date(), tz=TZ)
            due = due.replace(microsecond=0)
            user = f"tg:{FIRST_CHAT + n}"
            made = await store.propose(user, user, f"stretch {n}", schedule, due, "en", now)
            assert await store.update(made.id, was=made, status="active", due=due)
    finally:
        await db.close()


def settled(db_path: Path, count: int) -> bool:
    """Every reminder's occurrence is recorded sent or missed (none due, none claimed)."""
    with sqlite3.connect(db_path) as conn:
        done = conn.execute("SELECT count(*) FROM reminder_sends WHERE status IN ('sent', 'missed')").fetchone()[0]
    return int(done) >= count


def tally(tg: FakeTelegram, count: int, f: Figures) -> list[str]:
    texts: dict[int, list[str]] = {n: [] for n in range(count)}
    for call in tg.calls("sendMessage"):
        chat = int(call.params.get("chat_id", 0)) - FIRST_CHAT
        if chat in texts and "stretch" in str(call.params.get("text", "")):
            texts[chat].append(str(call.params["text"]))
    details = []
    for n, got in texts.items():
        f.reminders += 1
        if not got:
            f.missed += 1
            details.append(f"stretch {n}: never delivered")
        elif len(got) > 1:
            f.duplicated += 1
            details.append(f"stretch {n}: delivered {len(got)} times")
        else:
            f.sent += 1
            f.late += got[0].startswith("⏰ late:")
    return details


def run_seed(seed: int, args: argparse.Namespace, startup_s: float) -> tuple[Figures, list[str], float]:
    rng = random.Random(seed)
    f = Figures()
    with FakeOllama() as fake, FakeTelegram() as tg, tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        begin = time.time() + startup_s + 1.0  # the first due time: once the bot is up
        dues = sorted(begin + rng.uniform(0, args.span) for _ in range(args.reminders))
        asyncio.run(seed_reminders(data / "almanac.db", [datetime.fromtimestamp(d, timezone.utc) for d in dues]))
        kills = sorted(rng.uniform(begin - 0.5, begin + args.span + 0.5) for _ in range(args.kills))
        bot = BotProcess(tg, fake, data, read_in_code=True)
        started = time.monotonic()
        try:
            bot.start()
            for at in kills:
                time.sleep(max(0.0, at - time.time()))
                bot.kill()
                bot.start()
            deadline = time.monotonic() + args.settle
            while not settled(data / "almanac.db", args.reminders) and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(0.5)  # a last send in flight reaches the fake
            while not bot.polled() and time.monotonic() < deadline + 30:  # past its start-up: SIGTERM drains it
                time.sleep(0.05)
            code = bot.stop()
        finally:
            bot.kill()
        f.kills, f.startup_kills = bot.kills, bot.startup_kills
        details = tally(tg, args.reminders, f)
        if args.verbose and (f.duplicated or f.missed):
            log = bot.log.read_text(errors="replace").splitlines()
            details += [line for line in log if "reminder" in line or '"start"' in line][-40:]
        if code != 0:
            details.append(f"the bot exited with {code} on SIGTERM\n{bot.tail()}")
        return f, details, time.monotonic() - started


def measure_startup() -> float:
    """Seconds from ``python -m bot telegram`` to its first getUpdates, on this machine now."""
    with FakeOllama() as fake, FakeTelegram() as tg, tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        bot = BotProcess(tg, fake, data, read_in_code=True)
        t0 = time.monotonic()
        try:
            bot.start()
            bot.wait_polling(0, timeout=120)
            took = time.monotonic() - t0
            bot.stop()
        finally:
            bot.kill()
    return took


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--first-seed", type=int, default=1)
    p.add_argument("--reminders", type=int, default=30)
    p.add_argument("--kills", type=int, default=4)
    p.add_argument("--span", type=float, default=10.0, help="seconds over which reminders fall due and kills land")
    p.add_argument("--settle", type=float, default=120.0, help="seconds to wait for every reminder to settle")
    p.add_argument("--verbose", action="store_true", help="print the bot's reminder log lines of a seed that failed")
    args = p.parse_args()
    startup = measure_startup()
    print(
        f"{args.seeds} seeds x {args.reminders} reminders due over {args.span:.0f} s x {args.kills} kills (SIGKILL); "
        f"bot start-up {startup:.1f} s"
    )
    print(
        f"{'seed':>4} {'kills':>5} {'start-up':>8} {'sent':>5} {'late':>5} {'missed':>6} {'duplicated':>10} {'time':>7}"
    )
    total = Figures()
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        f, details, took = run_seed(seed, args, startup)
        print(
            f"{seed:>4} {f.kills:>5} {f.startup_kills:>8} {f.sent:>5} {f.late:>5} {f.missed:>6} {f.duplicated:>10} "
            f"{took:>6.1f}s"
        )
        for line in details if args.verbose else details[:10]:
            print("       " + line)
        for name in ("reminders", "sent", "late", "missed", "duplicated", "kills", "startup_kills"):
            setattr(total, name, getattr(total, name) + getattr(f, name))
    print(
        f"total: {total.reminders} reminders, {total.kills} kills ({total.startup_kills} during start-up) — "
        f"sent once {total.sent} (late {total.late}), missed {total.missed}, duplicated {total.duplicated}"
    )
    return 0 if total.missed == 0 and total.duplicated == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
