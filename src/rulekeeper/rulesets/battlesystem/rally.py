"""The general's rally (docs/rules/battlesystem.md, "Generals, rally, pursuit").

The guide: "their general will be able to rally them back into the fight", and nothing more.
Our rule: a side's general (data/command.yaml) that has not yet acted this turn (its one
attack) may rally a fleeing unit of its side still on the map and within its range (3 hexes,
estimated; no sight needed: voice, banner and gallopers). The unit gets back ``3d10`` morale
(estimated, never above its card's morale) and stops fleeing, but spends the rest of that turn
re-forming: it neither moves nor attacks until its side's next turn. The general's rally is its
action of the turn; it may move before or after. A fleeing or destroyed general rallies nobody.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rulekeeper.boards.hexes import hex_distance
from rulekeeper.core.chance import ChanceRequest, Fate

from .command import command
from .report import Lines
from .rolls import drawn, roll_request
from .state import BattleState, Piece

if TYPE_CHECKING:
    from .actions import Targeted


def may_rally(state: BattleState, general: Piece, unit: Piece) -> bool:
    """Whether ``general`` may rally ``unit`` now."""
    if not general.general or not general.can_fight or general.attacked:
        return False
    if unit.side != general.side or not unit.fleeing:
        return False
    board = state.board
    return hex_distance(board.parse(general.hex), board.parse(unit.hex)) <= general.type.range


def ralliable(state: BattleState, general: Piece) -> list[Piece]:
    """The fleeing units of its side ``general`` may rally now."""
    return [u for u in state.units if u.fleeing and may_rally(state, general, u)]


def rally_request(general: Piece, unit: Piece) -> ChanceRequest:
    """The rally roll: the morale ``unit`` gets back."""
    c = command()
    return roll_request(f"Rally: {general.name} rally {unit.name}", c.rally_dice, c.rally_sides, 0,
                        (f"{c.rally_dice}d{c.rally_sides} morale restored (estimated: data/command.yaml)",))


def restored(total: int, unit: Piece) -> int:
    """The morale a rally roll leaves: the roll, at most the card's morale."""
    return min(total, unit.type.morale)


def do_rally(state: BattleState, action: Targeted, fate: Fate) -> tuple[BattleState, Lines]:
    g, u = state.piece(action.unit), state.piece(action.target)
    request = rally_request(g, u)
    total = drawn(fate.draw(request))
    morale = restored(total, u)
    rallied = replace(u, morale=morale, spent=u.type.movement, attacked=True)
    lines: Lines = [
        {"text": f"{g.name} rally {u.name}: {request.explain[0]} rolls {total}", "kind": "roll"},
        {"text": f"  {u.name} stop fleeing: morale 0 → {morale}; they re-form and act again next turn",
         "kind": "rally"}]
    return state.with_pieces(replace(g, attacked=True), rallied), lines
