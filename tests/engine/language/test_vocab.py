"""Tests for engine.vocab: one canonical term per thing, whatever the language."""

from __future__ import annotations

import unicodedata

import pytest

from engine.language.vocab import Conflict, Match, Vocabulary

STRENGTH = {
    "bench press": ["벤치프레스", "벤치", "bench", "bp"],
    "squat": ["스쿼트", "squat", "squats"],
    "deadlift": ["데드리프트", "데드", "deadlift", "dl"],
    "pull-up": ["풀업", "pull-up", "pull-ups", "pullups", "턱걸이"],
}


@pytest.fixture
def vocab() -> Vocabulary:
    return Vocabulary(STRENGTH)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("bench 55kg", [("bench press", "bench", 0, 5)]),
        ("BENCH", [("bench press", "bench", 0, 5)]),
        ("Bench Press 60kg", [("bench press", "bench press", 0, 11)]),
        ("bench  press", [("bench press", "bench press", 0, 12)]),
        ("bench,squat", [("bench press", "bench", 0, 5), ("squat", "squat", 6, 11)]),
        ("bench55kg", [("bench press", "bench", 0, 5)]),
        ("bench를 했다", [("bench press", "bench", 0, 5)]),
        ("벤치프레스 55키로", [("bench press", "벤치프레스", 0, 5)]),
        ("벤치프레스를", [("bench press", "벤치프레스", 0, 5)]),
        ("벤치를", [("bench press", "벤치", 0, 2)]),
        ("스쿼트는 100", [("squat", "스쿼트", 0, 3)]),
        ("데드리프트도", [("deadlift", "데드리프트", 0, 5)]),
        ("데드 140", [("deadlift", "데드", 0, 2)]),
        ("pull-ups 3x8", [("pull-up", "pull-ups", 0, 8)]),
        ("pull-up", [("pull-up", "pull-up", 0, 7)]),
        ("턱걸이 10개", [("pull-up", "턱걸이", 0, 3)]),
        ("squats and dl", [("squat", "squats", 0, 6), ("deadlift", "dl", 11, 13)]),
        ("BP 80", [("bench press", "bp", 0, 2)]),
        # A longer spelling that fails its boundary falls back to a shorter one.
        ("bench pressing", [("bench press", "bench", 0, 5)]),
        ("bench\n\tpress", [("bench press", "bench press", 0, 12)]),
        ("벤치 프레스", [("bench press", "벤치", 0, 2)]),
    ],
)
def test_find(vocab: Vocabulary, text: str, expected: list[tuple[str, str, int, int]]) -> None:
    assert vocab.find(text) == [Match(*fields) for fields in expected]


@pytest.mark.parametrize(
    "text",
    ["benchmark results", "handle it", "bpm 150", "squatting", "a deadlifts-only day", "", "  "],
)
def test_latin_spellings_need_word_boundaries(vocab: Vocabulary, text: str) -> None:
    assert vocab.find(text) == []


def test_longest_spelling_wins(vocab: Vocabulary) -> None:
    [match] = vocab.find("오늘 벤치프레스 했어")
    assert (match.spelling, match.start, match.end) == ("벤치프레스", 3, 8)


def test_offsets_slice_the_text(vocab: Vocabulary) -> None:
    text = "어제 스쿼트는 100키로, 데드리프트도 140, and bench 55kg"
    assert [text[m.start : m.end] for m in vocab.find(text)] == ["스쿼트", "데드리프트", "bench"]


def test_nfd_text_matches_nfc_spellings(vocab: Vocabulary) -> None:
    text = unicodedata.normalize("NFD", "벤치프레스를")
    assert vocab.terms(text) == ["bench press"]


def test_offsets_survive_length_changing_casefold() -> None:
    vocab = Vocabulary({"street": ["straße"]})
    text = "STRASSE and Straße"
    assert [(m.start, m.end) for m in vocab.find(text)] == [(0, 7), (12, 18)]
    other = "ẞ Straße"
    assert [other[m.start : m.end] for m in vocab.find(other)] == ["Straße"]


def test_offsets_survive_collapsed_whitespace(vocab: Vocabulary) -> None:
    text = "  Bench \t Press  x  squat"
    matches = vocab.find(text)
    assert [(m.start, m.end) for m in matches] == [(2, 15), (20, 25)]
    assert [text[m.start : m.end] for m in matches] == ["Bench \t Press", "squat"]


def test_digit_edged_spellings_need_digit_boundaries() -> None:
    vocab = Vocabulary({"5k": ["5k"]})
    assert [m.start for m in vocab.find("5k 25k 5k!")] == [0, 7]


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("bench, squat, bench again, 벤치", ["bench press", "squat"]),
        ("스쿼트 그리고 벤치프레스", ["squat", "bench press"]),
        ("how was my deadlift?", ["deadlift"]),
        ("nothing here", []),
    ],
)
def test_terms(vocab: Vocabulary, text: str, terms: list[str]) -> None:
    assert vocab.terms(text) == terms


@pytest.mark.parametrize(
    ("word", "canonical"),
    [
        ("벤치", "bench press"),
        ("BP", "bench press"),
        ("bench press", "bench press"),
        (" Bench   Press ", "bench press"),
        ("squat", "squat"),
        ("턱걸이", "pull-up"),
        ("벤치를", None),
        ("benchmark", None),
        ("", None),
    ],
)
def test_canonical(vocab: Vocabulary, word: str, canonical: str | None) -> None:
    assert vocab.canonical(word) == canonical


def test_english_question_finds_korean_log(vocab: Vocabulary) -> None:
    assert vocab.terms("벤치프레스 55키로 10회 5세트") == vocab.terms("how was my bench press?")


def test_canonicals_in_definition_order(vocab: Vocabulary) -> None:
    assert vocab.canonicals == ("bench press", "squat", "deadlift", "pull-up")


def test_conflict_inside_one_vocabulary_keeps_first() -> None:
    vocab = Vocabulary({"deadlift": ["dl"], "downlink": ["DL"]})
    assert vocab.canonical("dl") == "deadlift"
    assert vocab.conflicts == (Conflict(spelling="DL", kept="deadlift", dropped="downlink"),)


def test_merge_keeps_earlier_meaning_and_reports_conflicts(vocab: Vocabulary) -> None:
    running = Vocabulary({"distance run": ["run", "dl"], "squat": ["air squat"]})
    merged = Vocabulary.merge(vocab, running)
    assert merged.canonical("dl") == "deadlift"
    assert merged.canonical("run") == "distance run"
    assert merged.canonical("air squat") == "squat"
    assert merged.canonicals == ("bench press", "squat", "deadlift", "pull-up", "distance run")
    assert merged.conflicts == (Conflict(spelling="dl", kept="deadlift", dropped="distance run"),)
    assert merged.terms("air squat then run, dl") == ["squat", "distance run", "deadlift"]


def test_merge_order_decides(vocab: Vocabulary) -> None:
    running = Vocabulary({"distance run": ["dl"]})
    assert Vocabulary.merge(running, vocab).canonical("dl") == "distance run"


def test_merge_carries_input_conflicts() -> None:
    first = Vocabulary({"a": ["x"], "b": ["x"]})
    merged = Vocabulary.merge(first, Vocabulary({"c": ["y"]}))
    assert merged.conflicts == (Conflict(spelling="x", kept="a", dropped="b"),)


def test_merge_of_nothing_is_empty() -> None:
    empty = Vocabulary.merge()
    assert (empty.find("bench"), empty.canonicals, empty.conflicts) == ([], (), ())


@pytest.mark.parametrize("entries", [{"": ["x"]}, {"squat": [""]}, {"squat": ["  "]}])
def test_blank_spellings_are_rejected(entries: dict[str, list[str]]) -> None:
    with pytest.raises(ValueError, match="blank"):
        Vocabulary(entries)


def test_string_instead_of_list_is_rejected() -> None:
    with pytest.raises(TypeError, match="must be a list"):
        Vocabulary({"squat": "squats"})


def test_large_vocabulary_finds_every_term() -> None:
    entries = {f"term {n}": [f"spelling{n}x", f"변형{n}가"] for n in range(500)}
    vocab = Vocabulary(entries)
    text = " ".join(f"spelling{n}x 변형{n}가를" for n in range(0, 500, 7)) * 3
    assert len(text) > 4000
    assert vocab.terms(text) == [f"term {n}" for n in range(0, 500, 7)]
