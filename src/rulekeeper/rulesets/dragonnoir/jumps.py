"""A horseman jumping a water hex or a crevasse: "A mounted character can try to jump over a water hex or a crevasse
hex. At the moment of the jump, the player concerned rolls the die and consults the corresponding table on the game
sheet. The result applies immediately."

``jump`` (``unit``, ``to``: the hex his front lands on). Decisions (docs/rules/dragonnoir.md, "Movement in
battle"): the jump goes straight ahead, over the one water (water, spring, ford: "not by horses") or crevasse hex
in front of the horse, and the horse lands whole beyond it (front two hexes past the obstacle, rear one past), so
it is never left standing in the water; it costs the landing hexes' normal costs (estimated: the obstacle itself
costs nothing), and is offered only when he could pay them. The die is the jump table's (``moves.yaml``,
``estimated``): cleared, refused (his movement ends before the obstacle), fell (water: unhorsed and stunned in the
water, the horse riderless where it stood; crevasse: horse and rider dead in the crevasse). The infiltration roll of
leaving a crossed hex comes first, as for any step.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from rulekeeper.boards.hexes import hex_neighbour
from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.game import LegalAction
from rulekeeper.core.wording import counted

from .action_types import ToHex, offered
from .data import shipped_sheet
from .report import Lines
from .state import DNState, Man, feature_between, riderless

Table = Literal["water", "crevasse"]
OBSTACLES: dict[str, Table] = {"water": "water", "spring": "water", "ford": "water", "crevasse": "crevasse"}
DIE = range(1, 11)


def _cost(state: DNState, m: Man, frm: str, to: str) -> int | None:
    from .steps import step_cost_to

    return step_cost_to(state, replace(m, hexes=(frm,)), to)


def jump_of(state: DNState, m: Man) -> tuple[str, str, str, int] | None:
    """(obstacle hex, landing rear hex, landing front hex, cost) of the jump ``m`` may try now, else None."""
    from .steps import free_for

    if not m.mounted or not m.standing or m.facing is None or m.mp <= 0:
        return None
    board = state.board
    line = [board.parse(m.hex)]
    for _ in range(3):
        line.append(hex_neighbour(line[-1], m.facing))
    if not all(board.contains(h) for h in line):
        return None
    front, over, rear, land = (board.label(h) for h in line)
    if state.terrain_at(over) not in OBSTACLES or state.terrain_at(rear) in OBSTACLES:
        return None
    if any(feature_between(state, a, b) is not None for a, b in ((front, over), (over, rear), (rear, land))):
        return None  # a wall, door or window in the way: no jump through it
    if not all(free_for(state, h, m) for h in (over, rear, land)):
        return None
    costs = (_cost(state, m, over, rear), _cost(state, m, rear, land))
    if costs[0] is None or costs[1] is None or costs[0] + costs[1] > m.mp:
        return None
    return over, rear, land, costs[0] + costs[1]


def jump_actions(state: DNState, m: Man) -> list[LegalAction]:
    j = jump_of(state, m)
    if j is None:
        return []
    over, _, land, cost = j
    return [offered(ToHex("jump", m.side, m.name, land),
                    f"{m.name} jumps the {state.terrain_at(over)} on {over} to land on {land}",
                    float(cost), f"{cost} of {counted(m.mp, 'point')}; a die on the jump table", f"jump → {land}",
                    f"{m.name}: move")]


def jump_request(state: DNState, m: Man) -> ChanceRequest:
    """The d10 on the jump table of the obstacle ahead: one outcome per face, ``"3→cleared"``."""
    j = jump_of(state, m)
    assert j is not None
    table = OBSTACLES[state.terrain_at(j[0])]
    results = shipped_sheet().moves.jump.results[table]
    face = {r: name for name, o in results.items() for r in o.rolls}
    return discrete(f"jump: {m.name} over the {table} on {j[0]}", [(f"{d}→{face[d]}", 1.0) for d in DIE],
                    ("'At the moment of the jump, the player concerned rolls the die and consults the corresponding "
                     "table on the game sheet. The result applies immediately.'",))


def jump(state: DNState, name: str, fate: Fate) -> tuple[DNState, Lines]:
    """Roll the jump and apply it at once."""
    m = state.man(name)
    j = jump_of(state, m)
    assert j is not None
    over, rear, land, cost = j
    die, result = fate.draw(jump_request(state, m)).outcome.split("→")
    lines: Lines = [{"text": f"{m.name} jumps the {state.terrain_at(over)} on {over}: die {die}, {result}",
                     "kind": "roll"}]
    if result == "cleared":
        moved = replace(m, hexes=(land, rear), mp=m.mp - cost, steps=m.steps + 1, moved=True)
        lines.append({"text": f"  {m.name} lands on {land}-{rear} ({counted(cost, 'point')}, {moved.mp} left)",
                      "kind": "move"})
        return state.with_men(moved), lines
    if result == "refused":
        return state.with_men(replace(m, mp=0, moved=True)), lines
    dead = OBSTACLES[state.terrain_at(over)] == "crevasse"
    horse = riderless(m, (over,) if dead else m.hexes, "dead" if dead else "healthy")
    rider = replace(m, hexes=(over,), mounted=False, facing=None, health="dead" if dead else "stunned", mp=0,
                    moved=True, stunned_at=0 if dead else state.player_turn, riding="")
    state = state.with_men(rider)
    state = state.with_men(horse) if any(x.name == horse.name for x in state.men) else state.add(horse)
    what = "horse and rider die in the crevasse" if dead else f"{m.name} falls stunned into the water on {over}"
    return state, lines + [{"text": f"  {what}", "kind": "harm"}]
