"""The Dragon Noir web presenter: the hex map drawn as an inline SVG, one picked character at a time.

The map (``templates/board.html``, mounted by the keeper as ``dragonnoir/…``) shows the terrain, the
walls, doors and windows on hex edges, every piece with its counter side up (stunned, wounded, berserk,
dead; a horseman over his two hexes with his facing; a horse alone), and for the picked character
(``?unit=``: a tap on his counter) the hexes he can reach with the movement points he has, the targets
of his legal actions, and his line of fire to every enemy, clear or blocked, with what blocks it
(``overlay.py``). The action list shows the picked character's actions and the decisions owed (defensive
fire, the victim of a blow, the advance after combat). Preview, Fate Screen and end screen stay generic.
Every string from a battle reaches the page through autoescaping templates.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

from markupsafe import Markup

from rulekeeper.boards.hexes import hex_label, offset_to_hex
from rulekeeper.core.game import SPECTATOR, LegalAction, OddsPreview
from rulekeeper.core.present import Header, Links
from rulekeeper.web.presenters import GenericPresenter

from ..state import PHASE_NAMES, DNState, Man, character_of
from ..view import counter
from .geometry import centre, edge_line, points, view_box
from .overlay import Focus, focus

TEMPLATES = Path(__file__).resolve().parent / "templates"
FILLS = {"flat": "#ebe6c8", "trees": "#5f8f4a", "brush": "#a9c27a", "water": "#8fc1e3", "spring": "#8fc1e3",
         "ford": "#b5d3e6", "bridge": "#b08a5a", "crevasse": "#3b3b3b", "slope": "#cdb27a", "house": "#c9b8a6",
         "door": "#c9b8a6", "window": "#c9b8a6", "entrance": "#8a7d6b", "underground": "#9b948a", "rock": "#5b5550",
         "tower": "#a39a8c", "tower centre": "#a39a8c"}
FONT = 12.5
STATE_WORD = {"healthy": "", "stunned": "stunned", "wounded": "wounded", "berserk": "berserk",
              "wounded_twice": "wounded ×2", "dead": "dead"}


class Cell(TypedDict):
    """One hex of the SVG map: its label, terrain and level, centre, corners and fill."""

    label: str
    kind: str
    level: int
    x: float
    y: float
    points: str
    fill: str
    #: The terrain's name as the map writes it ("" on flat ground), its font size and, for a long name, the
    #: width it is fitted to (0: its own width).
    word: str
    word_font: float
    word_fit: float
    word_y: float


#: The widest a terrain's name may be (SVG units): the hex's width just under a counter, so the name stays
#: clear of the hex labels of the row below (at ±26 from the centre, 3 units lower).
WORD_WIDTH = 34.0
#: A terrain name's font size, and the width of one of its letters at that size (DejaVu Sans: at most .55 em).
WORD_FONT = 8.0
LETTER = .55
#: The name's baseline below the hex's centre: its letters start just under a counter (which ends at +18).
WORD_DOWN = 24


def terrain_word(kind: str, level: int) -> tuple[str, float, float]:
    """The name the map writes low in a hex, its font size and the width it is fitted to (0: none).

    Each name was drawn with its hex and then half covered by the next row's hexes ("house", "slope + 1"
    cut at the hex's lower edges); the names now sit in a layer of their own above every hex, and a
    long one ("tower centre") is drawn smaller, then fitted, rather than spilling into its neighbours.
    """
    if kind == "flat":
        return "", WORD_FONT, 0.0
    word = f"{kind} +{level}" if level else kind
    font = WORD_FONT if len(word) * WORD_FONT * LETTER <= WORD_WIDTH else WORD_FONT - 1
    return word, font, (WORD_WIDTH if len(word) * font * LETTER > WORD_WIDTH else 0.0)


class EdgeMark(TypedDict):
    """A wall, door or window between two hexes, as the line the map draws."""

    between: str
    feature: str
    x1: float
    y1: float
    x2: float
    y2: float


class Counter(TypedDict):
    """A piece on the map: its counter (tag, side, state and numbers), where it stands, and its link."""

    name: str
    tag: str
    side: str
    hex: str
    x: float
    y: float
    rear: tuple[float, float] | None
    dot: tuple[float, float] | None
    health: str
    word: str
    alive: bool
    numbers: str
    what: str
    armour: bool
    picked: bool
    active: bool
    href: str


class ActionRow(TypedDict):
    """One line of the action list: its index (the pick link), kind, words, odds and link."""

    index: int
    kind: str
    label: str
    note: str
    odds: str
    href: str


def tag(name: str) -> str:
    """"Laberne" → "Lab", "Crazy Ork" → "CO", "Goblin 1" → "G1", "Grast's horse" → "Gra♞"."""
    if name.endswith("'s horse"):
        return tag(name[: -len("'s horse")])[:3] + "♞"
    words = name.split()
    return name[:3] if len(words) == 1 else "".join(w[0] for w in words)[:3]


def unit_of(lg: LegalAction) -> str | None:
    unit = lg.action.get("unit") or (lg.action.get("units") or [None])[0]
    return None if unit is None else str(unit)


def acting_units(legal: list[LegalAction]) -> list[str]:
    out: list[str] = []
    for lg in legal:
        u = unit_of(lg)
        if u is not None and u not in out:
            out.append(u)
    return out


def chosen(state: DNState, links: Links, acting: list[str]) -> str | None:
    if links.selected and any(m.name == links.selected for m in state.men):
        return links.selected
    return acting[0] if acting else None


def pick_href(links: Links, index: int, unit: str | None) -> str:
    return links.pick(index) if unit is None else links.page("panel", pick=index, at=links.position, unit=unit)


class DragonNoirPresenter(GenericPresenter[DNState]):
    """The SVG hex map, the picked character's actions and card; preview and results stay generic."""

    def template_dir(self) -> Path:
        return TEMPLATES

    def _cells(self, state: DNState) -> list[Cell]:
        cells: list[Cell] = []
        for row in range(state.height):
            for col in range(state.width):
                h = offset_to_hex(col, row)
                label = hex_label(h)
                kind = state.terrain_at(label)
                level = state.board.cells[h].elevation
                x, y = centre(h)
                word, font, fit = terrain_word(kind, level)
                cells.append({"label": label, "kind": kind, "level": level, "x": x, "y": y, "points": points(h),
                              "fill": FILLS.get(kind, FILLS["flat"]), "word": word, "word_font": font, "word_fit": fit,
                              "word_y": round(y + WORD_DOWN, 1)})
        return cells

    def _edges(self, state: DNState) -> list[EdgeMark]:
        board = state.board
        out: list[EdgeMark] = []
        for a, b, feature in state.edges:
            x1, y1, x2, y2 = edge_line(board.parse(a), board.parse(b))
            out.append({"between": f"{a}|{b}", "feature": feature, "x1": x1, "y1": y1, "x2": x2, "y2": y2})
        return out

    def _counter(self, state: DNState, m: Man, links: Links, picked: str | None, busy: bool) -> Counter:
        board = state.board
        x, y = centre(board.parse(m.hexes[0]))
        rear = centre(board.parse(m.hexes[1])) if len(m.hexes) == 2 else None
        dot = None if rear is None else (round(x + (x - rear[0]) * 0.5, 1), round(y + (y - rear[1]) * 0.5, 1))
        c = counter(state, m)
        what = "a horse alone" if m.horse else ("mounted" if m.mounted else "on foot")
        if m.fades:  # a summoned spectre (:mod:`..summons`)
            what += f", called by a wizard: dematerialises after player turn {m.fades}"
        return {"name": m.name, "tag": tag(m.name), "side": m.side, "hex": "-".join(m.hexes), "x": x, "y": y,
                "rear": rear, "dot": dot, "health": m.health, "word": STATE_WORD.get(m.health, m.health), "alive": m.alive,
                "numbers": f"{c['attack']}-{c['movement']}-{c['defence']}", "what": what,
                "armour": character_of(m.character).armour or (m.horse and bool(character_of(m.character).horse
                                                                               and character_of(m.character).horse.barded)),  # type: ignore[union-attr]
                "picked": m.name == picked, "active": busy, "href": links.page("dn-board", unit=m.name)}

    def _legal(self, state: DNState, links: Links, caption: str) -> list[LegalAction]:
        if state.over or caption or links.viewer != state.to_act:
            return []
        return [lg for lg in self.game.legal_actions(state) if lg.side == links.viewer]

    def _focus(self, state: DNState, links: Links, legal: list[LegalAction]) -> Focus | None:
        name = chosen(state, links, acting_units(legal))
        if name is None:
            return None
        m = state.man(name)
        if not m.alive or m.horse:
            return None
        mine = [(i, lg) for i, lg in enumerate(legal) if unit_of(lg) == name]
        return focus(state, m, mine, {i: pick_href(links, i, name) for i, _ in mine})

    def board(self, state: DNState, links: Links, caption: str = "") -> Markup:
        legal = self._legal(state, links, caption)
        lens = self._focus(state, links, legal)
        acting = set(acting_units(legal))
        self.game.view(state, links.viewer or SPECTATOR)  # the same facts the view holds; nothing secret to hide
        men = sorted(state.men, key=lambda m: (m.alive, not m.horse))  # the dead under the living
        counters = [self._counter(state, m, links, lens.unit if lens else None, m.name in acting) for m in men]
        return self._render("dragonnoir/board.html", cells=self._cells(state), edges=self._edges(state),
                            units=counters, focus=lens, view_box=view_box(state.width, state.height), links=links,
                            caption=caption, font=FONT, names={"A": state.name("A"), "B": state.name("B")},
                            over=state.over, to_act=state.to_act)

    def header(self, state: DNState) -> Header:
        clock = f"Turn {state.turn} of {state.turn_limit}"
        if not state.over:
            clock += f" · {state.name(state.side)}: {PHASE_NAMES[state.phase]}"
        return Header({"A": state.name("A"), "B": state.name("B")}, clock, () if state.over else (state.to_act,))

    def actions(self, state: DNState, legal: list[LegalAction], previews: list[OddsPreview],
                links: Links) -> Markup:
        acting = acting_units(legal)
        picked = chosen(state, links, acting)
        units = [{"name": n, "tag": tag(n), "side": state.man(n).side, "picked": n == picked,
                  "href": links.page("panel", unit=n)} for n in acting]
        groups: dict[str, list[ActionRow]] = {}
        for i, (lg, p) in enumerate(zip(legal, previews, strict=True)):
            owner = unit_of(lg)
            if owner is not None and owner != picked and lg.action.get("kind") not in ("take_blow",):
                continue
            odds = p.line()
            groups.setdefault(lg.group or "", []).append(
                {"index": i, "kind": str(lg.action.get("kind", "")), "label": lg.label or lg.text, "note": lg.note,
                 "odds": odds, "href": pick_href(links, i, picked if owner else None)})
        owed = None
        if state.pending is not None and not state.over:
            owe = state.pending
            owed = {"defensive": f"{owe.unit} moves in sight of your shooters: shoot at him or hold your fire",
                    "standstill": f"{state.name(state.side)} have ended their movement: fire defensively at the "
                                  "characters who did not move, or no more defensive fire",
                    "victim": f"a blow ({owe.harm}) falls on one of {', '.join(owe.options)}: choose who takes it",
                    "advance": "the combat is won: advance one of its characters, or stay",
                    "counter": f"{owe.unit} announces {owe.harm} on {', '.join(owe.options)}: counter it before "
                               "the die is rolled, or let it be (or cast a rival spell on the same character)",
                    "magic": f"{state.name(state.side)} begin their {PHASE_NAMES[state.phase]}: your wizard may "
                             "cast a spell now, or not yet",
}[owe.kind]
        if state.placing and not state.over:  # before any other decision (:mod:`..placing`)
            first = state.placing[0]
            owed = (f"{first.unit} {first.why}: tap one of the highlighted hexes on the map, or keep the keeper's "
                    f"proposal ({'-'.join(first.spots[0])})")
        return self._render("dragonnoir/actions.html", units=units, picked=picked, owed=owed,
                            sequence=None if state.over else PHASE_NAMES[state.phase],
                            groups=[{"title": t, "entries": e} for t, e in groups.items()])

    def unit_panel(self, state: DNState, key: str, links: Links) -> Markup:
        try:
            m = state.man(key)
        except KeyError:
            return Markup("")
        c = character_of(m.character)
        return self._render("dragonnoir/unit.html", m=m, c=c, numbers=counter(state, m), army=state.name(m.side),
                            links=links)
