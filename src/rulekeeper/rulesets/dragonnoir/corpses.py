"""Clearing a hex of its corpses: "Two characters on foot can move three dead men or one dead horse by one hex.

The two characters can do nothing else during their turn: neither move, nor shoot, nor fight. If the corpses
are thrown into the water, they are considered to sink, and the counters representing them are removed from
the map." A ``clear`` action (``units``: the two, ``frm``: the hex cleared, ``to``: where the dead go) is
offered in the movement of the side to act, for two standing characters on foot who have not yet moved,
shot or fought this player turn and both stand next to the hex. Decisions (docs/rules/dragonnoir.md,
"Battles"): a dead horse is moved by shifting its two hexes one step the same way; the dead go onto a hex any
character may stand on (or into water), never onto the clearers' own hexes; a dead wizard who sinks takes his magic
sheet with him (nothing is left to keep in step with it).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from rulekeeper.boards.hexes import hex_direction, hex_distance, hex_neighbour
from rulekeeper.core.game import LegalAction

from .action_types import Clear, offered
from .data import shipped_sheet
from .report import Lines
from .state import DNState, Man

WATERS = ("water", "spring")
MEN_PER_CLEARING = 3


def _load(state: DNState, frm: str) -> list[Man]:
    """The dead moved off ``frm``: one dead horse if there is one, else up to three dead men."""
    dead = [m for m in state.on(frm) if not m.alive]
    horses = [m for m in dead if m.horse]
    return horses[:1] if horses else [m for m in dead if not m.horse][:MEN_PER_CLEARING]


def _free_hands(state: DNState) -> list[Man]:
    return [m for m in state.men if m.side == state.side and m.standing and not m.horse and not m.mounted
            and m.steps == 0 and not m.moved and not m.shot and not m.attacked and m.mp > 0
            and not m.character.startswith("Black Dragon")]


def _shifted(state: DNState, m: Man, d: int) -> tuple[str, ...] | None:
    board = state.board
    out = []
    for h in m.hexes:
        n = hex_neighbour(board.parse(h), d)
        if not board.contains(n):
            return None
        out.append(board.label(n))
    return tuple(out)


def _fits(state: DNState, to: str, hands: tuple[Man, Man]) -> bool:
    if any(to in m.hexes for m in hands) or state.living_on(to):
        return False
    kind = state.terrain_at(to)
    return kind in WATERS or shipped_sheet().terrain_named(kind).cost.value is not None


def clear_actions(state: DNState) -> list[LegalAction]:
    hands = _free_hands(state)
    if len(hands) < 2:
        return []
    board = state.board
    corpses = sorted({h for m in state.men if not m.alive for h in m.hexes}, key=lambda x: (len(x), x))
    out = []
    for frm in corpses:
        here = board.parse(frm)
        near = [m for m in hands if hex_distance(board.parse(m.hex), here) == 1]
        load = _load(state, frm)
        if not load:
            continue
        for a, b in combinations(near, 2):
            for n in board.neighbours(here):
                to = board.label(n)
                d = hex_direction(here, n)
                moved = [_shifted(state, m, int(d or 0)) for m in load]
                if any(x is None or not all(_fits(state, h, (a, b)) for h in x) for x in moved):
                    continue
                out.append(offered(Clear(state.side, (a.name, b.name), frm, to),
                                   f"{a.name} and {b.name} move the dead from {frm} to {to}", None,
                                   "they do nothing else this turn", f"{frm} → {to}", "Clear the dead"))
    return out


def clear(state: DNState, action: Clear) -> tuple[DNState, Lines]:
    frm, to = action.frm, action.to
    board = state.board
    d = int(hex_direction(board.parse(frm), board.parse(to)) or 0)
    load = _load(state, frm)
    moved = {m.name: _shifted(state, m, d) for m in load}
    sunk = {n for n, hexes in moved.items() if hexes and any(state.terrain_at(h) in WATERS for h in hexes)}
    men = []
    for m in state.men:
        if m.name in sunk:
            continue
        if m.name in moved:
            m = replace(m, hexes=moved[m.name] or m.hexes)
        elif m.name in action.units:
            m = replace(m, mp=0, attacked=True)
        men.append(m)
    text = f"{' and '.join(action.units)} move {len(load)} dead from {frm} to {to}"
    # a wizard's magic sheet sinks with his counter: the rules keep every sheet in step with its counter
    wizards = tuple(w for w in state.wizards if w.name not in sunk)
    return replace(state, men=tuple(men), wizards=wizards), [{"text": text + (" (they sink)" if sunk else ""),
                                                              "kind": "move"}]
