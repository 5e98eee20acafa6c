"""The search bot's score of an unfinished Ex illis battle (``rulekeeper.bots``): what the turn limit decides by.

"the side with more surviving points wins" at the turn limit (``result.check_end``), so the score is each
side's share of its own army still standing (points × men left / men), the bot's minus the enemy's, scaled by
0.8 so that no unfinished battle counts as much as a won one.
"""

from __future__ import annotations

from .result import surviving_points
from .state import BattleState


def evaluate(state: BattleState, side: str) -> float:
    """In [-0.8, 0.8]: the fraction of its army the bot's side keeps, minus the enemy's."""
    full = dict(state.army_points)
    kept = {s: surviving_points(state, s) / full[s] if full.get(s) else 0.0 for s in state.sides()}
    enemy = [v for s, v in kept.items() if s != side]
    return 0.8 * (kept.get(side, 0.0) - (sum(enemy) / len(enemy) if enemy else 0.0))
