"""Two imports of the same workout: what counts as the same, so that a day counts once.

People keep more than one record of their training: a Strong export and the
daily notes that say the same sets, or Strong and later Hevy. Each import
stores its own entries (their source keys and identities differ by app), so
without this rule every set and kilogram of those days would count twice.

The rule. A workout being imported is *the same* as an imported one already stored when

* they come from different sources (``strong``, ``hevy``, ``fitnotes``,
  ``notes``). Within one source the start time and name tell workouts apart:
  two sessions of a day in one app are two workouts, and an edited one
  replaces its earlier version (:mod:`engine.importers`);
* they are on the same day. Start times are not compared: a note has none,
  and two apps' clocks differ by minutes;
* they hold the same strength exercises (the stored name, case and spacing
  aside; the order of the exercises is not compared, the order of the sets is);
* each exercise's sets pair one to one, in order: the same reps, and weights
  within :data:`KG_TOLERANCE` once pounds are made kilograms (135 lb is
  61.2 kg: written as 61 or 62.5 kg, rounded to a plate, it still pairs;
  2.5 kg apart is another set). No weight is bodyweight. Set kinds are not
  compared, save one: a set marked warm-up on either side may be missing on
  the other (Strong's ``W`` rows beside a note that leaves warm-ups out), or be
  written there as a plain set; an exercise of warm-ups alone may be missing;
* the new one says nothing the stored one lacks: each of its cardio
  exercises (a run, a row) is in the stored one too, with a distance within
  0.1 km and a time within a minute (miles and clocks rounded), and so is
  each of its measures when it has no cardio; leaving it out loses nothing.

A workout without strength sets is the same when it holds the same cardio
exercises both ways, each within those bounds (a run in Strong and in Hevy).
An entry with neither (a plain note, a run a note gave only as measures) is
never the same as another: a note's "5km 28분" is not compared with an app's
run, and a plain note adds no sets or volume to count twice.

What happens then: the first import of a workout stays, and a later one from
another source is not stored (nothing is merged: the stored entry is not
changed, and an earlier version of the later one, such as a note kept as
plain text before the model read it, stays as it was). The import counts the
workouts left out by the source that already held them, to say so: "skipped
12 notes whose workouts were already imported from Strong".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.entries.model import Entry, NewEntry
from engine.entries.sets import clock_seconds, number
from engine.importers.common.workout import APP_TITLES
from engine.language.vocab import normalize_name

KG_TOLERANCE = 1.25
"""Two weights pair when this close in kg: an lb load written in kg, rounded to a 2.5 kg step, still pairs."""
KG_PER_LB = 0.45359237
CARDIO_KM_TOLERANCE = 0.1
CARDIO_SECONDS_TOLERANCE = 60.0
SOURCE_TITLES: dict[str, str] = {**APP_TITLES, "notes": "notes"}

Lifts = dict[str, tuple["LiftSet", ...]]
"""Exercise name (normalized) -> its sets in order, every mention of the exercise joined."""


@dataclass(frozen=True, slots=True)
class LiftSet:
    """One strength set as compared across sources."""

    kg: float
    """The weight in kg; 0 for bodyweight."""
    reps: float | None
    warmup: bool


def import_source(data: Mapping[str, Any]) -> str | None:
    """The source an imported entry came from (``strong``, ``notes``), from ``data["import"]``."""
    imported = data.get("import")
    app = imported.get("app") if isinstance(imported, Mapping) else None
    return app if isinstance(app, str) and app else None


def lifts(data: Mapping[str, Any]) -> Lifts:
    """An entry's strength sets by exercise; an exercise without set details has an empty tuple."""
    found: dict[str, list[LiftSet]] = {}
    exercises = data.get("exercises")
    for exercise in exercises if isinstance(exercises, list) else []:
        if not isinstance(exercise, Mapping) or not str(exercise.get("name") or "").strip():
            continue
        per_kg = KG_PER_LB if exercise.get("weight_unit") == "lb" else 1.0
        sets = found.setdefault(normalize_name(str(exercise["name"])), [])
        details = exercise.get("set_details")
        for detail in details if isinstance(details, list) else []:
            if isinstance(detail, Mapping):
                weight = number(detail.get("weight"))
                sets.append(
                    LiftSet((weight or 0.0) * per_kg, number(detail.get("reps")), detail.get("kind") == "warmup")
                )
    return {name: tuple(sets) for name, sets in found.items()}


def has_lifts(data: Mapping[str, Any]) -> bool:
    """Whether an entry holds a strength set: ``any(lifts(data).values())``, without reading the sets."""
    exercises = data.get("exercises")
    for exercise in exercises if isinstance(exercises, list) else []:
        if isinstance(exercise, Mapping) and str(exercise.get("name") or "").strip():
            details = exercise.get("set_details")
            if isinstance(details, list) and any(isinstance(d, Mapping) for d in details):
                return True
    return False


def _agree(a: LiftSet, b: LiftSet) -> bool:
    return a.reps == b.reps and abs(a.kg - b.kg) <= KG_TOLERANCE


def same_sets(a: Sequence[LiftSet], b: Sequence[LiftSet]) -> bool:
    """Whether two exercises' sets pair one to one in order, a warm-up on either side free to go unpaired."""
    # pairs[i][j]: a[i:] and b[j:] pair. Filled from the end; sequences are tens of sets long.
    n, m = len(a), len(b)
    pairs = [[False] * (m + 1) for _ in range(n + 1)]
    pairs[n][m] = True
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if i == n and j == m:
                continue
            pairs[i][j] = (
                (i < n and j < m and _agree(a[i], b[j]) and pairs[i + 1][j + 1])
                or (i < n and a[i].warmup and pairs[i + 1][j])
                or (j < m and b[j].warmup and pairs[i][j + 1])
            )
    return pairs[0][0]


@dataclass(frozen=True, slots=True)
class _Cardio:
    name: str
    km: float | None
    seconds: float | None

    def within(self, other: _Cardio) -> bool:
        """The same exercise, distance within 0.1 km and time within a minute (a mile or clock rounded)."""
        return (
            self.name == other.name
            and _near(self.km, other.km, CARDIO_KM_TOLERANCE)
            and _near(self.seconds, other.seconds, CARDIO_SECONDS_TOLERANCE)
        )


def _near(a: float | None, b: float | None, tolerance: float) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tolerance


def _cardio(data: Mapping[str, Any]) -> list[_Cardio]:
    """An imported workout's cardio exercises (``data["cardio"]``: name, total km, ``duration`` as a clock)."""
    items = data.get("cardio")
    return [
        _Cardio(
            normalize_name(str(c.get("name") or "")), number(c.get("distance_km")), clock_seconds(c.get("duration"))
        )
        for c in (items if isinstance(items, list) else [])
        if isinstance(c, Mapping)
    ]


def _measures(data: Mapping[str, Any]) -> set[tuple[str, str]]:
    items = data.get("metrics")
    return {
        (normalize_name(str(m.get("name") or "")), str(m.get("value") or ""))
        for m in (items if isinstance(items, list) else [])
        if isinstance(m, Mapping)
    }


def _covers(ours: Sequence[_Cardio], theirs: Sequence[_Cardio]) -> bool:
    return all(any(c.within(t) for t in theirs) for c in ours)


def _adds_nothing(new: Mapping[str, Any], stored: Mapping[str, Any]) -> bool:
    """Whether each cardio exercise of ``new``, or each measure when it has none, is in ``stored`` too."""
    if cardio := _cardio(new):
        # An app's measures (distance, pace) are its cardio summed: the cardio says it all, unrounded.
        return _covers(cardio, _cardio(stored))
    return _measures(new) <= _measures(stored)


def same_workout(new: Mapping[str, Any], stored: Mapping[str, Any]) -> bool:
    """Whether the entry data ``new`` holds the workout ``stored`` holds (the rule in the module docstring).

    Sources and days are the caller's to compare; this compares what was done.
    """
    a, b = lifts(new), lifts(stored)
    if any(a.values()) or any(b.values()):
        if not (any(a.values()) and any(b.values())):
            return False  # sets on one side only (a plain note beside a workout of warm-ups alone)
        if not all(same_sets(a.get(name, ()), b.get(name, ())) for name in a.keys() | b.keys()):
            return False
    else:
        # No strength sets: cardio alone is compared both ways; a plain note or a measure alone never is.
        ours, theirs = _cardio(new), _cardio(stored)
        if not ours or not theirs or not _covers(theirs, ours):
            return False
    return _adds_nothing(new, stored)


def holder(entry: NewEntry, stored: Iterable[Entry]) -> str | None:
    """The source of a stored import, from another source, on the entry's day, holding the same workout.

    Returns:
        That source (``strong``, ``notes``), or None when no stored entry holds it.
    """
    source = import_source(entry.data)
    for other in stored:
        theirs = import_source(other.data)
        if theirs is not None and theirs != source and other.occurred_on == entry.occurred_on:
            if same_workout(entry.data, other.data):
                return theirs
    return None


def sources_text(sources: Iterable[str]) -> str:
    """``Strong``, ``Strong and Hevy``, ``Strong, Hevy and notes``: the sources as a report names them."""
    titles = [SOURCE_TITLES.get(s, s) for s in dict.fromkeys(sources)]
    return titles[0] if len(titles) < 2 else ", ".join(titles[:-1]) + " and " + titles[-1]
