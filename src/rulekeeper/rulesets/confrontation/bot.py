"""The search bot's score of an unfinished Confrontation skirmish (``rulekeeper.bots``): points standing.

At the round limit the side whose standing fighters are worth more wins (``skirmish.by_points``), and a side
with nobody standing loses at once; the score is the balance of those points, each fighter weighed by his
hit points left (a hurt fighter is nearer the ground) and halved while he routs (an *estimate*), scaled by 0.8
so that no unfinished skirmish counts as much as a won one.
"""

from __future__ import annotations

from .state import Fighter, SkirmishState


def evaluate(state: SkirmishState, side: str) -> float:
    def worth(s: str) -> float:
        return sum(f.card.cost * _health(f) * (0.5 if f.rout else 1.0) for f in state.standing(s))

    sides = {f.side for f in state.fighters}
    own = worth(side)
    enemy = sum(worth(s) for s in sides if s != side)
    return 0.8 * (own - enemy) / (own + enemy) if own + enemy else 0.0


def _health(f: Fighter) -> float:
    """The share of his card's HP a fighter keeps (a quarter at least while he stands; Fierce: a quarter)."""
    if f.fierce or f.card.HP <= 0:
        return 0.25
    return max(0.25, min(1.0, f.hp / f.card.HP))
