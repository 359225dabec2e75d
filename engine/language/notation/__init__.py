"""Pre-read unambiguous strength notation, as hints for the Parser model.

Small models misread compact notation ("80x5x5"), so the forms below are read
here in code and handed over as :class:`SetHint` values. ``x`` may be
written x, X, ×, or *; weights may use a decimal point or comma ("52.5kg",
"52,5kg"); units come from the units vocabulary (kg, lb; 키로/킬로 -> kg).

Rules, first match wins at each position:

1. ``W x R x S`` ("80x5x5", "80kg x 5 x 5"): weight, reps, sets.
2. A weight with a unit, then ``R x S`` ("55kg 10x5"): reps x sets; when
   the first number is under 8 and the two differ ("60kg 3x8") the order
   is marked ambiguous, since many lifters write sets first.
3. ``W x R`` where W has a unit or a decimal point ("100kg x 5", "52.5x5"):
   one set (sets=1).
4. Bare ``A x B``: read as reps=A, sets=B, with ``ambiguous=True`` unless
   A == B, because lifters write both "10x5" (reps x sets, after a weight)
   and "3x8" (sets x reps). A weight following it ("5x5 @ 100kg",
   "3x10 at 60kg", "5x5 100kg") is attached; the order stays ambiguous.
5. Per-set lists: two or more ``A x B`` pairs separated only by commas,
   slashes between digits, or spaces ("100x5, 105x5, 110x3") are one set
   each, weight x reps, sets=1; a unit written on any pair applies to all.
6. Labelled numbers in any order, joined by spaces, x, commas, of, at, for,
   with or @: "55키로 10회 5세트", "5세트 10회", "100kg 5회 x 3세트",
   "5 sets x 5 reps", "60 kg for 10 reps", "3 sets of 10 at 60kg" (a bare
   number after "N sets of" is reps), "3x10 reps" (a bare number x-joined to
   a reps word is sets, and vice versa). Reps words: rep(s), 회, 개, 번;
   set words: set(s), 세트, 셋.
7. A weight then two or more bare numbers split by commas is one set per
   number, at that weight ("bench 60kg 8, 8, 6").
8. A lone labelled number ("bench 60kg", "턱걸이 10개") is a hint only when
   its clause names an exercise, so "I weigh 75kg" yields nothing.

Exercise: the nearest vocabulary match before the notation in the same
clause; failing that the first one after it in the clause ("3 sets of 10
pull-ups"). Clauses split on newlines, ";", "/" (except between digits),
"and", "그리고", and a comma followed by an exercise name. An exercise name
followed by at/@/for/with does not split the notation it sits in ("5x5
squats at 100kg").

Numbers not covered above (dates, paces like "5:30/km", distances, RPE) are
left alone.

Where it lives: :mod:`~engine.notation.tokens` splits a message into tokens
and clauses, :mod:`~engine.notation.groups` into labelled quantities,
:mod:`~engine.notation.rules` applies the rules above, and
:mod:`~engine.notation.reader` turns what they read into :class:`SetHint`.
"""

from engine.language.notation.reader import SetHint, read_strength

__all__ = ["SetHint", "read_strength"]
