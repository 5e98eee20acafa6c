"""A Confrontation skirmish in the terminal (the game's :class:`~rulekeeper.core.present.CliPresenter`).

``rulekeeper battle show|act`` draw the table as a coarse character map (one column per 2 cm, one
row per 4 cm, ``#`` for an obstacle, ``:`` encumbered ground, ``%`` hiding ground, ``~`` water, each fighter's mark where his base's centre stands: digits for
side A, letters for side B), then what a player actually measures with: a table of positions in
cm, facings, HP and engagements, and the edge-to-edge distance from every fighter to every enemy.
"""

from __future__ import annotations

import math
import string
from collections.abc import Mapping, Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rulekeeper.core.wording import counted

from .ending import worth
from .state import SIDES, Fighter, SkirmishState, distance

SIDE_STYLE = {"A": "bold cyan", "B": "bold red"}
#: cm per column and per row of the character map (terminal cells are about twice as tall as wide).
COL_CM, ROW_CM = 2.0, 4.0
#: The map's mark of each kind of terrain piece (ground.py); hiding encumbered ground is ``%``.
GROUND_MARK = {"obstacle": "#", "encumbered": ":", "water": "~"}
LINE_STYLE = {"fight": "bold", "charge": "yellow", "maintenance": "magenta", "phase": "bold underline",
              "over": "bold green"}


def marks_of(state: SkirmishState) -> dict[str, str]:
    """Each fighter's one-character mark: 1, 2, 3… for side A, a, b, c… for side B."""
    out: dict[str, str] = {}
    for side, alphabet in (("A", "123456789" + string.ascii_uppercase), ("B", string.ascii_lowercase)):
        for i, f in enumerate(f for f in state.fighters if f.side == side):
            out[f.key] = alphabet[i % len(alphabet)]
    return out


def map_text(state: SkirmishState) -> Text:
    from shapely.geometry import Point, box  # type: ignore[import-untyped]

    cols, rows = math.ceil(state.width / COL_CM), math.ceil(state.height / ROW_CM)
    marks_at = [("#", o.shape()) for o in state.obstacles]
    marks_at += [(GROUND_MARK[p.kind] if p.kind != "encumbered" or not p.cover else "%", p.outline.shape())
                 for p in state.terrain]

    def ground(c: int, r: int) -> str:
        if not state.terrain:  # the map as it always was: a cell whose centre is in an obstacle
            here = Point((c + .5) * COL_CM, (r + .5) * ROW_CM)
            return next((m for m, s in marks_at if s.contains(here)), "·")
        cell = box(c * COL_CM, r * ROW_CM, (c + 1) * COL_CM, (r + 1) * ROW_CM)  # thin walls show too
        return next((m for m, s in marks_at if s.intersection(cell).area >= 0.15 * COL_CM * ROW_CM), "·")

    grid = [[ground(c, r) for c in range(cols)] for r in range(rows)]
    marks = marks_of(state)
    places: dict[tuple[int, int], Fighter] = {}
    for f in state.standing():
        c, r = min(cols - 1, int(f.x / COL_CM)), min(rows - 1, int(f.y / ROW_CM))
        places[(r, c)] = f
    out = Text()
    out.append("y↑ +" + "-" * cols + "+\n")
    for r in reversed(range(rows)):
        out.append(f"{r * ROW_CM:>3g}|")
        for c in range(cols):
            here = places.get((r, c))
            out.append(marks[here.key], style=SIDE_STYLE[here.side]) if here else out.append(grid[r][c])
        out.append("|\n")
    out.append("    +" + "-" * cols + f"+ x→ ({state.width:g} × {state.height:g} cm; a column {COL_CM:g} cm, "
               f"a row {ROW_CM:g} cm)")
    if state.terrain:
        out.append("\n     # obstacle  : slow ground (a cm costs 2)  % slow, gives cover  ~ water")
    return out


def status(f: Fighter) -> str:
    if f.killed:
        return "killed"
    parts = [f"{f.hp}/{f.card.HP} HP"]
    if f.stunned:
        parts.append("stunned")
    if f.fierce:
        parts.append("Fierce")
    if f.rout:
        parts.append(f"in rout (FEAR {f.rout})")
    if f.engaged:
        parts.append("engaged with " + ", ".join(f.engaged))
    if f.activated:
        parts.append("acted")
    return ", ".join(parts)


class ConfrontationCliPresenter:
    """The terminal drawing of a skirmish (``battle show``, ``battle act``)."""

    def board(self, state: SkirmishState) -> RenderableType:
        title = Text(f"{state.scenario} — round {state.round} of {state.round_limit}, {state.phase} phase",
                     style="bold")
        sides = Text("  vs  ").join(Text(f"{s}: {state.name(s)}", style=SIDE_STYLE[s]) for s in SIDES)
        return Group(title, sides, map_text(state), self.distances(state))

    def distances(self, state: SkirmishState) -> RenderableType:
        """Base edge to base edge, cm, from each standing fighter of side A to each of side B."""
        marks = marks_of(state)
        table = Table(title="Distances (cm, base edge to base edge)", title_justify="left", box=box.SIMPLE_HEAD,
                      pad_edge=False)
        enemies = state.standing("B")
        table.add_column("A \\ B", no_wrap=True)
        for e in enemies:
            table.add_column(f"{marks[e.key]}", justify="right")
        for f in state.standing("A"):
            table.add_row(Text(f"{marks[f.key]} {f.key}", style=SIDE_STYLE["A"]),
                          *[f"{distance(f, e):.1f}" for e in enemies])
        legend = Text("  ".join(f"{marks[e.key]} = {e.key}" for e in enemies), style="dim")
        return Group(table, legend)

    def units(self, state: SkirmishState) -> RenderableType:
        marks = marks_of(state)
        table = Table(title="Fighters", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                      padding=(0, 1, 0, 0))
        for col, just in (("Fighter", "left"), ("x, y cm", "right"), ("Face", "right"), ("MOV", "right"),
                          ("Status", "left")):
            table.add_column(col, justify=just)  # type: ignore[arg-type]
        for f in state.fighters:
            table.add_row(Text(f"{marks[f.key]} {f.key}", style=SIDE_STYLE[f.side]),
                          "—" if f.killed else f"{f.x:.1f}, {f.y:.1f}", "—" if f.killed else f"{f.facing:g}°",
                          str(f.card.MOV), status(f))
        return table

    def outcome(self, report: Sequence[Mapping[str, object]]) -> RenderableType:
        lines: list[Text] = []
        for r in report:
            lines.append(Text(str(r.get("text", "")), style=LINE_STYLE.get(str(r.get("kind")), "")))
            under = r.get("lines")
            lines += [Text("  " + str(x), style="dim") for x in (under if isinstance(under, list) else [])]
        return Panel(Group(*lines), title="Fate Screen", title_align="left", expand=False)

    def result(self, state: SkirmishState) -> RenderableType:
        if not state.over:
            return Text("")
        head = Text("A draw" if state.winner is None else f"{state.name(state.winner)} win",
                    style="bold green" if state.winner is None else SIDE_STYLE[state.winner])
        table = Table(show_header=True, box=None, pad_edge=False)
        for col in ("Side", "Standing", "Killed", "Points standing"):
            table.add_column(col)
        for s in SIDES:
            mine = [f for f in state.fighters if f.side == s]
            table.add_row(Text(state.name(s), style=SIDE_STYLE[s]), str(sum(f.standing for f in mine)),
                          str(sum(f.killed for f in mine)), str(worth(state, s)))
        return Panel(Group(head, Text(state.reason), table), title="The skirmish is over", title_align="left",
                     expand=False)

    def turn_bar(self, state: SkirmishState) -> RenderableType:
        t = Text(f"Round {state.round} of {state.round_limit}, {state.phase} phase: ")
        if state.over:
            t.append("over", style="bold")
            return t
        t.append(f"{state.name(state.to_act)} to act", style=SIDE_STYLE[state.to_act])
        for s in SIDES:
            t.append(f" · {state.name(s)}: {len(state.standing(s))} standing, {counted(worth(state, s), 'point')}",
                     style="dim")
        return t
