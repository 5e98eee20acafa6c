"""The search bot's score of an unfinished Battle System battle (``rulekeeper.bots``): soldiers able to fight.

At the turn limit "the side with more soldiers still able to fight wins" (``turns.at_limit``), and a side with
none left loses at once (``turns.decided``); the score is the balance of those soldiers, (own − enemy) /
(own + enemy), scaled by 0.8 so that no unfinished battle counts as much as a won one.
"""

from __future__ import annotations

from .state import SIDES, BattleState
from .turns import strength


def evaluate(state: BattleState, side: str) -> float:
    own = strength(state, side)
    enemy = sum(strength(state, s) for s in SIDES if s != side)
    return 0.8 * (own - enemy) / (own + enemy) if own + enemy else 0.0
