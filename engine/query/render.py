"""Rendering references into the person's language: every value with its unit and date.

English keeps the forms the facts are written in (``55 kg × 10 reps × 5 sets``,
ISO dates). Korean gets Korean units and dates (``55kg × 10회 × 5세트``,
``2026년 11월 20일``) and Korean exercise names where the vocabulary has one.
A change is written without its sign when an agreeing direction word
describes it ("went up by 2.5 kg"), with its sign otherwise ("+2.5 kg").
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Literal

from engine.query.references import REF, Ref, RefTable

Language = Literal["en", "ko"]

_HANGUL = re.compile(r"[가-힣]")
_LETTER = re.compile(r"[^\W\d_]")
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_SENTENCE_END = re.compile(r"[.!?\n]")
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def language_of(text: str) -> Language:
    """Korean when Hangul makes up a fifth of the letters or more (a syllable carries a word's weight
    in a few Latin letters: "bench press 최고 기록?" is Korean), else English."""
    letters = len(_LETTER.findall(text))
    hangul = len(_HANGUL.findall(text))
    return "ko" if hangul >= 2 and hangul * 5 >= letters else "en"


def render_date(day: date, lang: Language) -> str:
    return f"{day.year}년 {day.month}월 {day.day}일" if lang == "ko" else day.isoformat()


def render_period(first: date, last: date, lang: Language) -> str:
    """A month or a year by its name, a day as a date, anything else as a range."""
    if first == last:
        return render_date(first, lang)
    same_month = (first.year, first.month) == (last.year, last.month)
    if same_month and first.day == 1 and last.day == calendar.monthrange(last.year, last.month)[1]:
        return f"{first.year}년 {first.month}월" if lang == "ko" else f"{_MONTHS[first.month - 1]} {first.year}"
    if (first.month, first.day, last.month, last.day) == (1, 1, 12, 31) and first.year == last.year:
        return f"{first.year}년" if lang == "ko" else str(first.year)
    return (
        f"{render_date(first, lang)} ~ {render_date(last, lang)}"
        if lang == "ko"
        else (f"{first.isoformat()} to {last.isoformat()}")
    )


_KO_UNITS = (
    (re.compile(r"(\d)\s?reps?\b"), r"\1회"),
    (re.compile(r"(\d)\s?sets?\b"), r"\1세트"),
    (re.compile(r"(\d)\s?sessions?\b"), r"\1회"),
    (re.compile(r"(\d)\s?days?\b"), r"\1일"),
    (re.compile(r"(\d)\s?weeks?\b"), r"\1주"),
    (re.compile(r"([\d.]+) per week\b"), r"주당 \1회"),
    (re.compile(r"× (\d+)\b(?!\s?(?:회|세트|kg|lb))"), r"× \1회"),
    (re.compile(r"(\d) (kg|lb|km|m)\b"), r"\1\2"),
    (re.compile(r"\bBW\b"), "맨몸"),
    (re.compile(r"\be1RM\b"), "추정 1RM"),
    (re.compile(r"\(attempted, not completed\)"), "(시도, 완료 못 함)"),
)


def localize(text: str, lang: Language, names: Mapping[str, str] | None = None) -> str:
    """An English value text in the person's language (units, dates, exercise names)."""
    if lang == "en":
        return text
    for pattern, repl in _KO_UNITS:
        text = pattern.sub(repl, text)
    text = _ISO.sub(lambda m: render_date(date(int(m[1]), int(m[2]), int(m[3])), "ko"), text)
    return rename(text, names or {})


def rename(text: str, names: Mapping[str, str]) -> str:
    """Canonical exercise names replaced by the person's-language ones (longest first)."""
    for canonical in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(canonical)}(?![\w-])", names[canonical], text)
    return text


class Names(dict[str, str]):
    """Canonical exercise name -> the person's-language one, plus each domain's label in that language.

    The labels (``running`` -> ``러닝``) name a fact's subject when it is a domain; they are kept
    apart from the exercise names, which :func:`rename` replaces in running text.
    """

    def __init__(self, names: Mapping[str, str] | None = None, labels: Mapping[str, str] | None = None) -> None:
        super().__init__(names or {})
        self.labels: Mapping[str, str] = labels or {}


def korean_names(terms: Iterable[str], spellings: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """For each canonical term, its first Korean spelling in the vocabulary (when it has one)."""
    out: dict[str, str] = {}
    for term in terms:
        korean = next((s for s in spellings.get(term, ()) if _HANGUL.search(s)), None)
        if korean:
            out[term] = korean
    return out


def value_text(ref: Ref, lang: Language, names: Mapping[str, str], *, unsigned: bool = False) -> str:
    """One value as the person reads it, without its date."""
    if ref.kind == "date":
        if ref.scope is not None:
            return render_period(ref.scope[0], ref.scope[1], lang)
        return render_date(ref.on, lang) if ref.on else ref.text
    if ref.kind in ("question", "article"):
        return ref.text  # as written (the article's own words around it say what it is)
    if ref.kind == "source":
        return f"“{ref.text}”"
    if ref.unit == "date" and ref.on is not None:
        return render_date(ref.on, lang)
    text = ref.text
    if unsigned and ref.change:
        text = text.lstrip("+-−")
    return localize(text, lang, names)


def render_text(
    text: str,
    table: RefTable,
    lang: Language,
    names: Mapping[str, str] | None = None,
    attached: Iterable[str] = (),
) -> str:
    """Replace every reference in ``text`` with its value, unit and date.

    A fact's date follows it in brackets unless the sentence already says
    that date. Unknown references are left as written (the grounding check
    keeps such text from the person).
    """
    names = names or {}
    unsigned = set(attached)
    out: list[str] = []
    said: set[date] = set()
    last = 0
    for m in REF.finditer(text):
        between = text[last : m.start()]
        if _SENTENCE_END.search(between):
            said = set()
        out.append(between)
        last = m.end()
        ref = table.get(f"{m.group(1)}{int(m.group(2))}")
        if ref is None:
            out.append(m.group())
            continue
        shown = value_text(ref, lang, names, unsigned=ref.id in unsigned)
        day = ref.on
        if ref.kind == "fact" and day is not None and ref.unit != "date" and day not in said:
            shown += f" ({render_date(day, lang)})"
        if day is not None:
            said.add(day)
        out.append(shown)
    out.append(text[last:])
    return "".join(out)
