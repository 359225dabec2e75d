"""Console adapter: a terminal chat over the same engine.

Lines in, ``engine.handle(...)``, outcomes printed as plain text. A pending
question shows numbered choices; a number picks one, ``skip`` declines, any
other text answers it in your own words.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TextIO

from adapters.common import CONFIRM_FIRST, Pending, command_name, command_turn, open_prompt, typed_reply
from engine import Answer, ApprovalRequest, Ask, Document, Failure, Handler, Logged, Notice, Outcome
from engine import Message, Resume, Turn

HELP = """\
Tell me what you did, in English or Korean, e.g.
  bench 55kg 10x5
  어제 스쿼트 100키로 5x5
Commands:
  /reset   start a fresh conversation (your entries are kept)
  /cancel  drop the open question
  /retry   run again a message that failed (e.g. while the model was down)
  /status  show the open question or plan, if any
  /undo    revert the last approved plan or correction
  /history planning events of this conversation
  /export  write your entries to a CSV file here (/export json for JSON)
  /forget  delete everything Almanac keeps about you (asks first)
  /tz Area/City   set your time zone
When a plan is shown: approve / revise <what should change> / cancel
  /help    this text
  /quit    leave (an open question waits for you)"""



def render(outcome: Outcome) -> str:
    """One outcome as plain text."""
    if isinstance(outcome, Logged):
        return "\n".join(f"✓ logged {e.on.isoformat()} · {e.domain} · {e.summary}" for e in outcome.entries)
    if isinstance(outcome, Answer):
        text = outcome.text + (" (partial answer)" if outcome.partial else "")
        if outcome.citations:
            text += "\n  sources: " + "; ".join(c.title for c in outcome.citations)
        return text
    if isinstance(outcome, Ask):
        lines = []
        for q in outcome.questions:
            lines.append(f"? {q.text}")
            lines.extend(f"   {i}) {opt}" for i, opt in enumerate(q.options, start=1))
        if outcome.why:
            lines.append(f"  ({outcome.why})")
        lines.append("  type a number, your own answer, or 'skip'" + (f" — if skipped: {outcome.if_declined}" if outcome.if_declined else ""))
        return "\n".join(lines)
    if isinstance(outcome, ApprovalRequest):
        sources = "".join(f"\n  - {e.title}" for e in outcome.evidence[:5])
        return (
            f"Plan: {outcome.title} (confidence {outcome.confidence:.0%})\n{outcome.summary}"
            + (f"\n  based on:{sources}" if sources else "")
            + "\n  nothing changes until you type: approve / revise <what should change> / cancel"
        )
    if isinstance(outcome, Document):
        return f"· {outcome.filename} ({outcome.caption})"
    if isinstance(outcome, Failure):
        return f"! {outcome.text}"
    assert isinstance(outcome, Notice)
    return f"· {outcome.text}"


class ConsoleChat:
    """A chat in the terminal for one person (``console:<name>``)."""

    def __init__(
        self,
        engine: Handler,
        name: str,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        export_dir: Path | None = None,
    ) -> None:
        self._engine = engine
        self._export_dir = export_dir or Path.cwd()
        self._key = f"console:{name}"
        self._in = stdin or sys.stdin
        self._out = stdout or sys.stdout
        self._pending: Pending | None = None

    def _print(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()

    async def _read(self) -> str | None:
        # input() would block the event loop; a thread keeps it free.
        buffer = getattr(self._in, "buffer", None)
        if buffer is not None:
            raw: bytes = await asyncio.to_thread(buffer.readline)
            if not raw:
                return None
            return raw.decode("utf-8", "replace").rstrip("\n")
        line = await asyncio.to_thread(self._in.readline)
        return None if not line else line.rstrip("\n")

    async def _send(self, turn: Turn) -> None:
        outcomes = await self._engine.handle(turn)
        for outcome in outcomes:
            if isinstance(outcome, (Ask, ApprovalRequest)):
                self._pending = outcome
            if isinstance(outcome, Document):
                # Written only because the person asked for it with /export.
                path = self._export_dir / outcome.filename
                path.write_text(outcome.content, encoding="utf-8")
                self._print(f"· wrote {outcome.caption} to {path}")
                continue
            self._print(render(outcome))
        if not any(isinstance(o, (Ask, ApprovalRequest)) for o in outcomes) and not any(
            isinstance(o, Failure) for o in outcomes
        ):
            self._pending = None

    def _turn_for(self, line: str) -> Turn | None:
        key = self._key
        if line.strip().startswith("/"):
            cmd, _, arg = line.strip().partition(" ")
            name, arg = command_name(cmd), arg.strip()
            if name in CONFIRM_FIRST:  # /forget alone asked first (see `run`); only "yes" confirms
                if arg.lower() != "yes":
                    return None
                arg = ""
            return command_turn(name, arg, conversation=key, user=key, message_commands=False)
        pending = self._pending
        answer = typed_reply(line, pending)
        if pending is not None and answer is not None:
            return Resume(conversation=key, user=key, interrupt_id=pending.interrupt_id, answer=answer)
        return Message(conversation=key, user=key, text=line)

    async def run(self) -> None:
        """Chat until ``/quit`` or end of input."""
        self._print("Almanac — your training log. /help for commands, /quit to leave.")
        # After a restart the open question is still there: show it.
        self._pending = await open_prompt(self._engine, self._key, self._key)
        if self._pending is not None:
            self._print("You left this open:\n" + render(self._pending))
        while True:
            self._out.write("> ")
            self._out.flush()
            line = await self._read()
            if line is None or line.strip().lower() in ("/quit", "/exit"):
                self._print("bye")
                return
            if line.strip().lower() == "/help":
                self._print(HELP)
                continue
            if line.strip().lower() == "/forget":
                self._print("· This deletes all your entries and this conversation. Type /forget yes to confirm.")
                continue
            if not line.strip():
                continue
            turn = self._turn_for(line)
            if turn is None:
                self._print(f"· Unknown command {line.split()[0]!r}. /help lists the commands.")
                continue
            await self._send(turn)
