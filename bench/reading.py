"""How much of what people write code reads, and how many model calls a turn makes.

Run it from the repository root (a script, not a pytest test)::

    .venv/bin/python bench/reading.py [--show-misses] [--show-wrong] [--no-calls]

Part 1 reads the labelled corpus under ``tests/data/reading/`` (written in the
ways people write in gym chats and daily notes, English and Korean, with the
reading each line should get; "today" is 2026-11-25) with the same code the
engine runs (:func:`engine.reading.read_message`), no model anywhere:

* log lines (``logs.jsonl``): the share read completely by code, among those
  labelled readable, and the readings that are wrong: a line code called
  complete whose entries, sets, units, RPE or day differ from the label, or
  a line labelled unreadable (``expect: null``) that code stored anyway.
  Targets: read >= 85 %, wrong = 0.
* questions (``questions.jsonl``): the share planned in code among those
  labelled plannable, and how many of those have a period or terms other
  than the label's. Target: planned >= 80 %.

Part 2 runs ``bench/model_cost.py``'s scripted conversation on a realistic
month (real engine, fake Ollama) and prints the model calls per turn type.
Targets: a code-read LOG 0 calls, any LOG <= 1, a code-read QUERY <= 1
before the answer itself (the Synthesizer's call and its checks).

Exit code 0 when every target is met, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.domains.registry import DomainRegistry, DomainSelector  # noqa: E402
from engine.reading import read_message  # noqa: E402
from tests.helpers.reading import entries_of, expected_entries  # noqa: E402

TODAY = date(2026, 11, 25)
CORPUS = ROOT / "tests" / "data" / "reading"
TARGET_LOG_READ = 0.85
TARGET_QUESTIONS_PLANNED = 0.80
ANSWER_TITLES = {"SynthesizerOutput"}
"""Calls that write or check the answer itself (issue 21 takes these on)."""


@dataclass
class LogFigures:
    lines: int = 0
    readable: int = 0
    read: int = 0
    wrong: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)


@dataclass
class QuestionFigures:
    lines: int = 0
    plannable: int = 0
    planned: int = 0
    wrong_period: list[str] = field(default_factory=list)
    wrong_terms: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)


def read_logs(registry: DomainRegistry, everything: Any) -> LogFigures:
    figures = LogFigures()
    for line in (CORPUS / "logs.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        figures.lines += 1
        expect = case["expect"]
        figures.readable += expect is not None
        reading = read_message(case["text"], registry, everything, TODAY)
        complete = reading.kind == "log" and reading.log is not None and reading.log.complete and not reading.also_query
        if not complete:
            if expect is not None:
                figures.missed.append(f"{case['text']!r}  left: {reading.log.left if reading.log else reading.kind}")
            continue
        day = reading.log.day.on if reading.log.day is not None and reading.log.day.on != TODAY else None
        got = entries_of(reading)
        if expect is None:
            figures.wrong.append(f"{case['text']!r}: stored {got}, but the label says code must not read it alone")
        elif got != expected_entries(expect) or (day.isoformat() if day else None) != expect.get("date"):
            figures.wrong.append(f"{case['text']!r}: read {got} day={day}, expected {expect}")
        else:
            figures.read += 1
    return figures


def read_questions(registry: DomainRegistry, everything: Any) -> QuestionFigures:
    figures = QuestionFigures()
    for line in (CORPUS / "questions.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        figures.lines += 1
        expect = case["expect"]
        if not expect.get("code_plannable"):
            continue
        figures.plannable += 1
        reading = read_message(case["text"], registry, everything, TODAY)
        if reading.kind != "query" or not reading.planned or reading.shape is None:
            figures.missed.append(f"{case['text']!r} read as {reading.kind}")
            continue
        figures.planned += 1
        shape = reading.shape
        want = expect.get("period")
        if want == "all":
            ok = any(p.ever for p in shape.periods) and shape.period is None
        elif want:
            got = shape.period
            day = shape.date.on if shape.date is not None else None
            span = (got.start.isoformat(), got.end.isoformat()) if got else ((day.isoformat(),) * 2 if day else None)
            ok = span == (want["start"], want["end"])
        else:
            ok = shape.period is None and shape.date is None
        if not ok:
            figures.wrong_period.append(
                f"{case['text']!r}: periods {[(p.phrase, str(p.start), str(p.end)) for p in shape.periods]}"
                f" day {shape.date.phrase if shape.date else None}, expected {want}"
            )
        if set(shape.terms) != set(expect.get("terms") or []):
            figures.wrong_terms.append(f"{case['text']!r}: terms {shape.terms}, expected {expect.get('terms')}")
    return figures


def model_calls() -> dict[str, Any] | None:
    """Calls per turn type from ``bench/model_cost.py --json`` (the real engine on the fake model)."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "model_cost.py"), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    try:
        return json.loads(run.stdout)
    except json.JSONDecodeError:
        print(run.stdout[-2000:], run.stderr[-2000:], sep="\n")
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show-misses", action="store_true", help="list the lines code did not read")
    parser.add_argument("--show-wrong", action="store_true", help="list wrong readings (always shown when any)")
    parser.add_argument("--no-calls", action="store_true", help="skip part 2 (the engine run)")
    args = parser.parse_args()

    registry = DomainRegistry.load()
    everything = DomainSelector(registry).build_active_context(registry.names)
    logs = read_logs(registry, everything)
    questions = read_questions(registry, everything)
    met = True

    share = logs.read / logs.readable if logs.readable else 0.0
    print(f"log lines: {logs.lines} ({logs.readable} labelled readable by code)")
    print(f"  read completely by code: {logs.read} = {share:.1%}   target >= {TARGET_LOG_READ:.0%}")
    print(f"  wrong readings: {len(logs.wrong)}   target 0")
    met &= share >= TARGET_LOG_READ and not logs.wrong
    for w in logs.wrong:
        print(f"    WRONG {w}")
    if args.show_misses:
        for m in logs.missed:
            print(f"    not read: {m}")

    planned = questions.planned / questions.plannable if questions.plannable else 0.0
    print(f"questions: {questions.lines} ({questions.plannable} labelled plannable in code)")
    print(f"  planned in code: {questions.planned} = {planned:.1%}   target >= {TARGET_QUESTIONS_PLANNED:.0%}")
    print(
        f"  of those, period not the label's: {len(questions.wrong_period)}; terms not the label's: {len(questions.wrong_terms)}"
    )
    met &= planned >= TARGET_QUESTIONS_PLANNED
    if args.show_wrong:
        for w in [*questions.wrong_period, *questions.wrong_terms]:
            print(f"    {w}")
    if args.show_misses:
        for m in questions.missed:
            print(f"    not planned: {m}")

    if not args.no_calls:
        figures = model_calls()
        if figures is None:
            print("model calls: bench/model_cost.py failed (output above)")
            return 1
        print("model calls per turn (scripted conversation on a realistic month, fake model):")
        for kind in figures["kinds"]:
            # One entry per distinct sequence of calls a run of this kind made ("Router Parser").
            runs = [t.split() for t in kind["titles"] if t != "(none)"]
            kind["before"] = max(
                (len([t for t in run if t + "Output" not in ANSWER_TITLES]) for run in runs), default=0
            )
            print(
                f"  {kind['kind']:<20} calls max {kind['calls_max']}  before the answer {kind['before']}"
                f"  ({'; '.join(' '.join(r) for r in runs) or '-'})"
            )
        by = {k["kind"]: k for k in figures["kinds"]}
        checks = [
            ("code-read LOG makes 0 calls", by.get("LOG code-read", {}).get("calls_max", 0) == 0),
            ("any LOG makes <= 1 call", all(k["calls_max"] <= 1 for n, k in by.items() if n.startswith("LOG"))),
            (
                "a code-read QUERY makes <= 1 call before the answer",
                all(k["before"] <= 1 for n, k in by.items() if n.startswith("QUERY")),
            ),
        ]
        for label, ok in checks:
            print(f"  {'PASS' if ok else 'MISS'}  {label}")
            met &= ok
    print("all targets met" if met else "some targets missed")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
