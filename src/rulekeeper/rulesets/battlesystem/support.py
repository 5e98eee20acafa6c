"""The support units at work: Medics tend, Supply resupply, Engineers bridge (issue 25, point 10).

The guide: "Support units: Engineers, Medics, Supply", and an empty "Special Abilities" heading. Our
reading, each unit doing what its name promises, as its one action of the turn (instead of an
attack; it may move before and after), numbers in data/support.yaml (estimated):

- ``tend`` (Medics, "Tends wounded"): an adjacent friendly unit that can fight and has lost soldiers
  gets back ``1d10`` of them (never above its card's soldiers): a roll, previewed exactly.
- ``resupply`` (Supply, "Resupplies"): an adjacent friendly unit whose card carries ammunition and
  that has spent some gets ``2`` back (never above its card's).
- ``bridge`` (Engineers, "Builds bridges"): an adjacent shallow river hex becomes a ``bridge``:
  entering it costs 1 point, as open ground, for both sides, for the rest of the battle.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rulekeeper.boards.hexes import hex_distance
from rulekeeper.core.chance import ChanceRequest, Fate
from rulekeeper.core.wording import counted

from .report import Lines
from .rolls import drawn, roll_request
from .state import BattleState, Piece
from .support_data import support_numbers
from .units import BRIDGES, RESUPPLIES, TENDS

if TYPE_CHECKING:
    from .actions import AtHex, Targeted

#: A river hex the Engineers bridged: no longer slows (state.SLOW_TERRAINS does not list it).
BRIDGE = "bridge"


def _ready(p: Piece, ability: str) -> bool:
    return p.can_fight and not p.attacked and p.type.has(ability)


def _next_to(state: BattleState, a: str, b: str) -> bool:
    return hex_distance(state.board.parse(a), state.board.parse(b)) == 1


def tendable(state: BattleState, medics: Piece) -> list[Piece]:
    """The adjacent friendly units ``medics`` may tend now: able to fight and short of soldiers."""
    if not _ready(medics, TENDS):
        return []
    return [u for u in state.units if u.side == medics.side and u.can_fight and u.name != medics.name
            and u.soldiers < u.type.soldiers and _next_to(state, medics.hex, u.hex)]


def resuppliable(state: BattleState, supply: Piece) -> list[Piece]:
    """The adjacent friendly units ``supply`` may resupply now: their card carries ammunition and some is spent."""
    if not _ready(supply, RESUPPLIES):
        return []
    return [u for u in state.units if u.side == supply.side and u.on_map and u.name != supply.name
            and u.ammunition < u.type.ammunition and _next_to(state, supply.hex, u.hex)]


def bridgeable(state: BattleState, engineers: Piece) -> list[str]:
    """The adjacent shallow river hexes ``engineers`` may bridge now."""
    if not _ready(engineers, BRIDGES):
        return []
    return [label for label, kind, _ in state.terrain
            if kind == "shallow river" and _next_to(state, engineers.hex, label)]


def tend_request(medics: Piece, unit: Piece) -> ChanceRequest:
    n = support_numbers()
    return roll_request(f"Tend: {medics.name} tend {unit.name}", n.tend_dice, n.tend_sides, 0,
                        (f"{n.tend_dice}d{n.tend_sides} soldiers back (estimated: data/support.yaml)",))


def tended(total: int, unit: Piece) -> int:
    """Soldiers a tend roll gives back: the roll, at most what the unit lost."""
    return min(total, unit.type.soldiers - unit.soldiers)


def do_tend(state: BattleState, action: Targeted, fate: Fate) -> tuple[BattleState, Lines]:
    m, u = state.piece(action.unit), state.piece(action.target)
    request = tend_request(m, u)
    total = drawn(fate.draw(request))
    back = tended(total, u)
    lines: Lines = [
        {"text": f"{m.name} tend {u.name}: {request.explain[0]} rolls {total}", "kind": "roll"},
        {"text": f"  {u.name} get {counted(back, 'soldier')} back ({u.soldiers} → {u.soldiers + back})",
         "kind": "rally"}]
    return state.with_pieces(replace(m, attacked=True), replace(u, soldiers=u.soldiers + back)), lines


def do_resupply(state: BattleState, action: Targeted) -> tuple[BattleState, Lines]:
    s, u = state.piece(action.unit), state.piece(action.target)
    given = min(support_numbers().resupply, u.type.ammunition - u.ammunition)
    text = f"{s.name} resupply {u.name}: +{given} ammunition ({u.ammunition} → {u.ammunition + given})"
    return (state.with_pieces(replace(s, attacked=True), replace(u, ammunition=u.ammunition + given)),
            [{"text": text, "kind": "rally"}])


def do_bridge(state: BattleState, action: AtHex) -> tuple[BattleState, Lines]:
    e, label = state.piece(action.unit), action.hex
    terrain = tuple((lb, BRIDGE if lb == label else k, lv) for lb, k, lv in state.terrain)
    text = f"{e.name} bridge the river at {label}: entering it now costs 1 point"
    return replace(state, terrain=terrain).with_pieces(replace(e, attacked=True)), [{"text": text, "kind": "note"}]
