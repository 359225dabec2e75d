"""The built-in domains, for tests of code that is handed a registry (the engine hands it its own)."""

from __future__ import annotations

from engine.domains.registry import builtin_registry

BUILTIN = builtin_registry()
