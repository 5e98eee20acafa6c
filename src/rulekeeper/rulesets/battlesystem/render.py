"""The Battle System in the terminal (the game's :class:`~rulekeeper.core.present.CliPresenter`).

``rulekeeper battle show|act`` draw a Battle System battle with this: the hex map as printed
hex paper (odd rows shifted half a hex east, as the scenario labels ``C4`` say), each hex three
lines — its label, terrain letter and level; the unit counter on it (side mark, type, ♛ for a
general); its soldiers and morale —, terrain as a background colour (the guide: "To represent
different levels of elevation, I personally recommend using increasingly lighter colours. And for
terrain that goes below the default height level, you could use darker colours"); a units table;
the Fate Screen of an action, one styled line per report line; the turn bar and the end screen.
Everything comes from the state the player may see (the view hides only the RNG state).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rulekeeper.cli.hexmap import hex_rows
from rulekeeper.core.wording import counted

from .movement import left
from .state import SIDES, BattleState, Piece, marks_of
from .turns import strength

CELL = 8  # characters per hex, its gap included; odd rows are shifted by half of it
INNER = CELL - 1  # the coloured part: "C4 .+1✸", "a1 LI♛", "100/100"
SIDE_STYLE = {"A": "bold cyan", "B": "bold red"}
TERRAIN_LETTER = {"open": ".", "shallow river": "~", "dense forest": "F", "bridge": "="}
TERRAIN_BACK = {"shallow river": "on dark_blue", "dense forest": "on dark_green"}
#: lighter for higher levels, darker below the default (the guide's recommendation)
LEVEL_BACK = {-2: "on grey3", -1: "on grey7", 0: "on grey15", 1: "on grey30", 2: "on grey46", 3: "on grey58"}
#: a short name for each card on a counter
SHORT = {"Light Infantry": "LI", "Light Cavalry": "LC", "Heavy Infantry": "HI", "Heavy Cavalry": "HC",
         "Military Police": "MP", "Pikemen": "Pk", "Archers": "Ar", "Mounted Archers": "MA", "Artillery": "At",
         "Battlemages": "BM", "Engineers": "En", "Medics": "Md", "Supply": "Sp", "General": "Gn"}
#: how the Fate Screen styles each kind of report line (actions.py, turns.py, pursuit.py, rally.py)
LINE_STYLE = {"roll": "bold", "casualties": "red", "fails": "magenta", "morale": "yellow", "flees": "bold yellow",
              "escapes": "bold yellow", "rally": "bold green", "turn": "bold underline", "over": "bold green",
              "none": "dim", "note": "dim", "move": ""}


def short(card: str) -> str:
    return SHORT.get(card, card[:2])


def _back(kind: str, elevation: int) -> str:
    return TERRAIN_BACK.get(kind) or LEVEL_BACK[max(-2, min(3, elevation))]


def _cell_lines(state: BattleState, label: str, piece: Piece | None, mark: str, barrage: bool) -> list[Text]:
    """The three lines of one hex: label, terrain letter and level; counter; soldiers and morale."""
    kind, elevation = next(((k, e) for lb, k, e in state.terrain if lb == label), ("open", 0))
    back = _back(kind, elevation)
    head = Text(f"{label:<3}{TERRAIN_LETTER.get(kind, '?')}", style=back)
    head.append(f"{elevation:+d}" if elevation else "  ", style=f"bold {back}")
    head.append("✸" if barrage else " ", style=f"bold magenta {back}")
    if piece is None:
        return [head, Text(" " * (INNER), style=back), Text(" " * (INNER), style=back)]
    side = f"{SIDE_STYLE[piece.side]} {back}"
    counter = Text(f"{mark} {short(piece.card)}", style=side)
    counter.append("♛" if piece.general else " ", style=side)
    counter.append(" " * (INNER - len(counter.plain)), style=back)
    if piece.fleeing:
        body = Text(f"{piece.soldiers:>3} RUN", style=f"bold yellow {back}")
    else:
        body = Text(f"{piece.soldiers:>3}/{piece.morale:<3}"[:INNER], style=back)
    body.append(" " * (INNER - len(body.plain)), style=back)
    return [head, counter, body]


def board_text(state: BattleState) -> Text:
    """The map as offset rows of hexes, ``CELL`` characters each, odd rows half a hex east."""
    marks = marks_of(state)
    targets = {p.barrage for p in state.units if p.barrage is not None and p.on_map}

    def cell(label: str) -> list[Text]:
        piece = state.at(label)
        return _cell_lines(state, label, piece, "" if piece is None else marks[piece.name], label in targets)

    return hex_rows(state.width, state.height, CELL, cell)


LEGEND = ("counter: mark (a = side A, b = side B) and type, ♛ a general; under it soldiers/morale, RUN = fleeing · "
          "terrain: . open, ~ shallow river, F dense forest, = bridge; +1 a level up (lighter), −1 down (darker) · "
          "✸ a barrage will land here")


class BattleSystemCliPresenter:
    """The terminal drawing of a Battle System battle (``battle show``, ``battle act``)."""

    def board(self, state: BattleState) -> RenderableType:
        title = Text(f"{state.scenario} — turn {state.turn} of {state.turn_limit}", style="bold")
        sides = Text("  vs  ").join(Text(f"{s.lower()}: {state.name(s)}", style=SIDE_STYLE[s]) for s in SIDES)
        return Group(title, sides, board_text(state), Text(LEGEND, style="dim"))

    def units(self, state: BattleState) -> RenderableType:
        """One row a unit, narrow enough for an 80-column terminal (Men: soldiers, Mor: morale, Move: points left)."""
        marks = marks_of(state)
        table = Table(title="Units", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1, 0, 0))
        table.add_column("Unit", no_wrap=True)
        table.add_column("Type", no_wrap=True)
        for col in ("Hex", "Men", "Mor", "Ammo", "Move"):
            table.add_column(col, justify="right")
        table.add_column("Status", overflow="fold", min_width=12)
        for p in state.units:
            table.add_row(Text(f"{marks[p.name]} {p.name}", style=SIDE_STYLE[p.side]),
                          p.card + (" ♛" if p.general else ""), "—" if not p.on_map else p.hex, str(p.soldiers),
                          str(p.morale), str(p.ammunition) if p.type.ammunition else "—",
                          str(left(p)) if p.can_fight else "—", status(p))
        return table

    def outcome(self, report: Sequence[Mapping[str, object]]) -> RenderableType:
        lines = [fate_line(r) for r in report]
        return Panel(Group(*lines), title="Fate Screen", title_align="left", expand=False)

    def result(self, state: BattleState) -> RenderableType:
        if not state.over:
            return Text("")
        head = Text("A draw" if state.winner is None else f"{state.name(state.winner)} win",
                    style="bold green" if state.winner is None else SIDE_STYLE[state.winner])
        table = Table(show_header=True, box=None, pad_edge=False)
        for col in ("Side", "Soldiers able to fight", "Units able", "Fled or escaped", "Destroyed"):
            table.add_column(col)
        for s in SIDES:
            mine = [p for p in state.units if p.side == s]
            table.add_row(Text(state.name(s), style=SIDE_STYLE[s]), str(strength(state, s)),
                          str(sum(p.holds_field for p in mine)), str(sum(p.fleeing or p.escaped for p in mine)),
                          str(sum(p.destroyed for p in mine)))
        return Panel(Group(head, Text(state.reason), table), title="The battle is over", title_align="left",
                     expand=False)

    def turn_bar(self, state: BattleState) -> RenderableType:
        t = Text(f"Turn {state.turn} of {state.turn_limit}: ")
        if state.over:
            t.append("over", style="bold")
            return t
        t.append(f"{state.name(state.to_act)} to act", style=SIDE_STYLE[state.to_act])
        for s in SIDES:
            able = sum(p.holds_field for p in state.units if p.side == s)
            t.append(f" · {state.name(s)}: {able} able, {counted(strength(state, s), 'soldier')}", style="dim")
        pending = [f"{p.name} → {p.barrage}" for p in state.units if p.barrage is not None and p.on_map]
        if pending:
            t.append(" · barrages: " + ", ".join(pending), style="magenta")
        return t


def status(p: Piece) -> Text:
    """One unit's state in words, for the units table."""
    if p.escaped:
        return Text("escaped", style="dim")
    if p.destroyed:
        return Text("destroyed", style="dim red")
    if p.fleeing:
        return Text("fleeing", style="bold yellow")
    parts = [f"rallies ≤{p.type.range}"] if p.general else []
    if p.barrage is not None:
        parts.append(f"barrage → {p.barrage}")
    elif p.attacked:
        parts.append("has attacked")
    if p.broke is not None:
        parts.append(f"may pursue {p.broke}")
    return Text(", ".join(parts) or "ready")


def fate_line(r: Mapping[str, object]) -> Text:
    """One report line (as the log stored it: :class:`.report.Line`, read with its text and kind made text), styled
    by its kind; the rolled number of a roll line stands out."""
    text, kind = str(r.get("text", "")), str(r.get("kind", "note"))
    style = LINE_STYLE.get(kind, "")
    if kind == "roll" and " rolls " in text:
        head, _, total = text.rpartition(" rolls ")
        line = Text("🎲 " + head + " rolls ", style=style)
        line.append(total, style="bold reverse")
        return line
    return Text(text, style=style)
