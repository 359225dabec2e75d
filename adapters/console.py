"""Console adapter: a terminal chat over the same engine.

Lines in, ``engine.handle(...)``, outcomes printed as plain text (a chart as
its figures and the path of the PNG the engine wrote). A pending
question shows numbered choices; a number picks one, ``skip`` declines, any
other text answers it in your own words.

Every line carries an id of its own, so a line that Ctrl-C (or a crash) cut
off is still in the engine's inbox: the next start runs it before anything
new. A file that cannot be written (a read-only folder, a full disk) is one
line of explanation, never a traceback.
"""

from __future__ import annotations

import asyncio
import sys
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from pydantic import TypeAdapter, ValidationError

from adapters.common import REVISE_PROMPT, Pending, command_turn, open_prompt, read_command, read_typed, visible
from adapters.common.charts import caption_text, path_label
from adapters.common.intake import DeliveryStore
from adapters.common.notes import entry_dates, notes_for, record_lines
from adapters.common.reminders import typed_buttons
from adapters.console_line import StepLine
from engine import (
    Answer,
    ApprovalDecision,
    ApprovalRequest,
    Ask,
    Chart,
    Closed,
    Delivery,
    Document,
    Failure,
    Handler,
    Logged,
    Message,
    Notice,
    Outcome,
    ReminderCard,
    Reminding,
    Resume,
    Turn,
)

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
  /next bench   the next session's sets, reps and weight for a lift
  /chart bench 6 months   a progress chart (PNG under DATA_DIR/charts/); also volume, running, bodyweight, days
  /summary   last week's summary; /summary weekly on [day] [hour] every week (Monday 08:00), /summary weekly off
  /quiet   no nudges about unlogged planned sessions (/quiet off: back on; /quiet behind: only when behind the plan)
  /export  write your entries to a CSV file here (/export json for JSON)
  /forget  delete everything Almanac keeps about you (asks first)
  /remind in 10m stretch   a reminder (also: at 18:30 …, every Monday 7:00 …), printed here when due
  /reminders   your reminders, and the commands that mark one done, snooze or delete it
  /tz Area/City   set your time zone
When a plan is shown: approve / revise <what should change> / cancel
  /help    this text
  /quit    leave (an open question waits for you)"""

RESUMING = "· Picking up what was cut off last time:"
NOT_SHOWN = "· Before you left, this was done but not shown:"
_TURN: TypeAdapter[Turn] = TypeAdapter(Turn)
KEPT = "· Stopped. What you sent is kept and runs when you start Almanac again."


def render(outcome: Outcome) -> str:
    """One outcome as plain text."""
    if isinstance(outcome, Logged):
        return "\n".join(
            line
            for e in outcome.entries
            for line in [f"✓ {e.action} {e.on.isoformat()} · {e.domain} · {e.summary}", *record_lines(e)]
        )
    if isinstance(outcome, Answer):
        notes = notes_for(outcome)
        text = outcome.text + (f" ({notes.partial})" if outcome.partial else "")
        if dates := entry_dates(outcome):
            text += f"\n  {notes.entries(dates)}"
        if cited := [c for c in outcome.citations if c.on is None]:
            text += f"\n  {notes.sources}: " + "; ".join(c.title + (f" ({c.url})" if c.url else "") for c in cited)
        return text
    if isinstance(outcome, Ask):
        lines = []
        for q in outcome.questions:
            lines.append(f"? {q.text}")
            lines.extend(f"   {i}) {opt}" for i, opt in enumerate(q.options, start=1))
        if outcome.why:
            lines.append(f"  ({outcome.why})")
        lines.append(
            "  type a number, your own answer, or 'skip'"
            + (f" — if skipped: {outcome.if_declined}" if outcome.if_declined else "")
        )
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
    if isinstance(outcome, Chart):  # the engine already wrote the picture under DATA_DIR/charts/
        return f"{caption_text(outcome)}\n  {path_label(outcome)}: {outcome.path}"
    if isinstance(outcome, Failure):
        return f"! {outcome.text}"
    if isinstance(outcome, ReminderCard):
        buttons = typed_buttons(outcome)
        return outcome.text + (f"\n  {buttons}" if buttons else "")
    assert isinstance(outcome, Notice)
    return f"· {outcome.text}"


def _leaves(line: str) -> bool:
    """A bare "quit" or "exit" alone on the line leaves, as at any terminal prompt: sent to the engine it
    would be a message (and a model call) nobody meant."""
    return line.strip().lower() in ("quit", "exit")


class ConsoleChat:
    """A chat in the terminal for one person (``console:<name>``)."""

    def __init__(
        self,
        engine: Handler,
        name: str,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        export_dir: Path | None = None,
        steps: bool = False,
    ) -> None:
        """``steps``: print each step of a turn on a line of its own where stdout is no terminal (on a
        terminal the current step is always shown, on one line rewritten in place)."""
        self._engine = engine
        self._steps = steps
        self._export_dir = export_dir or Path.cwd()
        self._key = f"console:{name}"
        self._in = stdin or sys.stdin
        self._out = stdout or sys.stdout
        self._pending: Pending | None = None
        self._feedback_for: str | None = None
        """The plan a bare "revise" was typed for: the next line is the feedback."""

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
        # Recorded before it runs and finished once its outcomes are on screen: a console killed in
        # between (an approve that committed) shows what was done at the next start (`_resume_cut_off`).
        deliveries = self._engine if isinstance(self._engine, DeliveryStore) else None
        if deliveries is not None and turn.message_id is not None:
            await deliveries.receive(self._key, [Delivery(turn.message_id, turn.model_dump_json(), self._key)])
        line = StepLine(self._out, self._steps)
        try:
            outcomes = await self._engine.handle(turn, progress=line.step)
        except asyncio.CancelledError:  # Ctrl-C while the turn ran: the engine keeps it for the next start
            line.clear()
            self._print(KEPT)
            raise
        line.clear()
        self._show(outcomes)
        if deliveries is not None and turn.message_id is not None:
            await deliveries.finish(self._key, [turn.message_id])

    def _show(self, outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            if isinstance(outcome, Closed):  # the question closed here; what follows says how it went
                continue
            if isinstance(outcome, (Ask, ApprovalRequest)):
                self._pending = outcome
            if isinstance(outcome, Document):
                self._print(self._write(outcome))
                continue
            self._print(render(outcome))
        # A failure keeps the question open, and so does a message held as one of its own (a log, a question).
        if not any(isinstance(o, (Ask, ApprovalRequest)) for o in outcomes) and not any(
            isinstance(o, Failure) or (isinstance(o, Notice) and o.code == "held") for o in outcomes
        ):
            self._pending = None

    def _write(self, doc: Document) -> str:
        """Write an export (only because the person asked for it) and say where, or why not."""
        path = self._export_dir / doc.filename
        stem, suffix, n = path.stem, path.suffix, 1
        while path.exists():  # an earlier export of the same day stays as it was
            n += 1
            path = path.with_name(f"{stem}-{n}{suffix}")
        try:
            with path.open("x", encoding="utf-8") as out:
                out.write(doc.content)
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            return f"! Could not write {path} ({reason}). Your entries are unchanged; run Almanac from a folder you can write to and /export again."
        return f"· wrote {doc.caption} to {path}"

    def _turn_for(self, line: str) -> Turn | str | None:
        """The turn a line becomes, or what to say instead (help, a usage hint, a question back); None if unknown.

        Commands and typed answers are read by `read_command` and `read_typed`, as on every platform.
        """
        key = self._key
        if line.strip().startswith("/"):
            cmd, _, arg = line.strip().partition(" ")
            read = read_command(cmd, arg, conversation=key, user=key)
            if read.own in ("help", "start"):
                return HELP
            if read.own == "usage":
                return f"· {read.usage}"
            turn = read.turn
            if read.own == "confirm":  # /forget asks first; only "/forget yes" confirms
                if arg.strip().lower() != "yes":
                    return "· This deletes all your entries and this conversation. Type /forget yes to confirm."
                turn = command_turn(read.name, "", conversation=key, user=key)
            return turn.model_copy(update={"message_id": _line_id()}) if turn is not None else None
        pending, plan = self._pending, self._feedback_for
        self._feedback_for = None
        if plan is not None:  # the line after a bare "revise" says what should change
            feedback = ApprovalDecision(decision="revise", feedback=visible(line))
            return Resume(conversation=key, user=key, interrupt_id=plan, answer=feedback, message_id=_line_id())
        typed = read_typed(line, pending, key)
        if pending is None or typed is None:
            return Message(conversation=key, user=key, text=line, message_id=_line_id())
        if typed.hint:
            return f"· {typed.hint}"
        if typed.ask_feedback or typed.answer is None:
            self._feedback_for = pending.interrupt_id
            return f"· {REVISE_PROMPT}"
        return Resume(
            conversation=key, user=key, interrupt_id=pending.interrupt_id, answer=typed.answer, message_id=_line_id()
        )

    async def run(self) -> None:
        """Chat until ``/quit`` or end of input (or until the terminal goes away)."""
        try:
            await self._run()
        except (BrokenPipeError, ConnectionResetError):
            return  # nobody is reading any more; what was sent is in the inbox

    async def _run(self) -> None:
        reminding = None
        if isinstance(self._engine, Reminding):  # reminders due while the console runs are printed as they fall due

            async def push(conversation: str, outcomes: Sequence[Outcome]) -> None:
                if conversation == self._key:
                    self._print("\n" + "\n".join(render(o) for o in outcomes))
                    self._out.write("> ")
                    self._out.flush()

            reminding = asyncio.create_task(self._engine.deliver_reminders("console", push))
        try:
            await self._chat()
        finally:
            if reminding is not None:
                reminding.cancel()
                await asyncio.gather(reminding, return_exceptions=True)

    async def _chat(self) -> None:
        self._print("Almanac — your training log. /help for commands, /quit to leave.")
        await self._resume_cut_off()
        # After a restart the open question is still there: show it.
        self._pending = await open_prompt(self._engine, self._key, self._key)
        if self._pending is not None:
            self._print("You left this open:\n" + render(self._pending))
        while True:
            self._out.write("> ")
            self._out.flush()
            line = await self._read()
            if line is None or (line.split() or [""])[0].lower() in ("/quit", "/exit", "/q") or _leaves(line):
                # "/quit now" or "/exit please" leave too: the command is the first word.
                self._print("bye")
                return
            if not visible(line):
                continue
            turn = self._turn_for(line)
            if isinstance(turn, str):
                self._print(turn)
                continue
            if turn is None:
                self._print(f"· Unknown command {line.split()[0]!r}. /help lists the commands.")
                continue
            await self._send(turn)

    async def _resume_cut_off(self) -> None:
        """Run, in order, the lines a crash or Ctrl-C cut off last time, and show the outcomes of those it
        finished but never showed (the engine gives a finished turn's outcomes back by its id)."""
        unshown: list[Turn] = []
        if isinstance(self._engine, DeliveryStore):
            for d in await self._engine.unfinished(self._key):
                try:
                    unshown.append(_TURN.validate_json(d.payload))
                except ValidationError:  # written by another version: nothing to show for it
                    await self._engine.finish(self._key, [d.id])
        interrupted = await self._engine.interrupted(self._key)
        known = {t.message_id for t in unshown}
        cut_off = [t for t in interrupted if t.message_id not in known]
        if interrupted or unshown:
            # Cut off mid-run, the turns run again; finished before the kill, their outcomes only show.
            self._print(RESUMING if interrupted else NOT_SHOWN)
        for turn in [*unshown, *cut_off]:
            self._print(
                "> "
                + (
                    turn.text
                    if isinstance(turn, Message)
                    else "(your answer)"
                    if isinstance(turn, Resume)
                    else f"/{turn.action}"
                )
            )
            await self._send(turn)


def _line_id() -> str:
    """An id per typed line: the engine runs a line once, and one cut off is found again by it."""
    return uuid.uuid4().hex
