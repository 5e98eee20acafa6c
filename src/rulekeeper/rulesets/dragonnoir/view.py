"""What a link sees of a Dragon Noir battle: everything but the RNG state, plus a text map.

The generic presenters print this view; the game's own presenters draw the same facts (the SVG map in
``web/``, the terminal map in :mod:`.boardtext`).
"""

from __future__ import annotations

from rulekeeper.core.game import JsonDict

from .harm import movement_of
from .state import PHASE_NAMES, SIDES, DNState, Man, fighter_of, state_to_json

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


def view_of(state: DNState) -> JsonDict:
    """Everything a link may see: the battle without its RNG state."""
    doc = state_to_json(state)
    del doc["rng"]
    doc["to_act"] = None if state.over else state.to_act
    doc["sequence"] = None if state.over else PHASE_NAMES[state.phase]
    marks = marks_of(state)
    for d, m in zip(doc["men"], state.men, strict=True):
        d["mark"] = marks[m.name]
        d["counter"] = counter(state, m)
    doc["sides"] = {s: {"name": state.name(s), "alive": sum(1 for m in state.men if m.side == s and m.alive
                                                             and not m.horse and not m.fades)} for s in SIDES}
    doc["map"] = map_rows(state, marks)
    return doc
