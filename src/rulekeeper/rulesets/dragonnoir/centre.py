"""Striking the Black Dragon's centre from a disabled limb's hex.

"As soon as the head, the tail or one of the front legs receives a second wound, it no longer has any defence
potential. A character can then temporarily occupy the hex to attack the central part, alone or with other
characters. At the end of the combat, if the dragon is not dead, the character must reposition himself on an
adjacent hex."

An ``attack`` on the body may carry ``via: [character, hex]``: that character steps onto the disabled limb's hex
for the combat (its limb's piece stays there: the one hex holds both for the combat's length). Offered for each
ready character on foot next to a disabled limb's hex, who could enter its terrain with no wall between: alone,
and together with everyone who may already strike the centre from its free neighbours. Decisions
(docs/rules/dragonnoir.md, "The Black Dragon in battle"): one character per combat occupies a limb's hex; a
horseman never does (his horse would need two hexes); after the combat, if the dragon lives and he is still on the
limb's hex, he goes back to the hex he came from, or, if that is taken, to the first free hex next to it he may
enter (he stays if there is none).
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.boards.hexes import hex_distance
from rulekeeper.core.chance import Fate

from .action_types import Attack
from .blackdragon import CHARACTER, LIMBS
from .data import shipped_sheet
from .fighters import can_enter
from .report import Lines
from .state import DNState, Man, feature_between, fighter_of

BODY = CHARACTER["body"]


def limb_hexes(state: DNState) -> list[str]:
    """The hexes of the disabled limbs of a living dragon."""
    d = state.dragon
    if d is None or d.dead:
        return []
    return [state.board.label(d.hex_of(p)) for p in LIMBS if d.disabled(p)]


def _can_occupy(state: DNState, m: Man, limb: str) -> bool:
    board = state.board
    if m.mounted or hex_distance(board.parse(m.hex), board.parse(limb)) != 1:
        return False
    feature = feature_between(state, m.hex, limb)
    if feature is not None and not feature.passable:
        return False
    return can_enter(shipped_sheet(), fighter_of(state, m), state.terrain_at(limb)) is None


def via_combats(state: DNState, ready: list[Man], from_around: list[str]) -> list[tuple[tuple[str, ...], tuple[str, str]]]:
    """(attackers, via) for every attack on the centre from a disabled limb's hex; ``from_around`` are the ready
    characters who may already strike the centre from its free neighbours."""
    out: list[tuple[tuple[str, ...], tuple[str, str]]] = []
    for limb in limb_hexes(state):
        for m in ready:
            if m.name in from_around or not _can_occupy(state, m, limb):
                continue
            out.append(((m.name,), (m.name, limb)))
            if from_around:
                out.append(((m.name, *from_around), (m.name, limb)))
    return out


def staged(state: DNState, via: tuple[str, str] | None) -> DNState:
    """The battle as the combat sees it: the ``via`` character (an attack's ``via``) on the limb's hex."""
    if via is None:
        return state
    name, limb = via
    return state.with_men(replace(state.man(name), hexes=(limb,)))


def reposition(state: DNState, name: str, came_from: str, limb: str) -> tuple[DNState, Lines]:
    """"At the end of the combat, if the dragon is not dead, the character must reposition himself on an adjacent
    hex": back where he came from if free, else the first free hex next to the limb's he may enter."""
    m = state.man(name)
    if state.dragon is None or state.dragon.dead or m.hexes != (limb,):
        return state, []
    board = state.board
    around = [came_from] + [board.label(n) for n in board.neighbours(board.parse(limb))]
    for to in around:
        if _fits(state, m, limb, to):
            state = state.with_men(replace(m, hexes=(to,)))
            return state, [{"text": f"  {name} leaves the dragon's {limb} for {to}", "kind": "move"}]
    return state, [{"text": f"  {name} finds no hex to go back to and stays on {limb}", "kind": "note"}]


def _fits(state: DNState, m: Man, frm: str, to: str) -> bool:
    if any(o.alive and o.name != m.name for o in state.on(to)):
        return False
    feature = feature_between(state, frm, to)
    if feature is not None and not feature.passable:
        return False
    return can_enter(shipped_sheet(), fighter_of(state, m), state.terrain_at(to)) is None


def fight_via(state: DNState, action: Attack, fate: Fate) -> tuple[DNState, Lines]:
    """The combat with the ``via`` character on the limb's hex, then his repositioning."""
    from .melee import fight

    assert action.via is not None
    name, limb = action.via
    came_from = state.man(name).hex
    state = staged(state, action.via)
    lines: Lines = [{"text": f"{name} steps onto the dragon's disabled limb on {limb} to strike its centre",
                     "kind": "move"}]
    state, more = fight(state, list(action.units), list(action.targets), fate)
    state, after = reposition(state, name, came_from, limb)
    return state, lines + more + after
