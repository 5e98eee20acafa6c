"""The effect language: small typed hooks that bend a test, composed in one documented order.

Confrontation's abilities each change a roll a little ("a 5 in ATT tests can be opened as if it
were a 6", "a 1 in DEF tests must not be negatively opened"). Rather than code each ability into
the roll, an ability is data: a tuple of hooks, each saying which tests (characteristics) it
touches. :func:`compose` folds the hooks that apply to one test into a :class:`TestShape`, the
only thing the roll (``rolls.py``) reads, so two abilities that touch the same thing combine the
same way everywhere. The order of composition (docs/rules/confrontation.md, "Composition"):

1. dice kept: every "2d6 keep lowest" and every "keep highest" cancel pairwise (Dreadful: "the
   two effects cancel each other out and the roll is made in the usual way with just 1d6");
2. natural bonuses add up and shift the kept die's face (clamped to 1..6) before it is read;
3. opening: the union of the faces that open; "must not be negatively opened" wins over the
   negative opening of a 1; Cursed removes every positive opening and every re-roll;
4. characteristic bonuses and final bonuses add up;
5. one re-roll (Luck) at most, whatever the number of hooks granting it;
6. an automatic success up to the characteristic (Born killer's COU tests), natural fail or not.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

#: The characteristics a test can be made in (the seed's list in Luck, plus STR/RES for damage).
TESTED = ("INI", "ATT", "DEF", "AIM", "COU", "DIS", "POW", "FAI")
#: The faces a test opens with no ability at all (estimated core rule: a 6 is opened).
OPENS_BY_DEFAULT = frozenset({6})


@dataclass(frozen=True, slots=True)
class Opens:
    """Faces read as a 6 and opened (rolled again and added) in the listed tests."""

    faces: frozenset[int]
    tests: frozenset[str]


@dataclass(frozen=True, slots=True)
class OnTests:
    """A hook that is only the tests it touches; its subclass says what it does there (written once)."""

    tests: frozenset[str]


class NoNegativeOpening(OnTests):
    """A 1 in the listed tests "must not be negatively opened" (it stays a natural fail)."""

    __slots__ = ()


#: Where a :class:`Bonus` is added: to the die's face before it is read ("a modification to the natural
#: result"), to the characteristic (Resolute's "counts as written on the card"), or to the final result
#: (Desperate's "+1 on the final results").
Stage = Literal["natural", "characteristic", "final"]


@dataclass(frozen=True, slots=True)
class Bonus:
    """A number added to the listed tests at one :data:`Stage` (one hook for all three: they differ only in
    where the number goes, so one class and one fold serve them)."""

    value: int
    tests: frozenset[str]
    stage: Stage = "final"


@dataclass(frozen=True, slots=True)
class Amount:
    """A hook that is one whole number; its subclass says what the number does (a line shift, a
    cancellation roll's target, a replaced STR, extra HP…). The hooks of damage rolls (``wounds.py``) and of
    combat (``combat_effects.py``) are these, so their shape is written once."""

    value: int


@dataclass(frozen=True, slots=True)
class KeepOf2d6:
    """Roll 2d6 and keep the lowest (``lowest=True``) or the highest natural result."""

    lowest: bool
    tests: frozenset[str]


class ReRollOnce(OnTests):
    """The test may be cancelled and rolled again once (used when it failed)."""

    __slots__ = ()


class AutoSuccess(OnTests):
    """Born killer: "automatically succeeds all COU tests with a difficulty that is less than or equal to the COU
    he is using" (the characteristic the test is made with)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class NoOpeningNorReRoll:
    """Cursed: "cannot re-roll nor open a roll of the dice" (every test)."""


TestHook = Opens | NoNegativeOpening | Bonus | KeepOf2d6 | ReRollOnce | AutoSuccess
Hook = TestHook | NoOpeningNorReRoll


@dataclass(frozen=True, slots=True)
class TestShape:
    """Everything the roll needs about one test once its hooks are composed."""

    __test__ = False  # a Confrontation test, not a pytest one

    dice: int = 1
    keep_lowest: bool = False
    natural_bonus: int = 0
    opens: frozenset[int] = OPENS_BY_DEFAULT
    negative_opening: bool = True
    modifier: int = 0
    re_roll: bool = False
    auto_success: bool = False

    def __post_init__(self) -> None:
        if self.dice not in (1, 2):
            raise ValueError(f"a test rolls 1 or 2 dice, not {self.dice}")
        if not self.opens <= frozenset(range(2, 7)):
            raise ValueError(f"only faces 2..6 can open, not {sorted(self.opens)}")


def _applies(hook: Hook, test: str) -> bool:
    return isinstance(hook, NoOpeningNorReRoll) or test in hook.tests


def compose(test: str, hooks: Iterable[Hook]) -> TestShape:
    """Fold the hooks that touch ``test`` into its :class:`TestShape`, in the documented order."""
    mine = [h for h in hooks if _applies(h, test)]
    lowest = sum(1 for h in mine if isinstance(h, KeepOf2d6) and h.lowest)
    highest = sum(1 for h in mine if isinstance(h, KeepOf2d6) and not h.lowest)
    net = lowest - highest
    cursed = any(isinstance(h, NoOpeningNorReRoll) for h in mine)
    opens = frozenset().union(OPENS_BY_DEFAULT, *(h.faces for h in mine if isinstance(h, Opens)))
    return TestShape(
        dice=1 if net == 0 else 2,
        keep_lowest=net > 0,
        natural_bonus=sum(h.value for h in mine if isinstance(h, Bonus) and h.stage == "natural"),
        opens=frozenset() if cursed else opens,
        negative_opening=not any(isinstance(h, NoNegativeOpening) for h in mine),
        modifier=sum(h.value for h in mine if isinstance(h, Bonus) and h.stage != "natural"),
        re_roll=not cursed and any(isinstance(h, ReRollOnce) for h in mine),
        auto_success=any(isinstance(h, AutoSuccess) for h in mine),
    )
