"""Dragon Noir battles in the terminal (the game's :class:`~rulekeeper.core.present.CliPresenter`).

``rulekeeper battle show|act`` draw the hex map as printed hex paper (odd rows shifted half a hex
east, as the labels ``C4`` say): each hex two lines, its label and terrain glyph, then the piece on it
(side mark, its state: ``!`` stunned, ``w`` wounded, ``+`` dead, ``>`` a horseman's facing), terrain as
a background colour; a characters table with each counter side up; the Fate Screen; the turn bar with
the sequence in progress and any decision owed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rulekeeper.cli.hexmap import hex_rows

from .state import PHASE_NAMES, SIDES, DNState, Man
from .turns import living
from .view import GLYPHS, counter, marks_of

CELL = 7
INNER = CELL - 1
SIDE_STYLE = {"A": "bold cyan", "B": "bold red"}
BACK = {"trees": "on dark_green", "brush": "on dark_olive_green3", "water": "on dark_blue", "spring": "on dark_blue",
        "ford": "on steel_blue", "bridge": "on orange4", "slope": "on grey37", "house": "on grey23",
        "door": "on grey23", "window": "on grey23", "crevasse": "on grey3", "rock": "on grey3"}
HEALTH = {"healthy": " ", "stunned": "!", "wounded": "w", "berserk": "B", "wounded_twice": "W", "dead": "+"}
ARROWS = "→↗↖←↙↘"
LINE_STYLE = {"roll": "bold", "harm": "red", "retreat": "yellow", "recover": "green", "turn": "bold underline",
              "over": "bold green", "note": "dim", "move": ""}


def _piece_text(m: Man | None, mark: str, back: str) -> Text:
    if m is None:
        return Text(" " * INNER, style=back)
    style = f"{SIDE_STYLE[m.side]} {back}" if m.alive else f"dim {back}"
    t = Text(f"{mark}{HEALTH.get(m.health, '?')}", style=style)
    if m.facing is not None and not m.horse:
        t.append(ARROWS[m.facing % 6], style=style)
    t.append(" " * (INNER - len(t.plain)), style=back)
    return t


def board_text(state: DNState) -> Text:
    marks = marks_of(state)

    def cell(label: str) -> list[Text]:
        kind = state.terrain_at(label)
        back = BACK.get(kind, "on grey15")
        here = state.living_on(label) or state.on(label)
        return [Text(f"{label:<4}{GLYPHS.get(kind, '?')} ", style=back),
                _piece_text(here[0] if here else None, marks[here[0].name] if here else "", back)]

    return hex_rows(state.width, state.height, CELL, cell)


LEGEND = ("a1/b1: side and number, h: a horse alone · ! stunned, w wounded, B berserk, + dead, → a horseman's "
          "facing · ♣ trees, \" brush, ~ water, = ford, # bridge, / slope, H house, D door, W window, █ rock")


class DragonNoirCliPresenter:
    """The terminal drawing of a Dragon Noir battle."""

    def board(self, state: DNState) -> RenderableType:
        title = Text(f"{state.scenario} — turn {state.turn} of {state.turn_limit}", style="bold")
        sides = Text("  vs  ").join(Text(f"{s.lower()}: {state.name(s)}", style=SIDE_STYLE[s]) for s in SIDES)
        return Group(title, sides, board_text(state), Text(LEGEND, style="dim"))

    def units(self, state: DNState) -> RenderableType:
        marks = marks_of(state)
        table = Table(title="Characters", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                      padding=(0, 1, 0, 0))
        for col in ("Character", "Hex", "State", "A-M-D", "MP"):
            table.add_column(col, no_wrap=col != "State")
        for m in state.men:
            c = counter(state, m)
            table.add_row(Text(f"{marks[m.name]} {m.name}", style=SIDE_STYLE[m.side] if m.alive else "dim"),
                          "-".join(m.hexes), m.health + (" mounted" if m.mounted else "")
                          + (f", carrying {m.carrying}" if m.carrying else "")
                          + (f", leading {', '.join(m.leading)}" if m.leading else ""),
                          f"{c['attack']}-{c['movement']}-{c['defence']}", str(m.mp) if m.side == state.side else "")
        return table

    def outcome(self, report: Sequence[Mapping[str, object]]) -> RenderableType:
        lines = [Text(str(r.get("text", "")), style=LINE_STYLE.get(str(r.get("kind", "note")), "")) for r in report]
        return Panel(Group(*lines), title="Fate Screen", title_align="left", expand=False)

    def result(self, state: DNState) -> RenderableType:
        if not state.over:
            return Text("")
        head = Text("A draw" if state.winner is None else f"{state.name(state.winner)} win",
                    style="bold green" if state.winner is None else SIDE_STYLE[state.winner])
        alive = Text(" · ".join(f"{state.name(s)}: {len(living(state, s))} alive" for s in SIDES))
        return Panel(Group(head, Text(state.reason), alive), title="The battle is over", title_align="left",
                     expand=False)

    def turn_bar(self, state: DNState) -> RenderableType:
        t = Text(f"Turn {state.turn} of {state.turn_limit}: ")
        if state.over:
            t.append("over", style="bold")
            return t
        t.append(f"{state.name(state.side)} — {PHASE_NAMES[state.phase]}", style=SIDE_STYLE[state.side])
        if state.placing:
            first = state.placing[0]
            t.append(f" · {state.name(first.side)} to decide: where {first.unit} {first.why.replace('is ', '')} "
                     f"({', '.join('-'.join(x) for x in first.spots)})", style=SIDE_STYLE[first.side])
            return t
        p = state.pending
        if p is not None:
            owed = {"defensive": f"defensive fire at {p.unit}?", "standstill": "defensive fire at who did not move?",
                    "victim": "who takes the blow?", "advance": "advance after combat?",
                    "counter": f"counter {p.unit}'s {p.harm}?", "magic": "cast a spell in the enemy's turn?"}[p.kind]
            t.append(f" · {state.name(p.side)} to decide: {owed}", style=SIDE_STYLE[p.side])
        return t
