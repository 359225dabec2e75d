"""Deterministic facts about a person's entries, computed in code for the answer.

The model may only repeat numbers; every number it may say is computed here
and handed over as a :class:`Fact` (``facts_text`` renders them for the prompt,
``engine.grounding`` checks the answer against them).

Rules:

* Only ``status == "active"`` and ``kind == "parsed"`` entries count; notes and
  plans are not things done.
* A session is one calendar day: two entries for the same exercise (or the
  same domain) on one day are one session, because people often log one
  workout in several messages. Runs and swims are the exception: each entry
  is its own run or swim, since doubles are common and each has its own pace.
* Estimated 1RM is Epley, ``w * (1 + reps/30)``; a single is its own weight;
  sets with 0 reps (a missed lift) or no weight have none, and a missed
  lift is no heaviest set either. Volume is the sum of ``weight * reps``
  over the weighted sets; bodyweight exercises (no weight on any set) use
  total reps instead.
* Units: weights are never mixed silently. An exercise logged in one unit
  (kg or lb) keeps that unit everywhere. Only an exercise logged in both is
  compared in kg, lb converted at 0.45359237; its labels say so and sets
  show both ("135 lb (61.2 kg) × 5"). Weights with no unit are used only
  when the exercise has no known unit at all (they are shown unit-less).
* ``value`` keeps full precision; ``display`` rounds to one decimal (times to
  whole seconds). Durations are in seconds (unit ``s``); paces are
  ``min/km`` or ``min/100m`` in decimal minutes, displayed ``5:06/km``.
* Ties for a best go to the earliest date: that is when the record was set.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from operator import itemgetter
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.store.entries import Entry

LB_TO_KG = 0.45359237
RECENT_SESSIONS = 5
"""Per-session facts (volume, per run) cover only this many latest sessions, to keep the prompt small."""
RECENT_WEEKS = 4
"""Weekly volume facts cover this many latest weeks that have data."""

# Logged in these domains, an entry is not a workout (a meal is not a session).
_NOT_TRAINING = frozenset({"nutrition"})


class Fact(BaseModel):
    """One number the answer may use, with where it comes from."""

    model_config = ConfigDict(frozen=True)

    key: str
    """Stable id, e.g. ``bench press.best_e1rm``."""
    label: str
    """What it is, in words, e.g. ``best estimated 1RM for bench press``."""
    value: float
    unit: str
    display: str
    """The exact text the answer should use, e.g. ``73.3 kg`` or ``5:06/km``."""
    on: date | None = None
    """The date of the entry it comes from, when it comes from one."""
    dates: list[date] = Field(default_factory=list)
    entry_ids: list[str] = Field(default_factory=list)


# ---------------------------------------------------------------- parsing values


_NUMBER = re.compile(r"\s*([+-]?)(\d{1,3}(?:,\d{3})+|\d+)(?:[.,](\d+))?")
# A trailing "/km" or "per 100m" is allowed: paces are sometimes stored with it.
_CLOCK = re.compile(r"\s*(\d+):(\d{1,2})(?::(\d{1,2}))?(?:[.,](\d+))?\s*(?:(?:/|per\b).*)?$")
_APOSTROPHE = re.compile(r"\s*(\d+)\s*['′]\s*(\d{1,2})\s*(?:\"|″|'')?\s*$")
_PART = re.compile(
    r"(\d+(?:[.,]\d+)?)\s*(hours?|hrs?|h|시간|minutes?|mins?|min|m|분|seconds?|secs?|sec|s|초)(?![a-z])",
    re.IGNORECASE,
)
_PART_SECONDS = {"h": 3600.0, "시": 3600.0, "m": 60.0, "분": 60.0, "s": 1.0, "초": 1.0}


def parse_number(text: str) -> float | None:
    """The leading number of a value as written: ``"5.2"``, ``"5,2"``, ``"1,500"``, ``"5km"``.

    A comma before exactly three digits is a thousands separator, otherwise a
    decimal comma.
    """
    m = _NUMBER.match(text)
    if m is None:
        return None
    whole = m.group(2).replace(",", "")
    value = float(f"{whole}.{m.group(3)}" if m.group(3) else whole)
    return -value if m.group(1) == "-" else value


def parse_duration(text: str, unit: str = "") -> float | None:
    """Seconds in a duration as written.

    ``"25:30"`` is 1530 (two groups are minutes:seconds), ``"1:52:40"`` is 6760,
    ``"52분"``/``"52 min"``/``"1h 5m"``/``"5'30\\""`` are read by their words. A
    bare number takes ``unit`` (h, min, s), and minutes when there is none, as
    the log schemas write "32 min = 32:00".

    Returns:
        Seconds, or None when the text holds no duration.
    """
    if m := _CLOCK.match(text):
        a, b, c = int(m.group(1)), int(m.group(2)), m.group(3)
        frac = float("0." + m.group(4)) if m.group(4) else 0.0
        return (a * 3600 + b * 60 + int(c) if c is not None else a * 60 + b) + frac
    if m := _APOSTROPHE.match(text):
        return int(m.group(1)) * 60.0 + int(m.group(2))
    parts = _PART.findall(text)
    if parts:
        return sum(float(n.replace(",", ".")) * _PART_SECONDS[word[0].lower()] for n, word in parts)
    number = parse_number(text)
    if number is None:
        return None
    scale = {"h": 3600.0, "hr": 3600.0, "s": 1.0, "sec": 1.0}.get(unit.strip().lower(), 60.0)
    return number * scale


def epley(weight: float, reps: int) -> float | None:
    """Estimated 1RM by Epley, ``w * (1 + reps/30)``; a single is its own weight; 0 reps: None."""
    if reps <= 0:
        return None
    return weight if reps == 1 else weight * (1 + reps / 30)


# ---------------------------------------------------------------- display


def _fmt(x: float) -> str:
    """At most one decimal: 73.333 -> "73.3", 2750.0 -> "2750"."""
    text = f"{x:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def _signed(x: float) -> str:
    text = _fmt(x)
    return text if text.startswith("-") or text == "0" else "+" + text


def _with_unit(text: str, unit: str) -> str:
    return f"{text} {unit}" if unit else text


def clock(seconds: float) -> str:
    """``M:SS`` or ``H:MM:SS``, rounded to the nearest second."""
    total = int(seconds + 0.5)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _week(day: date) -> str:
    iso = day.isocalendar()
    return f"{iso.year}-W{iso.week:02d}"


def _dates_text(fact: Fact) -> str:
    if fact.on is not None:
        return f" ({fact.on.isoformat()})"
    if not fact.dates:
        return ""
    if len(fact.dates) <= 3:
        return " (" + ", ".join(d.isoformat() for d in fact.dates) + ")"
    # A long list would flood the prompt; the span is what the reader needs.
    return f" ({fact.dates[0].isoformat()} … {fact.dates[-1].isoformat()})"


def facts_text(facts: Iterable[Fact]) -> str:
    """Facts as prompt lines: ``- label: display (date(s))``."""
    return "\n".join(f"- {f.label}: {f.display}{_dates_text(f)}" for f in facts)


# ---------------------------------------------------------------- scanning


# A row: one logged exercise in one entry (or one day, once merged), read by
# the scan. Weights are in the exercise's comparison unit except the ``*_W``
# fields, which are as logged in ``*_UNIT`` (None when no weighted set);
# -1 marks a number its sets do not give (no weighted set, no bodyweight set).
# A row is built for every logged exercise, so it is a plain tuple of atomic
# values and not a NamedTuple: the garbage collector untracks such tuples at
# its first pass, where it would traverse 10,000 NamedTuples (or rows holding
# the logged dict) again and again, which cost more than all the sums. The
# logged exercise is found again by position (AT, EX_AT).
_Row = tuple[Any, ...]
(
    _DAY, _ENTRY_ID, _AT, _EX_AT, _VOLUME, _TOP, _TOP_W, _TOP_R, _TOP_UNIT,
    _E1, _E1_W, _E1_R, _E1_UNIT, _REPS, _MAX_REPS,
) = range(15)
"""Row fields. AT: index of the entry in the entries given; EX_AT: of the
exercise in its ``data["exercises"]``; REPS and MAX_REPS: total and most reps
of bodyweight (no weight) sets."""


def _sum(a: float, b: float) -> float:
    return a + b if a >= 0 and b >= 0 else max(a, b)


def _merge(a: _Row, b: _Row) -> _Row:
    """Two rows of one exercise on one day as one session (a workout logged in two messages)."""
    top = a if (a[_TOP], a[_TOP_R]) >= (b[_TOP], b[_TOP_R]) else b
    e1 = a if a[_E1] >= b[_E1] else b
    return (
        a[_DAY], a[_ENTRY_ID], a[_AT], a[_EX_AT], _sum(a[_VOLUME], b[_VOLUME]),
        *top[_TOP : _TOP_UNIT + 1], *e1[_E1 : _E1_UNIT + 1],
        _sum(a[_REPS], b[_REPS]), max(a[_MAX_REPS], b[_MAX_REPS]),
    )


@dataclass(slots=True)
class _Bout:
    """One run or swim. Distance in km (runs) or m (swims); pace in s per km or per 100 m."""

    day: date
    entry_id: str
    distance: float | None
    seconds: float | None
    pace: float | None
    kind: str


@dataclass(slots=True)
class _Scan:
    lifts: dict[str, list[_Row]] = field(default_factory=dict)
    unordered: set[str] = field(default_factory=set)
    """Exercises whose rows are not one per day in date order."""
    sessions: dict[str, dict[date, list[str]]] = field(default_factory=dict)
    bouts: dict[str, list[_Bout]] = field(default_factory=dict)


def _metrics(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {
        str(m.get("name", "")): (str(m.get("value", "")), str(m.get("unit") or ""))
        for m in data.get("metrics") or ()
    }


def _metric_number(metrics: dict[str, tuple[str, str]], name: str) -> float | None:
    got = metrics.get(name)
    return parse_number(got[0]) if got else None


def _run(day: date, entry_id: str, metrics: dict[str, tuple[str, str]]) -> _Bout:
    km = _metric_number(metrics, "distance_km")
    if km is None and "distance" in metrics:
        # Tolerate a generic distance; the schema asks for km but models drift.
        value, unit = metrics["distance"]
        n = parse_number(value)
        scale = {"m": 0.001, "mi": 1.609344}.get(unit.strip().lower(), 1.0)
        km = n * scale if n is not None else None
    seconds = parse_duration(*metrics["duration"]) if "duration" in metrics else None
    pace = None
    if km and seconds:
        pace = seconds / km
    elif "pace" in metrics:
        pace = parse_duration(metrics["pace"][0])
    kind = metrics.get("run_type", ("", ""))[0].strip()
    return _Bout(day, entry_id, km, seconds, pace, kind)


def _swim(day: date, entry_id: str, metrics: dict[str, tuple[str, str]]) -> _Bout:
    metres = _metric_number(metrics, "distance_m")
    if metres is None:
        km = _metric_number(metrics, "distance_km")
        lengths, pool = _metric_number(metrics, "lengths"), _metric_number(metrics, "pool_length_m")
        metres = km * 1000 if km is not None else (lengths * pool if lengths and pool else None)
    seconds = parse_duration(*metrics["duration"]) if "duration" in metrics else None
    pace = None
    if metres and seconds:
        pace = seconds / metres * 100
    elif "pace_per_100m" in metrics:
        pace = parse_duration(metrics["pace_per_100m"][0])
    stroke = metrics.get("stroke", ("", ""))[0].strip().lower()
    return _Bout(day, entry_id, metres, seconds, pace, stroke)


def _scan(
    entries: Sequence[Entry],
    wanted: Collection[str] | None,
    *,
    cardio: bool = True,
    factors: Mapping[str, Mapping[str, float]] | None = None,
) -> _Scan:
    """One pass over the entries, collecting everything the facts need.

    Args:
        entries: As given to :func:`compute_facts`.
        wanted: Exercises to read (canonical, lower case); None for all.
        cardio: Whether to read runs and swims.
        factors: Per exercise, the factor from each weight unit to its
            comparison unit (a unit left out is not counted). Without it
            weights are read as logged; :func:`_lifts` scans again, with
            factors, the rare exercise logged in more than one unit.
    """
    scan = _Scan()
    lifts, names = scan.lifts, dict[Any, str]()
    for at, e in enumerate(entries):
        if e.status != "active" or e.kind != "parsed":
            continue
        day, eid, data = e.occurred_on, e.entry_id, e.data
        if e.domain not in _NOT_TRAINING and factors is None:
            scan.sessions.setdefault(e.domain, {}).setdefault(day, []).append(eid)
        for ex_at, ex in enumerate(data.get("exercises") or ()):
            raw = ex.get("name")
            name = names.get(raw)
            if name is None:
                name = names[raw] = str(raw or "").strip().lower()
            if not name or (wanted is not None and name not in wanted):
                continue
            unit = ex.get("weight_unit") or ""
            factor = factors[name].get(unit, 0.0) if factors is not None else 1.0
            # Hot loop, over every set of every session: inline, locals only, no calls.
            volume, top_w, top_r, e1, e1_w, e1_r = 0.0, -1.0, 0, -1.0, 0.0, 0
            reps, max_reps = 0, -1
            last_w, last_r, last_v = None, None, 0.0
            for st in ex.get("set_details") or ():
                r = st.get("reps")
                w = st.get("weight")
                if w == last_w and r == last_r:  # straight sets: a repeat adds only volume
                    volume += last_v
                    continue
                if r is None:
                    continue
                if w is None:
                    reps += r
                    if r > max_reps:
                        max_reps = r
                    continue
                last_w, last_r, last_v = w, r, w * r
                volume += last_v
                if r > 0:  # a missed lift (0 reps) is no heaviest set and no 1RM
                    if w > top_w or (w == top_w and r > top_r):
                        top_w, top_r = w, r
                    est = w if r == 1 else w * (1 + r / 30)
                    if est > e1:
                        e1, e1_w, e1_r = est, w, r
            if max_reps < 0:
                reps = -1
            if top_w < 0 or not factor:
                row: _Row = (day, eid, at, ex_at, -1.0, -1.0, -1.0, 0, None, -1.0, 0.0, 0, None, reps, max_reps)
            elif factor == 1.0:
                row = (day, eid, at, ex_at, volume, top_w, top_w, top_r, unit, e1, e1_w, e1_r, unit, reps, max_reps)
            else:
                row = (
                    day, eid, at, ex_at, volume * factor, top_w * factor, top_w, top_r, unit,
                    e1 * factor if e1 >= 0 else -1.0, e1_w, e1_r, unit, reps, max_reps,
                )
            rows = lifts.get(name)
            if rows is None:
                lifts[name] = [row]
            else:
                if rows[-1][_DAY] >= day:
                    scan.unordered.add(name)
                rows.append(row)
        if not cardio:
            continue
        sport = e.domain if e.domain in _SPORTS else e.activity_type
        if sport == "running":
            scan.bouts.setdefault(sport, []).append(_run(day, eid, _metrics(data)))
        elif sport == "swimming":
            scan.bouts.setdefault(sport, []).append(_swim(day, eid, _metrics(data)))
    return scan


# ---------------------------------------------------------------- strength


_BY_DAY = itemgetter(_DAY)
_BY_ID = itemgetter(_ENTRY_ID)


@dataclass(slots=True)
class _Lift:
    """One exercise: its sessions (one row per day, by date) in one comparison unit."""

    name: str
    unit: str
    converted: bool
    weighted: bool
    days: list[_Row]
    more: dict[date, list[_Row]]
    """The other rows of days logged in several entries (their ids and sets)."""
    entries: Sequence[Entry]

    @property
    def note(self) -> str:
        return " (lb converted to kg)" if self.converted else ""

    def ids(self, row: _Row) -> list[str]:
        return list(dict.fromkeys([row[_ENTRY_ID], *(r[_ENTRY_ID] for r in self.more.get(row[_DAY], ()))]))

    def logs(self, row: _Row) -> list[dict[str, Any]]:
        """The logged exercises (``data["exercises"]`` items) of the row's day."""
        rows = [row, *self.more.get(row[_DAY], ())]
        return [self.entries[r[_AT]].data["exercises"][r[_EX_AT]] for r in rows]

    def all_ids(self, rows: Iterable[_Row]) -> list[str]:
        if not self.more:
            return list(map(_BY_ID, rows))
        return [i for r in rows for i in self.ids(r)]


def _set_text(w: float, r: int, logged_unit: str | None, unit: str) -> str:
    """``55 kg × 10``, or ``135 lb (61.2 kg) × 5`` when converted to ``unit``.

    Built only for sets that are shown: formatting every session's sets would
    cost more than computing them.
    """
    if logged_unit == unit or logged_unit is None:
        return f"{_with_unit(_fmt(w), unit)} × {r}"
    return f"{_fmt(w)} {logged_unit} ({_fmt(w * LB_TO_KG)} {unit}) × {r}"


def _comparison_unit(units: set[str]) -> tuple[str, dict[str, float]]:
    """The unit an exercise logged in ``units`` is compared in, and the factor from each.

    Both kg and lb: kg. A known unit beside unit-less weights: the known one,
    the unit-less left out (no guessing).
    """
    known = sorted(units - {""})
    if len(known) > 1:
        return "kg", {"kg": 1.0, "lb": LB_TO_KG}
    unit = known[0] if known else next(iter(units), "")
    return unit, {unit: 1.0}


def _lifts(entries: Sequence[Entry], scan: _Scan) -> list[_Lift]:
    """Each scanned exercise as one session per day, by date, in one comparison unit."""
    # Units of the weighted rows (unweighted ones have None), read at C speed.
    units: dict[str, set[str]] = {
        name: set(map(itemgetter(_TOP_UNIT), rows)) - {None} for name, rows in scan.lifts.items()
    }
    plans = {name: _comparison_unit(u) for name, u in units.items()}
    mixed = {name: plan[1] for name, plan in plans.items() if len(units[name]) > 1}
    rows_of, unordered = scan.lifts, scan.unordered
    if mixed:
        again = _scan(entries, mixed.keys(), cardio=False, factors=mixed)
        rows_of, unordered = {**rows_of, **again.lifts}, unordered | again.unordered
    out = []
    for name in sorted(rows_of):
        rows, more = rows_of[name], dict[date, list[_Row]]()
        if name in unordered:
            rows.sort(key=_BY_DAY)  # stable: same-day rows stay in entry order
            days: list[_Row] = []
            for r in rows:
                if days and days[-1][_DAY] == r[_DAY]:
                    more.setdefault(r[_DAY], []).append(r)
                    days[-1] = _merge(days[-1], r)
                else:
                    days.append(r)
            rows = days
        unit = plans[name][0]
        out.append(_Lift(name, unit, unit == "kg" and "lb" in units[name], bool(units[name]), rows, more, entries))
    return out


def _summary(logs: Sequence[dict[str, Any]]) -> tuple[int, str]:
    """Set count and a short text of one session's sets: ``55 kg × 10 reps × 5 sets``."""
    count, parts = 0, []
    for ex in logs:
        details = ex.get("set_details") or []
        unit = ex.get("weight_unit") or ""
        if not details:
            n = int(ex.get("sets") or 0)
            count += n
            parts.append(f"{n} sets")
            continue
        count += len(details)
        pairs = [(s.get("weight"), s.get("reps")) for s in details]
        w, r = pairs[0]
        if all(p == pairs[0] for p in pairs):
            head = _with_unit(_fmt(w), unit) + " × " if w is not None else ""
            reps = f"{r} reps" if r is not None else "? reps"
            parts.append(f"{head}{reps} × {len(pairs)} set{'s' if len(pairs) != 1 else ''}")
        else:
            body = ", ".join(
                f"{_fmt(w) if w is not None else 'BW'}×{r if r is not None else '?'}" for w, r in pairs
            )
            parts.append(_with_unit(body, unit))
    return count, "; ".join(parts)


@dataclass(frozen=True, slots=True)
class _Measure:
    """A per-session number: its best over all sessions, and compared between sessions."""

    key: str
    noun: str
    best_key: str
    best_label: str
    order: tuple[int, ...]
    """Row fields to maximise; the first is the value."""
    show: Callable[[_Row, str], str]
    kind: Literal["weight", "volume", "reps"]

    def get(self, row: _Row) -> float | None:
        value: float = row[self.order[0]]
        return value if value >= 0 else None

    def best(self, rows: Sequence[_Row]) -> _Row | None:
        """The highest value, earliest on ties (when the record was set)."""
        if not rows:
            return None
        # max() with a C key function: this runs over every session.
        top = max(rows, key=itemgetter(*self.order))
        return top if self.get(top) is not None else None

    def unit(self, unit: str) -> str:
        """The fact unit, given the exercise's weight unit."""
        if self.kind == "reps":
            return "reps"
        if self.kind == "volume":
            return f"{unit}·reps" if unit else "weight·reps"
        return unit

    def short_unit(self, unit: str) -> str:
        """The unit a value is shown in (volume reads as kg, not kg·reps)."""
        return "reps" if self.kind == "reps" else unit


def _reps_text(value: float) -> str:
    return f"{_fmt(value)} reps"


_WEIGHTED = (
    _Measure(
        "heaviest", "heaviest set", "heaviest_set", "heaviest set of", (_TOP, _TOP_R),
        lambda r, u: _set_text(r[_TOP_W], r[_TOP_R], r[_TOP_UNIT], u), "weight",
    ),
    _Measure(
        "e1rm", "estimated 1RM", "best_e1rm", "best estimated 1RM (Epley) for", (_E1,),
        lambda r, u: _with_unit(_fmt(r[_E1]), u), "weight",
    ),
    _Measure(
        "volume", "volume (weight × reps)", "best_volume", "biggest session volume (weight × reps) of",
        (_VOLUME,), lambda r, u: _with_unit(_fmt(r[_VOLUME]), u), "volume",
    ),
)
_BODYWEIGHT = (
    _Measure(
        "most_reps", "most reps in a set", "most_reps", "most reps in one set of", (_MAX_REPS,),
        lambda r, u: _reps_text(r[_MAX_REPS]), "reps",
    ),
    _Measure(
        "total_reps", "total reps", "best_total_reps", "most total reps in one session of", (_REPS,),
        lambda r, u: _reps_text(r[_REPS]), "reps",
    ),
)


def _lift_facts(lift: _Lift, today: date | None) -> list[Fact]:
    name, unit, note, days = lift.name, lift.unit, lift.note, lift.days
    last = days[-1]
    count, summary = _summary(lift.logs(last))
    out = [
        Fact(
            key=f"{name}.sessions", label=f"{name} sessions logged", value=len(days),
            unit="sessions", display=f"{len(days)} session{'s' if len(days) != 1 else ''}",
            dates=list(map(_BY_DAY, days)), entry_ids=lift.all_ids(days),
        ),
        Fact(
            key=f"{name}.last", label=f"last {name} session", value=count, unit="sets",
            display=summary, on=last[_DAY], dates=[last[_DAY]], entry_ids=lift.ids(last),
        ),
    ]
    if today is not None:
        ago = (today - last[_DAY]).days
        out.append(
            Fact(
                key=f"{name}.days_since_last", label=f"days since the last {name} session", value=ago,
                unit="days", display=f"{ago} day{'s' if ago != 1 else ''}", dates=[last[_DAY], today],
                entry_ids=lift.ids(last),
            )
        )

    def one(key: str, label: str, value: float, m: _Measure, display: str, r: _Row) -> Fact:
        return Fact(
            key=f"{name}.{key}", label=label + note, value=value, unit=m.unit(unit),
            display=display, on=r[_DAY], dates=[r[_DAY]], entry_ids=lift.ids(r),
        )

    measures = _WEIGHTED if lift.weighted else _BODYWEIGHT
    for m in measures:
        best = m.best(days)
        if best is None or (value := m.get(best)) is None:
            continue
        out.append(one(m.best_key, f"{m.best_label} {name}", value, m, m.show(best, unit), best))
        if m.key == "e1rm":
            shown = f"{_set_text(best[_E1_W], best[_E1_R], best[_E1_UNIT], unit)} (e1RM {m.show(best, unit)})"
            out.append(one("best_set", f"best {name} set by estimated 1RM", value, m, shown, best))
    size = measures[-1]
    per = f"{size.noun} of {name}"
    recent = [r for r in days[-4 * RECENT_SESSIONS :] if size.get(r) is not None][-RECENT_SESSIONS:]
    for r in recent:
        day = r[_DAY].isoformat()
        out.append(one(f"volume.{day}", f"{per} on {day}", size.get(r) or 0.0, size, size.show(r, unit), r))
    # Walk back from the latest session: only the last weeks are shown, and the
    # ISO calendar is too slow to compute for every session.
    weeks: dict[str, list[_Row]] = {}
    for r in reversed(days):
        if size.get(r) is None:
            continue
        week = _week(r[_DAY])
        if week not in weeks and len(weeks) == RECENT_WEEKS:
            break
        weeks.setdefault(week, []).insert(0, r)
    for week in sorted(weeks):
        group = weeks[week]
        total = sum(size.get(r) or 0.0 for r in group)
        monday = group[0][_DAY] - timedelta(days=group[0][_DAY].weekday())
        sunday = monday + timedelta(days=6)
        out.append(
            Fact(
                key=f"{name}.week_volume.{week}",
                label=f"{per} in week {week} ({monday.isoformat()} to {sunday.isoformat()}){note}",
                value=total, unit=size.unit(unit),
                display=_with_unit(_fmt(total), size.short_unit(unit)),
                dates=list(map(_BY_DAY, group)), entry_ids=lift.all_ids(group),
            )
        )
    return out


def _pct(delta: float, base: float) -> float | None:
    return delta / base * 100 if base else None


def _compare(lift: _Lift) -> list[Fact]:
    """Latest session vs the previous one and vs the best before it, per measure."""
    name, note, unit = lift.name, lift.note, lift.unit
    *earlier, last = lift.days
    out: list[Fact] = []
    for m in _WEIGHTED if lift.weighted else _BODYWEIGHT:
        now = m.get(last)
        if now is None:
            continue
        fact_unit, delta_unit = m.unit(unit), m.short_unit(unit)
        out.append(
            Fact(
                key=f"{name}.latest.{m.key}", label=f"{m.noun} in the latest {name} session{note}",
                value=now, unit=fact_unit, display=m.show(last, unit), on=last[_DAY], dates=[last[_DAY]],
                entry_ids=lift.ids(last),
            )
        )
        previous = next((r for r in reversed(earlier) if m.get(r) is not None), None)
        for side, other in (("previous", previous), ("previous_best", m.best(earlier))):
            then = m.get(other) if other is not None else None
            if other is None or then is None:
                continue
            if side == "previous":
                what, verdict = "the previous session", ""
                then_label = f"{m.noun} in the previous {name} session"
            else:
                what = "the previous best"
                # Ranked like the best itself, so 55 kg × 10 beats 55 kg × 5.
                rank = itemgetter(*m.order)
                verdict = (
                    ", a new best" if rank(last) > rank(other)
                    else ", equal to the best" if rank(last) == rank(other) else ", below the best"
                )
                then_label = f"previous best {m.noun} of {name} (before the latest session)"
            delta = now - then
            dates, ids = [other[_DAY], last[_DAY]], [*lift.ids(other), *lift.ids(last)]
            vs = f"latest {last[_DAY].isoformat()} vs {what} {other[_DAY].isoformat()}"
            out.append(
                Fact(
                    key=f"{name}.{side}.{m.key}", label=then_label + note, value=then, unit=fact_unit,
                    display=m.show(other, unit), on=other[_DAY], dates=[other[_DAY]], entry_ids=lift.ids(other),
                )
            )
            out.append(
                Fact(
                    key=f"{name}.vs_{side}.{m.key}", label=f"change in {m.noun} of {name}, {vs}{verdict}{note}",
                    value=delta, unit=delta_unit, display=_with_unit(_signed(delta), delta_unit),
                    dates=dates, entry_ids=ids,
                )
            )
            if (pct := _pct(delta, then)) is not None:
                out.append(
                    Fact(
                        key=f"{name}.vs_{side}.{m.key}_pct", label=f"change in {m.noun} of {name} in percent, {vs}",
                        value=pct, unit="%", display=_signed(pct) + "%", dates=dates, entry_ids=ids,
                    )
                )
    return out


def compare_latest(entries: Sequence[Entry], exercise: str) -> list[Fact]:
    """The latest session of ``exercise`` against the previous session and the previous best.

    For weighted exercises the measures are heaviest set, estimated 1RM and
    volume; for bodyweight ones most reps in a set and total reps. Each gives
    the latest value, the other side's value with its date, the change in the
    unit and in percent. With one session only the latest values are given.

    Args:
        entries: The person's entries (any order).
        exercise: Canonical exercise name, case-insensitive.

    Returns:
        Facts, or an empty list when the exercise was never logged.
    """
    name = exercise.strip().lower()
    lifts = _lifts(entries, _scan(entries, {name}, cardio=False))
    return _compare(lifts[0]) if lifts else []


# ---------------------------------------------------------------- running and swimming


@dataclass(frozen=True, slots=True)
class _Sport:
    noun: str
    distance_unit: str
    pace_unit: str
    pace_suffix: str


_SPORTS = {
    "running": _Sport("run", "km", "min/km", "/km"),
    "swimming": _Sport("swim", "m", "min/100m", "/100m"),
}


def _bout_facts(domain: str, bouts: list[_Bout]) -> list[Fact]:
    sport = _SPORTS[domain]
    dist_unit = sport.distance_unit
    bouts = sorted(bouts, key=lambda b: b.day)
    out: list[Fact] = []
    measured = [b for b in bouts if b.distance is not None]
    if measured:
        total = sum(b.distance or 0.0 for b in measured)
        out.append(
            Fact(
                key=f"{domain}.total_distance", label=f"total {sport.noun} distance", value=total,
                unit=dist_unit, display=f"{_fmt(total)} {dist_unit}", dates=[b.day for b in measured],
                entry_ids=[b.entry_id for b in measured],
            )
        )
        far = _best_bout(measured, lambda b: b.distance)
        out.append(_bout_fact(f"{domain}.longest", f"longest {sport.noun}", far.distance or 0.0, dist_unit,
                              f"{_fmt(far.distance or 0.0)} {dist_unit}", far))
    # Swims are compared per stroke (freestyle is faster than breaststroke); runs all together.
    groups: dict[str, list[_Bout]] = {}
    for b in bouts:
        if b.pace is not None:
            groups.setdefault(b.kind if domain == "swimming" else "", []).append(b)
    for kind in sorted(groups):
        fast = _best_bout(groups[kind], lambda b: -(b.pace or 0.0))
        pace = fast.pace or 0.0
        out.append(
            _bout_fact(
                f"{domain}.best_pace" + (f".{kind}" if kind else ""),
                f"fastest average pace of a {kind + ' ' if kind else ''}{sport.noun}",
                pace / 60, sport.pace_unit, clock(pace) + sport.pace_suffix, fast,
            )
        )
    seen: dict[date, int] = {}
    for b in bouts[-RECENT_SESSIONS:]:
        seen[b.day] = seen.get(b.day, 0) + 1
        stem = f"{domain}.{b.day.isoformat()}" + (f"#{seen[b.day]}" if seen[b.day] > 1 else "")
        what = f"the {sport.noun} on {b.day.isoformat()}" + (f" ({b.kind})" if b.kind else "")
        if b.distance is not None:
            out.append(_bout_fact(f"{stem}.distance", f"distance of {what}", b.distance, dist_unit,
                                  f"{_fmt(b.distance)} {dist_unit}", b))
        if b.seconds is not None:
            out.append(_bout_fact(f"{stem}.duration", f"time of {what}", b.seconds, "s", clock(b.seconds), b))
        if b.pace is not None:
            out.append(_bout_fact(f"{stem}.pace", f"average pace of {what}", b.pace / 60, sport.pace_unit,
                                  clock(b.pace) + sport.pace_suffix, b))
    return out


def _best_bout(bouts: list[_Bout], get: Callable[[_Bout], float | None]) -> _Bout:
    """The bout with the highest value, earliest on ties (callers pass bouts that have one)."""
    best = bouts[0]
    for b in bouts[1:]:
        if (get(b) or 0.0) > (get(best) or 0.0):
            best = b
    return best


def _bout_fact(key: str, label: str, value: float, unit: str, display: str, b: _Bout) -> Fact:
    return Fact(key=key, label=label, value=value, unit=unit, display=display, on=b.day, dates=[b.day],
                entry_ids=[b.entry_id])


# ---------------------------------------------------------------- frequency


def _frequency(sessions: dict[str, dict[date, list[str]]], today: date | None) -> list[Fact]:
    """Sessions (one per domain per day) and sessions per week, overall and per domain.

    The period runs from the first session to ``today`` (or the last session),
    at least one week, so a three-day-old log does not claim 7 a week.
    """
    all_days = sorted({d for days in sessions.values() for d in days})
    if not all_days:
        return []
    start = all_days[0]
    end = max(all_days[-1], today) if today is not None else all_days[-1]
    weeks = max(1.0, ((end - start).days + 1) / 7)
    period = f"{start.isoformat()} to {end.isoformat()}, {_fmt(weeks)} weeks"
    out: list[Fact] = []
    rows = [("all", "workout", all_days, [i for days in sessions.values() for ids in days.values() for i in ids],
             sum(len(days) for days in sessions.values()))]
    rows += [(dom, dom, sorted(days), [i for ids in days.values() for i in ids], len(days))
             for dom, days in sorted(sessions.items())]
    for key, noun, dates, ids, count in rows:
        out.append(
            Fact(
                key=f"{key}.sessions", label=f"{noun} sessions ({period})", value=count, unit="sessions",
                display=f"{count} session{'s' if count != 1 else ''}", dates=dates, entry_ids=ids,
            )
        )
        rate = count / weeks
        out.append(
            Fact(
                key=f"{key}.sessions_per_week", label=f"{noun} sessions per week ({period})", value=rate,
                unit="sessions/week", display=f"{_fmt(rate)} per week", dates=[start, end],
            )
        )
    return out


# ---------------------------------------------------------------- entry point


def compute_facts(
    entries: Sequence[Entry],
    *,
    exercises: Sequence[str] | None = None,
    today: date | None = None,
) -> list[Fact]:
    """Every fact the answer may use, from one pass over the entries.

    Args:
        entries: The person's entries, any order; inactive and non-parsed ones are skipped.
        exercises: When given, exercise facts only for these (canonical, case-insensitive),
            plus the latest-vs-previous comparison for each, since naming an
            exercise usually means asking how it went.
        today: End of the frequency period and base for "days since".

    Returns:
        Frequency facts, then per exercise (alphabetical), then runs and swims.
    """
    wanted = frozenset(x.strip().lower() for x in exercises) if exercises is not None else None
    scan = _scan(entries, wanted)
    out = _frequency(scan.sessions, today)
    for lift in _lifts(entries, scan):
        out += _lift_facts(lift, today)
        if wanted is not None:
            out += _compare(lift)
    for domain in sorted(scan.bouts):
        out += _bout_facts(domain, scan.bouts[domain])
    return out
