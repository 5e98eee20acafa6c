"""The Battle System's dice: exact totals from icepool, drawn through Fate with integer weights.

Every roll of the guide is a sum of d10s plus a fixed number (``5d10+6+0-20``, ``1d10+20``).
The chance request lists each total with the number of dice combinations giving it (out of
10^5 for 5d10), so the probability Fate shows and draws with is the exact fraction rounded
once to a float: the odds shown and the odds used cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache

import icepool

from rulekeeper.core.chance import ChanceRequest, ChanceResult, discrete

#: "Normal attacks are solved with a 5d10+(skill)+(other bonuses)-(enemy Damage Reduction)."
ATTACK_DICE = 5
#: "Most normal units deal 1d10+(the number of hostile casualties) morale damage"
MORALE_DICE = 1
SIDES = 10


@lru_cache(maxsize=512)
def dice(count: int, sides: int = SIDES, modifier: int = 0) -> icepool.Die:
    """``count``d``sides`` + ``modifier`` as an icepool die (exact; the odds functions map it). Cached: dice
    are immutable, and every preview of an attack asks for the same few."""
    return count @ icepool.d(sides) + modifier


@lru_cache(maxsize=512)
def _quantities(count: int, sides: int, modifier: int) -> tuple[tuple[int, int], ...]:
    return tuple((int(o), int(q)) for o, q in dice(count, sides, modifier).items())


@lru_cache(maxsize=4096)
def roll_request(label: str, count: int, sides: int, modifier: int, explain: tuple[str, ...] = ()) -> ChanceRequest:
    """The request a roll draws: every total with its count of dice combinations as its weight.

    Cached (requests are frozen): a battle asks for the same few rolls again and again.
    """
    return discrete(label, [(str(o), q) for o, q in _quantities(count, sides, modifier)], explain)


def drawn(result: ChanceResult) -> int:
    """The total a drawn roll came to."""
    return int(result.outcome)


def fractions(die: icepool.Die) -> dict[int, Fraction]:
    """An icepool die as exact probabilities (outcome → Fraction)."""
    denominator = int(die.denominator())
    return {int(o): Fraction(int(q), denominator) for o, q in die.items()}


def pushed(request: ChanceRequest, rule: Callable[[int], int]) -> dict[int, float]:
    """What ``rule`` makes of each total of ``request``, with the probabilities Fate draws with.

    The tests compare this with the icepool distributions: the odds shown equal the odds used.
    """
    out: dict[int, float] = {}
    for outcome, p in request.odds():
        key = rule(int(outcome))
        out[key] = out.get(key, 0.0) + p
    return out


def written(count: int, parts: Sequence[int], signs: str = "") -> str:
    """The guide's own notation: ``5d10+6+0-20`` (parts added, then subtracted, as ``signs`` says)."""
    text = f"{count}d{SIDES}"
    for part, sign in zip(parts, signs or "+" * len(parts), strict=True):
        text += f"{sign}{part}"
    return text


def simply(count: int, modifier: int) -> str:
    """The guide's "(or simply 5d10-14)"."""
    return f"{count}d{SIDES}{modifier:+d}" if modifier else f"{count}d{SIDES}"


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((Fraction(o) * p for o, p in dist.items()), Fraction(0))
