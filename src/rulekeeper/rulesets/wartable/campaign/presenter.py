"""The War Table campaign in the terminal: the map as a table, each Enclave's Stability history.

``rulekeeper battle show ID`` prints the board (regions, traits, borders, Enclaves, units) and
the Stability history; ``battle act`` prints the resolved round (orders, events, Stability
changes with their rule, battles, Delve rolls).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..rounding import show
from .chart import round_label
from .session import CampaignGameState

if TYPE_CHECKING:
    from .game import WarTableCampaign


def map_table(state: CampaignGameState) -> Table:
    c = state.campaign
    t = Table(title=f"{c.name} — round {min(state.round, state.last_round)} of {state.last_round}")
    for col in ("Region", "Traits", "Borders", "Enclave (Stability)", "Units (Health)"):
        t.add_column(col)
    for name in c.map.names():
        e = c.enclave_in(name)
        enclave = "" if e is None else f"{e.name} ({e.faction}): {show(e.stability)}/{show(e.full)}" + (
            " Fallen" if e.fallen else "")
        dungeon = [f"Dungeon {d.name}" for d in c.dungeons if d.region == name]
        t.add_row(name, ", ".join([*c.map.traits(name), *dungeon]), ", ".join(c.map.neighbours(name)), enclave,
                  ", ".join(f"{u.label} [{u.faction}] ({show(u.health)})" for u in c.units_in(name)))
    return t


def history_table(state: CampaignGameState) -> Table:
    t = Table(title="Stability at the start of each round")
    t.add_column("Round")
    names = [e.name for e in state.campaign.enclaves]
    for n in names:
        t.add_column(n, justify="right")
    for r, snap in state.history:
        by = {n: f"{show(v)}{' F' if f else ''}" for n, v, f in snap}
        t.add_row(round_label(state, r), *(by.get(n, "") for n in names))
    return t


class CampaignCliPresenter:
    def __init__(self, game: WarTableCampaign) -> None:
        self.game = game

    def board(self, state: CampaignGameState) -> Group:
        return Group(map_table(state), history_table(state))

    def units(self, state: CampaignGameState) -> Table:
        t = Table(title="Factions")
        for col in ("Faction", "Faith", "Orders"):
            t.add_column(col)
        over = self.game.result(state) is not None  # no orders are given once the campaign is over
        for k, f in state.sides:
            t.add_row(f, show(state.campaign.faction(f).faith),
                      "—" if over else "given" if k in state.given() else "to give")
        return t

    def outcome(self, report: Sequence[Mapping[str, object]]) -> Group:
        return Group(*(Text(str(item.get("text", "")), style="bold" if item.get("kind") == "round" else "")
                       for item in report))

    def result(self, state: CampaignGameState) -> Text:
        """Who won and why. Why not the Stability history here: the board above it has it, and the end of a
        campaign in the terminal printed it twice and said only "The campaign is over." (played as a user)."""
        ended = self.game.result(state)
        if ended is None:
            return Text("")
        who = f"{ended.winner_name} win" if ended.winner_name else "No winner"
        return Text(f"The campaign is over — {who}: {ended.reason}.", style="bold green")

    def turn_bar(self, state: CampaignGameState) -> Text:
        waiting = [f for k, f in state.sides if k not in state.given()]
        return Text(f"Round {state.round}: orders still to give — {', '.join(waiting) or 'none'}")
