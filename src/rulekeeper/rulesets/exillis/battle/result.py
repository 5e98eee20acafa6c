"""The end of a battle and its result: casualties per unit and Battle Points.

"Number of units and Heroes in the army → BP earned: < 5 → 0, 5-6 → 1, 7-9 → 2,
10-13 → 3, 14-18 → 4, 19+ → 5. ... both players earn the total amount of Battle Points
the game is worth, whatever the outcome. No Battle Point will be given for a Practice
game, if the battlefield is less than four zones by four, or if a difference of 15%
separates both armies."
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypedDict

from rulekeeper.core.wording import counted

from .state import BattleState

#: Game time sums many fractions of a round: a turn due at round N may land a hair below N.
ROUND_EPSILON = 1e-9

BP_TABLE: tuple[tuple[int, int], ...] = ((19, 5), (14, 4), (10, 3), (7, 2), (5, 1), (0, 0))


def bp_for(count: int) -> int:
    """Battle Points an army of ``count`` units and Heroes brings to the game."""
    for at, bp in BP_TABLE:
        if count >= at:
            return bp
    return 0


def battle_points(state: BattleState) -> tuple[int, str]:
    """BP each player earns, and why it may be 0."""
    if state.practice:
        return 0, "practice game"
    if state.board.width < 4 or state.board.height < 4:
        return 0, "battlefield smaller than 4 × 4"
    pts = [p for _, p in state.army_points]
    if len(pts) == 2 and max(pts) > 0 and (max(pts) - min(pts)) / max(pts) > 0.15:
        return 0, "more than 15 % between the armies"
    total = sum(bp_for(sum(1 for u in state.units if u.side == side)) for side in state.sides())
    return total, ""


def surviving_points(state: BattleState, side: str) -> float:
    return sum(u.points * u.c.count / len(u.c.hp) for u in state.units if u.side == side and u.on_board)


def check_end(state: BattleState) -> BattleState:
    """End the battle when a side has nothing left on the board or the turn limit is reached."""
    if state.over and state.winner is not None:
        return state
    alive = {side: any(u.on_board for u in state.units if u.side == side) for side in state.sides()}
    if not all(alive.values()):
        standing = [s for s, a in alive.items() if a]
        winner = standing[0] if len(standing) == 1 else "draw"
        return replace(state, over=True, winner=winner, end_reason="a side has nothing left on the board", active=())
    # N rounds give an Initiative-100 unit N turns (at rounds 0 … N−1): none is taken at round N itself
    if state.turn_limit and state.round >= state.turn_limit - ROUND_EPSILON:
        a, b = state.sides()
        pa, pb = surviving_points(state, a), surviving_points(state, b)
        winner = a if pa > pb else b if pb > pa else "draw"
        return replace(state, over=True, winner=winner, end_reason=f"turn limit ({counted(state.turn_limit, 'round')})",
                       active=())
    return state


class UnitResult(TypedDict):
    unit: str
    status: str  # active | destroyed | fled
    miniatures: int
    left: int
    casualties: int
    kills: int


class ArmyResult(TypedDict):
    name: str
    points: int
    surviving_points: float
    units: list[UnitResult]


class BattleSummary(TypedDict):
    """The end of a battle as the result screen, ``battle show`` and the campaign record read it."""

    over: bool
    winner: str | None
    winner_army: str | None
    reason: str
    activations: int
    battle_points: int
    battle_points_note: str
    armies: dict[str, ArmyResult]


def summary(state: BattleState) -> BattleSummary:
    """The result: winner, reason, casualties per unit and the Battle Points earned."""
    bp, why = battle_points(state)
    names = dict(state.armies)
    return {
        "over": state.over,
        "winner": state.winner,
        "winner_army": names.get(state.winner or "", state.winner),
        "reason": state.end_reason,
        "activations": state.activations,
        "battle_points": bp,
        "battle_points_note": why,
        "armies": {
            side: {
                "name": names.get(side, side),
                "points": dict(state.army_points).get(side, 0),
                "surviving_points": round(surviving_points(state, side), 1),
                "units": [
                    {"unit": u.key, "status": u.status, "miniatures": len(u.c.hp), "left": u.c.count,
                     "casualties": len(u.c.hp) - u.c.count, "kills": u.kills}
                    for u in state.units if u.side == side
                ],
            }
            for side in state.sides()
        },
    }
