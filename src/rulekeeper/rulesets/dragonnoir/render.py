"""A line of fire drawn on a text map (rows as printed: odd rows shifted half a hex east)."""

from __future__ import annotations

from rulekeeper.boards.hexes import hex_to_offset, offset_to_hex

from .fire import LineOfFire
from .scene import Scene

GLYPHS = {"flat": ".", "trees": "♣", "brush": '"', "water": "~", "spring": "~", "ford": "=", "bridge": "#",
          "crevasse": "v", "slope": "/", "house": "H", "door": "D", "window": "W", "entrance": "E",
          "underground": ":", "rock": "█", "tower": "T", "tower centre": "T"}
LEGEND = "S shooter, X target, * line of fire, o character; . flat ♣ trees \" brush ~ water / slope H house █ rock"


def draw_line(scene: Scene, line: LineOfFire) -> str:
    """The map, with the shooter, the target, the hexes the line crosses and the other characters marked."""
    cols = [hex_to_offset(h)[0] for h in scene.board.cells]
    rows = [hex_to_offset(h)[1] for h in scene.board.cells]
    shooter, target = scene.piece(line.shooter), scene.piece(line.target)
    crossed = set(line.crossed)
    out = []
    for row in range(min(rows), max(rows) + 1):
        cells = []
        for col in range(min(cols), max(cols) + 1):
            h = offset_to_hex(col, row)
            if h not in scene.board.cells:
                cells.append(" ")
            elif h in shooter.hexes:
                cells.append("S")
            elif h in target.hexes:
                cells.append("X")
            elif scene.occupants(h):
                cells.append("o")
            elif h in crossed:
                cells.append("*")
            else:
                cells.append(GLYPHS.get(scene.terrain(h), "?"))
        out.append(f"{row + 1:>3} " + ("  " if row % 2 else "") + "   ".join(cells))
    return "\n".join([*out, LEGEND])
