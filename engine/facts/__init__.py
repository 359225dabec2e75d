"""Deterministic facts about a person's entries, computed in code for the answer.

The model states no numbers: every value an answer may use is computed here
and handed over as a :class:`Fact`, which the answer refers to by id
(:mod:`engine.query.references`) and code renders (``facts_text`` shows them
to the agents that judge rather than write). Facts over the person's whole
history or a named period come from indexed SQL aggregates
(:mod:`engine.facts.history` over :mod:`engine.store.history`); the ones
here are computed over retrieved entries.

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
* A fact here is true of the entries given, not of all history. Those that
  would read as lifetime claims (bests, counts, the last session and days
  since it, how often, total distance, a previous best) end their label
  "in the 38 entries found (2026-10-27 to 2026-11-25)" and carry ``found``
  and ``found_span`` (:mod:`~engine.facts.found`). The numbers of one session
  or week, and the latest session against the previous one, need neither.

Where it lives: :mod:`~engine.facts.scan` reads the entries once into rows
(:mod:`~engine.facts.rows`) and bouts (:mod:`~engine.domains.bouts`);
:mod:`~engine.facts.lifts` turns rows into sessions, which
:mod:`~engine.facts.strength` and :mod:`~engine.facts.compare` state through
the measures of :mod:`~engine.facts.measures`; :mod:`~engine.facts.cardio`
and :mod:`~engine.facts.frequency` cover runs, swims and how often;
:mod:`~engine.facts.compute` puts them together, with the span of entries
from :mod:`~engine.facts.found` that the labels name.
"""

from engine.facts.compare import compare_latest
from engine.facts.compute import compute_facts
from engine.facts.display import clock, facts_text
from engine.facts.model import LB_TO_KG, RECENT_SESSIONS, RECENT_WEEKS, Fact
from engine.language.values import epley, parse_duration, parse_number

__all__ = [
    "LB_TO_KG",
    "RECENT_SESSIONS",
    "RECENT_WEEKS",
    "Fact",
    "clock",
    "compare_latest",
    "compute_facts",
    "epley",
    "facts_text",
    "parse_duration",
    "parse_number",
]
