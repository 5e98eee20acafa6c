"""Rich views of a battle: the board of zones, the units, the turn bar, and the Fate Screen of
an action's outcome."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.table import Table
from rich.text import Text

from rulekeeper.boards.zones import DIRECTIONS
from rulekeeper.cli.fate_screen import rows_table, styled
from rulekeeper.rulesets.exillis.battle.state import BattleState, BattleUnit
from rulekeeper.rulesets.exillis.battle.turnbar import predict
from rulekeeper.rulesets.exillis.logged import entries, entry, listed, number
from rulekeeper.rulesets.exillis.morale import state_of

SIDE_STYLE = {"A": "bold cyan", "B": "bold red"}
ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}


def _unit_line(u: BattleUnit, active: bool) -> Text:
    c = u.c
    hp = sum(c.hp)
    state = state_of(c)
    t = Text()
    if active:
        t.append("▶ ", style="bold yellow")
    t.append(u.key.split(":", 1)[1], style=SIDE_STYLE.get(u.side, ""))
    if u.is_hero:
        t.append(" ♛" if u.general else " ★")
    t.append(f" {c.count}/{len(c.hp)}", style="bold")
    t.append(f" ♥{hp:.0f} M{c.morale:.0f} {state[:5]} F{c.fatigue:.1f}", style="dim")
    if c.flying:
        t.append(" ✈")
    if c.stance != "none":
        t.append(f" [{c.stance[:3]}]", style="dim")
    return t


#: A zone's column where the terminal has room (a unit's line whole: "Billmen 8/8 ♥341 M74 Neutr"), and the
#: narrowest it may be made so that every column fits the terminal.
ZONE_WIDTH, NARROWEST_ZONE = 18, 8


class BoardGrid:
    """The board of zones at the terminal's width. Why: every zone's column was 18 wide, so the five columns of
    the starter board needed about 110, and an 80-column terminal cropped columns D and E, the enemy's zones
    (played as a user). Where the terminal is narrower, the columns narrow and their lines wrap."""

    def __init__(self, state: BattleState) -> None:
        self.state = state

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        columns = self.state.board.width
        room = (options.max_width - 5 - 3 * columns) // columns  # the row numbers' column, each border and padding
        yield board_table(self.state, min(ZONE_WIDTH, max(NARROWEST_ZONE, room)))


def board_table(state: BattleState, zone_width: int = ZONE_WIDTH) -> Table:
    t = Table(title=f"{state.scenario} — round {state.round:.1f}", show_lines=True, expand=False)
    t.add_column("")
    for col in range(state.board.width):
        t.add_column(chr(ord("A") + col), justify="left", min_width=zone_width)
    for row in range(state.board.height):
        cells: list[Any] = [Text(str(row + 1), style="bold")]
        for col in range(state.board.width):
            z = (col, row)
            lines: list[Text] = []
            terrain = state.terrain_at(z)
            head = Text(state.board.name(z), style="bold")
            if terrain != "fields":
                head.append(f" {terrain}", style="green")
            fd = state.fight_dir(z)
            if fd is not None:
                head.append(f" ⚔{fd[0]}{ARROWS[DIRECTIONS[fd[1]]]}", style="yellow")
            lines.append(head)
            for u in state.in_zone(z):
                lines.append(_unit_line(u, u.key in state.active))
            cells.append(Group(*lines))
        t.add_row(*cells)
    return t


def turn_bar(state: BattleState, n: int = 8) -> Text:
    t = Text("Turn bar: ")
    for i, group in enumerate(predict(state, n)):
        if i:
            t.append(" → ")
        u = state.unit(group[0])
        t.append(" + ".join(k.split(":", 1)[1] for k in group), style=SIDE_STYLE.get(u.side, ""))
    return t


def units_table(state: BattleState) -> Table:
    rows: list[list[str | Text]] = []
    for u in state.units:
        c = u.c
        rows.append([
            Text(u.key, style=SIDE_STYLE.get(u.side, "")), u.status,
            "—" if u.zone is None else state.board.name(u.zone), f"{c.count}/{len(c.hp)}",
            f"{sum(c.hp):.0f}", f"{c.morale:.0f}", state_of(c),
            f"{c.fatigue:.1f}", f"{u.acp:.0f}",
        ])
    return rows_table("Units", ["Unit", "Status", "Zone", "Minis", "HP", "Morale", "State", "Fatigue", "AcP"], rows)


def outcome_view(report: Sequence[Mapping[str, object]]) -> Group:
    """The Fate Screen of everything an action caused, in order (each logged entry checked as it is read)."""
    parts: list[Text | Table] = []
    for r in report:
        kind = r.get("kind")
        if kind == "note":
            parts.append(Text("• " + str(r["text"])))
        elif kind == "melee":
            parts += _melee_view(r)
        elif kind == "shoot":
            rows = [[str(s["shooter"]), styled(str(s["outcome"])), str(s["target"] or "—"),
                     "Blocked" if s["blocked"] else "", str(s["damage"]) + (" †" if s["killed"] else "")]
                    for s in entries(r["shots"])]
            parts.append(rows_table(f"{r['shooter']} {r['action']} at {r['zone']}", ["Shooter", "Outcome", "Hit", "Shield", "Damage"], rows))
        elif kind == "cast":
            rows = [[str(c["caster"]), str(c["target"]), styled(str(c["outcome"])),
                     str(c["damage"]) + (" †" if c["killed"] else "")] for c in entries(r["casts"])]
            parts.append(rows_table(f"{r['caster']} casts {r['spell']}", ["Caster", "Target", "Outcome", "Damage"], rows))
        elif kind == "cut_down":
            parts.append(Text(f"  cut down: {r['pursuer']} → {r['target']}: {r['outcome']} {r['damage']}" + (" †" if r["killed"] else "")))
        elif kind == "morale":
            parts.append(Text(f"  morale {r['unit']}: {number(r['before']):.0f} → {number(r['after']):.0f} "
                              f"({r['state_after']}) — " + "; ".join(str(x) for x in listed(r["reasons"])), style="dim"))
    return Group(*parts)


def _melee_view(r: Mapping[str, object]) -> list[Text | Table]:
    """A melee's duels as a table, then its Morale tests that had reasons."""
    rows: list[list[str | Text]] = []
    for d in entries(r["duels"]):
        s, back = entry(d["strike"]), d["retaliation"]
        ret = None if back is None else entry(back)
        dmg = f"self −{s['self_damage']}" if s["self_damage"] else (str(s["damage"]) + (" †" if s["killed"] else "")) if s["target"] else ""
        rows.append([str(s["attacker"]), str(s["target"] or "—"), styled(str(s["outcome"])), dmg,
                     "—" if ret is None else f"{ret['outcome']} {ret['damage']}" + (" †" if ret["killed"] else "")])
    out: list[Text | Table] = [rows_table(f"{r['attacker']} {r['action']} in {r['zone']} ({r['direction']})",
                                          ["Attacker", "Target", "Outcome", "Damage", "Retaliation"], rows)]
    for m in entries(r["morale"]):
        if m["reasons"]:
            out.append(Text(f"  morale {m['unit']}: {number(m['before']):.0f} → {number(m['after']):.0f} ({m['state_after']})", style="dim"))
    return out


def result_view(state: BattleState) -> Group:
    """The end screen: winner, reason, Battle Points, and every unit's fate."""
    from ..battle.result import summary

    r = summary(state)
    rows = []
    for side, army in r["armies"].items():
        for u in army["units"]:
            rows.append([side, army["name"], u["unit"], u["status"], f"{u['left']}/{u['miniatures']}", str(u["casualties"])])
    bp = f"{r['battle_points']} BP each" + (f" (none: {r['battle_points_note']})" if r["battle_points_note"] else "")
    return Group(
        Text(f"Battle over — winner: {r['winner_army']} ({r['reason']}); {bp}", style="bold green"),
        rows_table("Result", ["Side", "Army", "Unit", "Status", "Left", "Casualties"], rows),
    )


class ExIllisCliPresenter:
    """The Ex illis board, units, Fate Screen and end screen in the terminal (a ``CliPresenter``)."""

    def board(self, state: BattleState) -> BoardGrid:
        return BoardGrid(state)

    def units(self, state: BattleState) -> Table:
        return units_table(state)

    def outcome(self, report: Sequence[Mapping[str, object]]) -> Group:
        return outcome_view(report)

    def result(self, state: BattleState) -> Group:
        return result_view(state)

    def turn_bar(self, state: BattleState) -> Text:
        return turn_bar(state)
