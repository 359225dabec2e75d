"""Evidence that is checked in code, the plan's text by reference, the loop's deadline and what it may read."""

from __future__ import annotations

import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

from engine.agents.task_schemas import ProposedAssumption
from engine.domains.registry import BUILTIN_DIR, DomainRegistry, DomainSelector
from engine.engine import Engine
from engine.facts import compute_facts
from engine.outcomes import Answer, ApprovalRequest, Ask
from engine.query.references import RefTable, build_table
from engine.tasks.evidence import add_rule_lines, check_evidence
from tests.conftest import OpenEngine, engine_config
from tests.engine.tasks.test_task_flow import PLAN_REQUEST, TODAY, WEEK, say, seed
from tests.fakes.ollama_server import Delay, FakeOllama
from tests.helpers import scripts
from tests.helpers.domains import BUILTIN

NOW = datetime(2026, 11, 22, 1, 0, tzinfo=timezone.utc)
CTX = DomainSelector(DomainRegistry.load()).build_active_context(["strength"])


def entries() -> list:  # type: ignore[type-arg]
    from tests.helpers.entries import lift, strength

    return [
        strength(TODAY - timedelta(days=7), lift("bench press", "kg", [(52.5, 10)] * 5), key="a"),
        strength(TODAY, lift("bench press", "kg", [(55, 10)] * 5), key="b"),
    ]


def judge(claim: str, source: str = "", status: str = "validated", readable: bool = True) -> tuple[str, list[str], str]:
    logged = entries()
    facts = compute_facts(logged, today=TODAY, domains=BUILTIN)
    table = build_table(facts, logged)
    add_rule_lines(table, CTX)
    proposed = ProposedAssumption(claim=claim, source=source, status=status)  # type: ignore[arg-type]
    (ev,) = check_evidence(
        [proposed],
        table=table,
        entries=logged if readable else [],
        facts=facts if readable else [],
        ctx=CTX,
        subjects=["bench press"],
        now=NOW,
    )
    return ev.status, [s.title for s in ev.sources], ev.notes


def rule(word: str) -> str:
    table = RefTable()
    add_rule_lines(table, CTX)
    return next(r.id for r in table.refs if word in r.text)


def test_a_number_about_their_data_must_match_it() -> None:
    status, sources, _ = judge("current working weight is 55 kg", "2026-11-22")
    assert status == "validated" and sources[0].startswith("2026-11-22 · ")
    status, sources, notes = judge("your working weight is 140 kg", "2026-11-22")
    assert status == "conflicting" and "your log says otherwise: bench press 55 kg on 2026-11-22" in notes
    status, _, _ = judge("you benched 53 kg last week")  # 52.5 rounds to 53 at the claim's precision
    assert status == "validated"
    status, sources, _ = judge("your best estimated 1RM is 73.3 kg", "F3")
    assert status == "validated" and any("estimated 1RM" in s for s in sources)


def test_domain_claims_name_the_line_they_rest_on() -> None:
    status, _, notes = judge("deloads help after a stall", "domain")
    assert status == "unresolved" and notes == "no expertise or rule line named"
    status, sources, _ = judge("deloads help after a stall", rule("deload"))
    assert status == "validated" and "deload" in sources[0]  # the line itself is the evidence shown
    status, _, _ = judge("add about 2.5 kg upper body", rule("2.5 kg"))
    assert status == "validated"
    status, _, _ = judge("add 10 kg a week", rule("2.5 kg"))
    assert status == "unresolved"  # that number is not in the line cited


def test_code_never_raises_the_models_status_and_reads_only_what_it_may() -> None:
    assert judge("current working weight is 55 kg", "2026-11-22", status="unresolved")[0] == "unresolved"
    assert judge("current working weight is 55 kg", "2026-11-22", readable=False)[0] == "unresolved"
    assert judge("you did squats that day", "2026-11-22")[0] == "unresolved"  # the entry has no squat


async def test_a_claim_the_log_contradicts_never_goes_up_for_approval(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    wrong = scripts.former(
        operations=[scripts.op_plan(d) for d in WEEK],
        assumptions=[scripts.assumption("your working weight is 140 kg", source=TODAY.isoformat())],
    )
    fake.script(scripts.router("TASK", ["strength"]))
    fake.default("TaskFormationOutput", wrong)
    async with open_engine() as engine:
        await seed(engine)
        (out,) = await engine.handle(say(PLAN_REQUEST))
    assert isinstance(out, Ask) and "140 kg" in out.questions[0].text


async def test_plan_text_states_no_numbers_of_its_own(open_engine: OpenEngine, fake: FakeOllama) -> None:
    raw = scripts.former(
        goal="Bench 140 kg for 5",
        operations=[scripts.op_plan(WEEK[0], weight=57.5)],
        assumptions=[scripts.assumption("current working weight is 55 kg", source="2026-11-22")],
    )
    by_reference = raw.model_copy(update={"goal": "Bench {Q1} for {Q2}"})
    fake.script(scripts.router("TASK", ["strength"]))
    fake.script(raw, by_reference)
    async with open_engine() as engine:
        await seed(engine)
        (req,) = await engine.handle(say(PLAN_REQUEST))
    assert isinstance(req, ApprovalRequest) and req.title == "Bench 70 kg for 5"
    second = str(fake.calls("TaskFormationOutput")[1]["messages"][1]["content"])
    assert "goal: You wrote numbers yourself (“140”" in second
    assert "Q1: a value the person wrote = 70 kg" in second


def domains_with(tmp_path: Path, old: str, new: str) -> Path:
    domains = tmp_path / "domains"
    domains.mkdir()
    text = (BUILTIN_DIR / "strength.toml").read_text(encoding="utf-8")
    assert old in text
    (domains / "strength.toml").write_text(text.replace(old, new), encoding="utf-8")
    shutil.copytree(BUILTIN_DIR / "strength", domains / "strength")
    return domains


async def test_max_time_ms_is_a_deadline_on_the_whole_loop(tmp_path: Path, fake: FakeOllama) -> None:
    domains = domains_with(tmp_path, "max_time_ms = 90000", "max_time_ms = 1000")
    fake.script(scripts.router("TASK", ["strength"]))
    fake.default("TaskFormationOutput", Delay(20, scripts.good_plan()))
    async with Engine.open(engine_config(tmp_path / "data", fake, domains_dir=domains, timeout_s=60)) as engine:
        await seed(engine)
        (out,) = await engine.handle(say(PLAN_REQUEST))
    assert isinstance(out, Answer) and out.partial
    assert out.text.startswith("Planning took longer than its 1 s budget, so I stopped; nothing was changed.")
    assert len(fake.calls("TaskFormationOutput")) == 1  # the slow call was cancelled, not waited for


async def test_investigation_tools_decide_what_the_loop_reads(tmp_path: Path, fake: FakeOllama) -> None:
    domains = domains_with(
        tmp_path,
        'investigation_tools = ["entries", "facts", "expertise", "knowledge"]',
        'investigation_tools = ["expertise"]',
    )
    fake.script(scripts.router("TASK", ["strength"]))
    fake.default(scripts.good_plan())
    async with Engine.open(engine_config(tmp_path / "data", fake, domains_dir=domains)) as engine:
        await seed(engine)
        (out,) = await engine.handle(say(PLAN_REQUEST))
    prompt = fake.calls("TaskFormationOutput")[0]["messages"]
    assert "E1:" not in prompt[1]["content"] and "F1:" not in prompt[1]["content"]
    assert "R1:" in prompt[0]["content"]
    # Its claim rests on an entry it may not read: nothing goes up for approval.
    assert isinstance(out, Ask)
