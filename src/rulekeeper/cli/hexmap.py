"""A hex map drawn in the terminal: offset rows of fixed-width cells, odd rows half a cell east, column letters
above and row numbers on the left. A rule system gives the lines of one hex; this lays them out, so every hex
board in the terminal reads the same way (the Battle System's and Dragon Noir's)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text


def hex_rows(width: int, height: int, cell_width: int, cell: Callable[[str], Sequence[Text]]) -> Text:
    """The map of ``width`` × ``height`` hexes labelled ``A1``…; ``cell(label)`` gives a hex's lines, each one
    character narrower than ``cell_width`` (the gap between hexes), all hexes the same number of lines."""
    out = Text()
    out.append("   " + "".join(f"{chr(ord('A') + c):<{cell_width}}" for c in range(width)) + "\n", style="bold")
    for row in range(height):
        parts = [cell(f"{chr(ord('A') + col)}{row + 1}") for col in range(width)]
        for i in range(len(parts[0]) if parts else 0):
            line = Text(f"{row + 1:>2} " if i == 0 else "   ", style="bold")
            line.append(" " * (cell_width // 2) if row % 2 else "")
            for part in parts:
                line.append_text(part[i])
                line.append(" ")
            out.append_text(line)
            out.append("\n")
    return out
