"""Crash benchmark: the real Telegram bot killed with SIGKILL while messages stream in, over several seeds.

Run it from the repository root (a script, not a pytest test)::

    .venv/bin/python bench/crash.py                          # 5 seeds x 200 messages x 5 kills, 20 chats
    .venv/bin/python bench/crash.py --seeds 1 --messages 50  # quick look

For each seed, ``python -m bot telegram`` runs as a child process against the
fake Bot API and the fake model (``tests/helpers/crash.py``; both fakes are
served from this process on loopback, each model call takes ``--model-ms``).
Log messages from ``--chats`` private chats arrive in a random order; at
``--kills`` random points of the stream the bot is killed with SIGKILL (and,
now and then, once more during its start-up) and started again. Streaming
starts once the bot polls; the end waits for as long as replies keep coming
(until all are answered, or none came for a minute), so a bot slowed by a
loaded machine is counted from its final state, not reported as losing
messages. Then the bot is stopped with SIGTERM and every message is checked
against the database and the chats (``start-up`` counts the kills that landed
before the bot polled: a seed whose kills all did tested restarts only, and
says so):

* lost — never stored, never answered;
* stored-but-unanswered — stored, but no reply reached the chat;
* duplicated — stored more than once;
* out of order — chats whose replies came in another order than their messages;
* repeated replies — a reply sent twice (a kill between sending it and
  marking its update done; Telegram has no idempotent send), reported only;
* stale status lines — "⏳ …" lines left in a chat.

Exits 1 when lost, stored-but-unanswered, duplicated, out of order or stale
status lines is not zero for any seed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fakes.ollama_server import FakeOllama  # noqa: E402
from tests.fakes.telegram_api import FakeTelegram  # noqa: E402
from tests.helpers.crash import BotProcess, Figures, count, script_logs, stream  # noqa: E402


def run_seed(seed: int, args: argparse.Namespace) -> tuple[Figures, int, int, float]:
    with FakeOllama() as fake, FakeTelegram() as tg, tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        script_logs(fake, args.model_ms / 1000)
        bot = BotProcess(tg, fake, data, read_in_code=args.read_in_code)
        started = time.monotonic()
        try:
            sent = stream(tg, bot, seed=seed, chats=args.chats, messages=args.messages, kills=args.kills, settle_s=60)
            code = bot.stop()
        finally:
            bot.kill()
        if code != 0:
            print(f"  seed {seed}: the bot exited with {code} on SIGTERM\n{bot.tail()}")
        return count(tg, data / "almanac.db", sent), bot.kills, bot.startup_kills, time.monotonic() - started


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--first-seed", type=int, default=1)
    p.add_argument("--messages", type=int, default=200)
    p.add_argument("--kills", type=int, default=5)
    p.add_argument("--chats", type=int, default=20)
    p.add_argument("--model-ms", type=float, default=30.0, help="time each model call takes")
    p.add_argument(
        "--read-in-code",
        action="store_true",
        help="the default path (READ_IN_CODE=true): code stores these logs with no model call",
    )
    args = p.parse_args()
    print(f"{args.seeds} seeds x {args.messages} messages from {args.chats} chats x {args.kills} kills (SIGKILL)")
    header = f"{'seed':>4} {'kills':>5} {'start-up':>8} {'lost':>5} {'unanswered':>10} {'duplicated':>10} {'out-of-order':>12} {'repeated':>8} {'stale ⏳':>8} {'time':>7}"
    print(header)
    total = Figures()
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        f, kills, startup, took = run_seed(seed, args)
        print(
            f"{seed:>4} {kills:>5} {startup:>8} {f.lost:>5} {f.unanswered:>10} {f.duplicated:>10} {f.out_of_order:>12} "
            f"{f.repeated_replies:>8} {f.stale_status:>8} {took:>6.1f}s"
        )
        if kills and startup == kills:
            print(f"       every kill of seed {seed} landed during start-up: it tested restarts, not turns cut short")
        for line in f.details[:10]:
            print("       " + line)
        for name in ("sent", "lost", "unanswered", "duplicated", "out_of_order", "repeated_replies", "stale_status"):
            setattr(total, name, getattr(total, name) + getattr(f, name))
    print(
        f"total: {total.sent} messages — lost {total.lost}, stored-but-unanswered {total.unanswered}, "
        f"duplicated {total.duplicated}, out of order {total.out_of_order} "
        f"(repeated replies {total.repeated_replies}, stale status lines {total.stale_status})"
    )
    return 0 if total.ok() else 1


if __name__ == "__main__":
    raise SystemExit(main())
