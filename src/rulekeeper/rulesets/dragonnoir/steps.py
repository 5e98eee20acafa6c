"""Movement in a battle, one hex at a time: where a character may step, what it costs, infiltration.

A move is a sequence of ``move`` actions of one hex each, so that the other side can interrupt it
"on a precise hex" with defensive fire (:mod:`.shots`) and the infiltration roll falls on the hex
crossed. The costs and restrictions are the calculator's (:func:`.movement.step_cost`,
:func:`.movement.turn_extra`, :func:`.fighters.can_enter`); this module adds the map: walls,
occupied hexes, corpses, a horseman's two hexes and facing. Decisions (docs/rules/dragonnoir.md,
"Battles"): a character never enters a hex holding another living character (friend or stunned
enemy) but on an underground entrance (two friends) or to carry a stunned man (:mod:`.carry`), so every stop is a
legal end of movement; the infiltration roll is made when a character
leaves a hex he entered during this movement that is adjacent to an enemy in a position to attack
("This rule applies only to hexes crossed").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulekeeper.boards.hexes import hex_neighbour
from rulekeeper.core.chance import ChanceRequest, discrete
from rulekeeper.core.errors import ImpossibleRequestError

from .data import shipped_sheet
from .fighters import can_enter
from .movement import Corpses, Horseman, half_turn, step_cost, turn_extra
from .state import DNState, Man, character_of, feature_between, fighter_of

DIE = range(1, 11)
#: Characters who ignore "the infiltration of enemy lines rule": dogs, the Baby Dragon.
NO_INFILTRATION = ("dog", "dragon", "dragon part")


@dataclass(frozen=True)
class Step:
    """One legal step: the hexes the piece will stand on, its facing, and the points it costs."""

    to: str
    hexes: tuple[str, ...]
    facing: int | None
    cost: int
    why: str = ""


def corpses_on(state: DNState, label: str) -> Corpses:
    dead = [m for m in state.on(label) if not m.alive]
    return Corpses(sum(1 for m in dead if not m.horse), sum(1 for m in dead if m.horse))


#: "on underground entrance hexes, there may be two characters on the same hex"
ENTRANCE = "entrance"


def free_for(state: DNState, label: str, m: Man) -> bool:
    """No other living piece on ``label`` (the dead may be walked over, at a cost), or, on an underground entrance,
    one friend on foot: "Exception: on underground entrance hexes, there may be two characters on the same hex. One
    is above the entrance and the other in the entrance itself." (decision: friends only, both on foot, since
    "Characters cannot pass through hexes containing enemy characters").
    """
    others = [o for o in state.living_on(label) if o.name not in (m.name, m.carrying)]
    if not others:
        return True
    return (len(others) == 1 and state.terrain_at(label) == ENTRANCE and on_foot(m) and on_foot(others[0])
            and others[0].side == m.side and not others[0].carrying and not m.carrying)


def on_foot(m: Man) -> bool:
    """A character on foot: not mounted, not a horse alone, not a part of the Black Dragon."""
    return not m.mounted and not m.horse and character_of(m.character).kind not in ("dragon part",)


def _passable(state: DNState, frm: str, to: str) -> bool:
    feature = feature_between(state, frm, to)
    return feature is None or feature.passable


def _cost(state: DNState, m: Man, frm: str, to: str) -> int | None:
    try:
        return step_cost(shipped_sheet(), fighter_of(state, m), state.terrain_at(frm), state.terrain_at(to),
                         corpses_on(state, to))
    except ImpossibleRequestError:
        return None


def step_cost_to(state: DNState, m: Man, to: str) -> int | None:
    """What one step on foot from ``m``'s hex to the next hex ``to`` costs (None: a wall, or terrain he may not
    enter); who stands there is the caller's business."""
    return _cost(state, m, m.hex, to) if _passable(state, m.hex, to) else None


def _foot_steps(state: DNState, m: Man) -> list[Step]:
    board = state.board
    here = board.parse(m.hex)
    out = []
    for d in range(6):
        n = hex_neighbour(here, d)
        if not board.contains(n):
            continue
        to = board.label(n)
        if not free_for(state, to, m):
            continue
        cost = step_cost_to(state, m, to)
        if cost is not None and cost <= m.mp:
            out.append(Step(to, (to,), None, cost))
    return out


def _mounted_steps(state: DNState, m: Man) -> list[Step]:
    board = state.board
    rider = Horseman(board.parse(m.hexes[0]), int(m.facing or 0))
    seen: set[str] = set()
    out = []
    for base in rider.hexes:
        for d in range(6):
            n = hex_neighbour(base, d)
            to = board.label(n) if board.contains(n) else ""
            if not to or to in m.hexes or to in seen:
                continue
            seen.add(to)
            try:
                moved, extra, where = turn_extra(shipped_sheet(), rider, n)
            except ImpossibleRequestError:
                continue
            hexes = tuple(board.label(h) for h in moved.hexes if board.contains(h))
            if len(hexes) != 2 or not all(free_for(state, h, m) for h in hexes):
                continue
            frm = board.label(base)
            if not _passable(state, frm, to):
                continue
            cost = _cost(state, m, frm, to)
            if cost is not None and cost + extra <= m.mp:
                out.append(Step(to, hexes, moved.facing, cost + extra, where))
    return out


def steps(state: DNState, m: Man) -> list[Step]:
    """Every hex ``m`` may step onto now, with what it costs."""
    if not m.standing or m.horse or m.mp <= 0 or character_of(m.character).kind == "dragon part":
        return []
    return _mounted_steps(state, m) if m.mounted else _foot_steps(state, m)


def half_turn_cost(state: DNState, m: Man) -> int | None:
    """"A horseman who performs a complete half-turn on the spot spends 3 movement points." (None: not now)"""
    if not m.mounted or not m.standing:
        return None
    board = state.board
    _, cost = half_turn(shipped_sheet(), Horseman(board.parse(m.hexes[0]), int(m.facing or 0)))
    return cost if cost <= m.mp else None


def turned(state: DNState, m: Man) -> Man:
    board = state.board
    rider, cost = half_turn(shipped_sheet(), Horseman(board.parse(m.hexes[0]), int(m.facing or 0)))
    return replace(m, hexes=tuple(board.label(h) for h in rider.hexes), facing=rider.facing, mp=m.mp - cost,
                   moved=True)


# -- infiltration of enemy lines ----------------------------------------------------------------------


def threats(state: DNState, m: Man, label: str) -> list[Man]:
    """Enemies adjacent to ``label`` "in a position to attack" a character there: standing, with an attack,
    able to go onto the hex ("any combat is impossible when the attacker cannot go onto the hex")."""
    board = state.board
    around = {board.label(hex_neighbour(board.parse(label), d)) for d in range(6)
              if board.contains(hex_neighbour(board.parse(label), d))}
    out = []
    for e in state.men:
        if e.side == m.side or not e.standing or e.horse or not set(e.hexes) & around:
            continue
        f = fighter_of(state, e)
        if f.attack > 0 and can_enter(shipped_sheet(), f, state.terrain_at(label)) is None:
            out.append(e)
    return out


def must_roll(state: DNState, m: Man) -> bool:
    """Whether leaving his hex now costs ``m`` an infiltration roll: he entered it during this movement and an
    enemy in a position to attack stands next to it."""
    if m.steps == 0 or character_of(m.character).kind in NO_INFILTRATION:
        return False
    return bool(threats(state, m, m.hex))


def infiltration_request(m: Man) -> ChanceRequest:
    """The d10 on the infiltration table: one outcome per face, ``"8→stopped"``."""
    results = shipped_sheet().moves.infiltration.results
    face = {r: name for name, o in results.items() for r in o.rolls}
    return discrete(f"infiltration: {m.name} leaves {m.hex}", [(f"{d}→{face[d]}", 1.0) for d in DIE],
                    ("'When a character crosses, during his movement, a hex adjacent to an enemy in a position to "
                     "attack, the player concerned must roll the die and consult the corresponding table'",))
