"""What one unit is offered of one kind of action now: the parts the legal list (``actions.legal_actions``) is made
of, asked one at a time.

Why: ``apply`` refuses an action that is not legal, and the search bot's simulations apply thousands of actions, each
in a state nobody listed: building the whole list (every unit's reachable hexes, every target, every line of sight,
each with its sentence) to check one move cost a third of a simulation (issue 28, profiled). An action is legal
exactly when its unit is one of the side's able units and its target (or hex) is among what that unit is offered of
that kind, and the legal list is built from these very functions, so asking only the action's own kind of its own
unit gives the same answer (``tests/battlesystem/test_offers.py`` compares the two on playthroughs).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from .actions import KIND_OF, AtHex, BSAction, EndTurn, Move, Targeted, barrage_hexes, targets
from .movement import moves
from .pursuit import quarry
from .rally import ralliable
from .state import BattleState, Piece
from .support import bridgeable, resuppliable, tendable


def _names(pieces: list[Piece]) -> list[str]:
    return [q.name for q in pieces]


#: Each kind of a unit's action: its typed class, and the targets' names (or hexes' labels) it is offered now.
OFFERS: dict[str, tuple[type[BSAction], Callable[[BattleState, Piece], Collection[str]]]] = {
    "attack": (Targeted, lambda s, p: _names(targets(s, p, KIND_OF["attack"]))),
    "shoot": (Targeted, lambda s, p: _names(targets(s, p, KIND_OF["shoot"]))),
    "pursue": (Targeted, lambda s, p: _names(quarry(s, p))),
    "rally": (Targeted, lambda s, p: _names(ralliable(s, p))),
    "tend": (Targeted, lambda s, p: _names(tendable(s, p))),
    "resupply": (Targeted, lambda s, p: _names(resuppliable(s, p))),
    "bridge": (AtHex, bridgeable),
    "barrage": (AtHex, barrage_hexes),
    "move": (Move, lambda s, p: moves(s, p).keys()),
}


def offered(state: BattleState, action: BSAction) -> bool:
    """Whether ``action`` is one of the legal list's actions now (the side to act's, the battle not over): exactly
    ``action in actions.listed(state)``, without listing any other unit or kind."""
    if state.over or action.side != state.to_act:
        return False
    if isinstance(action, EndTurn):
        return action == EndTurn(state.to_act)
    kind = OFFERS.get(action.kind)
    if kind is None or type(action) is not kind[0]:
        return False
    aim = action.to if isinstance(action, Move) else action.hex if isinstance(action, AtHex) else action.target
    return any(p.name == action.unit and p.side == state.to_act and p.can_fight and aim in kind[1](state, p)
               for p in state.units)
