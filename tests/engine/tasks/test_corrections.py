"""Issue 11: corrections take effect (the sets behind the numbers change) or say why not."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from engine.engine import Engine
from engine.entries.corrections import correct, read_value
from engine.facts import compute_facts, facts_text
from engine.outcomes import Answer, ApprovalRequest, Ask, Logged, Notice
from engine.tasks.model import Patch, PatchOp
from engine.turns import ApprovalDecision, Control, Message, Resume
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts
from tests.helpers.domains import BUILTIN
from tests.helpers.outcomes import after_closing

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


CONV = USER = "console:choi"
NOW = datetime(2026, 11, 22, 1, 0, tzinfo=timezone.utc)  # Sunday 10:00 in Seoul
TODAY = date(2026, 11, 22)


def say(text: str) -> Message:
    return Message(conversation=CONV, user=USER, text=text, at=NOW)


def approve(req: ApprovalRequest) -> Resume:
    return Resume(
        conversation=CONV, user=USER, interrupt_id=req.interrupt_id, answer=ApprovalDecision(decision="approve"), at=NOW
    )


async def ask_correction(engine: Engine, fake: FakeOllama, op: dict[str, object], text: str) -> list[object]:
    await engine.entries.add(USER, [scripts.bench_entry(TODAY, 55, source_key="seed")])
    fake.script(scripts.router("CORRECTION", ["strength"]))
    fake.script(scripts.former(goal="Fix today's bench", operations=[op], steps=["Correct it"]))
    return list(await engine.handle(say(text)))


async def latest(engine: Engine) -> dict[str, object]:
    (entry,) = await engine.entries.recent(USER, limit=1)
    facts = facts_text(compute_facts([entry], today=TODAY, domains=BUILTIN))
    return {"summary": entry.summary, "data": entry.data, "facts": facts}


async def test_four_sets_not_five_changes_the_sets_behind_the_count(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        (req,) = await ask_correction(engine, fake, scripts.op_correct("5", "4", field="sets"), "4 sets, not 5")
        assert isinstance(req, ApprovalRequest)
        # The plan names the entry and the set that goes.
        assert (
            "correct bench press sets: 5 → 4 in 2026-11-22 · bench press 55 kg × 10 reps × 5 sets: bench press set 5"
            in req.summary
        )
        before = await latest(engine)
        out = after_closing(await engine.handle(approve(req)), req, "Approved")
        after = await latest(engine)
    assert isinstance(out[-1], Notice) and out[-1].code == "committed"
    # Before: confirmed as "✓ logged", as if a new entry had been added.
    assert isinstance(out[0], Logged) and [e.action for e in out[0].entries] == ["corrected"]
    (ex,) = after["data"]["exercises"]  # type: ignore[index]
    # Before: "sets" said 4 while five set details (and the summary, volume, facts) stayed.
    assert ex["sets"] == 4 and len(ex["set_details"]) == 4
    assert after["summary"] == "bench press 55 kg × 10 reps × 4 sets"
    assert "2,750 kg" in str(before["facts"]) or "2750" in str(before["facts"])
    assert "2,200 kg" in str(after["facts"]) or "2200" in str(after["facts"])


async def test_values_with_units_are_understood(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        (req,) = await ask_correction(engine, fake, scripts.op_correct("55 kg", "60 kg"), "55 kg → 60 kg")
        assert isinstance(req, ApprovalRequest) and "bench press sets 1–5" in req.summary
        await engine.handle(approve(req))
        after = await latest(engine)
        # Before: shown for approval, then matched no set ("55 kg" is no number) and said "Done".
        assert after["summary"] == "bench press 60 kg × 10 reps × 5 sets"
        (undo,) = await engine.handle(Control(conversation=CONV, user=USER, action="undo"))
    assert isinstance(undo, Notice) and undo.text == (
        "Reverted: 2026-11-22 bench press 60 kg × 10 reps × 5 sets back to bench press 55 kg × 10 reps × 5 sets."
    )


async def test_no_old_value_corrects_every_set_without_crashing(open_engine: OpenEngine, fake: FakeOllama) -> None:
    op = {"op": "correct_entry", "exercise": "bench press", "field": "weight", "old_value": None, "new_value": "60kg"}
    async with open_engine() as engine:
        (req,) = await ask_correction(engine, fake, op, "the bench was 60kg")
        assert isinstance(req, ApprovalRequest) and "weight: as logged → 60kg" in req.summary
        out = await engine.handle(approve(req))
        assert isinstance(out[-1], Notice) and out[-1].code == "committed"  # before: a crash in the commit
        assert (await latest(engine))["summary"] == "bench press 60 kg × 10 reps × 5 sets"


async def test_a_correction_that_matches_nothing_is_not_offered(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        out = await ask_correction(engine, fake, scripts.op_correct("50", "60"), "it was 60 not 50")
        assert not any(isinstance(o, ApprovalRequest) for o in out)
        shown = " ".join(o.text for o in out if isinstance(o, (Answer, Notice))) + " ".join(
            q.text for o in out if isinstance(o, Ask) for q in o.questions
        )
        assert "bench press with weight 50" in shown
        assert (await latest(engine))["summary"] == "bench press 55 kg × 10 reps × 5 sets"


async def test_done_only_when_something_changed(open_engine: OpenEngine, fake: FakeOllama) -> None:
    async with open_engine() as engine:
        (req,) = await ask_correction(engine, fake, scripts.op_correct("55", "60"), "that was 60kg, not 55")
        assert isinstance(req, ApprovalRequest)
        # The same change lands first some other way (another plan approved meanwhile).
        (seeded,) = await engine.entries.recent(USER)
        op = PatchOp(op="correct_entry", domain="strength", exercise="bench press", entry_id=seeded.entry_id,
                     field="weight", old_value="55", new_value="60")  # fmt: skip
        await engine.patches.commit(USER, CONV, Patch(patch_id="p-other", ops=[op]))
        out = await engine.handle(approve(req))
        notice = out[-1]
        assert isinstance(notice, Notice) and notice.code == "unchanged" and notice.text.startswith("Nothing changed")
        (undo,) = await engine.handle(Control(conversation=CONV, user=USER, action="undo"))
        # The undo reverts the change that was made, not the plan that changed nothing.
        assert isinstance(undo, Notice) and "back to bench press 55 kg" in undo.text


def test_correct_reads_units_arrows_and_failed_attempts() -> None:
    assert str(read_value("55 kg → 60 kg")) == "60 kg" and str(read_value("55 kg → 60 kg", before=True)) == "55 kg"
    assert str(read_value("132 lbs")) == "132 lb" and str(read_value("4 sets")) == "4" and read_value("lots") is None
    data = {"exercises": [{"name": "squat", "sets": 2, "weight_unit": "kg", "set_details": [
        {"set_num": 1, "weight": 140.0, "reps": 5}, {"set_num": 2, "weight": 150.0, "reps": 0, "kind": "failure"}]}]}  # fmt: skip
    fix = correct(data, "squat", "reps", "0", "1")
    assert fix.which_sets() == "squat set 2" and fix.data["exercises"][0]["set_details"][1] == {
        "set_num": 2,
        "weight": 150.0,
        "reps": 1,
    }  # made after all: no longer a failure
    assert data["exercises"][0]["set_details"][1]["reps"] == 0  # the original is untouched
    more = correct(data, "squat", "sets", None, "3")
    assert more.which_sets() == "squat set 3" and len(more.data["exercises"][0]["set_details"]) == 3
    in_lb = correct(data, "squat", "weight", "140", "300 lb")
    assert in_lb.data["exercises"][0]["set_details"][0]["weight"] == 136.08  # converted into the entry's kg
