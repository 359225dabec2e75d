"""Floors: imports point down, never up (ARCHITECTURE.md §1, "Import direction").

Every ``import`` in ``engine/``, ``adapters/`` and ``bot/`` is read with ``ast`` (function-level and
``TYPE_CHECKING`` imports too: a type-only import upward is still a dependency upward). A module may
import its own floor or any floor below it. Known exceptions, as the tree stood when this test came,
are listed in ``KNOWN``; any new upward import fails, and so does an exception that no longer exists
(delete its line). Within a floor modules may import each other, but never in a circle
(`test_engine_modules_import_no_circle`).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FLOORS: list[tuple[str, ...]] = [
    # 0. Shapes and words every floor speaks: turns, outcomes, settings, errors, stored and agent-output
    #    models, every sentence. They import nothing but each other.
    (
        "engine.errors",
        "engine.config",
        "engine.knowledge.config",
        "engine.turns",
        "engine.outcomes",
        "engine.interrupts",
        "engine.boundary",
        "engine.texts",
        "engine.progress_texts",
        "engine.step_texts",
        "engine.entries.model",
        "engine.facts.model",
        "engine.tasks.model",
        "engine.knowledge.model",
        "engine.agents.schemas",
        "engine.agents.task_schemas",
        "engine.agents.budget",
        "engine.agents.context",
    ),
    # 1. Language (text, dates, periods, vocabulary, notation, the log reader) and entries (sets, summaries,
    #    corrections, the Strong format).
    ("engine.language", "engine.entries"),
    # 2. Domains: the domain files and their merged vocabularies.
    ("engine.domains",),
    # 3. Stores: entries in SQLite, the knowledge base.
    ("engine.store", "engine.knowledge"),
    # 4. What code computes over stored entries: exports, facts.
    ("engine.entries.export", "engine.facts"),
    # 5. Questions: their shapes, retrieval, claims, grounding, answers written by code; charts drawn by code.
    ("engine.query", "engine.charts", "engine.reminders", "engine.summary"),
    # 6. One reading of a message; task formation.
    ("engine.reading", "engine.tasks"),
    # 7. Agents: one model call each.
    ("engine.agents",),
    # 8. Importers (notes are read by the Parser agent).
    ("engine.importers",),
    # 9. The graph, and the plumbing around it: locks, threads, failures, intake, repeats.
    ("engine.graph", "engine.runtime"),
    # 10. The turn core: dispatch, admission, the runner, the backlog, the commands (never the engine).
    ("engine.conversation",),
    # 11. Assembly, then the engine, the logbook (the offline front door) and the public API.
    ("engine.assembly",),
    ("engine.engine", "engine.logbook", "engine"),
]

KNOWN: set[tuple[str, str]] = set()

BOT_DOORS = ("engine", "engine.config", "engine.logbook")
"""What bot/ may import of the engine: the front doors (``Engine``, ``Logbook`` and their types), the settings."""
BOT_KNOWN: set[tuple[str, str]] = set()

PLATFORM_LIBRARIES = ("telegram", "slack_bolt", "slack_sdk")
ADAPTERS = ("adapters.telegram", "adapters.slack", "adapters.console")


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _exists(module: str) -> bool:
    base = ROOT.joinpath(*module.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imports(package: str) -> list[tuple[str, str]]:
    """Every (importing module, imported module) under ``package``, relative imports resolved."""
    found: list[tuple[str, str]] = []
    for path in sorted((ROOT / package).rglob("*.py")):
        module = _module(path)
        here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.extend((module, alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # `from ..query import b` inside engine/language/a.py: engine.query
                    base = ".".join([*here[: len(here) - node.level + 1], base]).strip(".")
                # `from engine import texts` imports the module engine.texts, not the package.
                found.extend((module, f"{base}.{a.name}" if _exists(f"{base}.{a.name}") else base) for a in node.names)
    return found


def floor(module: str) -> int:
    """The floor of an engine module: its longest listed prefix."""
    best, level = -1, -1
    for n, prefixes in enumerate(FLOORS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, level = len(prefix), n
    assert level >= 0, f"{module} is on no floor: add it to FLOORS"
    return level


def _upward() -> set[tuple[str, str]]:
    return {
        (source, target)
        for source, target in imports("engine")
        if target.split(".")[0] == "engine" and floor(target) > floor(source)
    }


def test_engine_imports_point_down() -> None:
    new = sorted(_upward() - KNOWN)
    assert not new, "upward imports (move the code down, or the import up):\n" + "\n".join(
        f"{s} -> {t}" for s, t in new
    )


def test_known_exceptions_still_exist() -> None:
    gone = sorted(KNOWN - _upward())
    assert not gone, "fixed, so delete from KNOWN:\n" + "\n".join(f"{s} -> {t}" for s, t in gone)


def test_engine_imports_no_adapter_bot_or_chat_library() -> None:
    bad = [(s, t) for s, t in imports("engine") if t.split(".")[0] in ("adapters", "bot", *PLATFORM_LIBRARIES)]
    assert not bad, bad


def test_adapters_import_the_engine_api_and_no_other_adapter() -> None:
    bad = []
    for source, target in imports("adapters"):
        top = target.split(".")[0]
        if top == "bot" or (top == "engine" and target != "engine"):
            bad.append((source, target))  # the bot wires adapters; engine internals may move
        own = next((a for a in ADAPTERS if source == a or source.startswith(a + ".")), None)
        other = next((a for a in ADAPTERS if target == a or target.startswith(a + ".")), None)
        if other is not None and other != own:
            bad.append((source, target))  # one adapter never imports another
        if source.startswith("adapters.common") and (other is not None or top in PLATFORM_LIBRARIES):
            bad.append((source, target))  # common is shared, so it holds no platform
    assert not bad, bad


def test_bot_imports_the_engine_front_doors_only() -> None:
    inner = {(s, t) for s, t in imports("bot") if t.split(".")[0] == "engine" and t not in BOT_DOORS}
    assert not inner - BOT_KNOWN, "bot/ reaches inside the engine (use engine.Engine or engine.Logbook):\n" + "\n".join(
        f"{s} -> {t}" for s, t in sorted(inner - BOT_KNOWN)
    )
    assert not BOT_KNOWN - inner, f"fixed, so delete from BOT_KNOWN: {sorted(BOT_KNOWN - inner)}"


def test_every_engine_module_is_on_a_floor() -> None:
    for path in (ROOT / "engine").rglob("*.py"):
        floor(_module(path))


SLACK_PROCESSES = ("adapters.slack.worker", "adapters.slack.gateway")
"""Slack's two processes, a package each; the other modules of ``adapters/slack/`` are shared by both."""


def test_slack_worker_and_gateway_import_only_shared_modules_of_each_other() -> None:
    """The folder tells which process a file runs in: neither process's package imports the other's,
    and the shared modules (and the protocol between them) import neither."""
    bad = []
    for source, target in imports("adapters/slack"):
        if not target.startswith("adapters.slack"):
            continue
        home = next((p for p in SLACK_PROCESSES if source == p or source.startswith(p + ".")), None)
        there = next((p for p in SLACK_PROCESSES if target == p or target.startswith(p + ".")), None)
        if source == "adapters.slack" and there == "adapters.slack.worker":
            continue  # the package's public names (serve, SlackAdapter, …) are the worker's
        if there is not None and there != home:
            bad.append((source, target))
    assert not bad, bad


def _package_of(module: str) -> str:
    """A module's package: imports of ``engine.graph`` and of ``engine.graph.state`` are both arrows into it."""
    return module if (ROOT.joinpath(*module.split(".")) / "__init__.py").is_file() else module.rsplit(".", 1)[0]


def circles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan), each sorted: each holds a circle."""
    graph: dict[str, set[str]] = defaultdict(set)
    for source, target in edges:
        if source != target:
            graph[source].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(set(graph)):
        if node not in index:
            visit(node)
    return found


def test_circles_are_found() -> None:
    edges = {("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")}
    assert circles(edges) == [["a", "b", "c"]]
    assert circles({("a", "b"), ("b", "c")}) == []


def test_engine_modules_import_no_circle() -> None:
    """Module to module, function-level and ``TYPE_CHECKING`` imports included (``engine`` itself, the
    front door that loads ``engine.engine`` lazily, is left out: nothing inside imports it back)."""
    edges = {
        (source, target)
        for source, target in imports("engine")
        if target.split(".")[0] == "engine"
        and _exists(target)
        and "engine" not in (source, target)
        and not source.endswith("__init__")
        and target != _package_of(source)
    }
    found = circles(edges)
    assert not found, "import circles (hand a function in instead of importing it back):\n" + "\n".join(
        " <-> ".join(c) for c in found
    )
