"""The search bot's score of an unfinished Battle System battle (``rulekeeper.bots``): soldiers able to fight.

At the turn limit "the side with more soldiers still able to fight wins" (``turns.at_limit``), and a side with
none left loses at once (``turns.decided``); the score is the balance of those soldiers, (own − enemy) /
(own + enemy), scaled by 0.8 so that no unfinished battle counts as much as a won one.

``rollout_policy`` is the shipped policy (``policy.choose``) asked one unit at a time: the policy walks the side's
able units in list order and plays the first thing the first of them can do, looking only at that unit's own
actions, so there is no need to build the whole legal list (every unit's reachable hexes and targets, each with
its sentence: three fifths of a simulation's cost, profiled in issue 28). Each of the policy's picks is asked of
the very functions the legal list is built from (``offers.OFFERS``), in the list's order, so the action is the
same in every state (``tests/bots/test_rollout_policy_battlesystem.py`` checks it along playthroughs and after
every candidate the bot tries).
"""

from __future__ import annotations

from rulekeeper.boards.hexcoords import parse_hex_label
from rulekeeper.boards.hexes import Hex, hex_distance

from .actions import KIND_OF, AtHex, BSAction, EndTurn, Move, Targeted, barrage_hexes, targets
from .combat import modifier
from .ground import ground_bonus
from .movement import moves
from .policy import MEAN_5D10
from .pursuit import quarry
from .rally import ralliable
from .state import SIDES, BattleState, Piece
from .support import bridgeable, resuppliable, tendable
from .turns import strength


def evaluate(state: BattleState, side: str) -> float:
    own = strength(state, side)
    enemy = sum(strength(state, s) for s in SIDES if s != side)
    return 0.8 * (own - enemy) / (own + enemy) if own + enemy else 0.0


def rollout_policy(state: BattleState) -> BSAction | None:
    """``policy.choose(state)``, unit by unit (see the module docstring)."""
    if state.over:
        return None
    for p in state.units:
        if p.side != state.to_act or not p.can_fight:
            continue
        action = _general(state, p) if p.general else _soldier(state, p)
        if action is not None:
            return action
    return EndTurn(state.to_act)


def _general(state: BattleState, p: Piece) -> BSAction | None:
    """A general rallies, else rides toward the nearest fleeing friend, else attacks (``policy.choose``)."""
    for u in ralliable(state, p):
        return Targeted("rally", p.side, p.name, u.name)
    board = state.board
    fleeing = [board.parse(q.hex) for q in state.units if q.side == p.side and q.fleeing]
    if not p.spent and fleeing:
        now = _gap(board.parse(p.hex), fleeing)
        best = min(((_gap(parse_hex_label(to), fleeing), float(cost), to) for to, cost in moves(state, p).items()),
                   key=lambda k: k[:2], default=None)
        if best is not None and best[0] < now:
            return Move("move", p.side, p.name, best[2])
    return _attack(state, p)


def _soldier(state: BattleState, p: Piece) -> BSAction | None:
    """Pursue, else support work, else attack, else a barrage, else close in (``policy.choose``)."""
    for t in quarry(state, p):
        return Targeted("pursue", p.side, p.name, t.name)
    for u in tendable(state, p):
        return Targeted("tend", p.side, p.name, u.name)
    for u in resuppliable(state, p):
        return Targeted("resupply", p.side, p.name, u.name)
    for label in bridgeable(state, p):
        return AtHex("bridge", p.side, p.name, label)
    attack = _attack(state, p)
    if attack is not None:
        return attack
    board = state.board
    enemies = [q for q in state.units if q.on_map and q.side != p.side]
    laid = {e.hex for e in enemies}
    here = board.parse(p.hex)
    barrage = min((label for label in barrage_hexes(state, p) if label in laid),
                  key=lambda label: hex_distance(here, board.parse(label)), default=None)
    if barrage is not None:
        return AtHex("barrage", p.side, p.name, barrage)
    if p.spent:
        return None
    spots = [board.parse(e.hex) for e in enemies]
    now = _gap(here, spots)
    best: tuple[int, float, str] | None = None
    for to, cost in moves(state, p).items():
        gap = _gap(parse_hex_label(to), spots)
        if gap < now and (best is None or (gap, float(cost)) < best[:2]):
            best = (gap, float(cost), to)
    return None if best is None else Move("move", p.side, p.name, best[2])


def _gap(here: Hex, spots: list[Hex]) -> int:
    """The distance to the nearest of ``spots`` (0 when there are none, as ``policy.nearest_enemy`` says):
    ``hex_distance`` written out (its cube coordinate ``s`` is ``-q - r``), asked for every hex a unit may reach.
    A reachable hex's label is the map's own (``movement.moves``), so it is read without the map's checks."""
    q, r = here.q, here.r
    return min(((abs(q - h.q) + abs(r - h.r) + abs(q - h.q + r - h.r)) // 2 for h in spots), default=0)


def _attack(state: BattleState, p: Piece) -> Targeted | None:
    """The attack or shot with the best modifier (a normal attack only when its average total is above 0; the first
    of equals, attacks listed before shots), as ``policy._attack`` picks it."""
    best: tuple[float, Targeted] | None = None
    for kind in ("attack", "shoot"):
        how = KIND_OF[kind]
        for d in targets(state, p, how):
            mod = modifier(p.type, d.type, how, ground_bonus(state, p, d, how))
            if kind == "attack" and mod + MEAN_5D10 <= 0:
                continue
            if best is None or mod > best[0]:
                best = (mod, Targeted(kind, p.side, p.name, d.name))
    return None if best is None else best[1]
