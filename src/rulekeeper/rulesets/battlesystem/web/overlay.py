"""What the map draws for the picked unit, and the pending barrages, computed by the rules' own functions.

The picture must be the rules, not a second opinion: the hexes a unit can reach are
``movement.moves`` (the same search its move actions come from), a sight line is clear exactly
when ``actions.in_sight`` says so, the ranges are the card's ``range`` counted in hexes the way
``board.within`` counts them, and the target marks are the legal actions themselves. Barrage
markers are read from the game's per-side view, so a side sees a barrage only if the rules let
its view hold it (today the Battle System hides nothing but the RNG state).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from rulekeeper.boards.hexes import hex_distance
from rulekeeper.core.game import LegalAction
from rulekeeper.core.wording import possessive

from ..actions import ACTIONS, AtHex, BSAction, Move, Targeted, in_sight
from ..movement import moves
from ..state import BattleState, Piece
from .geometry import centre, outline, points
from .picks import unit_of


@dataclass(frozen=True)
class Spot:
    """A hex the overlay marks, with an optional link (an action to preview) and its tooltip."""

    hex: str
    x: float
    y: float
    title: str
    href: str = ""
    kind: str = ""
    points: str = ""
    occupied: bool = False
    enemy: bool = False  # a unit of the other side stands there: its whole counter is the mark's tap area


@dataclass(frozen=True)
class Sight:
    """A line from the picked unit to an enemy: ``clear`` is the rules' in-sight verdict."""

    target: str
    x1: float
    y1: float
    x2: float
    y2: float
    clear: bool
    distance: int


@dataclass(frozen=True)
class Range:
    """The outline of the hexes within a card's range (``kind``: missile or barrage)."""

    kind: str
    hexes: int
    path: str


@dataclass(frozen=True)
class Focus:
    """The picked unit's overlay: where it can go, what it can hit, how far it reaches and sees."""

    unit: str
    side: str
    hex: str
    now: bool  # its side acts now (else the reach is what it could do on its next turn)
    reach: tuple[Spot, ...]
    marks: tuple[Spot, ...]
    ranges: tuple[Range, ...]
    sights: tuple[Sight, ...]
    left: int


@dataclass(frozen=True)
class Barrage:
    """A barrage laid and not yet fired: its target hex (full damage) and the hexes around (half)."""

    unit: str
    side: str
    hex: str
    x: float
    y: float
    points: str
    splash: tuple[Spot, ...]
    owner: str = ""  # the unit's name as a possessive ("Ford Guns'"), for the tooltips


def reach_of(state: BattleState, p: Piece) -> dict[str, int]:
    """Hex → movement points, exactly :func:`movement.moves`: now for the side to act, else as the unit
    would start its next turn (fresh points, nobody else moved)."""
    if p.side == state.to_act and not state.over:
        return moves(state, p)
    return moves(state, replace(p, spent=0, attacked=False, barrage=None))


def sight_lines(state: BattleState, p: Piece) -> list[Sight]:
    board = state.board
    here = board.parse(p.hex)
    x1, y1 = centre(here)
    out = []
    for e in state.units:
        if e.on_map and e.side != p.side:
            there = board.parse(e.hex)
            x2, y2 = centre(there)
            out.append(Sight(e.name, x1, y1, x2, y2, in_sight(state, p.hex, e.hex), hex_distance(here, there)))
    return out


def ranges_of(state: BattleState, p: Piece) -> list[Range]:
    """The card's missile and barrage reach (one ``range`` for both, as the card gives it)."""
    card = p.type
    if card.range <= 1:
        return []
    region = state.board.within(state.board.parse(p.hex), card.range)
    kinds = [k for k, skill in (("missile", card.missile), ("barrage", card.barrage)) if skill is not None]
    return [Range(k, len(region), outline(region)) for k in kinds]


def _spot(state: BattleState, label: str, title: str, href: str = "", kind: str = "") -> Spot:
    h = state.board.parse(label)
    x, y = centre(h)
    return Spot(label, x, y, title, href, kind, points(h), state.at(label) is not None)


def _target_hex(state: BattleState, action: BSAction) -> str | None:
    """The hex an action points at, from its fields alone: a unit ``target``'s hex, or a ``hex``/``to``."""
    match action:
        case Targeted():
            try:
                q = state.piece(action.target)
            except KeyError:
                return None
            return q.hex if q.on_map else None
        case AtHex():
            return action.hex
        case Move():
            return action.to
    return None


def focus(state: BattleState, p: Piece, legal: list[tuple[int, LegalAction]], href: dict[int, str]) -> Focus:
    """The overlay of ``p``; ``legal`` are its actions (empty unless the viewer may take them), ``href``
    each one's pick link. Moves light their hex; any other action marks the hex it points at."""
    moves_by_hex = {str(lg.action.get("to")): i for i, lg in legal if lg.action.get("kind") == "move"}
    reach = [_spot(state, label, f"{p.name}: move to {label} ({cost} point{'s' if cost != 1 else ''})",
                   href.get(moves_by_hex[label], "") if label in moves_by_hex else "", "move")
             for label, cost in reach_of(state, p).items()]
    marks = []
    for i, lg in legal:
        kind = str(lg.action.get("kind", ""))
        where = _target_hex(state, ACTIONS.listed(lg.action))
        if kind == "move" or where is None or unit_of(lg) != p.name:
            continue
        spot = _spot(state, where, lg.text, href.get(i, ""), kind)
        occupant = state.at(where)
        marks.append(replace(spot, enemy=occupant is not None and occupant.side != p.side))
    left = max(0, p.type.movement - p.spent) if p.side == state.to_act else p.type.movement
    return Focus(p.name, p.side, p.hex, p.side == state.to_act and not state.over, tuple(reach), tuple(marks),
                 tuple(ranges_of(state, p)), tuple(sight_lines(state, p)), left)


def barrages(state: BattleState, view: Mapping[str, object]) -> list[Barrage]:
    """The barrages the ``view`` (one side's) shows: a unit entry with a ``barrage`` hex."""
    board = state.board
    out = []
    units = view.get("units", [])
    for u in units if isinstance(units, list) else ():
        label = u.get("barrage") if isinstance(u, dict) else None
        if not label:
            continue
        h = board.parse(str(label))
        x, y = centre(h)
        splash = tuple(_spot(state, board.label(n), f"{possessive(str(u.get('name')))} barrage: half damage here")
                       for n in board.neighbours(h))
        out.append(Barrage(str(u.get("name")), str(u.get("side")), board.label(h), x, y, points(h), splash,
                           possessive(str(u.get("name")))))
    return out
