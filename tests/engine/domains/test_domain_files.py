"""The domain data files: valid, unambiguous, and carrying what small models need."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.domains.model import Domain
from engine.domains.registry import load_domain_file

DATA_DIR = Path(__file__).resolve().parents[3] / "engine" / "domains" / "data"
FILES = sorted(DATA_DIR.glob("*.toml"))
EXPECTED = {"strength", "nutrition", "running", "swimming", "general_fitness"}


def _load(path: Path) -> Domain:
    # A domain's vocabulary may continue in parts beside the file (strength/*.toml).
    return load_domain_file(path)


def _key(spelling: str) -> str:
    return spelling.casefold().strip()


def _spelling_map(mapping: dict[str, list[str]]) -> dict[str, set[str]]:
    """Casefolded spelling -> the canonical terms it is listed under."""
    seen: dict[str, set[str]] = {}
    for canonical, spellings in mapping.items():
        for spelling in spellings:
            seen.setdefault(_key(spelling), set()).add(canonical)
    return seen


def _lookup(mapping: dict[str, list[str]], spelling: str) -> str | None:
    hits = _spelling_map(mapping).get(_key(spelling), set())
    return next(iter(hits)) if len(hits) == 1 else None


@pytest.fixture(scope="module")
def domains() -> dict[str, Domain]:
    return {p.stem: _load(p) for p in FILES}


def test_every_expected_domain_has_a_file() -> None:
    assert EXPECTED.issubset(p.stem for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_file_validates_and_name_matches_stem(path: Path) -> None:
    domain = _load(path)
    assert domain.name == path.stem
    assert domain.description.strip()
    assert domain.activity_type.strip()
    assert domain.log_schema


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_no_spelling_maps_to_two_canonical_terms(path: Path) -> None:
    domain = _load(path)
    # Vocabulary and units are matched over the same text, so check them together.
    combined: dict[str, set[str]] = {}
    for section in (domain.vocabulary, domain.units):
        for spelling, canonicals in _spelling_map(section).items():
            combined.setdefault(spelling, set()).update(canonicals)
    clashes = {s: sorted(c) for s, c in combined.items() if len(c) > 1}
    assert not clashes, f"{path.name}: spellings listed under several terms: {clashes}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_no_spelling_is_another_canonical_term(path: Path) -> None:
    domain = _load(path)
    for section_name, section in (("vocabulary", domain.vocabulary), ("units", domain.units)):
        canonicals = {_key(c): c for c in section}
        for canonical, spellings in section.items():
            for spelling in spellings:
                other = canonicals.get(_key(spelling))
                assert other is None or other == canonical, (
                    f"{path.name} {section_name}: {spelling!r} under {canonical!r} "
                    f"is itself the canonical term {other!r}"
                )


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_spellings_are_clean(path: Path) -> None:
    domain = _load(path)
    for section in (domain.vocabulary, domain.units):
        for canonical, spellings in section.items():
            assert spellings, f"{path.name}: {canonical!r} has no spellings"
            keys = [_key(s) for s in spellings]
            assert all(keys), f"{path.name}: empty spelling under {canonical!r}"
            dupes = sorted({k for k in keys if keys.count(k) > 1})
            assert not dupes, f"{path.name}: {canonical!r} lists {dupes} twice"
    for canonical in domain.vocabulary:
        assert canonical == canonical.lower().strip(), f"{path.name}: {canonical!r} not lowercase"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_query_keywords_have_one_intent_each(path: Path) -> None:
    domain = _load(path)
    assert domain.query_keywords, f"{path.name}: no query keywords"
    clashes = {s: sorted(c) for s, c in _spelling_map(domain.query_keywords).items() if len(c) > 1}
    assert not clashes, f"{path.name}: keywords under several intents: {clashes}"
    for intent in ("comparison", "progress", "record", "frequency", "recent"):
        words = domain.query_keywords.get(intent, [])
        assert any(w.isascii() for w in words), f"{path.name}: {intent} has no English keyword"
        assert any(not w.isascii() for w in words), f"{path.name}: {intent} has no Korean keyword"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_guidance_for_the_parser_and_answerer(path: Path) -> None:
    domain = _load(path)
    assert domain.notation, f"{path.name}: no notation rule"
    assert domain.clarification_patterns, f"{path.name}: no clarification pattern"
    for pattern in domain.clarification_patterns:
        assert len(pattern.options) <= 5, f"{path.name}: {pattern.when!r} has too many options"
    assert len(domain.expertise) < 1500, f"{path.name}: expertise is {len(domain.expertise)} chars"
    assert 4 <= len(domain.response_rules) <= 8


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [
        ("벤치프레스", "bench press"),
        ("벤치 프레스", "bench press"),
        ("벤치", "bench press"),
        ("BP", "bench press"),
        ("Flat Bench", "bench press"),
        ("인클라인 벤치", "incline bench press"),
        ("스쿼트", "squat"),
        ("백스쿼트", "squat"),
        ("프론트 스쿼트", "front squat"),
        ("데드리프트", "deadlift"),
        ("데드", "deadlift"),
        ("DL", "deadlift"),
        ("루마니안 데드리프트", "romanian deadlift"),
        ("오버헤드프레스", "overhead press"),
        ("밀리터리프레스", "overhead press"),
        ("OHP", "overhead press"),
        ("바벨로우", "barbell row"),
        ("랫풀다운", "lat pulldown"),
        ("레그프레스", "leg press"),
        ("힙쓰러스트", "hip thrust"),
        ("바이셉스컬", "biceps curl"),
        ("덤벨컬", "biceps curl"),
        ("사이드 레터럴 레이즈", "lateral raise"),
        ("푸시업", "push-up"),
        ("팔굽혀펴기", "push-up"),
        ("턱걸이", "pull-up"),
        ("플랭크", "plank"),
    ],
)
def test_strength_vocabulary(domains: dict[str, Domain], spelling: str, canonical: str) -> None:
    assert _lookup(domains["strength"].vocabulary, spelling) == canonical


@pytest.mark.parametrize(
    ("domain", "spelling", "unit"),
    [
        ("strength", "키로", "kg"),
        ("strength", "킬로", "kg"),
        ("strength", "kgs", "kg"),
        ("strength", "lbs", "lb"),
        ("strength", "파운드", "lb"),
        ("strength", "세트", "set"),
        ("strength", "회", "rep"),
        ("running", "키로", "km"),
        ("running", "k", "km"),
        ("running", "분", "min"),
        ("swimming", "미터", "m"),
        ("nutrition", "칼로리", "kcal"),
        ("nutrition", "cal", "kcal"),
        ("nutrition", "그램", "g"),
        ("nutrition", "공기", "bowl"),
        ("general_fitness", "시간", "h"),
    ],
)
def test_unit_spellings(domains: dict[str, Domain], domain: str, spelling: str, unit: str) -> None:
    assert _lookup(domains[domain].units, spelling) == unit


@pytest.mark.parametrize(
    ("domain", "spelling", "canonical"),
    [
        ("running", "러닝", "run"),
        ("running", "하프마라톤", "half marathon"),
        ("running", "트레드밀", "treadmill"),
        ("swimming", "자유형", "freestyle"),
        ("swimming", "평영", "breaststroke"),
        ("swimming", "접영", "butterfly"),
        ("swimming", "배영", "backstroke"),
        ("nutrition", "닭가슴살", "chicken breast"),
        ("nutrition", "점심", "lunch"),
        ("nutrition", "단백질", "protein"),
        ("nutrition", "밥", "rice"),
        ("general_fitness", "걷기", "walking"),
        ("general_fitness", "몸무게", "bodyweight"),
        ("general_fitness", "등산", "hiking"),
    ],
)
def test_other_vocabulary(domains: dict[str, Domain], domain: str, spelling: str, canonical: str) -> None:
    assert _lookup(domains[domain].vocabulary, spelling) == canonical


def test_strength_notation_covers_the_required_forms(domains: dict[str, Domain]) -> None:
    examples = " | ".join(rule.example for rule in domains["strength"].notation)
    for fragment in (
        "80x5x5",
        "55kg 10x5",
        "55키로 10회 5세트",
        "스쿼트 100kg 5x5",
        "100x5, 105x5, 110x3",
        "3 sets of 10 at 60kg",
        "pull-ups 3x8",
    ):
        assert fragment in examples, f"strength notation lacks an example with {fragment!r}"
