"""A plan's text by reference: the goal, steps, expected output and risks the
model writes for the person carry no numbers of their own.

They refer to facts, entries, the request's own values and articles by id
(``{F2}``, ``{Q1}``, ``{A3}``, ``{K1}``), checked like an answer (:mod:`engine.query.grounding`) and
rendered by code in the request's language. A value the person wrote may
also stand as written ("bench 100 kg by March" for "100kg by March"): it is
theirs (:mod:`engine.tasks.amounts`). A field that fails the check is
reported back to the model for its next round; whatever still fails when the
plan is shown is left out (a goal falls back to the request's own words) and
the plan says so. The numbers of a change live in its operation's fields,
which code checks and shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.agents.task_schemas import TaskFormationOutput
from engine.query.grounding import check_text
from engine.query.references import RefKind, RefTable
from engine.query.render import Language, render_text
from engine.tasks.amounts import without_own

_KINDS: tuple[RefKind, ...] = ("fact", "entry", "question", "article", "source")


def _fields(out: TaskFormationOutput) -> list[tuple[str, str]]:
    named = [("goal", out.goal), ("expected output", out.expected_output)]
    named += [(f"step {i}", s) for i, s in enumerate(out.steps, start=1)]
    named += [(f"risk {i}", r) for i, r in enumerate(out.risk_flags, start=1)]
    named += [(f"input {i}", x) for i, x in enumerate(out.inputs, start=1)]
    return [(name, text) for name, text in named if text.strip()]


def wording_problems(out: TaskFormationOutput, table: RefTable, request: str = "") -> list[str]:
    """What the model must fix in the plan's text, one line per field that states a value itself."""
    problems = []
    for name, text in _fields(out):
        report = check_text(without_own(text, table, request), table, kinds=_KINDS)
        if not report.ok:
            problems.append(f"{name}: {report.feedback()}")
    return problems


@dataclass(frozen=True, slots=True)
class Worded:
    fields: dict[str, Any]
    """goal, inputs, steps, tools_required, expected_output, risk_flags: rendered, failing text left out."""
    left_out: bool


def worded(out: TaskFormationOutput, table: RefTable, lang: Language, names: Mapping[str, str], request: str) -> Worded:
    """The plan's text as the person reads it (see the module docstring)."""
    left_out = False

    def keep(text: str) -> str | None:
        nonlocal left_out
        if not text.strip():
            return text
        report = check_text(without_own(text, table, request), table, kinds=_KINDS)
        if not report.ok:
            left_out = True
            return None
        return render_text(text, table, lang, names, report.attached)

    goal = keep(out.goal) if out.goal.strip() else None
    steps = [s for s in (keep(x) for x in out.steps) if s]
    risks = [r for r in (keep(x) for x in out.risk_flags) if r]
    expected = keep(out.expected_output) or ""
    fields: dict[str, Any] = dict(
        goal=goal or request.strip()[:120],
        inputs=[x for x in (keep(i) for i in out.inputs) if x],
        steps=steps,
        tools_required=out.tools_required,
        expected_output=expected,
        risk_flags=risks,
    )
    return Worded(fields, left_out)
