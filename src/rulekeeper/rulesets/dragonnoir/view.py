"""What a link sees of a Dragon Noir battle: everything but the RNG state, plus a text map.

The generic presenters print this view; the game's own presenters draw the same facts (the SVG map in
``web/``, the terminal map in :mod:`.boardtext`).
"""

from __future__ import annotations

from typing import TypedDict

from .harm import movement_of
from .state import PHASE_NAMES, SIDES, DNState, Man, ManJson, PendingJson, Placing, fighter_of, state_to_json

#: One character per terrain on the text map.
GLYPHS = {"flat": ".", "trees": "♣", "brush": '"', "water": "~", "spring": "~", "ford": "=", "bridge": "#",
          "crevasse": "v", "slope": "/", "house": "H", "door": "D", "window": "W", "entrance": "E",
          "underground": ":", "rock": "█", "tower": "T", "tower centre": "T"}


def marks_of(state: DNState) -> dict[str, str]:
    """Each piece's two-character mark on the text map: its side in lower case and its number (``a1``, ``b3``);
    a horse alone is ``h`` and its rider's number."""
    out: dict[str, str] = {}
    for s in SIDES:
        riders = [m for m in state.men if m.side == s and not m.horse]
        for i, m in enumerate(riders, start=1):
            out[m.name] = f"{s.lower()}{i}"
        for m in state.men:
            if m.side == s and m.horse:
                rider = next((r for r in riders if r.character == m.character), None)
                out[m.name] = "h" + (out[rider.name][1:] if rider else "?")
    return out


def counter(state: DNState, m: Man) -> dict[str, int]:
    """The counter side up: attack, movement, defence."""
    if not m.alive:
        return {"attack": 0, "movement": 0, "defence": 0}
    f = fighter_of(state, m)
    return {"attack": f.attack, "movement": movement_of(m), "defence": f.defence}


def map_rows(state: DNState, marks: dict[str, str]) -> list[str]:
    """The map as text, odd rows shifted half a hex; a piece shows as its mark (a dead one in capitals)."""
    where: dict[str, str] = {}
    for m in state.men:
        for h in m.hexes:
            if m.alive or h not in where:
                where[h] = marks[m.name] if m.alive else marks[m.name].upper()
    rows = ["   " + "   ".join(chr(ord("A") + c) for c in range(state.width))]
    for row in range(state.height):
        line = []
        for col in range(state.width):
            label = f"{chr(ord('A') + col)}{row + 1}"
            line.append(where.get(label) or (GLYPHS.get(state.terrain_at(label), "?") * 2))
        rows.append(f"{row + 1:>2} " + ("  " if row % 2 else "") + "  ".join(line))
    return rows


class ManView(ManJson):
    """A piece as a link sees it: as stored, with its mark on the text map and the counter side up."""

    mark: str
    counter: dict[str, int]


class SideView(TypedDict):
    name: str
    alive: int


class DNView(Placing):
    """What a link sees (:func:`view_of`): the stored state but its RNG, in the same order, then who acts, the
    sequence, each side's name and characters alive, and the text map."""

    scenario: str
    names: list[str]
    width: int
    height: int
    terrain: list[list[str | int]]
    edges: list[list[str]]
    men: list[ManView]
    side: str
    phase: str
    turn: int
    player_turn: int
    turn_limit: int
    options: dict[str, str]
    pending: PendingJson | None
    over: bool
    winner: str | None
    reason: str
    wizards: list[dict[str, object]]
    dragon: dict[str, object] | None
    to_act: str | None
    sequence: str | None
    sides: dict[str, SideView]
    map: list[str]


def view_of(state: DNState) -> DNView:
    """Everything a link may see: the battle without its RNG state."""
    d = state_to_json(state)
    marks = marks_of(state)
    men: list[ManView] = [{**j, "mark": marks[m.name], "counter": counter(state, m)}
                          for j, m in zip(d["men"], state.men, strict=True)]
    placing: Placing = {"placing": d["placing"]} if "placing" in d else {}
    sides: dict[str, SideView] = {
        s: {"name": state.name(s), "alive": sum(1 for m in state.men if m.side == s and m.alive and not m.horse
                                                and not m.fades)} for s in SIDES}
    return {"scenario": d["scenario"], "names": d["names"], "width": d["width"], "height": d["height"],
            "terrain": d["terrain"], "edges": d["edges"], "men": men, "side": d["side"], "phase": d["phase"],
            "turn": d["turn"], "player_turn": d["player_turn"], "turn_limit": d["turn_limit"],
            "options": d["options"], "pending": d["pending"], "over": d["over"], "winner": d["winner"],
            "reason": d["reason"], "wizards": d["wizards"], "dragon": d["dragon"], **placing,
            "to_act": None if state.over else state.to_act,
            "sequence": None if state.over else PHASE_NAMES[state.phase], "sides": sides,
            "map": map_rows(state, marks)}
