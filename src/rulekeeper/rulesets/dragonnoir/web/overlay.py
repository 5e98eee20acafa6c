"""What the SVG map draws for the picked character, computed by the rules' own functions.

The picture must be the rules, not a second opinion: the hexes a character can reach are found by
chaining :func:`..steps.steps` (the very function his ``move`` actions come from) within his movement
points; a line of fire is :func:`..fire.line_of_fire` on the battle's scene, drawn from the point it
starts at (a hex centre, a window's or door's edge) to the target's centre, clear or blocked, with the
rule's reason and a cross on what blocks it; the target marks are the legal actions themselves.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass, replace

from rulekeeper.boards.hexes import hex_centre
from rulekeeper.core.game import LegalAction

from ..action_types import ACTIONS, Attack, Cast, Clear, DNAction, DragonMove, Shoot, ToHex
from ..data import shipped_sheet
from ..fire import WEAPONS, line_of_fire
from ..harm import movement_of
from ..state import DNState, Man, character_of, scene_of
from ..steps import steps
from .geometry import SIZE, centre, points

LABEL = re.compile(r"\b([A-Z]\d{1,2})\b")


@dataclass(frozen=True)
class Spot:
    hex: str
    x: float
    y: float
    title: str
    href: str = ""
    kind: str = ""
    points: str = ""
    occupied: bool = False


@dataclass(frozen=True)
class Line:
    """A line of fire from the picked shooter to an enemy: clear or blocked, why, and what blocks it."""

    target: str
    x1: float
    y1: float
    x2: float
    y2: float
    clear: bool
    distance: int
    band: str
    cover: str
    why: str
    bx: float | None = None
    by: float | None = None
    blocker: str = ""


@dataclass(frozen=True)
class Focus:
    unit: str
    side: str
    hex: str
    now: bool
    reach: tuple[Spot, ...]
    marks: tuple[Spot, ...]
    lines: tuple[Line, ...]
    left: int


def reach_of(state: DNState, m: Man) -> dict[str, int]:
    """Front hex → least movement points to stand there, chaining legal steps (infiltration rolls ignored).
    Now for the side moving; else as he would start his next movement (full points)."""
    if not (state.phase == "move" and m.side == state.side and state.pending is None):
        m = replace(m, mp=movement_of(m), steps=0)
    start = (m.hexes, m.facing)
    best: dict[tuple[tuple[str, ...], int | None], int] = {start: 0}
    out: dict[str, int] = {}
    heap = [(0, start)]
    while heap:
        spent, (hexes, facing) = heapq.heappop(heap)
        if best.get((hexes, facing), 1 << 30) < spent:
            continue
        here = replace(m, hexes=hexes, facing=facing, mp=m.mp - spent)
        for st in steps(state, here):
            key = (st.hexes, st.facing)
            total = spent + st.cost
            if total < best.get(key, 1 << 30):
                best[key] = total
                heapq.heappush(heap, (total, key))
                if st.to not in m.hexes and total < out.get(st.to, 1 << 30):
                    out[st.to] = total
    return out


def _blocker(state: DNState, reason: str) -> tuple[float | None, float | None, str]:
    """Where to draw the cross on a blocked line: the hex (or the edge between two hexes) its reason names."""
    found = [h for h in LABEL.findall(reason) if state.board.contains(state.board.parse(h))] if reason else []
    if not found:
        return None, None, ""
    pts = [centre(state.board.parse(h)) for h in found[:2]]
    x = sum(p[0] for p in pts) / len(pts)
    y = sum(p[1] for p in pts) / len(pts)
    return round(x, 1), round(y, 1), "|".join(found[:2])


def fire_lines(state: DNState, m: Man) -> list[Line]:
    """The picked shooter's line of fire to every living enemy (none for a character without a bow)."""
    if m.horse or character_of(m.character).weapon not in WEAPONS or not m.alive:
        return []
    scene = scene_of(state)
    sheet = shipped_sheet()
    out = []
    for e in state.men:
        if not e.alive or e.side == m.side:
            continue
        lof = line_of_fire(sheet, scene, m.name, e.name)
        why = "; ".join(lof.reasons)
        bx, by, blocker = _blocker(state, why) if not lof.possible else (None, None, "")
        out.append(Line(e.name, round(lof.origin[0] * SIZE, 1), round(lof.origin[1] * SIZE, 1),
                        round(lof.aim[0] * SIZE, 1), round(lof.aim[1] * SIZE, 1), lof.possible, lof.distance,
                        lof.band or "out of range", lof.cover, why, bx, by, blocker))
    return out


def _spot(state: DNState, label: str, title: str, href: str = "", kind: str = "") -> Spot:
    h = state.board.parse(label)
    x, y = centre(h)
    return Spot(label, x, y, title, href, kind, points(h), bool(state.living_on(label)))


def _target_hex(state: DNState, action: DNAction) -> str | None:
    """The hex an action's mark goes on: its (first) target's, or the hex it goes to; None for a decision."""
    match action:
        case Attack():
            return state.man(action.targets[0]).hex
        case Shoot() | Cast():
            return state.man(action.target).hex
        case ToHex() | DragonMove() | Clear():
            return action.to
    return None


def focus(state: DNState, m: Man, legal: list[tuple[int, LegalAction]], href: dict[int, str]) -> Focus:
    """The overlay of ``m``; ``legal`` are its actions the viewer may take, ``href`` each one's pick link."""
    moves = {str(lg.action["to"]): i for i, lg in legal if lg.action.get("kind") == "move"}
    reach = [_spot(state, label, f"{m.name}: reach {label} ({cost} point{'s' if cost != 1 else ''})"
                   + (", one step" if label in moves else ""), href.get(moves[label], "") if label in moves else "",
                   "move") for label, cost in sorted(reach_of(state, m).items())] if not state.placing else []
    marks = []
    for i, lg in legal:
        kind = str(lg.action.get("kind", ""))
        where = _target_hex(state, ACTIONS.listed(lg.action))
        if kind in ("move", "end_phase", "hold", "stay") or where is None:
            continue
        marks.append(_spot(state, where, lg.text, href.get(i, ""), kind))
    now = state.phase == "move" and m.side == state.side and not state.over and state.pending is None
    return Focus(m.name, m.side, "-".join(m.hexes), now, tuple(reach), tuple(marks), tuple(fire_lines(state, m)),
                 m.mp if now else movement_of(m))


def hex_xy(label: str, state: DNState) -> tuple[float, float]:
    x, y = hex_centre(state.board.parse(label), SIZE)
    return round(x, 1), round(y, 1)
