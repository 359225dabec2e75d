"""Domains are data: the selector merges them; a new file needs no code."""

from __future__ import annotations

from pathlib import Path

import pytest
from structlog.testing import capture_logs

from engine.domains.registry import DomainFileError, DomainRegistry, DomainSelector

CLIMBING = """
name = "climbing"
description = "Bouldering and rope climbing (클라이밍, 볼더링)."
activity_type = "climbing"
expertise = "Grades: V-scale for boulders, YDS or French for routes."
response_rules = ["Name the grades you compare."]

[vocabulary]
"bouldering" = ["볼더링", "boulder", "bouldering"]

[[log_schema]]
name = "grade"
type = "string"

[[notation]]
pattern = "V<n>"
meaning = "boulder grade"
example = "sent V5 -> grade V5"

[[clarification_patterns]]
when = "no grade"
question = "What grade was it?"
options = ["V3", "V4", "V5"]
"""


def test_builtin_domains_load() -> None:
    registry = DomainRegistry.load()
    assert {"general_fitness", "nutrition", "running", "strength", "swimming"} <= set(registry.names)


def test_merged_context_has_every_part() -> None:
    selector = DomainSelector(DomainRegistry.load())
    ctx = selector.build_active_context(["strength", "running"])
    assert ctx.domains_loaded == ["strength", "running"]
    assert "[strength]" in ctx.expertise and "[running]" in ctx.expertise
    assert ctx.vocabulary.terms("벤치프레스 하고 5km 달리기")[0] == "bench press"
    assert set(ctx.log_schemas) == {"strength", "running"}
    assert ctx.units.canonical("키로") == "kg"
    assert len(ctx.response_rules) == len(selector.registry.get("strength").response_rules) + len(  # type: ignore[union-attr]
        selector.registry.get("running").response_rules  # type: ignore[union-attr]
    )


def test_unknown_domains_are_skipped_with_a_warning() -> None:
    selector = DomainSelector(DomainRegistry.load())
    with capture_logs() as logs:
        ctx = selector.build_active_context(["strength", "astrology", "strength"])
    assert ctx.domains_loaded == ["strength"]
    assert any(e["event"] == "domain.unknown" and e["domain"] == "astrology" for e in logs)
    assert selector.build_active_context(None).domains_loaded == []


def test_a_new_domain_file_needs_no_code(tmp_path: Path) -> None:
    (tmp_path / "climbing.toml").write_text(CLIMBING, encoding="utf-8")
    selector = DomainSelector(DomainRegistry.load(tmp_path))
    ctx = selector.build_active_context(["strength", "climbing"])
    assert ctx.domains_loaded == ["strength", "climbing"]
    assert ctx.vocabulary.terms("오늘 볼더링 V5") == ["bouldering"]
    assert "climbing: Bouldering" in selector.registry.describe()


def test_broken_domain_file_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "broken.toml").write_text('name = "broken"\n', encoding="utf-8")
    with pytest.raises(DomainFileError, match=r"broken\.toml"):
        DomainRegistry.load(tmp_path)
