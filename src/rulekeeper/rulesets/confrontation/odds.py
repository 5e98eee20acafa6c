"""The odds of a test as lines of text, with every ability's effect listed.

The ground for ``rulekeeper odds confrontation test ATT 4 --difficulty 7 --abilities Brutal``
(issue 15): the player sees which abilities touched the test and how, then the exact chance of
success and the distribution of the final result, all from :func:`~.rolls.odds_of_test`.
"""

from __future__ import annotations

from fractions import Fraction

from .abilities import ABILITIES, shape_of
from .effects import TestShape
from .rolls import OPENING_CAP, odds_of_test, succeeds


def _how(shape: TestShape) -> list[str]:
    dice = "1d6" if shape.dice == 1 else f"2d6 keep the {'lowest' if shape.keep_lowest else 'highest'}"
    opens = ", ".join(str(f) for f in sorted(shape.opens)) or "nothing (cannot open)"
    return [
        f"roll {dice}; natural bonus {shape.natural_bonus:+d}; bonuses to the final result {shape.modifier:+d}",
        f"opens on {opens} (at most {OPENING_CAP} re-rolls, estimated); a 1 is a natural fail"
        + (" opened negatively (1 - d6, estimated)" if shape.negative_opening else " not opened negatively"),
        "one re-roll when the test fails" if shape.re_roll else "no re-roll",
    ]


def describe_test(test: str, characteristic: int, difficulty: int, abilities: list[str]) -> list[str]:
    """Lines: the test, each ability that touches it, how it is rolled, P(success), the final results."""
    shape = shape_of(test, abilities)
    touching = [a for a in abilities if shape_of(test, [a]) != shape_of(test, [])]
    lines = [f"{test} test: D6 + {characteristic} vs difficulty {difficulty}"]
    lines += [f"  {a}: {ABILITIES[a.partition('/')[0].strip()].category} ability, changes this test" for a in touching]
    lines += [f"  {a}: does not touch a {test} test" for a in abilities if a not in touching]
    lines += [f"  {line}" for line in _how(shape)]
    dist = odds_of_test(shape, characteristic, difficulty)
    win = sum((p for n, p in dist.items() if succeeds(n, characteristic, shape, difficulty)), Fraction(0))
    lines.append(f"success {float(win):.2%} (exactly {win})")
    for natural, p in dist.items():
        final = natural + characteristic + shape.modifier
        tag = " natural fail" if natural <= 1 else ""
        lines.append(f"  final {final:>3}{tag}: {float(p):.4%}")
    return lines
