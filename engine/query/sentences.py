"""Sentences code writes for an answer's claims, in the person's language.

Every number, date, count and direction the person reads comes from here:
a claim the model chose (:mod:`engine.query.claims`) names its kind and
values; code writes the value with its unit and date, the direction of a
comparison from the two values' difference, and the model's own words (the
note, already checked) after it. English labels are the facts' own; Korean
ones are read off the fact's key (:func:`engine.query.by_code.korean_label`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.facts.display import _fmt, clock
from engine.query.by_code import label as fact_label
from engine.query.claims import Kept
from engine.query.references import Ref, RefTable
from engine.query.render import Language, localize, render_date, render_period, render_text, value_text


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _dated(ref: Ref, lang: Language, names: Mapping[str, str]) -> str:
    shown = value_text(ref, lang, names)
    if ref.kind == "fact" and ref.on is not None and ref.unit != "date":
        shown += f" ({render_date(ref.on, lang)})"
    return shown


def value_sentence(ref: Ref, lang: Language, names: Mapping[str, str]) -> str:
    """``Label: value (date).`` for a fact; the entry, question value or period as written otherwise."""
    if ref.kind == "fact":
        return f"{_upper_first(fact_label(ref, lang, names))}: {_dated(ref, lang, names)}."
    if ref.kind == "entry":
        return f"- {value_text(ref, lang, names)}"
    if ref.kind == "gap":
        return gap_sentence(ref, lang, names)
    return f"{value_text(ref, lang, names)}."


def amount(delta: float, unit: str) -> str:
    """A difference's size with its unit: ``2.5 kg``, ``0:12/km`` for a pace, ``3 sessions``."""
    size = abs(delta)
    if unit.startswith("min/"):
        return f"{clock(size * 60)}/{unit.split('/', 1)[1]}"
    if unit == "%":
        return f"{_fmt(size)} percentage points"
    if unit.endswith("·reps"):
        unit = unit.split("·", 1)[0]
    return f"{_fmt(size)} {unit}".strip()


def direction(delta: float, lower_is_better: bool, lang: Language, size: str) -> str:
    """Which way the newer value went against the older one, computed from their difference."""
    if abs(delta) < 1e-9:
        return "같아요" if lang == "ko" else "the same"
    up = delta > 0
    if lower_is_better:
        if lang == "ko":
            return f"{size} {'느려졌어요' if up else '빨라졌어요'}"
        return f"{'slower' if up else 'faster'} by {size}"
    if lang == "ko":
        return f"{size} {'늘었어요' if up else '줄었어요'}"
    return f"{'up' if up else 'down'} by {size}"


def comparison_sentence(newer: Ref, older: Ref, lang: Language, names: Mapping[str, str]) -> str:
    delta = (newer.value or 0.0) - (older.value or 0.0)
    size = localize(amount(delta, newer.unit), lang, names)
    if lang == "ko":
        size = size.replace(" percentage points", "%p")
    a = f"{_upper_first(fact_label(newer, lang, names))}: {_dated(newer, lang, names)}"
    b = f"{fact_label(older, lang, names)}: {_dated(older, lang, names)}"
    return f"{a}; {b} — {direction(delta, newer.lower_is_better, lang, size)}."


def trend_sentence(change: Ref, lang: Language, names: Mapping[str, str]) -> str:
    value = change.value or 0.0
    if lang == "ko":
        how = (
            "변화 없음"
            if value == 0
            else (
                ("느려짐" if value > 0 else "빨라짐") if change.lower_is_better else ("증가" if value > 0 else "감소")
            )
        )
    else:
        how = (
            "no change"
            if value == 0
            else (
                ("slower" if value > 0 else "faster")
                if change.lower_is_better
                else ("an increase" if value > 0 else "a decrease")
            )
        )
    return f"{_upper_first(fact_label(change, lang, names))}: {value_text(change, lang, names)} ({how})."


def gap_sentence(gap: Ref, lang: Language, names: Mapping[str, str]) -> str:
    """``No entries of squat (March 2021).`` — what code looked for and did not find."""
    what = ", ".join(names.get(t, t) for t in gap.terms) if lang == "ko" else ", ".join(gap.terms)
    when = f" ({render_period(gap.scope[0], gap.scope[1], lang)})" if gap.scope is not None else ""
    if lang == "ko":
        return f"{what + ' ' if what else ''}기록을 찾지 못했어요{when}."
    return f"I found no entries{' of ' + what if what else ''}{when}."


def claim_lines(kept: Kept, table: RefTable, lang: Language, names: Mapping[str, str]) -> list[str]:
    """The lines one kept claim reads as: code's sentences, then the model's note."""
    refs = kept.refs
    lines: list[str]
    if kept.kind == "comparison":
        lines = [comparison_sentence(refs[0], refs[1], lang, names)]
    elif kept.kind == "trend":
        lines = [trend_sentence(r, lang, names) for r in refs]
    elif kept.kind in ("article", "advice"):
        lines = []
    else:
        lines = [value_sentence(r, lang, names) for r in refs]
    note = kept.note
    if note and kept.kind == "article":
        titles = ", ".join(f"“{r.text}”" for r in refs if r.kind == "source")
        note = f"{render_text(note, table, lang, names).rstrip()} ({titles})"
        note = note if note.endswith((".", "!", "?")) else note + "."
    if note:
        if lines and lines[-1].startswith("- "):
            lines.append(note)
        elif lines:
            lines[-1] = f"{lines[-1]} {note}"
        else:
            lines.append(note)
    return lines


def compose(
    kept: Sequence[Kept],
    must: Sequence[Kept],
    remark: str,
    table: RefTable,
    lang: Language,
    names: Mapping[str, str],
) -> tuple[str, list[Ref]]:
    """The answer's text and the values it states.

    Args:
        kept: The claims that passed the check, in the model's order.
        must: The claims code makes for what it read the question to ask
            (:func:`engine.query.asked.answering`); each comes first unless a
            kept claim already states its values.
        remark: The model's closing words (checked), or empty.
    """
    stated = {r.id for k in kept for r in k.refs if k.kind not in ("advice", "article")}
    first = [k for k in must if not {r.id for r in k.refs} <= stated]
    lines: list[str] = []
    used: list[Ref] = []
    for k in [*first, *kept]:
        for line in claim_lines(k, table, lang, names):
            if line not in lines:
                lines.append(line)
        used.extend(k.refs)
    if remark:
        lines.append(remark)
    return "\n".join(lines), used
