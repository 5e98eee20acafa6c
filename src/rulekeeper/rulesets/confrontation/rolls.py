"""Tests: D6 + characteristic against a difficulty, with opened results, as exact odds and a draw.

The exact distribution is computed with fractions over every die the rules can roll, so the odds
the keeper shows are the odds the draw uses: :func:`request_for_test` builds the one
:class:`~rulekeeper.core.chance.ChanceRequest` for a test and :func:`roll_test` draws exactly
that request through :class:`~rulekeeper.core.chance.Fate` (no other randomness). The opening
rule is an estimate (docs/rules/confrontation.md, "Opening"):

* a kept face in ``opens`` (a 6; a 5 or a 4 with some abilities) is read as a 6 and the test is
  rolled again and added; a re-rolled die opens again the same way, at most :data:`OPENING_CAP`
  re-rolls (the last one counts its face): the cap is part of the rule, so nothing is truncated;
* a kept 1 is a natural fail ("a roll of 1 is a natural fail"); unless an ability says it "must
  not be negatively opened", one more die is rolled and subtracted (natural result 1 − d6);
* a natural result of 1 or less is a natural fail, whatever the characteristic and bonuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from rulekeeper.core.chance import ChanceRequest, Fate, discrete

from .effects import TestShape

#: How many dice an opening may add at most (estimated; the third-edition rule is not reachable).
OPENING_CAP = 3
SIXTH = Fraction(1, 6)
Distribution = dict[int, Fraction]


def _add(into: Distribution, value: int, p: Fraction) -> None:
    into[value] = into.get(value, Fraction(0)) + p


@cache
def opening_chain(opens: frozenset[int], left: int) -> tuple[tuple[int, Fraction], ...]:
    """One re-rolled die of an opening and whatever it opens in turn (``left`` re-rolls after it)."""
    out: Distribution = {}
    for face in range(1, 7):
        if face in opens and left > 0:
            for value, p in opening_chain(opens, left - 1):
                _add(out, 6 + value, SIXTH * p)
        else:
            _add(out, face, SIXTH)
    return tuple(sorted(out.items()))


def kept_faces(shape: TestShape) -> Distribution:
    """The face the test reads: 1d6, or the lowest/highest of 2d6."""
    if shape.dice == 1:
        return {face: SIXTH for face in range(1, 7)}
    out: Distribution = {}
    for a in range(1, 7):
        for b in range(1, 7):
            _add(out, min(a, b) if shape.keep_lowest else max(a, b), SIXTH * SIXTH)
    return out


def natural_distribution(shape: TestShape, cap: int = OPENING_CAP) -> Distribution:
    """The natural result of one roll of the test (before any re-roll), exactly.

    Computed once per shape (a fight's preview asks for the same few shapes again and again);
    each caller gets its own dict.
    """
    return dict(_natural_distribution(shape, cap))


@cache
def _natural_distribution(shape: TestShape, cap: int) -> tuple[tuple[int, Fraction], ...]:
    out: Distribution = {}
    for face, p in kept_faces(shape).items():
        read = min(6, max(1, face + shape.natural_bonus))
        if read in shape.opens and cap > 0:
            for value, q in opening_chain(shape.opens, cap - 1):
                _add(out, 6 + value, p * q)
        elif read == 1 and shape.negative_opening:
            for minus in range(1, 7):
                _add(out, 1 - minus, p * SIXTH)
        else:
            _add(out, read, p)
    return tuple(sorted(out.items()))


def succeeds(natural: int, characteristic: int, shape: TestShape, difficulty: int) -> bool:
    """A natural fail (natural 1 or less) fails whatever the total; else final ≥ difficulty. An automatic
    success (Born killer's COU tests) passes any difficulty up to the characteristic, whatever the roll."""
    if shape.auto_success and difficulty <= characteristic:
        return True
    return natural > 1 and natural + characteristic + shape.modifier >= difficulty


def odds_of_test(shape: TestShape, characteristic: int, difficulty: int | None,
                      cap: int = OPENING_CAP) -> Distribution:
    """The natural result the test keeps, re-roll included: a failed roll is re-rolled once
    when the shape allows it (the player re-rolls exactly when the first roll failed)."""
    first = natural_distribution(shape, cap)
    if not shape.re_roll or difficulty is None:
        return first
    fail = sum((p for n, p in first.items() if not succeeds(n, characteristic, shape, difficulty)), Fraction(0))
    out: Distribution = {}
    for n, p in first.items():
        if succeeds(n, characteristic, shape, difficulty):
            _add(out, n, p)
        _add(out, n, fail * p)
    return dict(sorted(out.items()))


def p_success(shape: TestShape, characteristic: int, difficulty: int, cap: int = OPENING_CAP) -> Fraction:
    dist = odds_of_test(shape, characteristic, difficulty, cap)
    return sum((p for n, p in dist.items() if succeeds(n, characteristic, shape, difficulty)), Fraction(0))


@dataclass(frozen=True, slots=True)
class TestResult:
    """One resolved test: the natural result, the final result and whether it passed."""

    __test__ = False  # a Confrontation test, not a pytest one

    natural: int
    final: int
    natural_fail: bool
    success: bool | None


def request_for_test(label: str, shape: TestShape, characteristic: int, difficulty: int | None) -> ChanceRequest:
    """The one draw a test makes, outcomes named ``natural N`` with their exact odds."""
    dist = odds_of_test(shape, characteristic, difficulty)
    explain = (f"D6 + {characteristic}{shape.modifier:+d}" + (f" vs {difficulty}" if difficulty is not None else ""),
               f"opens on {sorted(shape.opens) or 'nothing'}; negative opening {'on' if shape.negative_opening else 'off'}")
    return discrete(label, [(f"natural {n}", float(p)) for n, p in dist.items()], explain)


def roll_test(fate: Fate, label: str, shape: TestShape, characteristic: int,
              difficulty: int | None = None) -> TestResult:
    """Draw the test through ``fate``; its record carries exactly :func:`request_for_test`'s odds."""
    outcome = fate.draw(request_for_test(label, shape, characteristic, difficulty)).outcome
    natural = int(outcome.removeprefix("natural "))
    passed = None if difficulty is None else succeeds(natural, characteristic, shape, difficulty)
    return TestResult(natural, natural + characteristic + shape.modifier, natural <= 1, passed)
