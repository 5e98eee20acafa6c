"""The War Table campaign's web presenter: the region map as inline SVG, the order form, the Stability chart.

The map (``templates/board.html``) draws every region (traits, Dungeons), its borders, each
Enclave with its Stability (and Fallen), and the units standing there, coloured by faction;
under it, each Enclave's Stability history as an inline SVG chart, and what the last round did.
The action panel is one order form for the link's own side (``Links.viewer``): a choice per
unit (hold, moves in range, Attacks, Reclaim, Delve) and Faith; the form posts one ``orders``
action. Other sides' orders never reach this page before the round resolves (the game's view
and ``conceals`` keep them out). Fate Screen and end screen stay generic.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TypedDict

from markupsafe import Markup

from rulekeeper.core.game import LegalAction, OddsPreview
from rulekeeper.core.present import Header, Links
from rulekeeper.web.presenters import GenericPresenter

from ...rounding import show
from ..actions import faith_choices, order_text, unit_choices
from ..chart import COLOURS, Chart, svg_chart
from ..session import CampaignGameState
from .layout import positions

TEMPLATES = Path(__file__).resolve().parent / "templates"
FACTION_COLOURS = ("#2b5c9e", "#8e2323", "#2f7d3a", "#7a4a9e")


#: Least distance between two Enclaves' names at the right of the Stability chart (SVG units; 12-unit text).
LABEL_GAP = 14


class DelveRow(TypedDict):
    span: str
    result: str
    odds: str
    percent: str
    effects: str


class DelveOdds(TypedDict):
    """A Dungeon's table with the exact chance of each entry, shown under a unit that can Delve."""

    dungeon: str
    table: str
    rows: list[DelveRow]


class UnitMark(TypedDict):
    label: str
    health: str
    faction: str
    colour: str
    bloodless: bool


class EnclaveMark(TypedDict):
    name: str
    stability: str
    full: str
    fallen: bool
    faction: str
    colour: str


class RegionMark(TypedDict):
    """One region on the map: where, its traits, Dungeon and Enclave, the units standing there."""

    name: str
    x: float
    y: float
    traits: list[str]
    units: list[UnitMark]
    dungeon: str | None
    enclave: EnclaveMark | None


class Border(TypedDict):
    a: str
    b: str
    x1: float
    y1: float
    x2: float
    y2: float


def spread_labels(chart: Chart) -> Chart:
    """The chart with each Enclave's name moved apart from the others, top to bottom, by at least
    :data:`LABEL_GAP`: two Enclaves ending at the same Stability wrote their names on top of each other."""
    lines = [line.copy() for line in chart.get("lines", [])]
    last = None
    for line in sorted(lines, key=lambda ln: float(ln["label_y"])):
        y = float(line["label_y"])
        if last is not None and y < last + LABEL_GAP:
            y = last + LABEL_GAP
        line["label_y"] = y
        last = y
    spread = chart.copy()
    spread["lines"] = lines
    return spread


def _order_value(kind: str, target: str | None) -> str:
    return kind if target is None else f"{kind}:{target}"


def delve_odds(state: CampaignGameState, region: str) -> DelveOdds | None:
    """The odds of a Delve in ``region`` before the order is given: every entry of its Dungeon's table with
    the exact chance the roll uses (:meth:`..tables.RollTable.odds`, the weights ``roll_on`` draws with)."""
    dungeon = next((d for d in state.campaign.dungeons if d.region == region), None)
    if dungeon is None:
        return None
    table = state.table_map()[dungeon.table]
    odds = dict(table.odds())
    rows: list[DelveRow] = []
    for e in table.entries:
        fx = e.effects
        signed = (("Health", fx.health), ("Stability", fx.stability), ("Faith", fx.faith))
        effects = [f"{name} {'+' if v > 0 else ''}{show(v)}" for name, v in signed if v] + list(fx.items)
        p = odds[e.result]
        rows.append({"span": e.span, "result": e.result, "odds": str(p), "percent": f"{float(p) * 100:.1f} %",
                     "effects": ", ".join(effects)})
    return {"dungeon": dungeon.name, "table": table.name, "rows": rows}


class CampaignWebPresenter(GenericPresenter[CampaignGameState]):
    """Map, chart and order form for ``wartable-campaign``; preview, Fate Screen and result stay generic."""

    def template_dir(self) -> Path:
        return TEMPLATES

    def _regions(self, state: CampaignGameState) -> tuple[list[RegionMark], list[Border], int, int]:
        c = state.campaign
        first = c.enclaves[0].region if c.enclaves else c.map.names()[0]
        where, width, height = positions(c.map, first)
        colour = {f: FACTION_COLOURS[i % len(FACTION_COLOURS)] for i, (_, f) in enumerate(state.sides)}
        regions: list[RegionMark] = []
        for name in c.map.names():
            x, y = where[name]
            enclave = c.enclave_in(name)
            units: list[UnitMark] = [{"label": u.label, "health": show(u.health), "faction": u.faction, "colour": colour[u.faction],
                      "bloodless": u.bloodless} for u in c.units_in(name)]
            regions.append({
                "name": name, "x": x, "y": y, "traits": list(c.map.traits(name)), "units": units,
                "dungeon": next((d.name for d in c.dungeons if d.region == name), None),
                "enclave": None if enclave is None else {
                    "name": enclave.name, "stability": show(enclave.stability), "full": show(enclave.full),
                    "fallen": enclave.fallen, "faction": enclave.faction, "colour": colour[enclave.faction]},
            })
        borders: list[Border] = [{"a": a, "b": b, "x1": where[a][0], "y1": where[a][1], "x2": where[b][0], "y2": where[b][1]}
                   for a in c.map.names() for b in c.map.neighbours(a) if a < b]
        return regions, borders, width, height

    def board(self, state: CampaignGameState, links: Links, caption: str = "") -> Markup:
        regions, borders, width, height = self._regions(state)
        viewer = getattr(links, "viewer", "")
        # once the last round is played nobody is "giving orders" any more
        over = self.game.status(state).over
        given = [] if over else [{"faction": f, "given": k in state.given()} for k, f in state.sides]
        mine = next((p for p in state.pending if p.side == viewer), None)
        return self._render(
            "wartable-campaign/board.html", caption=caption, regions=regions, borders=borders, width=width,
            height=height, chart=spread_labels(svg_chart(state)), title=state.campaign.name, round=state.round,
            last_round=state.last_round, given=given, log=list(state.last_log),
            mine=None if mine is None else [order_text(o) for o in mine.orders]
            + [f"Faith restores {f.enclave}" for f in mine.faith],
            faith=[{"name": f.name, "faith": show(f.faith)} for f in state.campaign.factions],
            colours=COLOURS)

    def header(self, state: CampaignGameState) -> Header:
        status_waiting = tuple(f for k, f in state.sides if k not in state.given())
        clock = f"Round {min(state.round, state.last_round)} of {state.last_round}"
        return Header(dict(state.sides), clock, status_waiting)

    def actions(self, state: CampaignGameState, legal: list[LegalAction], previews: list[OddsPreview],
                links: Links) -> Markup:
        """The order form of the link's side (the legal list has only that side's orders)."""
        side = getattr(links, "viewer", "") or (legal[0].side if legal else "")
        if not legal or side not in {lg.side for lg in legal}:
            return Markup("")
        faction = state.faction_of(side)
        c = state.campaign
        units = []
        for u in c.units:
            if u.faction != faction or u.health <= 0:
                continue
            orders = unit_choices(c, u, state.options.move_range)
            choices = [{"value": _order_value(o.kind, o.target), "text": order_text(o).removeprefix(u.label + " ")}
                       for o in orders]
            delve = delve_odds(state, u.region) if any(o.kind == "delve" for o in orders) else None
            units.append({"label": u.label, "region": u.region, "health": show(u.health), "choices": choices,
                          "delve": delve})
        faith = [{"value": fo[0].enclave, "text": f"restore {fo[0].enclave} to full"} for fo in faith_choices(
            state, faction) if fo]
        last = len(state.pending) + 1 == len(state.sides)
        return self._render("wartable-campaign/orders.html", links=links, side=side, faction=faction,
                            round=state.round, units=units, faith=faith, cost=show(state.options.faith_cost),
                            resolves=last)

    def action_text(self, action: Mapping[str, object]) -> str:
        return self.game.action_text(action)
