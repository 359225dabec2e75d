"""Movement families: which canonical exercises are variations of one movement.

A domain file groups its canonical terms into families (``overhead press``:
standing, seated, push press, dumbbell, Arnold …). The family's own name is
one of its members: ``overhead press`` means that lift (standing, barbell),
in a log and in a question alike, so "my overhead press sessions" finds the
overhead presses, not the push presses. A question names the whole family
with a family word: one the domain lists (``presses``, ``pressing``,
``프레스 종류``), or a lift's name with a word that makes it a kind ("overhead
press variations", "all my squats", "스쿼트 종류"). Records stay per
variation because entries keep the variation's name.

Canonical terms outside every family are families of one.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

GENERIC = "<generic>"
"""The canonical term generic words match as in a question; never a search term."""
_FAMILY_WORD = "<family>:"


def family_word(family: str) -> str:
    """The canonical term a word naming ``family`` as a whole matches as in a question (``presses``)."""
    return _FAMILY_WORD + family


def family_named(canonical: str) -> str | None:
    """The family a question-vocabulary match names as a whole, if it is a family word."""
    return canonical.removeprefix(_FAMILY_WORD) if canonical.startswith(_FAMILY_WORD) else None


class Families:
    """Family membership of canonical terms.

    Args:
        families: Family name -> member canonical terms (the name among them).
            A term listed under two families stays with the first.
    """

    def __init__(self, families: Mapping[str, Sequence[str]]) -> None:
        self._members: dict[str, tuple[str, ...]] = {}
        self._family_of: dict[str, str] = {}
        for family, members in families.items():
            kept = tuple(dict.fromkeys(m for m in (family, *members) if m not in self._family_of or m == family))
            self._members[family] = kept
            for member in kept:
                self._family_of.setdefault(member, family)

    @property
    def names(self) -> tuple[str, ...]:
        """Family names in the order they were defined."""
        return tuple(self._members)

    def family_of(self, canonical: str) -> str:
        """The family a canonical term belongs to (the term itself when it has none)."""
        return self._family_of.get(canonical, canonical)

    def members(self, family: str) -> tuple[str, ...]:
        """Every member of ``family``, the family's own name first; ``(family,)`` when it has none."""
        return self._members.get(family, (family,))

    def is_family(self, canonical: str) -> bool:
        """Whether ``canonical`` names a family with other members (so a question about it widens)."""
        return len(self._members.get(canonical, ())) > 1

    def expand(self, terms: Iterable[str], whole: Collection[str]) -> list[str]:
        """Terms with each family named as a whole followed by its members; every other term stays alone.

        Args:
            terms: Canonical terms as a question names them.
            whole: Those of ``terms`` the question names as a family ("presses", "squat variations");
                a lift's own name is that lift.

        Returns:
            Distinct terms in order: ``["overhead press"]`` with ``whole={"overhead press"}`` becomes
            ``["overhead press", "seated overhead press", "push press", …]``; without it, and
            ``["push press"]`` either way, it stays as it is.
        """
        out: dict[str, None] = {}
        for term in terms:
            for member in self.members(term) if term in whole and self.is_family(term) else (term,):
                out.setdefault(member, None)
        return list(out)
