"""Loading domain files and merging domains into one active context."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import structlog
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.domains.model import Bout, ClarificationPattern, Domain, LogField, NotationRule
from engine.language.families import GENERIC, Families, family_word
from engine.language.vocab import Vocabulary

log = structlog.get_logger("engine.domains")

BUILTIN_DIR = Path(__file__).parent / "data"


class DomainFileError(Exception):
    """A domain file that cannot be read; the message names the file."""


_PART_KEYS = ("vocabulary", "families", "family_words")
_WHOLE_PART_KEYS = ("progression",)
"""Tables a part may hold whole (once in the domain, never merged key by key): long rule tables."""


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise DomainFileError(f"{path}: {exc}") from None


def load_domain_file(path: Path) -> Domain:
    """Read one domain: ``<name>.toml`` plus, when present, the parts in the folder ``<name>/``.

    A part holds only ``vocabulary`` and ``families`` tables (one file per group
    of movement families keeps each file short), or a whole rule table such as
    ``progression``; a term, family or table defined twice is an error, never a
    silent override.

    Raises:
        DomainFileError: a file is not valid TOML, not a valid domain, or a part
            redefines a term or family.
    """
    raw = _read_toml(path)
    folder = path.with_suffix("")
    for part in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
        extra = _read_toml(part)
        unknown = sorted(set(extra) - set(_PART_KEYS) - set(_WHOLE_PART_KEYS))
        if unknown:
            raise DomainFileError(f"{part}: a part may hold only {_PART_KEYS + _WHOLE_PART_KEYS}, not {unknown}")
        for key in _WHOLE_PART_KEYS:
            if key in extra:
                if key in raw:
                    raise DomainFileError(f"{part}: {key} is already defined")
                raw[key] = extra[key]
        for key in _PART_KEYS:
            merged = dict(raw.get(key) or {})
            for name, value in (extra.get(key) or {}).items():
                if name in merged:
                    raise DomainFileError(f"{part}: {key} {name!r} is already defined")
                merged[name] = value
            raw[key] = merged
    try:
        domain = Domain.model_validate(raw)
    except ValidationError as exc:
        raise DomainFileError(f"{path}: {exc}") from None
    if domain.name != path.stem:
        raise DomainFileError(f"{path}: name {domain.name!r} must equal the file name")
    return domain


class DomainRegistry:
    """Every known domain, read from TOML files once at start-up."""

    def __init__(self, domains: Iterable[Domain]) -> None:
        self._domains = {d.name: d for d in domains}
        self._vocabularies: dict[tuple[str, ...], Vocabulary] = {}
        self._labels: dict[str, dict[str, str]] = {}
        fallbacks = [d.name for d in self._domains.values() if d.fallback]
        if len(fallbacks) > 1:
            raise DomainFileError(f"only one domain may be the fallback, not {sorted(fallbacks)}")

    @classmethod
    def load(cls, *dirs: Path | None, increments: Mapping[str, float] | None = None) -> DomainRegistry:
        """Read ``*.toml`` from the built-in folder and any extra folders (later ones override).

        Each file is read by :func:`load_domain_file` (with its vocabulary parts).

        Raises:
            DomainFileError: a file is not valid TOML or not a valid domain.
        """
        found: dict[str, Domain] = {}
        for folder in (BUILTIN_DIR, *dirs):
            if folder is None:
                continue
            for path in sorted(Path(folder).glob("*.toml")):
                domain = load_domain_file(path)
                found[domain.name] = domain
        return cls(_with_increments(d, increments or {}) for d in found.values())

    @property
    def names(self) -> list[str]:
        return sorted(self._domains)

    def get(self, name: str) -> Domain | None:
        return self._domains.get(name)

    @property
    def fallback(self) -> str | None:
        """The domain a log or question goes to when nothing names another (``fallback = true``)."""
        return next((d.name for d in self._domains.values() if d.fallback), None)

    @property
    def by_precedence(self) -> list[str]:
        """Every name, the domain that wins a clash first (``precedence``, then name)."""
        return sorted(self._domains, key=lambda n: (self._domains[n].precedence, n))

    @cached_property
    def bouts(self) -> dict[str, Bout]:
        """Domain -> its bout measures, for the domains whose entries are bouts (runs, swims)."""
        return {n: d.bout for n in self.by_precedence if (d := self._domains[n]).bout is not None}

    @cached_property
    def not_training(self) -> frozenset[str]:
        """Domains whose entries are no training sessions (meals)."""
        return frozenset(n for n, d in self._domains.items() if not d.training)

    def with_role(self, role: str) -> list[str]:
        """The domains of one import role (``lifts``, ``cardio``, ``activity``), by precedence."""
        return [n for n in self.by_precedence if self._domains[n].import_role == role]

    def labels(self, language: str) -> dict[str, str]:
        """Domain -> its name in ``language``, for the domains whose file gives one."""
        found = self._labels.get(language)
        if found is None:
            found = self._labels[language] = {
                n: d.label[language] for n, d in self._domains.items() if language in d.label
            }
        return found

    def vocabulary(self, names: Sequence[str] | None = None) -> Vocabulary:
        """The named domains' vocabularies merged (all when None), built once per combination.

        Building one compiles its spellings (tens of ms); questions reuse it on the event loop.
        """
        key = tuple(n for n in (names if names else self.names) if n in self._domains)
        found = self._vocabularies.get(key)
        if found is None:
            found = Vocabulary.merge(*(Vocabulary(self._domains[n].vocabulary) for n in key)) if key else Vocabulary({})
            if len(self._vocabularies) < 256:  # one per combination asked for; bounded all the same
                self._vocabularies[key] = found
        return found

    def describe(self) -> str:
        """One line per domain, for the Router."""
        return "\n".join(f"- {d.name}: {d.description}" for d in self._domains.values())


@cache
def builtin_registry() -> DomainRegistry:
    """The built-in domains only, read once: for tests. The engine and Logbook hand their own registry on."""
    return DomainRegistry.load()


class ActiveDomainContext(BaseModel):
    """The merged knowledge of the domains a turn works in."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    registry: DomainRegistry = Field(repr=False, exclude=True)
    """Every domain the engine knows (built-in and ``DOMAINS_DIR``), not only the loaded ones."""
    domains_loaded: list[str]
    """Names, in the order they were requested."""
    domains: list[Domain]
    expertise: str
    """Each domain's expertise under its name."""
    response_rules: list[str]
    notation: list[NotationRule]
    clarification_patterns: list[ClarificationPattern]
    log_schemas: dict[str, list[LogField]]
    vocabulary_map: dict[str, list[str]]
    unit_map: dict[str, list[str]]
    family_map: dict[str, list[str]] = Field(default_factory=dict)
    """Movement family -> member canonical terms, over every loaded domain."""
    generic_words: list[str] = Field(default_factory=list)
    """Words too general to search by, in every language of the loaded domains."""
    family_word_map: dict[str, list[str]] = Field(default_factory=dict)
    """Family -> the words that name the whole family in a question."""

    @cached_property
    def vocabulary(self) -> Vocabulary:
        return Vocabulary(self.vocabulary_map)

    @cached_property
    def families(self) -> Families:
        return Families(self.family_map)

    @cached_property
    def question_vocabulary(self) -> Vocabulary:
        """The vocabulary plus the generic words, which match as :data:`GENERIC`.

        Matching generic phrases lets them shadow shorter spellings inside them
        ("in a row" is not a row); callers drop :data:`GENERIC` matches.
        """
        extra = {GENERIC: self.generic_words} if self.generic_words else {}
        extra.update({family_word(name): words for name, words in self.family_word_map.items()})
        if not extra:
            return self.vocabulary
        return Vocabulary.merge(self.vocabulary, Vocabulary(extra))

    @cached_property
    def units(self) -> Vocabulary:
        return Vocabulary(self.unit_map)


class DomainSelector:
    """Builds ``ActiveDomainContext`` from domain names; unknown names are skipped with a warning."""

    def __init__(self, registry: DomainRegistry) -> None:
        self._registry = registry
        self._cache: dict[tuple[str, ...], ActiveDomainContext] = {}

    @property
    def registry(self) -> DomainRegistry:
        return self._registry

    def build_active_context(self, names: Sequence[str] | None) -> ActiveDomainContext:
        """Merge the named domains (first wins where two spell a word differently)."""
        wanted: list[str] = []
        for name in names or ():
            if name in wanted:
                continue
            if self._registry.get(name) is None:
                log.warning("domain.unknown", domain=name, known=self._registry.names)
                continue
            wanted.append(name)
        key = tuple(wanted)
        ctx = self._cache.get(key)
        if ctx is None:
            ctx = self._merge(self._registry, [d for n in wanted if (d := self._registry.get(n)) is not None])
            # Bounded: at most one entry per combination that was actually asked for.
            if len(self._cache) < 256:
                self._cache[key] = ctx
        return ctx

    @staticmethod
    def _merge(registry: DomainRegistry, domains: list[Domain]) -> ActiveDomainContext:
        vocab: dict[str, list[str]] = {}
        units: dict[str, list[str]] = {}
        families: dict[str, list[str]] = {}
        generic: list[str] = []
        family_words: dict[str, list[str]] = {}
        for d in domains:
            for family, words in d.family_words.items():
                family_words.setdefault(family, list(words))
            for family, members in d.families.items():
                # A family two domains share (rare) keeps the first domain's members.
                families.setdefault(family, list(members))
            generic.extend(w for words in d.generic_terms.values() for w in words if w not in generic)
            for term, spellings in d.vocabulary.items():
                vocab.setdefault(term, []).extend(s for s in spellings if s not in vocab.get(term, []))
            for unit, spellings in d.units.items():
                units.setdefault(unit, []).extend(s for s in spellings if s not in units.get(unit, []))
        return ActiveDomainContext(
            registry=registry,
            domains_loaded=[d.name for d in domains],
            domains=domains,
            expertise="\n\n".join(f"[{d.name}]\n{d.expertise.strip()}" for d in domains),
            response_rules=[r for d in domains for r in d.response_rules],
            notation=[n for d in domains for n in d.notation],
            clarification_patterns=[c for d in domains for c in d.clarification_patterns],
            log_schemas={d.name: d.log_schema for d in domains},
            vocabulary_map=vocab,
            unit_map=units,
            family_map=families,
            generic_words=generic,
            family_word_map=family_words,
        )


def _with_increments(domain: Domain, increments: Mapping[str, float]) -> Domain:
    """``domain`` with the deployment's plate increments (``PLATE_INCREMENT_KG``…) in place of its own, for the
    units its progression rules name (a unit they do not name stays unknown to them)."""
    rules = domain.progression
    if rules is None or not (set(increments) & set(rules.increment)):
        return domain
    increment = {unit: increments.get(unit, step) for unit, step in rules.increment.items()}
    return domain.model_copy(update={"progression": rules.model_copy(update={"increment": increment})})
