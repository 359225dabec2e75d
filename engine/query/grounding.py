"""The deterministic check of text a model writes for a person: structural, not by value.

Numbers travel by reference (:mod:`engine.query.references`): the model
writes ``{F3}`` and code renders the value. So the check needs no matching
of values against data (which let "10 km" pass because some set had 10 reps):

* any number the text states itself fails it: a digit, a number word in
  English or Korean (native or Sino-Korean), a unit quantity ("a kilo")
  (:mod:`engine.query.number_reading` says what counts);
* a reference to an id the table does not hold fails it;
* a direction word that disagrees with the sign of the change it describes,
  or with the order of two values it compares, fails it
  (:mod:`engine.query.directions`);
* an empty text fails it.

It guards the text of plans (a goal and its steps, which refer to values by id); an
answer is composed from claims instead (:mod:`engine.query.claims`), its model-written
words checked by :mod:`engine.query.free_text`.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from engine.query.directions import check_directions
from engine.query.number_reading import numerals
from engine.query.references import REF, RefKind, RefTable


class GroundingReport(BaseModel):
    """What the check found in one text."""

    model_config = ConfigDict(frozen=True)

    ok: bool
    refs: list[str] = Field(default_factory=list)
    """The known ids the text refers to, in order."""
    numbers: list[str] = Field(default_factory=list)
    """Numbers the text states itself, as written."""
    unknown: list[str] = Field(default_factory=list)
    """References to ids the table does not hold (or may not be used here)."""
    directions: list[str] = Field(default_factory=list)
    """Direction words that disagree with a sign or an order."""
    attached: list[str] = Field(default_factory=list)
    """Changes an agreeing direction word describes."""
    empty: bool = False

    def feedback(self) -> str:
        """What to fix, in words for the model's next attempt."""
        parts = []
        if self.empty:
            parts.append("The answer was empty.")
        if self.numbers:
            shown = ", ".join(f"“{n}”" for n in self.numbers[:8])
            parts.append(
                f"You wrote numbers yourself ({shown}). Write no digits or number words: "
                "refer to a value by its id in braces, like {F1}."
            )
        if self.unknown:
            parts.append(f"These ids do not exist: {', '.join(self.unknown)}. Use only ids from the list.")
        parts.extend(self.directions)
        return " ".join(parts)


def check_text(text: str, table: RefTable, *, kinds: Iterable[RefKind] | None = None) -> GroundingReport:
    """Check text a model wrote for a person against the values it may refer to.

    Args:
        text: The model's text, with references like ``{F3}``.
        table: The values offered to the model.
        kinds: The kinds of value this text may refer to (all when None).

    Returns:
        The report; ``ok`` only when nothing is wrong.
    """
    allowed = set(kinds) if kinds is not None else None
    refs: list[str] = []
    unknown: list[str] = []
    for m in REF.finditer(text):
        ref_id = f"{m.group(1).upper()}{int(m.group(2))}"
        ref = table.get(ref_id)
        if ref is None or (allowed is not None and ref.kind not in allowed):
            unknown.append("{" + ref_id + "}")
        else:
            refs.append(ref_id)
    free = REF.sub(lambda m: " " * len(m.group()), text)
    numbers = [n.text for n in numerals(free)]
    directions = check_directions(text, table)
    empty = not text.strip()
    ok = not (numbers or unknown or directions.problems or empty)
    return GroundingReport(
        ok=ok,
        refs=refs,
        numbers=numbers,
        unknown=unknown,
        directions=directions.problems,
        attached=sorted(directions.attached),
        empty=empty,
    )
