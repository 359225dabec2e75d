"""Hevy CSV exports -> entries, without the model.

Hevy writes one row per set: ``title, start_time, end_time, description,
exercise_title, superset_id, exercise_notes, set_index, set_type,
weight_kg | weight_lbs, reps, distance_km | distance_miles,
duration_seconds, rpe``. A workout is the rows sharing its title and start
time (``5 Mar 2024, 18:00``); its length is end minus start. ``set_index``
counts from 0, so the set keeps number ``set_index + 1`` (never renumbered);
``set_type`` (normal, warmup, dropset, failure) becomes the set's kind, and a
weight with 0 reps is a failed attempt. The weight column's name says the
unit. Everything else works as for Strong (:mod:`engine.importers.strong`).
"""

from engine.importers.hevy.parse import hevy_reader, parse_hevy_csv

__all__ = ["hevy_reader", "parse_hevy_csv"]
