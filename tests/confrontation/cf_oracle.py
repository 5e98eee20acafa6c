"""A brute-force oracle for Confrontation tests: the documented rule played die by die.

It shares nothing with ``rolls.py`` but :class:`TestShape`: :func:`play` reads the dice one at a
time as a player would, :func:`enumerate_odds` runs it over every sequence of dice (each weighted
1/6^L, the dice a roll does not use marginalise out), and the same :func:`play` fed by a seeded
RNG is the Monte Carlo check.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

from rulekeeper.rulesets.confrontation.effects import TestShape


def play_once(shape: TestShape, dice: Iterator[int], cap: int) -> int:
    """One roll of the test: the natural result."""
    faces = [next(dice) for _ in range(shape.dice)]
    face = min(faces) if shape.keep_lowest else max(faces)
    face = min(6, max(1, face + shape.natural_bonus))
    if face == 1:
        return 1 - next(dice) if shape.negative_opening else 1
    total, rerolls = 0, 0
    while face in shape.opens and rerolls < cap:
        total += 6
        rerolls += 1
        face = next(dice)
    return total + face


def play(shape: TestShape, dice: Iterator[int], cap: int, characteristic: int, difficulty: int | None) -> int:
    """The natural result the test keeps, re-rolled once when it failed and the shape allows it."""
    natural = play_once(shape, dice, cap)
    if shape.re_roll and difficulty is not None:
        failed = natural <= 1 or natural + characteristic + shape.modifier < difficulty
        if failed:
            natural = play_once(shape, dice, cap)
    return natural


def dice_needed(shape: TestShape, cap: int) -> int:
    one = shape.dice + max(cap, 1)
    return 2 * one if shape.re_roll else one


def enumerate_odds(shape: TestShape, cap: int, characteristic: int = 0,
                   difficulty: int | None = None) -> dict[int, Fraction]:
    length = dice_needed(shape, cap)
    counts: Counter[int] = Counter()
    for seq in itertools.product(range(1, 7), repeat=length):
        counts[play(shape, iter(seq), cap, characteristic, difficulty)] += 1
    total = 6 ** length
    return {n: Fraction(c, total) for n, c in sorted(counts.items())}
