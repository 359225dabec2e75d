"""Which records a new entry sets, against the bests before it and the records already announced.

Pure: :mod:`engine.store.records` reads the bests (one query) and writes what
is announced. A record is announced when the new value beats the best of
the person's active history *and* every record of the same kind announced
before for another entry still active, and is not a value announced for an
entry since undone or corrected: such an entry leaves its history, but not
what was said about it, so nothing is announced twice, and a typo taken back
does not stay the bar.

What counts: working sets only (completed, not a warm-up, not a failed
attempt); the estimated 1RM is Epley (:func:`engine.language.values.epley`,
the formula the ``entry_sets`` trigger stores); weights compare in kg across
units and show in the unit they were logged in. A session's volume is one
entry's weight × reps of the lift. Most reps at a weight, and the fastest pace
over a distance (within 5 %), need an earlier set at that weight or an earlier
bout at that distance; otherwise nothing is compared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from engine import progress_texts
from engine.domains.bouts import ReadBout
from engine.domains.model import Bout
from engine.language.values import epley
from engine.outcomes import Record, RecordKind

LB = 0.45359237
EPS = 1e-9
"""Two values closer than this are equal: a tie is no record (55 × 1 and 50 × 3 both estimate 55 kg, yet
differ in the last bit of their floats)."""
NEAR = 0.05
"""Two bouts are at one distance within this fraction of it (a 5 km and a 5.1 km run)."""


@dataclass(frozen=True, slots=True)
class Lifted:
    """One working set of the new entry."""

    lift: str
    weight: float | None
    unit: str
    reps: int

    @property
    def kg(self) -> float | None:
        return None if self.weight is None else self.weight * (LB if self.unit == "lb" else 1.0)

    @property
    def at(self) -> str:
        """The weight key of "most reps at a weight": kg to the hundredth, or ``bw``."""
        return "bw" if self.kg is None else f"{self.kg:.2f}"


@dataclass(frozen=True, slots=True)
class Prior:
    """A best before the new entry, as the query reads it."""

    weight: float | None
    unit: str
    reps: int | None
    value: float
    on: date


@dataclass(slots=True)
class Before:
    """What the history and the announced records say before the new entry."""

    bests: dict[tuple[str, str, str], Prior] = field(default_factory=dict)
    """(kind, subject, at) -> the best of the active history."""
    announced: dict[tuple[str, str, str], float] = field(default_factory=dict)
    """(kind, subject, at) -> the highest value announced for another entry that is still active."""
    gone: dict[tuple[str, str, str], set[float]] = field(default_factory=dict)
    """(kind, subject, at) -> the values announced for entries since undone or corrected: not said again."""
    seen: set[str] = field(default_factory=set)
    """Subjects with an earlier entry."""


@dataclass(frozen=True, slots=True)
class Found:
    """A record to announce, and the value kept for "once" (higher is better; a pace is negated)."""

    record: Record
    at: str
    score: float


def working_sets(data: Mapping[str, Any]) -> dict[str, list[Lifted]]:
    """The entry's completed, non-warm-up sets per lift (canonical name, lower case, as ``entry_sets``)."""
    out: dict[str, list[Lifted]] = {}
    for ex in data.get("exercises") or []:
        name = str(ex.get("name") or "").strip().lower() if isinstance(ex, Mapping) else ""
        if not name:
            continue
        unit = str(ex.get("weight_unit") or "")
        sets = out.setdefault(name, [])
        for d in ex.get("set_details") or []:
            reps, weight, kind = d.get("reps") or 0, d.get("weight"), str(d.get("kind") or "normal")
            if reps > 0 and kind not in ("warmup", "failure"):
                sets.append(
                    Lifted(name, None if weight is None else float(weight), unit if weight is not None else "", reps)
                )
    return out


def _num(x: float) -> str:
    text = f"{x:,.1f}"
    return text[:-2] if text.endswith(".0") else text


def _set(weight: float | None, unit: str, reps: int | None) -> str:
    head = f"{_num(weight)} {unit}".strip() if weight is not None else "BW"
    return f"{head} × {reps}"


def _clock(seconds: float) -> str:
    total = int(seconds + 0.5)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Judge:
    """The records of one new entry, in one language."""

    def __init__(self, before: Before, lang: str, names: Mapping[str, str] | None = None) -> None:
        self.b, self.lang = before, lang
        self.names: Mapping[str, str] = names or {}
        """A lift's name in the person's language (its canonical name when there is none)."""
        self.found: list[Found] = []

    def _beats(self, kind: str, subject: str, at: str, score: float, prior_score: float) -> bool:
        bar = self.b.announced.get((kind, subject, at))
        said = any(abs(score - g) <= EPS for g in self.b.gone.get((kind, subject, at), ()))
        return score > prior_score + EPS and (bar is None or score > bar + EPS) and not said

    def _add(self, kind: RecordKind, subject: str, at: str, score: float, **rec: Any) -> None:
        self.found.append(Found(Record(kind=kind, subject=subject, **rec), at, score))

    def first(self, subject: str, name: str) -> bool:
        """A subject never logged before: ``first`` once, and nothing to compare. True when it is new."""
        if subject in self.b.seen:
            return False
        if ("first", subject, "") not in self.b.announced and ("first", subject, "") not in self.b.gone:
            self._add(
                "first",
                subject,
                "",
                0.0,
                value=0.0,
                unit="",
                shown="",
                text=progress_texts.first_logged(name, self.lang),
            )
        return True

    def _line(self, kind: str, name: str, shown: str, before: str, on: date, at: str = "") -> str:
        return progress_texts.record_line(kind, name, shown, before, on, at, self.lang)

    def lift(self, lift: str, sets: list[Lifted]) -> None:
        """Heaviest set, most reps at each weight, best estimated 1RM, best session volume."""
        name = self.names.get(lift, lift)
        if not sets or self.first(lift, name):
            return
        weighted = [s for s in sets if s.kg is not None]
        if weighted and (p := self.b.bests.get(("heaviest", lift, ""))):
            top = max(weighted, key=lambda s: (s.kg or 0.0, s.reps))
            if self._beats("heaviest", lift, "", top.kg or 0.0, p.value):
                shown, before = _set(top.weight, top.unit, top.reps), _set(p.weight, p.unit, p.reps)
                self._add("heaviest", lift, "", top.kg or 0.0, value=top.weight or 0.0, unit=top.unit,
                          shown=shown, previous=p.weight, previous_shown=before, previous_on=p.on,
                          text=self._line("heaviest", name, shown, before, p.on))  # fmt: skip
        most: dict[str, Lifted] = {}
        for s in sets:
            if s.at not in most or s.reps > most[s.at].reps:
                most[s.at] = s
        for at, s in most.items():
            p = self.b.bests.get(("reps_at", lift, at))
            if p is not None and self._beats("reps_at", lift, at, s.reps, p.value):
                shown, before = _set(s.weight, s.unit, s.reps), _set(p.weight, p.unit, p.reps)
                where = f"{_num(s.weight)} {s.unit}".strip() if s.weight is not None else "BW"
                self._add("reps_at", lift, at, s.reps, value=s.reps, unit="reps", shown=shown,
                          previous=p.reps, previous_shown=before, previous_on=p.on,
                          text=self._line("reps_at" if s.kg is not None else "reps_bw", name, shown, before, p.on, where))  # fmt: skip
        self._e1rm(lift, weighted)
        self._volume(lift, weighted)

    def _e1rm(self, lift: str, weighted: list[Lifted]) -> None:
        p = self.b.bests.get(("e1rm", lift, ""))
        if not weighted or p is None or p.weight is None or p.reps is None:
            return
        best = max(weighted, key=lambda s: epley(s.kg or 0.0, s.reps) or 0.0)
        score = epley(best.kg or 0.0, best.reps) or 0.0
        if not self._beats("e1rm", lift, "", score, p.value):
            return
        mine, theirs = epley(best.weight or 0.0, best.reps) or 0.0, epley(p.weight, p.reps) or 0.0
        shown = progress_texts.estimate_from(
            f"{_num(mine)} {best.unit}".strip(), _set(best.weight, best.unit, best.reps), self.lang
        )
        before = progress_texts.estimate_from(
            f"{_num(theirs)} {p.unit}".strip(), _set(p.weight, p.unit, p.reps), self.lang
        )
        self._add("e1rm", lift, "", score, value=mine, unit=best.unit, shown=shown, previous=theirs,
                  previous_shown=before, previous_on=p.on, text=self._line("e1rm", self.names.get(lift, lift), shown, before, p.on))  # fmt: skip

    def _volume(self, lift: str, weighted: list[Lifted]) -> None:
        p = self.b.bests.get(("volume", lift, ""))
        if not weighted or p is None:
            return
        score = sum((s.kg or 0.0) * s.reps for s in weighted)
        if not self._beats("volume", lift, "", score, p.value):
            return
        # Shown in the unit it was logged in; a session in both kg and lb in kg.
        units = {s.unit for s in weighted}
        unit = next(iter(units)) if len(units) == 1 else "kg"
        mine = sum((s.weight or 0.0) * s.reps for s in weighted) if len(units) == 1 else score
        theirs = p.value / LB if unit == "lb" else p.value
        shown, before = f"{_num(mine)} {unit}".strip(), f"{_num(theirs)} {unit}".strip()
        self._add("volume", lift, "", score, value=mine, unit=unit, shown=shown, previous=theirs,
                  previous_shown=before, previous_on=p.on, text=self._line("volume", self.names.get(lift, lift), shown, before, p.on))  # fmt: skip

    def bout(self, sport: str, name: str, spec: Bout, b: ReadBout) -> None:
        """Longest distance; fastest pace at about this distance."""
        if self.first(sport, name):
            return
        unit = spec.distance_unit
        p = self.b.bests.get(("longest", sport, ""))
        if b.distance is not None and p is not None and self._beats("longest", sport, "", b.distance, p.value):
            shown, before = f"{_num(b.distance)} {unit}", f"{_num(p.value)} {unit}"
            self._add("longest", sport, "", b.distance, value=b.distance, unit=unit, shown=shown, previous=p.value,
                      previous_shown=before, previous_on=p.on, text=self._line("longest", name, shown, before, p.on))  # fmt: skip
        at = pace_at(b, spec)
        p = self.b.bests.get(("pace", sport, at))
        if b.pace is not None and b.distance and p is not None and self._beats("pace", sport, at, -b.pace, -p.value):
            shown, before = f"{_clock(b.pace)} {spec.pace_suffix}", f"{_clock(p.value)} {spec.pace_suffix}"
            self._add("pace", sport, at, -b.pace, value=b.pace, unit=f"s{spec.pace_suffix}", shown=shown,
                      previous=p.value, previous_shown=before, previous_on=p.on,
                      text=self._line("pace", name, shown, before, p.on, f"{_num(b.distance)} {unit}"))  # fmt: skip


def pace_at(b: ReadBout, spec: Bout) -> str:
    """The distance key of "fastest pace at a distance" (and the bout's kind, when paces go by kind)."""
    return f"{b.distance:.1f}|{b.kind if spec.pace_by_kind else ''}" if b.distance else ""
