"""Movement families as data: every domain's families are consistent, loaded from parts, and read right."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.domains.model import Domain
from engine.domains.registry import (
    DomainFileError,
    DomainRegistry,
    DomainSelector,
    load_domain_file,
)
from engine.language.families import Families
from engine.language.vocab import Vocabulary

REGISTRY = DomainRegistry.load()
DATA = Path(__file__).resolve().parents[3] / "engine" / "domains" / "data"


@pytest.mark.parametrize("name", REGISTRY.names)
def test_every_domain_groups_its_activities_into_families(name: str) -> None:
    domain = REGISTRY.get(name)
    assert domain is not None and domain.families, f"{name} has no families"
    for family, members in domain.families.items():
        assert members[0] == family, f"{name}: family {family!r} must list itself first"
        assert all(m in domain.vocabulary for m in members)


@pytest.mark.parametrize("name", REGISTRY.names)
def test_no_spelling_is_claimed_twice_in_a_domain(name: str) -> None:
    # Across all parts, and across spacing variants (덤벨 로우 = 덤벨로우).
    domain = REGISTRY.get(name)
    assert domain is not None
    assert Vocabulary(domain.vocabulary).conflicts == ()


@pytest.mark.parametrize("name", REGISTRY.names)
def test_generic_words_are_listed_in_english_and_korean(name: str) -> None:
    domain = REGISTRY.get(name)
    assert domain is not None
    assert domain.generic_terms.get("en") and domain.generic_terms.get("ko")
    vocab = Vocabulary(domain.vocabulary)
    for words in domain.generic_terms.values():
        # A generic word must not also be a search term of the same domain.
        assert [w for w in words if vocab.canonical(w) is not None] == []


def test_the_families_the_issue_names() -> None:
    strength = REGISTRY.get("strength")
    assert strength is not None
    families = Families(strength.families)
    ohp = families.members("overhead press")
    for variation in ("seated overhead press", "push press", "dumbbell shoulder press", "arnold press"):
        assert variation in ohp
    dl = families.members("deadlift")
    for variation in ("sumo deadlift", "trap bar deadlift", "romanian deadlift", "stiff-leg deadlift"):
        assert variation in dl
    bench = families.members("bench press")
    for variation in ("incline bench press", "decline bench press", "close-grip bench press", "dumbbell bench press"):
        assert variation in bench
    # Equipment variants are distinct canonicals of one family.
    assert families.family_of("dumbbell row") == families.family_of("barbell row") == "row"
    assert families.family_of("incline dumbbell press") == families.family_of("incline bench press")


def test_strength_vocabulary_is_split_into_short_parts() -> None:
    parts = sorted((DATA / "strength").glob("*.toml"))
    assert len(parts) >= 5
    for path in [DATA / "strength.toml", *parts]:
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 300, path.name


def test_families_expand_only_families_named_as_a_whole() -> None:
    families = Families({"overhead press": ["overhead press", "push press", "seated overhead press"]})
    whole = {"overhead press"}
    assert families.expand(["overhead press"], whole) == ["overhead press", "push press", "seated overhead press"]
    assert families.expand(["overhead press"], set()) == ["overhead press"]  # a lift's name is that lift
    assert families.expand(["push press"], {"push press"}) == ["push press"]
    assert families.expand(["squat", "push press", "overhead press"], whole) == [
        "squat",
        "push press",
        "overhead press",
        "seated overhead press",
    ]
    assert families.is_family("overhead press") and not families.is_family("push press")
    assert families.family_of("push press") == "overhead press" and families.family_of("squat") == "squat"
    assert families.members("squat") == ("squat",)


def _domain(**over: object) -> dict[str, object]:
    base: dict[str, object] = {
        "name": "lifts",
        "description": "d",
        "activity_type": "strength",
        "vocabulary": {},
        "log_schema": [{"name": "n", "type": "string"}],
        "expertise": "e",
        "response_rules": ["r"],
    }
    return {**base, **over}


def test_a_family_in_a_data_file_joins_the_vocabulary() -> None:
    domain = Domain.model_validate(
        _domain(families={"press": {"press": ["ohp"], "push press": ["푸쉬 프레스"]}}, vocabulary={"1rm": ["원알엠"]})
    )
    assert domain.families == {"press": ["press", "push press"]}
    assert domain.vocabulary == {"1rm": ["원알엠"], "press": ["ohp"], "push press": ["푸쉬 프레스"]}
    # A validated domain validates again unchanged (families already as lists).
    assert Domain.model_validate(domain.model_dump()) == domain


@pytest.mark.parametrize(
    ("families", "vocabulary", "message"),
    [
        ({"press": {"push press": ["x"]}}, {}, "must list itself"),
        ({"press": {"press": ["x"]}}, {"press": ["y"]}, "defined twice"),
        ({"a": ["a", "b"]}, {"a": ["x"]}, "not in the vocabulary"),
        ({"a": ["a", "c"], "b": ["b", "c"]}, {"a": ["x"], "b": ["y"], "c": ["z"]}, "in families"),
    ],
)
def test_inconsistent_families_are_rejected(families: object, vocabulary: object, message: str) -> None:
    data = _domain(families=families, vocabulary=vocabulary)
    with pytest.raises(ValueError, match=message):
        Domain.model_validate(data)


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


MAIN = """name = "lifts"
description = "d"
activity_type = "strength"
expertise = "e"
response_rules = ["r"]
[vocabulary]
"1rm" = ["원알엠"]
[[log_schema]]
name = "n"
type = "string"
"""


def test_a_domain_reads_its_parts_folder(tmp_path: Path) -> None:
    main = _write(tmp_path, "lifts.toml", MAIN)
    _write(tmp_path, "lifts/press.toml", '[families.press]\npress = ["ohp"]\n"push press" = ["푸쉬 프레스"]\n')
    _write(tmp_path, "lifts/extra.toml", '[vocabulary]\nrpe = ["알피이"]\n')
    domain = load_domain_file(main)
    assert set(domain.vocabulary) == {"1rm", "press", "push press", "rpe"}
    assert domain.families == {"press": ["press", "push press"]}
    registry = DomainRegistry.load(tmp_path)
    ctx = DomainSelector(registry).build_active_context(["lifts"])
    assert ctx.vocabulary.terms("푸쉬프레스는 60") == ["push press"]


@pytest.mark.parametrize(
    ("part", "message"),
    [
        ('[vocabulary]\n"1rm" = ["x"]\n', "already defined"),
        ('name = "other"\n', "may hold only"),
        ("[vocabulary\n", "lifts/bad.toml"),
    ],
)
def test_a_bad_part_names_the_file(tmp_path: Path, part: str, message: str) -> None:
    main = _write(tmp_path, "lifts.toml", MAIN)
    _write(tmp_path, "lifts/bad.toml", part)
    with pytest.raises(DomainFileError, match=message):
        load_domain_file(main)


def test_korean_spacing_is_optional_in_one_direction() -> None:
    vocab = Vocabulary({"dumbbell row": ["덤벨 로우"], "lat pulldown": ["랫 풀 다운"], "bench press": ["벤치프레스"]})
    assert vocab.terms("덤벨로우 3세트") == ["dumbbell row"]
    assert vocab.terms("덤벨  로우를") == ["dumbbell row"]
    assert [vocab.terms(t) for t in ("랫풀다운", "랫 풀다운", "랫풀 다운은")] == [["lat pulldown"]] * 3
    assert vocab.canonical("덤벨로우") == vocab.canonical("덤벨 로우") == "dumbbell row"
    # A spelling written solid does not find the words written apart.
    assert vocab.terms("벤치 프레스") == []
    # Latin words keep their spaces.
    assert Vocabulary({"bench press": ["bench press"]}).terms("benchpress") == []
