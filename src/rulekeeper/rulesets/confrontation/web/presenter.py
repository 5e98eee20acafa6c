"""The Confrontation web presenter: the skirmish table as an inline SVG measured in cm.

A Confrontation player measures: how far is that Wolfen, can my swordsman reach him, is the wall in
the way. The board (``templates/board.html``, mounted by the keeper as ``confrontation/…``) draws the
table to scale (10 SVG units a cm, y up as on the scenario's axes), its obstacles, every base with
its front arc, and for the picked fighter (``?unit=``: a tap on his base; the first fighter that can
act when none is picked) his walking reach (MOV) and charge reach (2 × MOV) circles, the walk
destinations the rules offer as tappable dots, and a line to every enemy with the measured edge-to-edge
distance: solid and tappable when the charge is legal, dashed with the reason when not. The action list
shows that fighter's actions only. Every string reaches the page through autoescaping templates.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypedDict

from markupsafe import Markup

from rulekeeper.core.game import LegalAction, OddsPreview
from rulekeeper.core.present import Header, Links
from rulekeeper.web.presenters import GenericPresenter

from ..render import marks_of, status
from ..skirmish import can_activate, charge_cm, charge_of
from ..state import Fighter, SkirmishState, distance

TEMPLATES = Path(__file__).resolve().parent / "templates"
#: SVG units per cm.
SCALE = 10.0
#: Base text in SVG units: 20 on a 600-unit (60 cm) table is about 12 CSS px on a 390 px phone.
FONT = 20.0
COLOURS = {"A": "#1f4f9a", "B": "#a3302a"}


class BaseMark(TypedDict):
    """One standing fighter's base on the board's SVG: where, his mark, and the page his tap opens."""

    key: str
    mark: str
    side: str
    x: float
    y: float
    r: float
    arc: str
    picked: bool
    active: bool
    title: str
    href: str


class MeasuredLine(TypedDict):
    """A measured line from the picked fighter to a standing enemy: cm edge to edge, and a charge link if any."""

    target: str
    x1: float
    y1: float
    x2: float
    y2: float
    cm: str
    mx: float
    my: float
    href: str
    title: str


class WalkDot(TypedDict):
    """A legal move's destination on the board, with the page its tap opens."""

    x: float
    y: float
    href: str
    title: str


class Focus(TypedDict):
    """The picked fighter's reach circles, walk dots and measured lines, as the board's template draws them."""

    key: str
    x: float
    y: float
    free: bool
    engaged: str
    move: float
    charge: float
    charge_cm: int
    MOV: float
    lines: list[MeasuredLine]
    walks: list[WalkDot]
    now: bool
    charges: int


def _xy(state: SkirmishState, x: float, y: float) -> tuple[float, float]:
    """Table cm (y up) to SVG units (y down)."""
    return round(x * SCALE, 1), round((state.height - y) * SCALE, 1)


def _arc_path(state: SkirmishState, f: Fighter) -> str:
    """The front half of the base (180° centred on the facing), as an SVG path."""
    cx, cy = _xy(state, f.x, f.y)
    r = f.radius * SCALE
    a0, a1 = math.radians(f.facing - 90), math.radians(f.facing + 90)
    x0, y0 = cx + r * math.cos(a0), cy - r * math.sin(a0)
    x1, y1 = cx + r * math.cos(a1), cy - r * math.sin(a1)
    return f"M{cx} {cy} L{x0:.1f} {y0:.1f} A{r:.1f} {r:.1f} 0 0 0 {x1:.1f} {y1:.1f} Z"


def _fighter_of(lg: LegalAction) -> str:
    return str(lg.action.get("fighter", ""))


class ConfrontationPresenter(GenericPresenter[SkirmishState]):
    """The SVG table, the picked fighter's reach and charge lines, his actions and his card."""

    def template_dir(self) -> Path:
        return TEMPLATES

    def _legal(self, state: SkirmishState, links: Links, caption: str) -> list[LegalAction]:
        """The actions the link's holder may take on the live board, in the keeper's order (``?pick=``)."""
        if state.over or caption or links.viewer != state.to_act:
            return []
        return [lg for lg in self.game.legal_actions(state) if lg.side == links.viewer]

    @staticmethod
    def _picked(state: SkirmishState, links: Links, acting: list[str]) -> str | None:
        keys = {f.key for f in state.fighters}
        if links.selected in keys:
            return links.selected
        return acting[0] if acting else None

    def _bases(self, state: SkirmishState, links: Links, picked: str | None, acting: list[str]) -> list[BaseMark]:
        marks = marks_of(state)
        out: list[BaseMark] = []
        for f in state.standing():
            cx, cy = _xy(state, f.x, f.y)
            out.append({"key": f.key, "mark": marks[f.key], "side": f.side, "x": cx, "y": cy,
                        "r": f.radius * SCALE, "arc": _arc_path(state, f), "picked": f.key == picked,
                        "active": f.key in acting, "title": f"{f.key} ({state.name(f.side)}) at ({f.x:.1f}, "
                        f"{f.y:.1f}) cm, facing {f.facing:g}°: {status(f)}", "href": links.page("cf-board", unit=f.key)})
        return out

    def _focus(self, state: SkirmishState, f: Fighter, legal: list[tuple[int, LegalAction]],
               links: Links) -> Focus:
        """The picked fighter's reach circles, walk dots and a measured line to every standing enemy."""
        cx, cy = _xy(state, f.x, f.y)
        charges = {str(lg.action["target"]): i for i, lg in legal if lg.action["kind"] == "charge"}
        lines: list[MeasuredLine] = []
        for e in state.standing("B" if f.side == "A" else "A"):
            if e.key in f.engaged:
                continue  # in base contact: nothing to measure
            ex, ey = _xy(state, e.x, e.y)
            cm = distance(f, e)
            if e.key in charges:
                why, href = "charge in reach: tap to charge", links.pick(charges[e.key])
            elif f.engaged or f.activated:
                why, href = "he cannot charge now", ""
            else:
                why, href = charge_of(state, f, e).reason, ""
            lines.append({"target": e.key, "x1": cx, "y1": cy, "x2": ex, "y2": ey, "cm": f"{cm:.1f}",
                          "mx": round((cx + ex) / 2, 1), "my": round((cy + ey) / 2, 1), "href": href,
                          "title": f"{f.key} → {e.key}: {cm:.1f} cm edge to edge; {why}"})
        walks: list[WalkDot] = []
        for i, lg in legal:
            if lg.action["kind"] == "move":
                x, y = lg.action["to"]
                wx, wy = _xy(state, x, y)
                walks.append({"x": wx, "y": wy, "href": links.pick(i), "title": lg.text})
        now = bool(legal)
        return {"key": f.key, "x": cx, "y": cy, "free": can_activate(state, f) and not f.engaged, "engaged": ", ".join(f.engaged), "move": f.card.MOV * SCALE, "charge": charge_cm(f) * SCALE,
                "charge_cm": charge_cm(f),
                "MOV": f.card.MOV, "lines": lines, "walks": walks, "now": now,
                "charges": len(charges)}

    def board(self, state: SkirmishState, links: Links, caption: str = "") -> Markup:
        legal = self._legal(state, links, caption)
        acting = list(dict.fromkeys(_fighter_of(lg) for lg in legal))
        picked = self._picked(state, links, acting)
        focus = None
        if picked is not None and state.fighter(picked).standing:
            mine = [(i, lg) for i, lg in enumerate(legal) if _fighter_of(lg) == picked]
            focus = self._focus(state, state.fighter(picked), mine, links)
        obstacles = [{"name": o.name, "points": " ".join("{:g},{:g}".format(*_xy(state, x, y)) for x, y in o.corners)}
                     for o in state.obstacles]
        terrain = [{"name": p.name, "kind": p.kind, "cover": p.cover, "title": f"{p.name}: {p.describe()}",
                    "points": " ".join("{:g},{:g}".format(*_xy(state, x, y)) for x, y in p.corners)}
                   for p in state.terrain]
        killed = [f.key for f in state.fighters if f.killed]
        return self._render("confrontation/board.html", width=state.width * SCALE, height=state.height * SCALE,
                            cm=(state.width, state.height), obstacles=obstacles, terrain=terrain,
                            bases=self._bases(state, links, picked, acting), focus=focus, font=FONT,
                            caption=caption, names={"A": state.name("A"), "B": state.name("B")}, killed=killed,
                            colours=COLOURS, grid=range(10, int(state.width), 10),
                            grid_y=range(10, int(state.height), 10), scale=SCALE, links=links)

    def header(self, state: SkirmishState) -> Header:
        acting = () if state.over else (state.to_act,)
        return Header({"A": state.name("A"), "B": state.name("B")},
                      f"Round {state.round} of {state.round_limit}, {state.phase} phase", acting)

    def actions(self, state: SkirmishState, legal: list[LegalAction], previews: list[OddsPreview],
                links: Links) -> Markup:
        """The fighters that can act (links), then the picked fighter's actions; ``data-kind`` on each."""
        acting = list(dict.fromkeys(_fighter_of(lg) for lg in legal))
        picked = self._picked(state, links, acting)
        if picked not in acting:
            picked = acting[0] if acting else None
        marks = marks_of(state)
        fighters = [{"key": k, "mark": marks.get(k, "?"), "side": state.fighter(k).side, "picked": k == picked,
                     "href": links.page("panel", unit=k)} for k in acting]
        entries = []
        for i, (lg, p) in enumerate(zip(legal, previews, strict=True)):
            if _fighter_of(lg) != picked:
                continue
            odds = p.line()
            entries.append({"href": links.pick(i), "text": lg.text, "kind": lg.action["kind"], "odds": odds})
        return self._render("confrontation/actions.html", fighters=fighters, entries=entries, picked=picked)

    def log_lines(self, report: Sequence[Mapping[str, object]]) -> list[str]:
        """Each report line, and under a fight its initiative, placements and every blow (the Fate Screen)."""
        out: list[str] = []
        for r in report:
            out.append(str(r.get("text", "")))
            lines = r.get("lines")
            out += [f"· {line}" for line in (lines if isinstance(lines, list) else []) if line]
        return out

    def unit_panel(self, state: SkirmishState, key: str, links: Links) -> Markup:
        try:
            f = state.fighter(key)
        except LookupError:
            return Markup("")
        stats = {c: v for c, v in f.card.characteristics().items() if v is not None}
        return self._render("confrontation/unit.html", f=f, card=f.card, stats=stats, status=status(f),
                            army=state.name(f.side), links=links)
