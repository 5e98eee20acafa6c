"""The Battle System web presenter: the hex map drawn as an inline SVG, one picked unit at a time.

The generic presenter prints a battle's view as nested lists, which hides the one thing a
Battle System player must see: where the units stand on the hexes, the river, the forest and
the hills. This presenter draws that board (``templates/board.html``, mounted by the keeper as
``battlesystem/…``) with, for the picked unit (``?unit=``: a tap on its counter), the hexes it can
reach, what it can attack, its missile and barrage ranges and its sight lines (``overlay.py``), and
the pending barrages its viewer may see. The action list shows that unit's actions only
(``picks.py``). Preview, Fate Screen and end screen stay generic
(:class:`~rulekeeper.web.presenters.GenericPresenter`). Every string from a battle reaches the
page through autoescaping templates.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

from markupsafe import Markup

from rulekeeper.boards.hexes import hex_label, offset_to_hex
from rulekeeper.core.game import SPECTATOR, LegalAction, OddsPreview
from rulekeeper.core.present import Header, Links
from rulekeeper.web.presenters import GenericPresenter

from ..state import BattleState, Piece, marks_of
from .geometry import centre, points, view_box
from .overlay import Focus, barrages, focus
from .picks import acting_units, chosen, groups_of, pick_href, unit_of

TEMPLATES = Path(__file__).resolve().parent / "templates"

#: Fill of each terrain; a raised open hex is shaded by its level instead.
FILLS = {"open": "#ebe6c8", "shallow river": "#9cc8e6", "dense forest": "#6f9a57", "bridge": "#b89a6a"}
HILLS = ("#ebe6c8", "#d9c48e", "#bf9f62", "#a07f45")
#: Counter text in SVG units: 13.5 of the 450-unit-wide river crossing is 11.5 CSS px on a 390 px phone.
FONT = 13.5
#: Longest counter tag (initials); the full name is in its tooltip, its accessible label and the unit list.
TAG = 3


def _fill(kind: str, elevation: int) -> str:
    if kind != "open":
        return FILLS.get(kind, FILLS["open"])
    return HILLS[max(0, min(elevation, len(HILLS) - 1))]


def _initials(name: str, extra: int = 0) -> str:
    """"Captain of the Ford" → "CF" (capitalised words only); ``extra`` more letters of the last word
    ("Clan Shields", 1 → "CSh") tell apart two names with the same initials."""
    words = [w for w in name.split() if w[:1].isalnum()]
    words = [w for w in words if w[0].isupper() or w[0].isdigit()] or words
    if not words:
        return ""
    head = "".join(w[0] for w in words[:TAG]).upper()
    return head + words[min(len(words), TAG) - 1][1:1 + extra].lower()


def _unique(texts: dict[str, str]) -> set[str]:
    seen: dict[str, int] = {}
    for text in texts.values():
        seen[text] = seen.get(text, 0) + 1
    return {text for text, n in seen.items() if n == 1 and text}


def tags(state: BattleState) -> dict[str, str]:
    """A short tag per unit for its counter: the name itself when short, else its initials ("Ford Pikes" →
    "FP"), with a letter more of the last word where two units share them ("CSh", "CSe"); a tag still shared
    or longer than :data:`TAG` becomes the unit's text-map mark ("b2")."""
    marks = marks_of(state)
    out = {p.name: p.name if len(p.name) <= TAG else _initials(p.name) for p in state.units}
    clash = [n for n, text in out.items() if text not in _unique(out)]
    out.update({n: _initials(n, 1) for n in clash})
    ok = _unique(out)
    return {n: text if text in ok and len(text) <= TAG else marks[n] for n, text in out.items()}


def _busy(state: BattleState, p: Piece) -> bool:
    """Units of the side to act that still have their attack or some movement: ringed in gold."""
    if state.over or p.side != state.to_act or not p.can_fight:
        return False
    return not p.attacked or p.spent < p.type.movement


class Cell(TypedDict):
    """One hex of the SVG board: its label, terrain and elevation, centre, corners and fill."""

    label: str
    kind: str
    elevation: int
    x: float
    y: float
    points: str
    fill: str


class Counter(TypedDict):
    """A unit on the board: its counter (tag, side, card, soldiers, morale), where it stands, and its link."""

    key: str
    name: str
    tag: str
    side: str
    card: str
    hex: str
    soldiers: int
    morale: int
    fleeing: bool
    active: bool
    picked: bool
    x: float
    y: float
    href: str


class BattleSystemPresenter(GenericPresenter[BattleState]):
    """The SVG hex board, the picked unit's actions and the unit panel; preview and results stay generic."""

    def template_dir(self) -> Path:
        return TEMPLATES

    def _cells(self, state: BattleState) -> list[Cell]:
        terrain = {label: (kind, elevation) for label, kind, elevation in state.terrain}
        cells: list[Cell] = []
        for row in range(state.height):
            for col in range(state.width):
                h = offset_to_hex(col, row)
                label = hex_label(h)
                kind, elevation = terrain.get(label, ("open", 0))
                x, y = centre(h)
                cells.append({"label": label, "kind": kind, "elevation": elevation, "x": x, "y": y,
                              "points": points(h), "fill": _fill(kind, elevation)})
        return cells

    def _counters(self, state: BattleState, links: Links, picked: str | None) -> list[Counter]:
        short = tags(state)
        out: list[Counter] = []
        for p in state.units:
            if not p.on_map:
                continue
            x, y = centre(state.board.parse(p.hex))
            out.append({"key": p.name, "name": p.name, "tag": short[p.name], "side": p.side, "card": p.card,
                        "hex": p.hex, "soldiers": p.soldiers, "morale": p.morale, "fleeing": p.fleeing,
                        "active": _busy(state, p), "picked": p.name == picked, "x": x, "y": y,
                        "href": links.page("bs-board", unit=p.name)})
        return out

    def _legal(self, state: BattleState, links: Links, caption: str) -> list[LegalAction]:
        """The actions the link's holder may take on this board, in the keeper's order (their ``?pick=``
        indices): its side acts and the board is the live one (``links.viewer`` is set on the live battle
        page only, not on replays; a caption means it shows the battle before a hidden result)."""
        if state.over or caption or links.viewer != state.to_act:
            return []
        return [lg for lg in self.game.legal_actions(state) if lg.side == links.viewer]  # as the keeper's list

    def _focus(self, state: BattleState, links: Links, legal: list[LegalAction]) -> Focus | None:
        name = chosen(state, links, acting_units(legal))
        if name is None:
            return None
        p = state.piece(name)
        if not p.on_map:
            return None
        mine = [(i, lg) for i, lg in enumerate(legal) if unit_of(lg) == name]
        hrefs = {i: pick_href(links, i, name) for i, _ in mine}
        return focus(state, p, mine, hrefs)

    def board(self, state: BattleState, links: Links, caption: str = "") -> Markup:
        legal = self._legal(state, links, caption)
        lens = self._focus(state, links, legal)
        view = self.game.view(state, links.viewer or SPECTATOR)
        off = [{"name": p.name, "side": p.side, "fate": "escaped" if p.escaped else "destroyed"}
               for p in state.units if not p.on_map]
        return self._render("battlesystem/board.html", cells=self._cells(state),
                            units=self._counters(state, links, lens.unit if lens else None), focus=lens,
                            barrages=barrages(state, view), view_box=view_box(state.width, state.height),
                            off=off, links=links, caption=caption, font=FONT, to_act=state.to_act,
                            names={"A": state.name("A"), "B": state.name("B")}, over=state.over)

    def header(self, state: BattleState) -> Header:
        limit = f" of {state.turn_limit}" if state.turn_limit else ""
        acting = () if state.over else (state.to_act,)
        return Header({"A": state.name("A"), "B": state.name("B")}, f"Turn {state.turn}{limit}", acting)

    def actions(self, state: BattleState, legal: list[LegalAction], previews: list[OddsPreview],
                links: Links) -> Markup:
        """The units that can act (a short list of links, as the counters are), then the picked unit's
        actions under their ``group`` headings and the actions of no unit (ending the turn).
        ``data-kind`` lets a browser test pick a move or an end turn without reading labels."""
        acting = acting_units(legal)
        picked = chosen(state, links, acting)
        short = tags(state)
        units = [{"name": n, "tag": short[n], "side": state.piece(n).side, "picked": n == picked,
                  "count": sum(1 for lg in legal if unit_of(lg) == n), "href": links.page("panel", unit=n)}
                 for n in acting]
        card = None
        if picked is not None:
            p = state.piece(picked)
            card = {"name": p.name, "tag": short[p.name], "card": p.card, "hex": p.hex if p.on_map else "off the map",
                    "mine": picked in acting, "soldiers": p.soldiers, "morale": p.morale}
        unit = picked if picked in acting else None
        return self._render("battlesystem/actions.html", units=units, picked=card, links=links, unit=unit,
                            groups=groups_of(legal, previews, links, unit))

    def unit_panel(self, state: BattleState, key: str, links: Links) -> Markup:
        try:
            p = state.piece(key)
        except KeyError:
            return Markup("")
        t = p.type
        return self._render("battlesystem/unit.html", p=p, card=t, army=state.name(p.side), links=links)
