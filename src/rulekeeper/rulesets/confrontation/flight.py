"""Fleeing and pursuit (issue 24, point 10): a routed fighter runs from the enemy, a victor runs after one.

The seed names both without their numbers: Fanaticism "When a fighter with this ability has to flee or leave the
field due to routing, the player controlling him must make a DIS test of the same difficulty as the failed COU (or
rallying) test. If this test is also failed. then the fighter flees. On the other hand, if this test is
successfully passed, then the fighter suffers the other effects of rout, but does not flee (so he does not leave
the field)"; Frenetic "can pursue using his whole MOV rate"; Implacable/X "X additional pursuit movements in addition
to what he normally can do during a Combat Phase"; Leap "MOV/2 when making a pursuit movement". **Estimated**
(``data/core_rules.yaml``): a free fighter in rout flees when activated, running 2 × MOV ("running is double
movement", third-edition rules) straight away from the nearest enemy, off the field if the run crosses the table's
edge; a fighter whose every opponent was killed in a fight may make one pursuit movement of MOV / 2 into contact
with a free enemy, who is fought in the same combat phase. Rules: docs/rules/confrontation.md, "Fleeing and
pursuit".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rulekeeper.boards.table import ChargeReach
from rulekeeper.core.chance import Fate
from rulekeeper.core.game import LegalAction

from .action_types import Declare, offer
from .core_rules import number
from .declarations import OPTION, STORED_BEFORE
from .fear import FearTest
from .morale import discipline_shape
from .report_lines import ReportLine
from .skirmish import RAPIDITY_FACTOR, charge_of, inside, move_problem, out_of_reach
from .state import Fighter, SkirmishState, other, replace

#: The run is searched back from its full length in steps of this many cm for the farthest clear point.
STEP = 0.5
#: What rounding the run's end to the millimetre may add to its length (cm).
ROUNDING = 0.1


@dataclass(frozen=True)
class Flight:
    """Where a fleeing fighter's run ends: ``(x, y)``, the cm run, and whether it takes him off the field."""

    x: float
    y: float
    distance: float
    leaves: bool


def flees(f: Fighter) -> bool:
    """In rout and free: his activation is his flight."""
    return f.standing and bool(f.rout) and not f.engaged


def flee_cm(f: Fighter, rapid: bool = False) -> float:
    """2 × MOV (**estimated**: "running is double movement"); with Rapidity, "a movement potential of MOV x 3 when
    he charges, runs or flees"."""
    return float(f.card.MOV * (RAPIDITY_FACTOR if rapid else number("flee", "factor")))


def opponent_chooses(state: SkirmishState, f: Fighter) -> bool:
    """Rapidity "can be used by a fighter when routing, but its usage is subject to the opponent's choice": asked of
    the opponent under ``declarations=players`` (a battle stored before it fled at 2 × MOV, Rapidity unused)."""
    return f.card.has("Rapidity") and state.option(OPTION, STORED_BEFORE) == "players"


def fanaticism_test(f: Fighter) -> FearTest | None:
    """Fanaticism's "DIS test of the same difficulty as the failed COU (or rallying) test" (None: he has none)."""
    if not f.card.has("Fanaticism"):
        return None
    return FearTest(f.key, f.rout, f.card.DIS, discipline_shape(f.card), "DIS test")


def flight_of(state: SkirmishState, f: Fighter, rapid: bool = False) -> Flight:
    """The run straight away from the nearest enemy: off the field if the way to the edge is clear and the run is
    longer; else as far as it goes clear of scenery and bases (he may stay where he is). ``rapid``: with Rapidity."""
    near = state.nearest_enemy(f)
    dx, dy = (f.x - near.x, f.y - near.y) if near is not None else (0.0, 0.0)
    norm = math.hypot(dx, dy) or 1.0
    ux, uy = dx / norm, dy / norm
    full = flee_cm(f, rapid)
    edge = _to_edge(state, f, ux, uy, full)
    if edge < full:
        x, y = f.x + ux * edge, f.y + uy * edge
        if move_problem(state, f, x, y, full) is None:
            return Flight(round(x, 1), round(y, 1), round(edge, 1), True)
    run = min(full, edge)
    while run > 0:
        x, y = round(f.x + ux * run, 1), round(f.y + uy * run, 1)
        if move_problem(state, f, x, y, full + ROUNDING) is None:
            return Flight(x, y, round(math.hypot(x - f.x, y - f.y), 1), False)
        run -= STEP
    return Flight(f.x, f.y, 0.0, False)


def _to_edge(state: SkirmishState, f: Fighter, ux: float, uy: float, full: float) -> float:
    """How far he runs before his base reaches the table's edge (``full`` when it does not)."""
    lo, hi = 0.0, full
    if inside(state, f.x + ux * full, f.y + uy * full, f.radius):
        return full
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if inside(state, f.x + ux * mid, f.y + uy * mid, f.radius) else (lo, mid)
    return lo


def do_flee(state: SkirmishState, f: Fighter, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    """His activation in rout: Fanaticism's DIS test if he has it; then his run, or, with Rapidity, his opponent's
    choice first (``rapid_flight``: the opponent acts)."""
    test = fanaticism_test(f)
    if test is not None and test.roll(fate):
        text = f"{f.key} passes his DIS test (Fanaticism): in rout, he does not flee"
        return state.with_fighters(replace(f, activated=True)), [{"text": text, "kind": "morale"}]
    if opponent_chooses(state, f):
        text = (f"{f.key} flees: {state.name(other(f.side))} choose whether he runs with Rapidity "
                f"({flee_cm(f, True):g} cm) or not ({flee_cm(f):g} cm)")
        return replace(state, rapid_flight=f.key, to_act=other(f.side)), [{"text": text, "kind": "flee"}]
    return run_away(state, f)


def run_away(state: SkirmishState, f: Fighter, rapid: bool = False) -> tuple[SkirmishState, list[ReportLine]]:
    """The run itself (``rapid``: with Rapidity, as his opponent chose); his activation is over."""
    run = flight_of(state, f, rapid)
    state = replace(state, rapid_flight="", to_act=f.side)  # his side made the activation
    if run.leaves:
        gone = replace(f, x=run.x, y=run.y, activated=True, killed=True, fled=True, hp=f.hp)
        text = f"{f.key} flees {run.distance:.1f} cm{' with Rapidity' if rapid else ''} and leaves the field"
        return state.with_fighters(gone), [{"text": text, "kind": "flee"}]
    facing = f.facing if run.distance == 0 else round(math.degrees(math.atan2(run.y - f.y, run.x - f.x)), 1)
    fled = replace(f, x=run.x, y=run.y, facing=facing, activated=True)
    return state.with_fighters(fled), [{"text": f"{f.key} flees {run.distance:.1f} cm{' with Rapidity' if rapid else ''}"
                                                f" to ({run.x:g}, {run.y:g})", "kind": "flee"}]


def _run_words(f: Fighter, run: Flight, rapid: bool) -> str:
    how = "with Rapidity" if rapid else "without Rapidity"
    where = "off the field" if run.leaves else f"to ({run.x:g}, {run.y:g})"
    return f"{f.key} runs {how}: {run.distance:.1f} cm {where}"


def rapid_offers(state: SkirmishState) -> list[LegalAction]:
    """The opponent's choice on a fleeing fighter's Rapidity: the keeper proposes the run that takes him off the
    field (a loss for his side) if only one does, else the shorter (he stays nearer)."""
    f, side = state.fighter(state.rapid_flight), other(state.fighter(state.rapid_flight).side)
    slow, fast = flight_of(state, f), flight_of(state, f, True)
    proposal = 1 if fast.leaves and not slow.leaves else 0
    return [offer(Declare(side, f.key, "Rapidity", value), _run_words(f, fast if value else slow, bool(value))
                  + (" (the keeper's proposal)" if value == proposal else ""), side, None, "",
                  f"Rapidity: {'yes' if value else 'no'}", f"{f.key}: flight") for value in (proposal, 1 - proposal)]


# -- pursuit ----------------------------------------------------------------------------------------------------


def pursuit_cm(f: Fighter) -> float:
    """MOV / 2 (**estimated** from Leap), Frenetic "his whole MOV rate"."""
    return float(f.card.MOV) if f.card.has("Frenetic") else f.card.MOV / number("pursuit", "divisor")


def pursuits_allowed(f: Fighter) -> int:
    """One a combat phase, Implacable/X "X additional pursuit movements"."""
    x = (f.card.value_of("Implacable") or "0").strip().lstrip("+")
    return number("pursuit", "per_combat_phase") + (int(x) if x.isdigit() else 0)


def pursuit_targets(state: SkirmishState, f: Fighter) -> list[tuple[Fighter, ChargeReach]]:
    """The free enemies he can reach with a pursuit movement (as a charge goes: in sight, around bases), nearest
    first."""
    out = []
    for e in state.standing(other(f.side)):
        if e.engaged or out_of_reach(f, e, pursuit_cm(f)):
            continue
        reach = charge_of(state, f, e, pursuit_cm(f))
        if reach.possible:
            out.append((e, reach))
    return sorted(out, key=lambda er: (er[1].distance, er[0].key))


def may_pursue(state: SkirmishState, f: Fighter) -> bool:
    """After a fight that killed every opponent: free, not in rout, pursuits left, an enemy in reach (going round, or
    leaping: leap.py)."""
    from .leap import leap_pursuit_offers

    return (f.standing and not f.engaged and not f.rout and f.pursued < pursuits_allowed(f)
            and bool(pursuit_targets(state, f) or leap_pursuit_offers(state, f)))


def do_pursue(state: SkirmishState, f: Fighter, t: Fighter, reach: ChargeReach | None = None,
              leapt: tuple[str, ...] = ()) -> tuple[SkirmishState, list[ReportLine]]:
    """Into base contact with ``t`` (around what is in the way, or straight over ``leapt``: leap.py)."""
    reach = reach or charge_of(state, f, t, pursuit_cm(f))
    end = reach.end
    pursuer = replace(f, x=end.x, y=end.y, facing=round(end.facing, 1), pursuing=False, pursued=f.pursued + 1,
                      engaged=(*f.engaged, t.key), leaps=f.leaps + len(leapt))
    caught = replace(t, engaged=(*t.engaged, f.key))
    over = f", leaping over {' and '.join(leapt)} (leap {pursuer.leaps} of 2 this round)" if leapt else ""
    text = f"{f.key} pursues {t.key}: {reach.distance:.1f} cm into base contact{over} (they fight this combat phase)"
    return state.with_fighters(pursuer, caught), [{"text": text, "kind": "charge"}]


def do_stay(state: SkirmishState, f: Fighter) -> tuple[SkirmishState, list[ReportLine]]:
    return state.with_fighters(replace(f, pursuing=False)), [{"text": f"{f.key} does not pursue", "kind": "hold"}]


def pursuers(state: SkirmishState) -> list[Fighter]:
    return [f for f in state.fighters if f.pursuing and f.standing]


def mark_pursuers(state: SkirmishState, keys: list[str]) -> SkirmishState:
    """After a fight: each of ``keys`` whom it left free, every opponent killed, may pursue (when an enemy is in
    reach: otherwise there is no choice to make)."""
    return state.with_fighters(*(replace(f, pursuing=True) for f in (state.fighter(k) for k in keys)
                                 if may_pursue(state, f)))
