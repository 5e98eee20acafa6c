"""The War Table's default policy (the one ruleset layout's ``policy.py``): attack, then defend.

An engagement offers each side one action in turn and nothing to choose, so the policy plays it.
"""

from __future__ import annotations

from .actions import ATTACK, DEFEND, Engage
from .state import WarTableState


def choose(state: WarTableState) -> Engage | None:
    """The side to act's one action, or None once the engagement is resolved."""
    return None if state.over else DEFEND if state.declared else ATTACK
