"""Exercise and unit names of app exports mapped to canonical vocabulary terms.

Strong and Hevy name an exercise ``Base (Equipment)``: ``Bench Press
(Dumbbell)``, ``Bent Over Row (Barbell)``, ``Lat Pulldown (Cable)``. An
equipment variant is its own canonical exercise (``dumbbell bench press``, not
``bench press``), so the equipment is never simply dropped: the name is looked
up whole, then as ``Dumbbell Bench Press`` and ``Bench Press Dumbbell``, and
only then as the bare base, when the equipment does not make a different
exercise (barbell, bodyweight, machine; a treadmill run is still a run) or
the base exercise is itself done with it (``Lat Pulldown (Cable)``). A name
that stays unknown is kept as its own canonical term (:func:`normalize_name`)
rather than folded into a different exercise.
"""

from __future__ import annotations

import re
from typing import Literal

from engine.domains.model import Bout
from engine.domains.registry import DomainRegistry, DomainSelector
from engine.language.families import Families
from engine.language.vocab import Vocabulary, normalize_name

WeightUnit = Literal["kg", "lb"]

_KM_PER_UNIT = {"km": 1.0, "mi": 1.609344, "m": 0.001}
_EQUIPMENT = re.compile(r"^(?P<base>.*?)\s*[(（](?P<equipment>[^()（）]*)[)）]\s*$")
# Equipment that makes a different exercise of the same movement; a bare base
# name stands for its default equipment (usually the barbell), never for these.
_DISTINCT_EQUIPMENT = (
    "dumbbell",
    "cable",
    "band",
    "kettlebell",
    "smith",
    "ez bar",
    "ez-bar",
    "trap bar",
    "hex bar",
    "plate",
    "landmine",
    "suspension",
    "trx",
    "덤벨",
    "케이블",
    "밴드",
    "케틀벨",
    "스미스",
    "이지바",
    "트랩바",
    "원판",
)
# Exact catalog names too ambiguous in chat to be vocabulary spellings ("ate clean").
_CATALOG_ALIASES = {"clean": "squat clean"}


class ExerciseNamer:
    """Maps Strong exercise names to canonical vocabulary terms and tells cardio apart.

    Args:
        vocabulary: Exercise spellings (strength first, so it wins clashes).
        units: Unit spellings (``lbs`` -> ``lb``, ``miles`` -> ``mi``).
        cardio_terms: Canonical terms of the cardio domain (``import_role = "cardio"``: runs).
        activity_terms: Canonical terms of the other activity domains (cycling, rowing, swimming, …).
        families: Movement families; a base exercise whose family's plain form is done with
            the named equipment (``Lat Pulldown - Close Grip (Cable)``) keeps its name.
        lift_domain: Where a workout with lifts is stored (``import_role = "lifts"``).
        cardio_domain: Where a workout of the cardio domain's bouts alone is stored.
        cardio_bout: The cardio domain's bout measures (its pace), when it has them.
        fallback_domain: Where a workout of other activities is stored.
    """

    def __init__(
        self,
        vocabulary: Vocabulary,
        units: Vocabulary,
        cardio_terms: frozenset[str] = frozenset(),
        activity_terms: frozenset[str] = frozenset(),
        families: Families | None = None,
        *,
        lift_domain: str = "",
        cardio_domain: str = "",
        cardio_bout: Bout | None = None,
        fallback_domain: str = "",
    ) -> None:
        self.vocabulary = vocabulary
        self.families = families or Families({})
        self.units = units
        self.cardio_terms = cardio_terms
        self.activity_terms = activity_terms - cardio_terms
        self.lift_domain = lift_domain
        self.cardio_domain = cardio_domain
        self.cardio_bout = cardio_bout
        self.fallback_domain = fallback_domain
        self._cache: dict[str, str | None] = {}

    @classmethod
    def from_registry(cls, registry: DomainRegistry) -> ExerciseNamer:
        """Vocabulary of the domains with an import role: lifts first (they win clashes), then cardio, then the
        fallback domain (where other activities are stored, so its spellings win theirs: 사이클 is cycling),
        then the other activity domains; each by precedence.
        """
        lifts, cardio, activity = (registry.with_role(r) for r in ("lifts", "cardio", "activity"))
        fallback = [n for n in activity if n == registry.fallback]
        names = [*lifts, *cardio, *fallback, *(n for n in activity if n not in fallback)]
        ctx = DomainSelector(registry).build_active_context(names)

        def terms(names: list[str]) -> frozenset[str]:
            return frozenset(t for n in names if (d := registry.get(n)) for t in d.vocabulary)

        lift_terms = terms(lifts)
        runs = registry.get(cardio[0]) if cardio else None
        return cls(
            ctx.vocabulary,
            ctx.units,
            cardio_terms=terms(cardio[:1]) - lift_terms,
            activity_terms=terms([*cardio[1:], *activity]) - lift_terms,
            families=ctx.families,
            lift_domain=lifts[0] if lifts else "",
            cardio_domain=runs.name if runs else "",
            cardio_bout=runs.bout if runs else None,
            fallback_domain=registry.fallback or "",
        )

    def canonical(self, name: str) -> str | None:
        """``Bench Press (Dumbbell)``: the full name, ``Dumbbell Bench Press``, ``Bench Press Dumbbell``, then the base.

        Returns:
            The canonical term, or None when the name (or its equipment) is unknown.
        """
        if name in self._cache:
            return self._cache[name]
        found = self.vocabulary.canonical(name) or _CATALOG_ALIASES.get(normalize_name(name))
        if found is None and (m := _EQUIPMENT.match(name)):
            base, equipment = m["base"].strip(), m["equipment"].strip()
            if base:
                found = self._with_equipment(base, equipment)
        self._cache[name] = found
        return found

    def _with_equipment(self, base: str, equipment: str) -> str | None:
        if equipment:
            for form in (f"{equipment} {base}", f"{base} {equipment}"):
                if (found := self.vocabulary.canonical(form)) is not None:
                    return found
        found = self.vocabulary.canonical(base)
        distinct = [word for word in _DISTINCT_EQUIPMENT if word in equipment.casefold()]
        if found is None or not distinct:
            return found
        # "Lat Pulldown (Cable)": the base exercise (or its family's plain form) is a cable exercise.
        head = self.families.family_of(found)
        written = " ".join([*self.vocabulary.spellings(found), *self.vocabulary.spellings(head)]).casefold()
        return found if any(word in written for word in distinct) else None

    def name(self, source_name: str) -> str:
        """The canonical term for an exported name, or the name itself normalized when unknown."""
        return self.canonical(source_name) or normalize_name(source_name)

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
