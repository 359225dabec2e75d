"""The engine says what happened, in a person's words (issue 22, "say what happened"): /forget counts
entries, not their stored versions ("deleted 3 entries" for 2 before; "1 entries"); /history shows no
internal ids (patch ids, user keys)."""

from __future__ import annotations

import pytest

from engine.entries.model import NewEntry
from engine.outcomes import Notice
from engine.turns import Control, Message
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama

CONV = USER = "console:kim"


async def test_forget_counts_entries_not_their_versions(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        await engine.handle(Message(conversation=CONV, user=USER, text="bench 55kg 10x5"))
        entry = (await engine.entries.recent(USER, limit=1))[0]
        # A correction keeps the earlier version, superseded: one entry, two rows.
        corrected = NewEntry(
            occurred_on=entry.occurred_on,
            domain=entry.domain,
            activity_type=entry.activity_type,
            summary="bench press 60 kg × 10 reps × 5 sets",
            data=entry.data,
            raw_text=entry.raw_text,
            terms=list(entry.terms),
            source_key="test:correction",
        )
        await engine.entries.supersede(USER, entry.entry_id, corrected)
        await engine.handle(Message(conversation=CONV, user=USER, text="squat 100kg 5x5"))
        (done,) = await engine.handle(Control(conversation=CONV, user=USER, action="forget"))
    assert isinstance(done, Notice)
    assert done.text.startswith("Done: deleted 2 entries"), done.text


@pytest.mark.parametrize(("count", "words"), [(1, "deleted 1 entry "), (0, "deleted 0 entries ")])
def test_forget_says_entry_for_one(count: int, words: str) -> None:
    from engine import texts

    assert words in texts.forgotten(count, with_conversation=True)


def test_history_shows_what_happened_without_internal_ids() -> None:
    from engine import texts

    lines = [
        texts.history_line("2026-11-25T10:00:00", "DECISION", "approve by tg:123456"),
        texts.history_line("2026-11-25T10:00:05", "COMMITTED", "p0123456789abcdef0123: 8 changes"),
        texts.history_line("2026-11-25T10:01:00", "UNDONE", "p0123456789abcdef0123"),
        texts.history_line("2026-11-25T10:02:00", "DECISION", "revise by slack:T1:U2: lighter weeks please"),
    ]
    assert lines == [
        "2026-11-25 10:00 approved",
        "2026-11-25 10:00 carried out: 8 changes",
        "2026-11-25 10:01 undone",
        "2026-11-25 10:02 asked to revise: lighter weeks please",
    ]
