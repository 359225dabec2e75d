"""Amounts written in a plan (a number, or ``5x5``, with its unit) and whose they are.

* A plan's words may repeat a value the person wrote ("bench 100 kg by
  March" for a request of "100kg by March"): it is theirs, not the model's,
  so it is kept as written. Any other number travels by reference
  (:mod:`engine.tasks.wording`).
* The text of an operation (a goal line, a corrected value) is committed,
  so it may hold only references, the person's own values, their log's
  values, and the months the request names; anything else is a problem the
  next round is told about, never committed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.query.grounding import check_text
from engine.query.references import REF, RefKind, RefTable
from engine.query.render import Language, render_text
from engine.tasks import texts as plan_texts

UNITS: dict[str, tuple[str, ...]] = {
    "kg": ("kg", "kgs", "kilo", "kilos", "kilogram", "kilograms", "키로", "킬로", "킬로그램"),
    "lb": ("lb", "lbs", "pound", "pounds", "파운드"),
    "reps": ("rep", "reps", "회"),
    "sets": ("set", "sets", "세트"),
    "sessions": ("time", "times", "session", "sessions", "번"),
    "weeks": ("week", "weeks", "wk", "wks", "주"),
    "days": ("day", "days", "일"),
    "months": ("month", "months", "개월"),
    "km": ("km",),
    "m": ("m", "meter", "meters", "metre", "metres", "미터"),
    "min": ("min", "mins", "minute", "minutes", "분"),
    "%": ("%", "percent", "퍼센트"),
}
_KIND = {spelling: kind for kind, spellings in UNITS.items() for spelling in spellings}
_UNIT = "|".join(re.escape(s) for s in sorted(_KIND, key=len, reverse=True))
_AMOUNT = re.compile(
    rf"(?<![\w.,:/-])(\d+(?:[.,]\d+)?(?:\s*[x×]\s*\d+(?:[.,]\d+)?)*)(?:\s*({_UNIT}))?(?![A-Za-z0-9])(?![.,:/-]\d)",
    re.IGNORECASE,
)
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")  # fmt: skip
_MONTH = re.compile(rf"\b({'|'.join(_MONTHS)})\b|(?<!\d)(1[0-2]|0?[1-9])\s?월", re.IGNORECASE)
FIELD_KINDS = {"weight": ("kg", "lb"), "reps": ("reps",), "sets": ("sets",)}
_TEXT_KINDS: tuple[RefKind, ...] = ("fact", "entry", "question", "article", "source")


@dataclass(frozen=True, slots=True)
class Amount:
    """A number (or numbers, ``5x5``) and the kind of its unit (``""`` when none was written)."""

    numbers: tuple[float, ...]
    kind: str
    start: int = 0
    end: int = 0
    text: str = ""

    def repeats(self, theirs: Amount) -> bool:
        """Whether this amount repeats ``theirs``: the same numbers, bare or in its unit ("100" or "100 kg" for
        "100kg"; not "5 kg" for a bare "5", which was reps)."""
        return self.numbers == theirs.numbers and (not self.kind or self.kind == theirs.kind)


def amounts(text: str) -> list[Amount]:
    """The amounts ``text`` writes itself (references and dates are none)."""
    out = []
    for m in _AMOUNT.finditer(text):
        numbers = tuple(float(n.replace(",", ".")) for n in re.findall(r"\d+(?:[.,]\d+)?", m.group(1)))
        kind = _KIND.get((m.group(2) or "").lower(), "")
        out.append(Amount(numbers, kind, m.start(), m.end(), m.group().strip()))
    return out


def _months(text: str) -> list[tuple[int, int, int, str]]:
    """Months named in ``text``: (month, start, end, as written); a lower-case "may" is a verb."""
    found = []
    for m in _MONTH.finditer(text):
        if m.group(1):
            if m.group(1) == "may":
                continue
            found.append((_MONTHS.index(m.group(1).lower()) + 1, m.start(), m.end(), m.group()))
        else:
            found.append((int(m.group(2)), m.start(), m.end(), m.group()))
    return found


def _blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def own_values(table: RefTable) -> list[Amount]:
    """The amounts the person wrote: their values offered as ``Q`` ids (the request's and their answers')."""
    return [a for ref in table.of("question") for a in amounts(ref.text)]


def without_own(text: str, table: RefTable, request: str = "") -> str:
    """``text`` with the person's own values (and the months their request names) blanked, for the grounding check."""
    own = own_values(table)
    spans = [(a.start, a.end) for a in amounts(text) if any(a.repeats(o) for o in own)]
    asked = {month for month, *_ in _months(request)}
    spans += [(start, end) for month, start, end, _ in _months(text) if month in asked]
    return _blank(text, spans)


@dataclass(frozen=True)
class Given:
    """What an operation's text may hold: references, the person's values, their log's, the request's months."""

    table: RefTable
    request: str
    logged: Sequence[Amount] = ()
    """Values in their entries and computed facts (one number each, with its kind)."""
    lang: Language = "en"
    names: Mapping[str, str] = field(default_factory=dict)

    def _allowed(self, a: Amount) -> bool:
        return any(a.repeats(o) for o in [*own_values(self.table), *self.logged])

    def text_problems(self, what: str, text: str) -> list[str]:
        """What is wrong with an operation's text: numbers that are nobody's, unknown ids, months not asked for."""
        free = REF.sub(lambda m: " " * len(m.group()), text)
        asked = {month for month, *_ in _months(self.request)}
        months = _months(free)
        problems = [plan_texts.month_not_asked(what, written) for month, _, _, written in months if month not in asked]
        found = [a for a in amounts(free) if not any(s <= a.start < e for _, s, e, _ in months)]
        problems += [plan_texts.not_given(what, a.text) for a in found if not self._allowed(a)]
        # What the amounts do not cover: number words, dates, ids that do not exist.
        report = check_text(
            _blank(text, [(a.start, a.end) for a in found] + [(s, e) for _, s, e, _ in months]),
            self.table,
            kinds=_TEXT_KINDS,
        )
        problems += [plan_texts.not_given(what, n) for n in report.numbers]
        if report.unknown:
            problems.append(plan_texts.unknown_ids(what, report.unknown))
        return problems

    def rendered(self, text: str) -> str:
        """An operation's text with its references written out, as it will be committed."""
        return render_text(text, self.table, self.lang, self.names)

    def value_given(self, value: str | None, fld: str) -> bool:
        """Whether a corrected value is one the person wrote, or one in their log, of the field's kind."""
        found = amounts(value or "")
        if not found:
            return False
        number, kinds = found[0].numbers[:1], FIELD_KINDS.get(fld, ())
        # "4 weeks" they wrote is no set count: a value of another kind does not count.
        return any(
            o.numbers[:1] == number and not (o.kind and kinds and o.kind not in kinds)
            for o in [*own_values(self.table), *self.logged]
        )


def logged_amounts(values: Iterable[tuple[float, str]]) -> list[Amount]:
    """Log values as amounts (their kinds are the evidence check's: kg, lb, reps, sets, sessions, km, m, %)."""
    return list({Amount((round(v, 3),), kind) for v, kind in values})
