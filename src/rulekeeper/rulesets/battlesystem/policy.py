"""The default policy (``battle autoplay``): rally, pursue, attack if possible, else close in, else end the turn.

Unit by unit in list order: a general rallies a fleeing friend if it can, else (not yet moved) rides
toward the nearest fleeing friend (to rally it after the ride: a broken unit runs only when its side
ends the turn), else attacks an adjacent enemy; it never closes in on the enemy. Any other unit pursues a fleeing enemy it may pursue (always: a broken enemy is the
cheapest kill), else a support unit does its work (tend, resupply, bridge), else attacks (a missile or a normal attack on the target with the best skill −
DR, a normal attack only when its average total is above 0); an artillery unit lays a barrage on
the hex of the nearest enemy in range; a unit that has not moved yet moves to the reachable hex
nearest an enemy if that brings it closer. Each unit moves at most once, attacks at most once
and pursues at most once, so every turn ends.
"""

from __future__ import annotations

from rulekeeper.boards.hexes import hex_distance
from rulekeeper.core.game import LegalAction

from .actions import ACTIONS, KIND_OF, AtHex, BSAction, EndTurn, Move, Targeted, legal_actions
from .combat import modifier
from .ground import ground_bonus
from .state import BattleState, Piece

#: The average of 5d10: a normal attack whose modifier is below −27.5 fails on average.
MEAN_5D10 = 27.5


def nearest_enemy(state: BattleState, label: str, side: str) -> int:
    board = state.board
    here = board.parse(label)
    gaps = [hex_distance(here, board.parse(p.hex)) for p in state.units if p.on_map and p.side != side]
    return min(gaps, default=0)


Choice = tuple[BSAction, LegalAction]


def _attack(state: BattleState, p: Piece, legal: list[Choice]) -> Targeted | None:
    best: tuple[float, Targeted] | None = None
    for a, _ in legal:
        if not isinstance(a, Targeted) or a.unit != p.name or a.kind not in KIND_OF:
            continue
        d = state.piece(a.target)
        kind = KIND_OF[a.kind]
        mod = modifier(p.type, d.type, kind, ground_bonus(state, p, d, kind))
        if a.kind == "attack" and mod + MEAN_5D10 <= 0:
            continue
        if best is None or mod > best[0]:
            best = (mod, a)
    return None if best is None else best[1]


def _barrage(state: BattleState, p: Piece, legal: list[Choice]) -> AtHex | None:
    enemies = {e.hex for e in state.units if e.on_map and e.side != p.side}
    options = [a for a, _ in legal if isinstance(a, AtHex) and a.kind == "barrage" and a.unit == p.name
               and a.hex in enemies]
    board = state.board
    here = board.parse(p.hex)
    return min(options, key=lambda a: hex_distance(here, board.parse(a.hex)), default=None)


def _close_in(state: BattleState, p: Piece, legal: list[Choice]) -> Move | None:
    if p.spent:
        return None
    now = nearest_enemy(state, p.hex, p.side)
    best: tuple[int, float, Move] | None = None
    for a, lg in legal:
        if isinstance(a, Move) and a.unit == p.name:
            gap = nearest_enemy(state, a.to, p.side)
            key = (gap, lg.cost or 0.0, a)
            if gap < now and (best is None or key[:2] < best[:2]):
                best = key
    return None if best is None else best[2]


def _mine(legal: list[Choice], p: Piece, *kinds: str) -> BSAction | None:
    """``p``'s first legal action of the first of ``kinds`` it has one of."""
    for kind in kinds:
        for a, _ in legal:
            if a.kind == kind and not isinstance(a, EndTurn) and a.unit == p.name:
                return a
    return None


def _rally(state: BattleState, p: Piece, legal: list[Choice]) -> BSAction | None:
    return _mine(legal, p, "rally")


def _support(state: BattleState, p: Piece, legal: list[Choice]) -> BSAction | None:
    """A support unit does its work when it can: tend, resupply, bridge (support.py)."""
    return _mine(legal, p, "tend", "resupply", "bridge")


def _pursue(state: BattleState, p: Piece, legal: list[Choice]) -> BSAction | None:
    return _mine(legal, p, "pursue")


def _to_fleeing(state: BattleState, p: Piece, legal: list[Choice]) -> Move | None:
    """A general that has not moved rides toward the nearest fleeing friend, if that brings it closer."""
    board = state.board
    fleeing = [board.parse(q.hex) for q in state.units if q.side == p.side and q.fleeing]
    if p.spent or not fleeing:
        return None

    def gap(label: str) -> int:
        return min(hex_distance(board.parse(label), f) for f in fleeing)

    now = gap(p.hex)
    best = min(((gap(a.to), lg.cost or 0.0, a) for a, lg in legal if isinstance(a, Move) and a.unit == p.name),
               key=lambda k: k[:2], default=None)
    return None if best is None or best[0] >= now else best[2]


def choose(state: BattleState) -> BSAction | None:
    """The action autoplay takes (see the module's docstring)."""
    if state.over:
        return None
    legal = [(ACTIONS.listed(lg.action), lg) for lg in legal_actions(state)]
    for p in state.units:
        if p.side != state.to_act or not p.can_fight:
            continue
        picks = (_rally, _to_fleeing, _attack) if p.general else (_pursue, _support, _attack, _barrage, _close_in)
        for pick in picks:
            action = pick(state, p, legal)
            if action is not None:
                return action
    return EndTurn(state.to_act)
