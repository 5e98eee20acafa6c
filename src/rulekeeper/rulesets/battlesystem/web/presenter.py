"""The Battle System web presenter: the hex map drawn as an inline SVG, the rest generic.

The generic presenter prints a battle's view as nested lists, which hides the one thing a
Battle System player must see: where the units stand on the hexes, the river, the forest and
the hills. This presenter draws that board (``templates/board.html``, mounted by the keeper
as ``battlesystem/…``) and a small unit panel, and inherits the actions, preview, Fate Screen
and end screen from :class:`~rulekeeper.web.presenters.GenericPresenter`. Every string from a
battle reaches the page through autoescaping templates.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from markupsafe import Markup

from rulekeeper.boards.hexes import hex_centre, hex_corners, hex_label, offset_to_hex
from rulekeeper.core.game import LegalAction, OddsPreview
from rulekeeper.core.present import Header, Links
from rulekeeper.web.presenters import GenericPresenter, pct

from ..state import BattleState, Piece, marks_of

TEMPLATES = Path(__file__).resolve().parent / "templates"

#: Corner-to-centre distance of one hex in SVG units; the viewBox scales it to the page.
SIZE = 30.0
#: Space around the map so edge labels and counters are not clipped.
PAD = 4.0
#: Fill of each terrain; a raised open hex is shaded by its level instead.
FILLS = {"open": "#ebe6c8", "shallow river": "#9cc8e6", "dense forest": "#6f9a57"}
HILLS = ("#ebe6c8", "#d9c48e", "#bf9f62", "#a07f45")
#: Longest name a counter prints; the full name is in its tooltip and its accessible label.
SHORT = 10


def _short_name(name: str) -> str:
    """A name that fits a counter about a hex wide (the whole name rides in the title)."""
    return name if len(name) <= SHORT else name[: SHORT - 1] + "…"


def _fill(kind: str, elevation: int) -> str:
    if kind != "open":
        return FILLS.get(kind, FILLS["open"])
    return HILLS[max(0, min(elevation, len(HILLS) - 1))]


def _points(centre: tuple[float, float]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in hex_corners(centre, SIZE))


def _can_act(state: BattleState, p: Piece) -> bool:
    """Units of the side to act that still have their attack or some movement: the ones to move now."""
    if state.over or p.side != state.to_act or not p.can_fight:
        return False
    return not p.attacked or p.spent < p.type.movement


class BattleSystemPresenter(GenericPresenter):
    """The SVG hex board and unit panel of the Battle System; actions and results stay generic."""

    def template_dir(self) -> Path:
        return TEMPLATES

    def _cells(self, state: BattleState) -> list[dict[str, Any]]:
        terrain = {label: (kind, elevation) for label, kind, elevation in state.terrain}
        cells = []
        for row in range(state.height):
            for col in range(state.width):
                h = offset_to_hex(col, row)
                label = hex_label(h)
                kind, elevation = terrain.get(label, ("open", 0))
                x, y = hex_centre(h, SIZE)
                cells.append({"label": label, "kind": kind, "elevation": elevation, "x": round(x, 1),
                              "y": round(y, 1), "points": _points((x, y)), "fill": _fill(kind, elevation)})
        return cells

    def _counters(self, state: BattleState) -> list[dict[str, Any]]:
        marks = marks_of(state)
        out = []
        for p in state.units:
            if not p.on_map:
                continue
            x, y = hex_centre(state.board.parse(p.hex), SIZE)
            out.append({"key": p.name, "name": p.name, "short": _short_name(p.name), "mark": marks[p.name],
                        "side": p.side, "card": p.card, "hex": p.hex, "soldiers": p.soldiers, "morale": p.morale,
                        "fleeing": p.fleeing, "active": _can_act(state, p), "x": round(x, 1), "y": round(y, 1)})
        return out

    def _view_box(self, state: BattleState) -> str:
        width = 3 ** 0.5 * SIZE
        left, top = -width / 2 - PAD, -SIZE - PAD
        right = width * (state.width - 1) + (width / 2 if state.height > 1 else 0) + width / 2 + PAD
        bottom = 1.5 * SIZE * (state.height - 1) + SIZE + PAD
        return f"{left:.1f} {top:.1f} {right - left:.1f} {bottom - top:.1f}"

    def board(self, state: BattleState, links: Links, caption: str = "") -> Markup:
        off = [{"name": p.name, "side": p.side, "fate": "escaped" if p.escaped else "destroyed"}
               for p in state.units if not p.on_map]
        return self._render("battlesystem/board.html", cells=self._cells(state), units=self._counters(state),
                            view_box=self._view_box(state), off=off, links=links, caption=caption,
                            names={"A": state.name("A"), "B": state.name("B")}, to_act=state.to_act,
                            over=state.over)

    def header(self, state: BattleState) -> Header:
        limit = f" of {state.turn_limit}" if state.turn_limit else ""
        acting = () if state.over else (state.to_act,)
        return Header({"A": state.name("A"), "B": state.name("B")}, f"Turn {state.turn}{limit}", acting)

    def actions(self, state: BattleState, legal: list[LegalAction], previews: list[OddsPreview],
                links: Links) -> Markup:
        """The legal actions under their ``group`` headings ("Ford Pikes: move"), in the game's order:
        a bare "→ A1" does not say which unit goes, the heading does. ``data-kind`` lets a browser
        test pick a move or an end turn without reading labels."""
        groups: dict[str, list[dict[str, Any]]] = {}
        for i, (lg, p) in enumerate(zip(legal, previews, strict=True)):
            odds = ", ".join(f"{k} {pct(v) if isinstance(v, float) else v}" for k, v in p.headline)
            groups.setdefault(lg.group, []).append({
                "label": lg.label or lg.text, "href": links.pick(i), "note": lg.note, "odds": odds,
                "kind": str(lg.action.get("kind", ""))})
        return self._render("battlesystem/actions.html",
                            groups=[{"title": k, "entries": v} for k, v in groups.items()])

    def unit_panel(self, state: BattleState, key: str, links: Links) -> Markup:
        try:
            p = state.piece(key)
        except KeyError:
            return Markup("")
        t = p.type
        return self._render("battlesystem/unit.html", p=p, card=t, army=state.name(p.side), links=links)
