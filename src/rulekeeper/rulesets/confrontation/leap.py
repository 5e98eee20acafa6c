"""Leap (issue 24): a walk or a charge over the scenery and the fighters in the way.

The seed: "A fighter endowed with this ability can make up to two leaps per round. Leap cannot be used when moving
under cover. Leaps that are done must be declared alongside the other movements. When making a leap, a fighter can
fully ignore the presence of certain obstacles (elements of the scenery or other fighters) and move over them without
any penalties, depending on his Size: Clearable height: a fighter who moves up to his MOV rate can leap over fighters
and scenery of height up to his Size. A fighter who moves up to his MOVx2 can leap over fighters and scenery of up to
twice his height. Clearable distance: the distance to be cleared by the leap over the obstacle must be shorter than
the MOV of the fighter who is leaping (MOV/2 when making a pursuit movement). The fighter must reach the other side of
the obstacle with his full base. Limitations: leaping over an obstacle must never bring the fighter to exceed his
movement potential."

Read here (docs/rules/confrontation.md, "Leap"): a leap is declared with the movement (``leap FIGHTER X,Y``, or a
charge with ``"leap": true``); each obstacle, water or base his straight way crosses is one leap; a walk (up to MOV)
clears what is no taller than he is (heights.py), a charge longer than MOV what is no taller than twice his height;
the distance cleared is the length of his way's centre line over the thing, shorter than his MOV; he ends clear of
everything he leapt. Obstacles without a Size are taller than anyone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from rulekeeper.boards.table import ChargeReach, edge_distance
from rulekeeper.core.chance import Fate
from rulekeeper.core.game import LegalAction

from .action_types import Charge, Pursue, offer
from .heights import fighter_height, piece_height
from .measures import charge_reach
from .report_lines import ReportLine
from .skirmish import (
    KEEP_APART,
    ROUNDING,
    STEP_CM,
    charge_cm,
    charge_of,
    do_charge,
    do_move,
    inside,
    move_problem,
    out_of_reach,
    step_problem,
    stepped,
    sweep,
)
from .state import Fighter, SkirmishState, replace
from .terrain import barriers, sight_scenery, way_cost

#: "A fighter endowed with this ability can make up to two leaps per round."
LEAPS_PER_ROUND = 2
#: The keeper's offered leap stops this far (cm) short of the nearest enemy's base (contact is a charge's).
SHORT = 1.0


@dataclass(frozen=True)
class Hurdle:
    """One thing in the way: its name, its height (cm), the length of the way's centre line over it, its shape."""

    name: str
    height: float
    across: float
    shape: Any
    fighter: str = ""  # the key of a fighter leapt over ("" for scenery)


def hurdles(state: SkirmishState, f: Fighter, x: float, y: float) -> list[Hurdle]:
    """What his straight way to (x, y) crosses: scenery he cannot walk through, and other standing bases."""
    from shapely.geometry import LineString  # type: ignore[import-untyped]

    path, line = sweep(f, x, y), LineString([(f.x, f.y), (x, y)])
    heights = {p.outline.corners: piece_height(p) for p in state.terrain}
    out = []
    for o in barriers(state, f.card):
        shape = o.shape()
        if path.intersection(shape).area > 1e-6:
            out.append(Hurdle(o.name or "an obstacle", heights.get(o.corners, math.inf), line.intersection(shape).length,
                              shape))
    for g in state.standing():
        if g.key != f.key and path.intersection(g.base.shape()).area > 1e-6:
            shape = g.base.shape()
            out.append(Hurdle(g.key, fighter_height(g.card), line.intersection(shape).length, shape, g.key))
    return out


def clearable(f: Fighter, running: bool) -> float:
    """Up to his MOV, "height up to his Size"; up to MOV × 2, "up to twice his height"."""
    return fighter_height(f.card) * (2 if running else 1)


def hurdle_problem(f: Fighter, found: list[Hurdle], running: bool, across: float | None = None) -> str | None:
    """Why he cannot leap over ``found`` (heights, distances, leaps left), or None; ``across``: the longest distance
    he may clear (his MOV, "MOV/2 when making a pursuit movement")."""
    if not f.card.has("Leap"):
        return f"{f.key} has no Leap"
    if not found:
        return "there is nothing in the way to leap over (walk)"
    left = LEAPS_PER_ROUND - f.leaps
    if len(found) > left:
        return f"it takes {len(found)} leaps and he has {left} left this round (Leap: \"up to two leaps per round\")"
    top = clearable(f, running)
    for h in found:
        if h.height > top:
            tall = "taller than anyone" if math.isinf(h.height) else f"{h.height:g} cm tall"
            how = "twice his height, charging beyond his MOV" if running else "his height, moving up to his MOV"
            return f"{h.name} is {tall}: he clears {top:g} cm ({how})"
        limit = float(f.card.MOV) if across is None else across
        if h.across >= limit:
            what = f"his MOV of {f.card.MOV} cm" if across is None else f"MOV/2 ({limit:g} cm) in a pursuit movement"
            return f"{h.name} is {h.across:.1f} cm across: the distance cleared must be shorter than {what}"
    return None


def without(state: SkirmishState, found: list[Hurdle]) -> SkirmishState:
    """The table with what he leaps over taken away (its base or outline no longer in his way)."""
    names = {h.name for h in found if not h.fighter}
    keys = {h.fighter for h in found if h.fighter}
    return replace(state, obstacles=tuple(o for o in state.obstacles if (o.name or "an obstacle") not in names),
                   terrain=tuple(p for p in state.terrain if p.name not in names),
                   fighters=tuple(g for g in state.fighters if g.key not in keys))


def leap_problem(state: SkirmishState, f: Fighter, x: float, y: float) -> str | None:
    """Why ``f`` cannot walk to (x, y) leaping over what is in the way, or None."""
    if not (math.isfinite(x) and math.isfinite(y)):
        return "the destination must be two finite numbers of cm"
    found = hurdles(state, f, x, y)
    problem = hurdle_problem(f, found, running=False)
    if problem is not None:
        return problem
    end = f.base.moved_to(x, y)
    for h in found:  # "The fighter must reach the other side of the obstacle with his full base"
        if end.shape().intersection(h.shape).area > 1e-6 or (h.fighter and edge_distance(
                end, state.fighter(h.fighter).base) <= KEEP_APART):
            return f"he lands on {h.name}: he must reach the other side with his full base"
    return move_problem(without(state, found), f, x, y) or step_problem(state, math.hypot(x - f.x, y - f.y))


def over_text(found: list[Hurdle]) -> str:
    return " and ".join(h.name for h in found)


def leap_offers(state: SkirmishState, f: Fighter) -> list[tuple[list[float], list[Hurdle]]]:
    """The keeper's offer: toward the nearest enemy, as far as a legal leap goes (whole steps when the option asks
    for them), when something leapable stands in the straight way."""
    near = state.nearest_enemy(f)
    if near is None or not f.card.has("Leap") or f.leaps >= LEAPS_PER_ROUND:
        return []
    gap = math.hypot(near.x - f.x, near.y - f.y)
    room = min(float(f.card.MOV), gap - f.radius - near.radius - SHORT)
    heading = math.atan2(near.y - f.y, near.x - f.x)
    unit = STEP_CM if stepped(state) else 0.5
    n = math.floor(room / unit + 1e-9)
    for k in range(n, 0, -1):
        to = [round(f.x + k * unit * math.cos(heading), 1), round(f.y + k * unit * math.sin(heading), 1)]
        found = hurdles(state, f, to[0], to[1])
        if not found:
            return []  # the walk gets there: nothing to leap
        if leap_problem(state, f, to[0], to[1]) is None:
            return [(to, found)]
    return []


def do_leap(state: SkirmishState, f: Fighter, x: float, y: float, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    """The walk, over what he leaps (each one a leap of his round's two)."""
    found = hurdles(state, f, x, y)
    new, report = do_move(state, f, x, y, fate)
    moved = new.fighter(f.key)
    report[0] = {"text": f"{f.key} leaps over {over_text(found)}: {math.hypot(x - f.x, y - f.y):.1f} cm to "
                         f"({x:g}, {y:g}) (leap {moved.leaps + len(found)} of {LEAPS_PER_ROUND} this round)",
                 "kind": "move"}
    return new.with_fighters(replace(moved, leaps=moved.leaps + len(found))), report


def leap_charge(state: SkirmishState, f: Fighter, t: Fighter) -> tuple[ChargeReach | None, list[Hurdle], str | None]:
    """A charge straight at ``t`` leaping what is in its way: (its reach, what it leaps, why not). Up to MOV he clears
    his height; beyond it, up to 2 × MOV, "up to twice his height"."""
    return leap_into(state, f, t, float(charge_cm(f)), float(f.card.MOV), "charge")


def leap_pursuit(state: SkirmishState, f: Fighter, t: Fighter) -> tuple[ChargeReach | None, list[Hurdle], str | None]:
    """A pursuit movement straight at ``t`` leaping what is in its way: the distance cleared "must be shorter than the
    MOV of the fighter who is leaping (MOV/2 when making a pursuit movement)"; it moves at most his MOV (MOV/2, or
    Frenetic's whole MOV), so he clears what is no taller than he is."""
    from .flight import pursuit_cm  # flight.py reads skirmish.py, as this module does

    return leap_into(state, f, t, pursuit_cm(f), f.card.MOV / 2, "pursue")


def leap_into(state: SkirmishState, f: Fighter, t: Fighter, movement: float, across: float,
              word: str) -> tuple[ChargeReach | None, list[Hurdle], str | None]:
    """Straight into contact with ``t`` within ``movement`` cm over what is in the way, each thing shorter across
    than ``across`` cm: (its reach, what it leaps, why not)."""
    first = charge_reach(f.base, t.base, movement, barriers(state, f.card), state.others(f.key, t.key),
                         sight_scenery(state, f, t))
    if first.possible:
        return None, [], f"the straight way is clear: {word}"
    if first.reason != "the path is blocked":
        return None, [], first.reason
    end = first.end
    found = [h for h in hurdles(state, f, end.x, end.y) if h.fighter != t.key]
    problem = hurdle_problem(f, found, first.distance > f.card.MOV + ROUNDING,
                             None if across == f.card.MOV else across)
    if problem is not None:
        return None, found, problem
    for h in found:  # he must land clear of what he leapt
        if end.shape().intersection(h.shape).area > 1e-6 or (h.fighter and edge_distance(
                end, state.fighter(h.fighter).base) <= KEEP_APART):
            return None, found, f"contact with {t.key} would land him on {h.name}"
    clear = without(state, found)
    reach = charge_reach(f.base, t.base, movement, barriers(clear, f.card), clear.others(f.key, t.key),
                         sight_scenery(state, f, t))
    if not reach.possible:
        return None, found, reach.reason
    if not inside(state, end.x, end.y, f.radius):
        return None, found, "contact would put his base off the table"
    if way_cost(state, f, [(f.x, f.y), (end.x, end.y)]) > movement + ROUNDING:
        return None, found, f"encumbered ground on the way makes it longer than his {movement:g} cm"
    return reach, found, None


def leap_charge_offers(state: SkirmishState, f: Fighter) -> list[tuple[Fighter, ChargeReach, list[Hurdle]]]:
    """The keeper's offers: each enemy a leap reaches straight, shorter than the charge around (or where none goes)."""
    if not may_leap(f):
        return []
    out = []
    for t in state.standing("B" if f.side == "A" else "A"):
        offered = leap_charge_at(state, f, t)
        if offered is not None:
            out.append((t, *offered))
    return out


def may_leap(f: Fighter) -> bool:
    """He has Leap and a leap left this round ("up to two leaps per round")."""
    return f.card.has("Leap") and f.leaps < LEAPS_PER_ROUND


def leap_charge_at(state: SkirmishState, f: Fighter, t: Fighter) -> tuple[ChargeReach, list[Hurdle]] | None:
    """The keeper's leaping charge at ``t`` (one who :func:`may_leap`): its reach and what it leaps, if a leap reaches
    him straight, shorter than the charge around (or where none goes)."""
    if out_of_reach(f, t, float(charge_cm(f))):  # its straight way is too long: no leap reaches him
        return None
    reach, found, problem = leap_charge(state, f, t)
    if reach is not None and problem is None:
        around = charge_of(state, f, t)
        if not around.possible or around.distance > reach.distance + 0.05:
            return reach, found
    return None


def leap_pursuit_offers(state: SkirmishState, f: Fighter) -> list[tuple[Fighter, ChargeReach, list[Hurdle]]]:
    """The keeper's offers of a leaping pursuit: each free enemy a leap reaches straight, shorter than the pursuit
    around (or where none goes)."""
    from .flight import pursuit_cm

    if not f.card.has("Leap") or f.leaps >= LEAPS_PER_ROUND:
        return []
    out = []
    for t in state.standing("B" if f.side == "A" else "A"):
        if t.engaged or out_of_reach(f, t, pursuit_cm(f)):
            continue
        reach, found, problem = leap_pursuit(state, f, t)
        if reach is not None and problem is None:
            around = charge_of(state, f, t, pursuit_cm(f))
            if not around.possible or around.distance > reach.distance + 0.05:
                out.append((t, reach, found))
    return out


def leaping_pursuit(state: SkirmishState, f: Fighter, action: Pursue) -> tuple[Fighter, ChargeReach | None,
                                                                              tuple[str, ...]]:
    """A ``pursue`` action's target, and, when it leaps, its straight reach and what it leaps over."""
    t = state.fighter(action.target)
    if not action.leap:
        return t, None, ()
    reach, found, _ = leap_pursuit(state, f, t)
    return t, reach, tuple(h.name for h in found)


def do_leap_charge(state: SkirmishState, f: Fighter, t: Fighter, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    reach, found, _ = leap_charge(state, f, t)
    assert reach is not None
    new, report = do_charge(state, f, t, fate, reach)
    moved = new.fighter(f.key)
    if moved.charged:  # he charged (a failed COU test stops him where he is: no leap)
        new = new.with_fighters(replace(moved, leaps=moved.leaps + len(found)))
        report.append({"text": f"{f.key} leapt over {over_text(found)} (leap {moved.leaps + len(found)} of "
                               f"{LEAPS_PER_ROUND} this round)", "kind": "move"})
    return new, report


def leap_charges(state: SkirmishState, f: Fighter) -> list[LegalAction]:
    """The offered leaping charges as legal actions (``{"kind": "charge", …, "leap": true}``)."""
    return [leap_charge_offer(f, t, reach, over) for t, reach, over in leap_charge_offers(state, f)]


def leap_charge_offer(f: Fighter, t: Fighter, reach: ChargeReach, over: list[Hurdle]) -> LegalAction:
    return offer(Charge(f.side, f.key, t.key, leap=True),
                 f"{f.key} charges {t.key}, leaping over {over_text(over)} ({reach.distance:.1f} cm)", f.side,
                 round(reach.distance, 1), "", f"→ {t.key} (leap)", f"{f.key}: charge")


def charge_problem(state: SkirmishState, f: Fighter, t: Fighter, leaping: bool) -> str | None:
    """Why ``f`` cannot charge ``t`` (straight or around; or leaping, straight over what is in the way), or None."""
    if leaping:
        return leap_charge(state, f, t)[2]
    reach = charge_of(state, f, t)
    return None if reach.possible else reach.reason
