"""Domains carry their own capabilities: labels, bout measures, import role, precedence, the fallback.

A new domain file is found (never listed in code) and what it says is used: rowing, below, is a
domain of bouts measured in metres with a pace per 500 m, and the facts over its entries say so.
"""

from __future__ import annotations

import ast
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from engine.agents.parser import parser_input
from engine.domains.registry import BUILTIN_DIR, DomainFileError, DomainRegistry, DomainSelector
from engine.entries.model import NewEntry
from engine.facts import compute_facts
from engine.facts.history import bout_facts
from engine.importers.notes import _domain_of
from engine.language.logs import read_log
from engine.outcomes import Answer
from engine.reading.message import log_words
from engine.store.bouts import BoutStore
from engine.store.db import Database
from engine.store.entries import EntryStore
from engine.store.history import EVER
from engine.turns import Message
from tests.conftest import OpenDb, OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts
from tests.helpers.domains import BUILTIN
from tests.helpers.entries import metrics

ROOT = Path(__file__).resolve().parents[3]
USER = "u1"

ROWING = """
name = "rowing"
description = "Indoor and on-water rowing (로잉, 조정)."
activity_type = "rowing"
precedence = 5
expertise = "Splits are written per 500 m."
response_rules = ["Name the dates of the rows you compare."]

[label]
en = "rowing"
ko = "로잉"

[bout]
noun = "row"
distance_unit = "m"
pace_unit = "min/500m"
pace_per = 500
pace_metric = "split_500m"

[vocabulary]
"rowing" = ["rowing", "row", "로잉", "조정"]

[[log_schema]]
name = "distance_m"
type = "number"
unit = "m"
"""


@pytest.fixture
def registry(tmp_path: Path) -> DomainRegistry:
    (tmp_path / "rowing.toml").write_text(ROWING, encoding="utf-8")
    return DomainRegistry.load(tmp_path)


def test_the_builtin_domains_say_what_they_can_do() -> None:
    registry = DomainRegistry.load()
    assert {"running", "swimming"} <= set(registry.bouts)
    running, swimming = registry.bouts["running"], registry.bouts["swimming"]
    assert (running.noun, running.distance_unit, running.pace_unit, running.pace_suffix) == (
        "run",
        "km",
        "min/km",
        "/km",
    )
    assert (swimming.noun, swimming.distance_unit, swimming.pace_suffix) == ("swim", "m", "/100m")
    assert registry.fallback == "general_fitness"
    assert registry.by_precedence[0] == "strength"
    assert registry.with_role("lifts") == ["strength"]
    assert registry.with_role("cardio") == ["running"]
    assert "nutrition" in registry.not_training
    assert registry.labels("ko")["running"] == "러닝"


def test_a_new_domain_file_is_found_with_its_capabilities(registry: DomainRegistry) -> None:
    assert "rowing" in registry.names
    assert "rowing" in registry.bouts  # found in the file, not listed anywhere in code
    assert registry.bouts["rowing"].pace_suffix == "/500m"
    assert registry.by_precedence[0] == "rowing"  # precedence 5 comes before strength's
    assert registry.labels("ko")["rowing"] == "로잉"
    assert registry.get("rowing").import_role == ""  # type: ignore[union-attr]  # never imported
    assert registry.fallback == "general_fitness"  # the built-in fallback still stands


def test_facts_over_a_new_domains_bouts_use_its_measures(registry: DomainRegistry) -> None:
    rows = [
        metrics(date(2026, 11, 2), "rowing", distance_m="2000", duration="8:00"),
        metrics(date(2026, 11, 5), "rowing", distance_m="5000", duration="21:40"),
    ]
    shown = {f.key: (f.label, f.display) for f in compute_facts(rows, today=date(2026, 11, 30), domains=registry)}
    assert shown["rowing.total_distance"][1] == "7000 m"
    assert shown["rowing.longest"][0].startswith("longest row")
    assert shown["rowing.best_pace"][1] == "2:00/500m"  # 2000 m in 8:00
    # Without the domain file, rowing is no domain of bouts: no distance facts.
    builtin = compute_facts(rows, today=date(2026, 11, 30), domains=BUILTIN)
    assert not any(k.startswith("rowing.total") for k in (f.key for f in builtin))


def test_code_reads_runs_and_swims_into_the_domains_that_say_so(registry: DomainRegistry) -> None:
    # Rowing is measured in metres and comes first by precedence, yet only the Parser reads its logs.
    words = log_words(registry, DomainSelector(registry).build_active_context(registry.names))
    assert (words.run_domain, words.swim_domain) == ("running", "swimming")
    today = date(2026, 11, 30)
    assert read_log("swam 1500m in 30:00", words, today).domain == "swimming"
    assert read_log("ran 5km in 25:30", words, today).domain == "running"


@pytest.fixture
async def db(open_db: OpenDb) -> AsyncIterator[Database]:
    database = await open_db()
    yield database
    await database.close()


async def add_rows(db: Database, domain: str = "rowing") -> None:
    """Two rows: 2000 m in 8:00 on 2026-11-02, 5000 m in 21:40 on 2026-11-05."""
    await EntryStore(db).add(
        USER,
        [
            NewEntry(
                occurred_on=date(2026, 11, d),
                domain=domain,
                activity_type=domain,
                summary="row",
                raw_text="row",
                source_key=f"row:{d}",
                data={
                    "metrics": [
                        {"name": "distance_m", "value": m, "unit": "m"},
                        {"name": "duration", "value": t, "unit": ""},
                    ]
                },
            )
            for d, m, t in ((2, "2000", "8:00"), (5, "5000", "21:40"))
        ],
    )


async def test_whole_history_bouts_of_a_new_domain(db: Database, registry: DomainRegistry) -> None:
    await add_rows(db)
    got = bout_facts(await BoutStore(db, registry).history(USER, "rowing"), EVER, registry)
    shown = {f.key: f.display for f in got}
    assert shown["rowing.all_time.count"] == "2 rows"
    assert shown["rowing.all_time.longest"] == "5000 m"
    assert shown["rowing.all_time.best_pace"] == "2:00/500m"


def test_only_one_domain_may_be_the_fallback(tmp_path: Path) -> None:
    extra = ROWING.replace("precedence = 5", "precedence = 5\nfallback = true")
    (tmp_path / "rowing.toml").write_text(extra, encoding="utf-8")
    with pytest.raises(DomainFileError, match="fallback"):
        DomainRegistry.load(tmp_path)


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    """String constants of a module, less documentation (a bare string) and ``__all__`` (names of functions)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            skip.update(id(n) for n in ast.walk(node.value))
    return [
        (n.lineno, n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
    ]


def test_no_domain_name_is_written_in_code() -> None:
    """A domain's name is a string of its own, or quoted inside one (SQL), only in domain files and tests."""
    names = set(DomainRegistry.load().names)
    found = []
    for folder in ("engine", "bot", "adapters"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, text in _strings(ast.parse(path.read_text(encoding="utf-8"))):
                if text in names or any(f"'{n}'" in text or f'"{n}"' in text for n in names):
                    found.append(f"{path.relative_to(ROOT)}:{line}: {text!r}")
    assert not found, "domain names belong in the domain files:\n" + "\n".join(found)


async def test_the_engine_names_a_domain_from_domains_dir_by_its_own_label(
    open_engine: OpenEngine, fake: FakeOllama, tmp_path: Path
) -> None:
    """A domain added through DOMAINS_DIR is the engine's own: a Korean answer names it by its label.

    Its vocabulary names the boat (``dragon boat``, 용선), its label the sport (용선 경기); a fact's
    subject is the domain, so the label is where the answer's Korean name comes from. The built-in
    domains, which code used to consult for labels, know no such domain: the answer said ``dragonboat``.
    """
    folder = tmp_path / "domains"
    folder.mkdir()
    boat = (
        ROWING.replace('name = "rowing"', 'name = "dragonboat"')
        .replace('activity_type = "rowing"', 'activity_type = "dragonboat"')
        .replace('ko = "로잉"', 'ko = "용선 경기"')
        .replace(
            '"rowing" = ["rowing", "row", "로잉", "조정"]', '"dragon boat" = ["dragon boat", "dragonboat", "용선"]'
        )
    )
    (folder / "dragonboat.toml").write_text(boat, encoding="utf-8")
    fake.default("RouterOutput", scripts.router("QUERY", ["dragonboat"]))
    fake.default("PlannerOutput", scripts.planner("retrieve", "date_range", 30, ["dragon boat"]))
    fake.default("AnalyzerOutput", scripts.analyzer("sufficient"))
    fake.default("SynthesizerOutput", scripts.claims(scripts.claim("record", "F1"), remark=""))
    async with open_engine(domains_dir=folder) as engine:
        await add_rows(engine.entries.db, "dragonboat")
        (answer,) = await engine.handle(
            Message(
                conversation=USER,
                user=USER,
                text="용선 역대 최장 거리 알려줘",
                at=datetime(2026, 11, 30, 1, tzinfo=UTC),
            )
        )
    assert isinstance(answer, Answer), answer
    assert "용선 경기 최장 거리" in answer.text, answer.text
    assert "dragonboat" not in answer.text.lower(), answer.text


def test_the_fallback_is_the_registrys_own(tmp_path: Path) -> None:
    """With DOMAINS_DIR making rowing the fallback, a log that names no domain goes to rowing.

    The Parser's input and a note nothing names read the fallback off the context's registry (they
    read the built-in domains', general_fitness, before).
    """
    plain = (
        (BUILTIN_DIR / "general_fitness.toml")
        .read_text(encoding="utf-8")
        .replace("fallback = true", "fallback = false")
    )
    (tmp_path / "general_fitness.toml").write_text(plain, encoding="utf-8")
    (tmp_path / "rowing.toml").write_text(ROWING.replace("precedence = 5", "precedence = 5\nfallback = true"), "utf-8")
    registry = DomainRegistry.load(tmp_path)
    assert registry.fallback == "rowing"
    nothing = DomainSelector(registry).build_active_context([])
    assert nothing.registry is registry
    assert parser_input(nothing, "did some stuff", date(2026, 11, 30)).domain == "rowing"
    assert _domain_of(["nothing known"], nothing) == "rowing"
