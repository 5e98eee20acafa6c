"""The Ex illis battle state (the one ruleset layout's ``state.py``).

Ex illis keeps its battle engine whole in the subpackage :mod:`.battle` (state, legal actions, the
fold, the policy and their tables); this module is where the layout says the state is, and names it.
"""

from __future__ import annotations

from .battle.state import BattleState, BattleUnit, PendingAction

__all__ = ["BattleState", "BattleUnit", "PendingAction"]
