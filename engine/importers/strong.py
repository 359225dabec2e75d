"""Strong app CSV exports -> entries, without the model.

One entry per workout: rows are grouped by (Date, Workout Name), which is how
Strong writes a workout (every set row carries the workout's start time).

* Headers are matched by name, in English or in a localized export (the
  Korean one says ``날짜, 워크아웃 이름, 운동 이름, 세트 순서, 체중, 렙, …``);
  unknown columns are ignored, optional ones may be missing.
* The delimiter (``,`` ``;`` or tab) is read off the header line; decimal
  commas (``62,5``) are accepted.
* A row that cannot be read (bad date, a non-number where a number belongs,
  no exercise) is reported with its line number and left out; the rest of the
  file is imported. Rows with no performance at all (Strong's rest-timer and
  empty sets: no weight, reps, distance or seconds) are ignored silently.
* Exercise names are mapped to canonical vocabulary terms (``Bench Press
  (Barbell)`` -> ``bench press``, ``Bench Press (Dumbbell)`` -> ``dumbbell
  bench press``, ``벤치프레스 (바벨)`` -> ``bench press``); the name as written
  is kept as ``source_name``.
* Cardio exercises (a running or general-fitness term such as ``Running
  (Treadmill)`` or ``Cycling (Indoor)``, or distance rows without weight) go
  to ``data["cardio"]``. A workout with only cardio becomes a ``running``
  entry when every cardio exercise is running, else ``general_fitness``; a
  workout with any strength sets is one ``strength`` entry.
* ``source_key`` is ``strong:<sha256>`` of the user and the workout's
  normalized rows, so importing the same file again, or a newer export that
  overlaps it, adds nothing for workouts already stored. The workout's
  identity (start time and name) is kept in ``data["import"]`` so that a
  workout edited in Strong since the last import can replace the old entry.

Nothing here prints, reads settings or touches the database.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import lru_cache
from typing import Any, Literal

from engine.agents.schemas import ExerciseLog, Metric, ParserOutput, SetDetail
from engine.domains.registry import DomainRegistry, DomainSelector
from engine.store.entries import NewEntry
from engine.summaries import summarize
from engine.vocab import Vocabulary

WeightUnit = Literal["kg", "lb"]
Progress = Callable[[int, int], None]
"""``progress(done, total)``, in data rows."""

_KM_PER_UNIT = {"km": 1.0, "mi": 1.609344, "m": 0.001}
_SET_KINDS = {"w": "warm-up", "d": "drop set", "f": "failure"}
_MAX_REPS = 1000  # SetDetail's bound

# Field -> header spellings (folded: NFC, casefolded, single spaces).
_HEADERS: dict[str, tuple[str, ...]] = {
    "date": ("date", "날짜", "일자", "일시"),
    "workout": ("workout name", "워크아웃 이름", "워크아웃", "운동 세션 이름"),
    "exercise": ("exercise name", "운동 이름", "운동명", "exercise"),
    "set_order": ("set order", "세트 순서", "세트 번호"),
    "weight": ("weight", "체중", "무게", "중량"),
    "weight_unit": ("weight unit", "무게 단위", "체중 단위", "중량 단위"),
    "reps": ("reps", "렙", "반복", "반복 횟수", "횟수"),
    "distance": ("distance", "거리"),
    "distance_unit": ("distance unit", "거리 단위"),
    "seconds": ("seconds", "초"),
    "rpe": ("rpe",),
    "notes": ("notes", "exercise notes", "메모", "노트", "운동 메모"),
    "workout_notes": ("workout notes", "워크아웃 메모", "워크아웃 노트"),
    "duration": ("duration", "workout duration", "워크아웃 시간", "지속 시간", "운동 시간", "기간"),
}
_LABELS = {
    "date": "Date (날짜)",
    "exercise": "Exercise Name (운동 이름)",
    "reps": "Reps (렙)",
    "seconds": "Seconds (초)",
}

_DATE = re.compile(
    r"(\d{4})\s*[-./]\s*(\d{1,2})\s*[-./]\s*(\d{1,2})\.?"
    r"(?:[\sT]+(?:(am|pm|오전|오후)\s*)?(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(am|pm|오전|오후)?)?"
    r"\s*(?:z|[+-]\d{2}:?\d{2})?",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_EQUIPMENT = re.compile(r"^(?P<base>.*?)\s*[(（](?P<equipment>[^()（）]*)[)）]\s*$")
_SPACES = re.compile(r"\s+")


class ImportFormatError(Exception):
    """The file as a whole cannot be imported; the message says why."""


class MissingColumnsError(ImportFormatError):
    """Required columns are absent; ``missing`` names them."""

    def __init__(self, missing: Sequence[str], found: Sequence[str]) -> None:
        self.missing = list(missing)
        self.found = list(found)
        shown = ", ".join(found) if found else "nothing"
        super().__init__(f"missing required column(s): {', '.join(missing)}; the header has: {shown}")


@dataclass(frozen=True, slots=True)
class RowProblem:
    """A row left out of the import."""

    line: int
    """1-based line in the file where the row starts (the header is line 1)."""
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


@dataclass(slots=True)
class StrongImport:
    """What a file holds: entries ready to store, and what was left out."""

    entries: list[NewEntry]
    """One per workout, oldest first."""
    rows_per_entry: list[int]
    """Data rows behind each entry (parallel to ``entries``), for progress."""
    problems: list[RowProblem]
    rows: int
    """Data rows read (header and blank lines not counted)."""
    ignored: int
    """Rows without any performance (rest timers, empty sets)."""
    delimiter: str
    columns: dict[str, str] = field(default_factory=dict)
    """Field -> the header it was read from."""


def _fold(text: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text).casefold()).strip().strip('"').strip()


def _clean(text: str | None) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text or "")).strip()


def _num(x: float) -> str:
    return f"{x:g}"


def _clock(seconds: float) -> str:
    """``M:SS`` or ``H:MM:SS``."""
    total = int(round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ExerciseNamer:
    """Maps Strong exercise names to canonical vocabulary terms and tells cardio apart.

    Args:
        vocabulary: Exercise spellings (strength first, so it wins clashes).
        units: Unit spellings (``lbs`` -> ``lb``, ``miles`` -> ``mi``).
        running_terms: Canonical terms of the running domain.
        fitness_terms: Canonical terms of the general-fitness domain (cycling, rowing, …).
    """

    def __init__(
        self,
        vocabulary: Vocabulary,
        units: Vocabulary,
        running_terms: frozenset[str] = frozenset(),
        fitness_terms: frozenset[str] = frozenset(),
    ) -> None:
        self.vocabulary = vocabulary
        self.units = units
        self.running_terms = running_terms
        self.fitness_terms = fitness_terms - running_terms
        self._cache: dict[str, str | None] = {}

    @classmethod
    def from_registry(cls, registry: DomainRegistry) -> ExerciseNamer:
        """Vocabulary of the strength, running and general-fitness domains (strength wins clashes)."""
        ctx = DomainSelector(registry).build_active_context(["strength", "running", "general_fitness"])
        strength = registry.get("strength")
        running = registry.get("running")
        fitness = registry.get("general_fitness")
        lifts = frozenset(strength.vocabulary) if strength else frozenset()
        return cls(
            ctx.vocabulary,
            ctx.units,
            running_terms=frozenset(running.vocabulary) - lifts if running else frozenset(),
            fitness_terms=frozenset(fitness.vocabulary) - lifts if fitness else frozenset(),
        )

    def canonical(self, name: str) -> str | None:
        """``Bench Press (Dumbbell)``: the full name, then ``Dumbbell Bench Press``, then ``Bench Press``."""
        if name in self._cache:
            return self._cache[name]
        found = self.vocabulary.canonical(name)
        if found is None and (m := _EQUIPMENT.match(name)):
            base, equipment = m["base"].strip(), m["equipment"].strip()
            if base:
                found = (self.vocabulary.canonical(f"{equipment} {base}") if equipment else None) or (
                    self.vocabulary.canonical(base)
                )
        self._cache[name] = found
        return found

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


# --- reading -----------------------------------------------------------------


def decode(data: bytes) -> str:
    """The text of an export: UTF-8 (with or without BOM), UTF-16 with BOM, or CP949 (Korean Excel).

    Raises:
        ImportFormatError: none of these fit.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    for encoding in ("utf-8-sig", "cp949"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ImportFormatError("the file is not UTF-8 text; save the export as UTF-8 CSV")


def _delimiter(header_line: str) -> str:
    counts = {d: header_line.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _columns(header: list[str]) -> tuple[dict[str, int], dict[str, str]]:
    index: dict[str, int] = {}
    names: dict[str, str] = {}
    lookup = {spelling: fld for fld, spellings in _HEADERS.items() for spelling in spellings}
    for i, raw in enumerate(header):
        fld = lookup.get(_fold(raw))
        if fld is not None and fld not in index:
            index[fld] = i
            names[fld] = raw.strip()
    return index, names


def _number(text: str) -> float | None:
    """A number as Strong writes it (``62.5``, ``62,5``, ``1.234,5``); None when blank.

    Raises:
        ValueError: not a number.
    """
    s = text.strip().replace("\u00a0", "").replace(" ", "")
    if not s:
        return None
    if "," in s and "." in s:
        thousands = "." if s.rfind(",") > s.rfind(".") else ","
        s = s.replace(thousands, "")
    s = s.replace(",", ".")
    if not _NUMBER.fullmatch(s):
        raise ValueError(text)
    value = float(s)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


@lru_cache(maxsize=4096)  # every set row of a workout repeats its start time
def _when(text: str) -> tuple[date, str]:
    """The workout's day and its normalized start (``2024-01-15T18:30:00``).

    Raises:
        ValueError: not a date Strong writes.
    """
    s = unicodedata.normalize("NFC", text).replace("\u202f", " ").replace("\u00a0", " ").strip()
    m = _DATE.fullmatch(s)
    if m is None:
        raise ValueError(text)
    day = date(int(m[1]), int(m[2]), int(m[3]))
    if m[5] is None:
        return day, day.isoformat()
    hour, minute, second = int(m[5]), int(m[6]), int(m[7] or 0)
    meridiem = (m[4] or m[8] or "").casefold()
    if meridiem:
        if not 1 <= hour <= 12:
            raise ValueError(text)
        hour = hour % 12 + (12 if meridiem in ("pm", "오후") else 0)
    start = datetime(day.year, day.month, day.day, hour, minute, second)
    return day, start.isoformat()


@dataclass(frozen=True, slots=True)
class _Row:
    line: int
    day: date
    start: str
    workout: str
    exercise: str
    set_order: str
    weight: float | None
    unit: WeightUnit
    reps: int | None
    distance: float | None
    distance_unit: str
    seconds: float | None
    rpe: float | None
    notes: str
    workout_notes: str
    duration: str

    def identity(self) -> tuple[str, str]:
        return self.start, self.workout

    def fingerprint(self) -> list[Any]:
        """The row's content, independent of how the file spelled its numbers."""
        return [
            self.exercise, self.set_order, self.weight, self.unit, self.reps,
            self.distance, self.distance_unit, self.seconds, self.rpe,
        ]  # fmt: skip


class _RowReader:
    def __init__(self, index: dict[str, int], namer: ExerciseNamer, default_unit: WeightUnit) -> None:
        self._index = index
        self._namer = namer
        self._default_unit = default_unit

    def _get(self, values: list[str], fld: str) -> str:
        i = self._index.get(fld)
        return values[i].strip() if i is not None and i < len(values) else ""

    def read(self, line: int, values: list[str], problems: list[str]) -> _Row | None:
        """The row, or None (with ``problems`` filled when it is malformed, empty when it is ignorable)."""
        get = self._get
        raw_date, exercise = get(values, "date"), _clean(get(values, "exercise"))
        numbers: dict[str, float | None] = {}
        for fld in ("weight", "reps", "distance", "seconds", "rpe"):
            text = get(values, fld)
            try:
                value = _number(text)
            except ValueError:
                problems.append(f"{fld} {text!r} is not a number")
                continue
            if value is not None and value < 0:
                problems.append(f"{fld} {text!r} is negative")
                continue
            # Strong writes 0 for "not filled in" (and 0 kg means bodyweight).
            numbers[fld] = None if value == 0 and fld != "rpe" else value
        if not problems and all(numbers.get(f) is None for f in ("weight", "reps", "distance", "seconds")):
            return None  # a rest-timer row, an empty set, or a line of bare separators
        try:
            day, start = _when(raw_date)
        except ValueError:
            problems.insert(0, f"bad date {raw_date!r}" if raw_date else "missing date")
            day, start = date.min, ""
        if not exercise:
            problems.insert(0, "missing exercise name")
        reps_value = numbers.get("reps")
        reps: int | None = None
        if reps_value is not None:
            if reps_value != int(reps_value):
                problems.append(f"reps {get(values, 'reps')!r} is not a whole number")
            elif reps_value > _MAX_REPS:
                problems.append(f"reps {get(values, 'reps')!r} is more than {_MAX_REPS}")
            else:
                reps = int(reps_value)
        unit: WeightUnit = self._default_unit
        unit_text = get(values, "weight_unit")
        if unit_text:
            found = self._namer.weight_unit(unit_text)
            if found is None:
                problems.append(f"unknown weight unit {unit_text!r}")
            else:
                unit = found
        distance_unit = "km"
        distance_text = get(values, "distance_unit")
        if distance_text:
            found_distance = self._namer.distance_unit(distance_text)
            if found_distance is None:
                problems.append(f"unknown distance unit {distance_text!r}")
            else:
                distance_unit = found_distance
        if not problems and reps is None and numbers.get("distance") is None and numbers.get("seconds") is None:
            problems.append("a weight without reps, seconds or distance")
        if problems:
            return None
        order = get(values, "set_order")
        try:
            parsed_order = _number(order)
            order = _num(parsed_order) if parsed_order is not None else order.casefold()
        except ValueError:
            order = order.casefold()
        return _Row(
            line=line,
            day=day,
            start=start,
            workout=_clean(get(values, "workout")),
            exercise=exercise,
            set_order=order,
            weight=numbers.get("weight"),
            unit=unit,
            reps=reps,
            distance=numbers.get("distance"),
            distance_unit=distance_unit,
            seconds=numbers.get("seconds"),
            rpe=numbers.get("rpe"),
            notes=_clean(get(values, "notes")),
            workout_notes=_clean(get(values, "workout_notes")),
            duration=_clean(get(values, "duration")),
        )


def parse_strong_csv(
    text: str,
    *,
    user_key: str,
    namer: ExerciseNamer,
    default_unit: WeightUnit = "kg",
    progress: Progress | None = None,
) -> StrongImport:
    """Read a Strong export into one entry per workout.

    Args:
        text: The file's text (see :func:`decode` for bytes).
        user_key: Whose entries these are; part of every ``source_key``.
        namer: Exercise vocabulary (:meth:`ExerciseNamer.from_registry`).
        default_unit: Weight unit when the file has no ``Weight Unit`` column.
        progress: Called with (rows done, rows total) while reading.

    Raises:
        MissingColumnsError: Date, Exercise Name, or both Reps and Seconds are missing.
        ImportFormatError: the file is empty.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise ImportFormatError("the file is empty")
    delimiter = _delimiter(lines[first])
    skip = 0
    if (hint := lines[first].strip()).casefold().startswith("sep=") and len(hint) == 5:
        delimiter, skip = hint[4], first + 1  # Excel's "sep=;" first line
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    records: list[tuple[int, list[str]]] = []
    header: list[str] | None = None
    last = 0
    for values in reader:
        start, last = last + 1, reader.line_num
        if start <= skip:
            continue
        if header is None:
            if any(v.strip() for v in values):
                header = values
            continue
        if values:
            records.append((start, values))
    if header is None:
        raise ImportFormatError("the file has no header line")
    index, names = _columns(header)
    missing = [_LABELS[f] for f in ("date", "exercise") if f not in index]
    if "reps" not in index and "seconds" not in index:
        missing.append(f"{_LABELS['reps']} or {_LABELS['seconds']}")
    if missing:
        raise MissingColumnsError(missing, [h.strip() for h in header if h.strip()])

    row_reader = _RowReader(index, namer, default_unit)
    problems: list[RowProblem] = []
    workouts: dict[tuple[str, str], list[_Row]] = {}
    ignored = 0
    total = len(records)
    for done, (line, values) in enumerate(records, 1):
        reasons: list[str] = []
        if len(values) > len(header) and any(v.strip() for v in values[len(header) :]):
            reasons.append(f"{len(values)} fields but the header has {len(header)} (a stray {delimiter!r}?)")
            row = None
        else:
            row = row_reader.read(line, values, reasons)
        if reasons:
            problems.append(RowProblem(line, "; ".join(reasons)))
        elif row is None:
            ignored += 1
        else:
            workouts.setdefault(row.identity(), []).append(row)
        if progress is not None and (done % 500 == 0 or done == total):
            progress(done, total)

    ordered = sorted(workouts.items(), key=lambda item: (item[0][0], item[1][0].line))
    entries = [_entry(user_key, rows, namer) for _, rows in ordered]
    return StrongImport(
        entries=entries,
        rows_per_entry=[len(rows) for _, rows in ordered],
        problems=problems,
        rows=total,
        ignored=ignored,
        delimiter=delimiter,
        columns=names,
    )


# --- building entries --------------------------------------------------------


def _source_key(user_key: str, rows: Sequence[_Row]) -> str:
    """``strong:<sha256>`` of the user, the workout's start and name, and its rows in any order."""
    first = rows[0]
    body = sorted(json.dumps(r.fingerprint(), ensure_ascii=False) for r in rows)
    material = json.dumps([1, user_key, first.start, first.workout, body], ensure_ascii=False)
    return "strong:" + hashlib.sha256(material.encode()).hexdigest()


def _ordered(rows: list[_Row]) -> list[_Row]:
    """Sets in Strong's set order when every row has a number, else as the file lists them."""
    try:
        return sorted(rows, key=lambda r: float(r.set_order))
    except ValueError:
        return rows


def _set_text(weight: float | None, unit: str, reps: int | None, seconds: float | None, km: float | None) -> str:
    parts: list[str] = []
    if weight is not None or reps is not None:
        load = f"{_num(weight)}{unit}" if weight is not None else "BW"
        parts.append(load + (f"×{reps}" if reps is not None else ""))
    if km is not None:
        parts.append(f"{_num(round(km, 3))} km")
    if seconds is not None:
        parts.append(_clock(seconds))
    return " ".join(parts)


@dataclass
class _Cardio:
    name: str
    source_name: str
    running: bool
    km: float | None = None
    seconds: float | None = None
    sets: list[dict[str, Any]] = field(default_factory=list)

    def metrics(self) -> list[Metric]:
        out: list[Metric] = []
        if self.km is not None:
            out.append(Metric(name="distance_km", value=_num(round(self.km, 3)), unit="km"))
        if self.seconds is not None:
            out.append(Metric(name="duration", value=_clock(self.seconds)))
        return out


def _add(total: float | None, value: float | None) -> float | None:
    return value if total is None else total + (value or 0.0)


def _entry(user_key: str, rows: list[_Row], namer: ExerciseNamer) -> NewEntry:
    first = rows[0]
    by_exercise: dict[str, list[_Row]] = {}
    for row in rows:
        by_exercise.setdefault(row.exercise, []).append(row)

    exercises: list[dict[str, Any]] = []
    cardio: list[_Cardio] = []
    terms: list[str] = []
    lines = [" · ".join(p for p in ("Strong", first.start.replace("T", " ")[:16], first.workout) if p)]
    notes: list[str] = []
    for note in dict.fromkeys(r.workout_notes for r in rows if r.workout_notes):
        notes.append(note)

    for source_name, ex_rows in by_exercise.items():
        canonical = namer.canonical(source_name)
        if canonical is not None:
            terms.append(canonical)
        else:
            terms.extend(namer.vocabulary.terms(namer.base_name(source_name)))
        name = canonical or source_name
        sets = _ordered(ex_rows)
        has_weight = any(r.weight is not None for r in sets)
        is_cardio = canonical in namer.running_terms or (
            not has_weight
            and (canonical in namer.fitness_terms or any(r.distance is not None for r in sets))
            and not any(r.reps is not None for r in sets)
        )
        texts: list[str] = []
        if is_cardio:
            item = _Cardio(name=name, source_name=source_name, running=canonical in namer.running_terms)
            for n, r in enumerate(sets, 1):
                km = r.distance * _KM_PER_UNIT[r.distance_unit] if r.distance is not None else None
                item.km, item.seconds = _add(item.km, km), _add(item.seconds, r.seconds)
                detail: dict[str, Any] = {"set_num": n, "distance_km": round(km, 3) if km is not None else None}
                detail["seconds"] = r.seconds
                if r.distance is not None and r.distance_unit != "km":
                    detail["distance"], detail["distance_unit"] = r.distance, r.distance_unit
                item.sets.append(detail)
                texts.append(_set_text(None, "", None, r.seconds, km))
            cardio.append(item)
        else:
            # One exercise per unit: a weight unit belongs to the exercise, not the set.
            by_unit: dict[str, list[_Row]] = {}
            for r in sets:
                by_unit.setdefault(r.unit, []).append(r)
            for unit, unit_rows in by_unit.items():
                details: list[dict[str, Any]] = []
                for n, r in enumerate(unit_rows, 1):
                    d: dict[str, Any] = {"set_num": n, "weight": r.weight, "reps": r.reps}
                    if r.seconds is not None:
                        d["duration"] = _clock(r.seconds)
                    if r.distance is not None:
                        d["distance_km"] = round(r.distance * _KM_PER_UNIT[r.distance_unit], 3)
                    if r.rpe is not None:
                        d["rpe"] = r.rpe
                    if (kind := _SET_KINDS.get(r.set_order)) is not None:
                        d["kind"] = kind
                    details.append(d)
                    km = r.distance * _KM_PER_UNIT[r.distance_unit] if r.distance is not None else None
                    texts.append(_set_text(r.weight, unit, r.reps, r.seconds, km))
                exercises.append(
                    {
                        "name": name,
                        "source_name": source_name,
                        "sets": len(details),
                        "weight_unit": unit if any(x["weight"] is not None for x in details) else None,
                        "set_details": details,
                    }
                )
        lines.append(f"{source_name}: {', '.join(texts)}")
        for note in dict.fromkeys(r.notes for r in ex_rows if r.notes):
            notes.append(f"{source_name}: {note}")

    notes_text = "; ".join(notes)
    if notes_text:
        lines.append(f"notes: {notes_text}")
        terms.extend(namer.vocabulary.terms(notes_text))

    metrics: list[Metric] = []
    if exercises:
        domain = "strength"
        summary = summarize(_parsed(domain, domain, exercises, []))
        if cardio:
            summary += "; " + "; ".join(summarize(_parsed(c.name, domain, [], c.metrics())) for c in cardio)
    else:
        domain = "running" if all(c.running for c in cardio) else "general_fitness"
        km = sum(c.km for c in cardio if c.km is not None) if any(c.km is not None for c in cardio) else None
        seconds = (
            sum(c.seconds for c in cardio if c.seconds is not None)
            if any(c.seconds is not None for c in cardio)
            else None
        )
        if domain == "general_fitness":
            metrics.append(Metric(name="activity", value=", ".join(dict.fromkeys(c.name for c in cardio))))
        metrics.extend(_Cardio("", "", False, km, seconds).metrics())
        if domain == "running" and km and seconds:
            metrics.append(Metric(name="pace", value=_clock(seconds / km), unit="min/km"))
        summary = summarize(_parsed(domain, domain, [], metrics))

    data: dict[str, Any] = {
        "activity_type": domain,
        "domain": domain,
        "exercises": exercises,
        "metrics": [m.model_dump(mode="json") for m in metrics],
        "notes": notes_text,
    }
    if cardio:
        data["cardio"] = [
            {
                "name": c.name,
                "source_name": c.source_name,
                "distance_km": round(c.km, 3) if c.km is not None else None,
                "duration": _clock(c.seconds) if c.seconds is not None else None,
                "set_details": c.sets,
            }
            for c in cardio
        ]
    data["import"] = {
        "app": "strong",
        "workout_id": f"{first.start}|{first.workout}",
        "started_at": first.start,
        "workout_name": first.workout,
        "duration": first.duration or None,
    }
    return NewEntry(
        occurred_on=first.day,
        domain=domain,
        activity_type=domain,
        summary=summary,
        data=data,
        raw_text="\n".join(lines),
        terms=list(dict.fromkeys(terms)),
        source="import",
        source_key=_source_key(user_key, rows),
    )


def _parsed(activity: str, domain: str, exercises: list[dict[str, Any]], metrics: list[Metric]) -> ParserOutput:
    """A ParserOutput for :func:`summarize` (built without validation: the numbers are already checked)."""
    logs = [
        ExerciseLog.model_construct(
            name=e["name"],
            sets=e["sets"],
            weight_unit=e["weight_unit"],
            set_details=[
                SetDetail.model_construct(set_num=d["set_num"], weight=d["weight"], reps=d["reps"])
                for d in e["set_details"]
            ],
        )
        for e in exercises
    ]
    # Every field is given: model_construct would otherwise call the default factories, slowly.
    return ParserOutput.model_construct(
        activity_type=activity,
        domain=domain,
        exercises=logs,
        metrics=metrics,
        date_text="",
        notes="",
        summary="",
        missing=[],
        status="parsed",
    )


def workout_identity(entry: NewEntry) -> str | None:
    """``strong:<start>|<workout name>`` for an imported workout, else None."""
    imported = entry.data.get("import")
    if not isinstance(imported, Mapping):
        return None
    app, workout = imported.get("app"), imported.get("workout_id")
    return f"{app}:{workout}" if isinstance(app, str) and isinstance(workout, str) else None
