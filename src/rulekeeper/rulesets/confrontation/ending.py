"""How a skirmish ends: a side with no fighter standing, or the round limit (the standing fighters' worth).

Apart from the round's flow (:mod:`.skirmish`) because the board renderer and the keeper read ``worth`` too.
"""

from __future__ import annotations

from rulekeeper.core.wording import counted

from .state import SIDES, SkirmishState, other, replace

__all__ = ["by_points", "decided", "worth"]


def worth(state: SkirmishState, side: str) -> int:
    """The cost of a side's standing fighters (what a round limit is decided by)."""
    return sum(f.card.cost for f in state.standing(side))


def decided(state: SkirmishState) -> SkirmishState:
    """Over when a side has no fighter standing."""
    if state.over:
        return state
    alive = [s for s in SIDES if state.standing(s)]
    if len(alive) == 2:
        return state
    if not alive:
        return replace(state, over=True, winner=None, reason="no fighter is left standing")
    loser = other(alive[0])
    return replace(state, over=True, winner=alive[0], reason=f"{state.name(loser)} have no fighter standing")


def by_points(state: SkirmishState) -> SkirmishState:
    a, b = worth(state, "A"), worth(state, "B")
    reason = f"round limit {state.round_limit} reached: standing fighters worth {a} against {counted(b, 'point')}"
    winner = None if a == b else ("A" if a > b else "B")
    return replace(state, over=True, winner=winner, reason=reason)
