"""The search bot's score of an unfinished Dragon Noir battle (``rulekeeper.bots``): characters alive, and how hurt.

At the turn limit the side with more living characters wins (``turns.at_limit``), and a side with none loses at
once; a character counts 1 while healthy, less when wounded, stunned or worse (an *estimate*: a hurt man
fights worse and is nearer death, by how much the rules do not weigh). The score is (own − enemy) / (own +
enemy), scaled by 0.8 so that no unfinished battle counts as much as a won one.
"""

from __future__ import annotations

from .state import SIDES, DNState
from .turns import living

#: What a living character is worth by the counter side up (estimated, see the module docstring).
WORTH = {"healthy": 1.0, "berserk": 0.9, "wounded": 0.7, "stunned": 0.6, "wounded_twice": 0.4}


def evaluate(state: DNState, side: str) -> float:
    def alive(s: str) -> float:
        return sum(WORTH.get(m.health, 0.5) for m in living(state, s))

    own = alive(side)
    enemy = sum(alive(s) for s in SIDES if s != side)
    return 0.8 * (own - enemy) / (own + enemy) if own + enemy else 0.0
