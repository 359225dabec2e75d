"""Strong's exercise and unit names mapped to canonical vocabulary terms."""

from __future__ import annotations

import re
from typing import Literal

from engine.domains.registry import DomainRegistry, DomainSelector
from engine.language.vocab import Vocabulary

WeightUnit = Literal["kg", "lb"]

_KM_PER_UNIT = {"km": 1.0, "mi": 1.609344, "m": 0.001}
_EQUIPMENT = re.compile(r"^(?P<base>.*?)\s*[(（](?P<equipment>[^()（）]*)[)）]\s*$")


class ExerciseNamer:
    """Maps Strong exercise names to canonical vocabulary terms and tells cardio apart.

    Args:
        vocabulary: Exercise spellings (strength first, so it wins clashes).
        units: Unit spellings (``lbs`` -> ``lb``, ``miles`` -> ``mi``).
        running_terms: Canonical terms of the running domain.
        fitness_terms: Canonical terms of the general-fitness domain (cycling, rowing, …).
    """

    def __init__(
        self,
        vocabulary: Vocabulary,
        units: Vocabulary,
        running_terms: frozenset[str] = frozenset(),
        fitness_terms: frozenset[str] = frozenset(),
    ) -> None:
        self.vocabulary = vocabulary
        self.units = units
        self.running_terms = running_terms
        self.fitness_terms = fitness_terms - running_terms
        self._cache: dict[str, str | None] = {}

    @classmethod
    def from_registry(cls, registry: DomainRegistry) -> ExerciseNamer:
        """Vocabulary of the strength, running and general-fitness domains (strength wins clashes)."""
        ctx = DomainSelector(registry).build_active_context(["strength", "running", "general_fitness"])
        strength = registry.get("strength")
        running = registry.get("running")
        fitness = registry.get("general_fitness")
        lifts = frozenset(strength.vocabulary) if strength else frozenset()
        return cls(
            ctx.vocabulary,
            ctx.units,
            running_terms=frozenset(running.vocabulary) - lifts if running else frozenset(),
            fitness_terms=frozenset(fitness.vocabulary) - lifts if fitness else frozenset(),
        )

    def canonical(self, name: str) -> str | None:
        """``Bench Press (Dumbbell)``: the full name, then ``Dumbbell Bench Press``, then ``Bench Press``."""
        if name in self._cache:
            return self._cache[name]
        found = self.vocabulary.canonical(name)
        if found is None and (m := _EQUIPMENT.match(name)):
            base, equipment = m["base"].strip(), m["equipment"].strip()
            if base:
                found = (self.vocabulary.canonical(f"{equipment} {base}") if equipment else None) or (
                    self.vocabulary.canonical(base)
                )
        self._cache[name] = found
        return found

    def base_name(self, name: str) -> str:
        m = _EQUIPMENT.match(name)
        return m["base"].strip() if m and m["base"].strip() else name

    def weight_unit(self, text: str) -> WeightUnit | None:
        unit = self.units.canonical(text)
        if unit == "kg":
            return "kg"
        if unit == "lb":
            return "lb"
        return None

    def distance_unit(self, text: str) -> str | None:
        unit = self.units.canonical(text)
        return unit if unit in _KM_PER_UNIT else None
