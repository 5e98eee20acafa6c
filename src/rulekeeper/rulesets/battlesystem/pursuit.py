"""Pursuit: what units may do to an enemy that flees (docs/rules/battlesystem.md, "Generals, rally, pursuit").

The guide: "A unit that has been reduced to 0 morale will be forced to flee toward the edge of
the map. Once they've gone over, they have escaped from the battle. Other units will be able to
pursue them" — and its "Pursuing" section is an empty heading. Our reading, as players of
hex wargames expect it:

- **A pursuit is an attack on an adjacent fleeing enemy** (``pursue``): 5d10 + melee skill +
  bonuses − Damage Reduction, as a normal attack, but a fleeing unit does not turn to fight, so a
  total under 0 hurts nobody (no failed-attack losses), and it rolls no morale damage (the unit is
  already at 0). Any unit with a melee skill may pursue instead of its one attack; a normal
  ``attack`` no longer targets a fleeing unit (attacking it *is* pursuing it). Missiles still shoot
  at fleeing units as at any other.
- **Following up**: the unit whose normal attack broke its target may pursue that unit at once,
  the same turn, although it has attacked (``Piece.broke``) — or forgo it by doing anything else;
  the chance lapses with the turn.
- **A pursuit draws the pursuers off**: after it the unit moves no more this turn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rulekeeper.core.chance import ChanceRequest, Fate
from rulekeeper.core.wording import counted

from .combat import modifier
from .report import Lines
from .rolls import ATTACK_DICE, SIDES, drawn, roll_request, simply, written
from .state import BattleState, Piece

if TYPE_CHECKING:
    from .actions import Targeted


def may_pursue(state: BattleState, piece: Piece, target: Piece) -> bool:
    """Whether ``piece`` may pursue ``target`` now: an adjacent fleeing enemy, with its attack or its follow-up."""
    if not piece.can_fight or piece.type.melee is None or not target.fleeing or target.side == piece.side:
        return False
    board = state.board
    if board.parse(piece.hex) not in board.neighbours(board.parse(target.hex)):
        return False
    return not piece.attacked or piece.broke == target.name


def quarry(state: BattleState, piece: Piece) -> list[Piece]:
    """The fleeing enemies ``piece`` may pursue now."""
    return [t for t in state.units if t.fleeing and may_pursue(state, piece, t)]


def pursuit_request(pursuer: Piece, fleeing: Piece) -> ChanceRequest:
    """The pursuit's roll, written as the guide writes a normal attack."""
    skill = pursuer.type.melee or 0
    mod = modifier(pursuer.type, fleeing.type, "melee", 0)
    text = f"{written(ATTACK_DICE, (skill, 0, fleeing.type.damage_reduction), '++-')} (or simply {simply(ATTACK_DICE, mod)})"
    return roll_request(f"Pursuit: {pursuer.name} on {fleeing.name}", ATTACK_DICE, SIDES, mod,
                        (text, "a fleeing unit does not fight back: under 0 hurts nobody"))


def pursuit_casualties(total: int, soldiers: int) -> int:
    """Casualties of a pursuit roll: the total if above 0 (at most every soldier), else none."""
    return min(max(total, 0), soldiers)


def do_pursue(state: BattleState, action: Targeted, fate: Fate) -> tuple[BattleState, Lines]:
    p, t = state.piece(action.unit), state.piece(action.target)
    request = pursuit_request(p, t)
    total = drawn(fate.draw(request))
    lost = pursuit_casualties(total, t.soldiers)
    lines: Lines = [{"text": f"{p.name} pursue {t.name}: {request.explain[0]} rolls {total}",
                              "kind": "roll"}]
    if lost:
        end = " — destroyed" if lost == t.soldiers else ""
        lines.append({"text": f"  {t.name} lose {counted(lost, 'soldier')} ({t.soldiers} → {t.soldiers - lost}){end}",
                      "kind": "casualties"})
    else:
        lines.append({"text": "  they get away: nobody falls (a fleeing unit does not fight back)", "kind": "none"})
    pursuer = replace(p, attacked=True, broke=None, spent=p.type.movement)
    return state.with_pieces(pursuer, replace(t, soldiers=t.soldiers - lost)), lines
