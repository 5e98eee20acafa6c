"""Reinforcement (issue 24, third-edition rules; the seed's sentence): fighters who come back from the area of losses.

The seed: "This ability works only as long as a fighter with it is in the area of losses and has not been removed
from play. During the maintenance phase, if there is at least one fighter with this ability in the area of the
losses, roll 1d6. The result affects the fighter whose a.p: cost on the card is the lowest (ignore additional
costs): 1, 2 : the player can choose to remove that fighter from play; 3, 4 : no effect; 5, 6 : the fighter comes
back to the field. He must be placed within 10 cm of a friendly fighter, following the rules for resurrected
fighters (see page 45)."

Readings (docs/rules/confrontation.md, "Reinforcement"): the area of losses holds a side's killed fighters (not
those who fled off the field, nor those removed from play); "the fighter whose a.p: cost … is the lowest" is read
among the fighters with Reinforcement there (the first listed on a tie); one roll a side, side A's first. Both
choices are the owning player's legal actions: on 1–2 ``remove`` or ``keep`` (the keeper proposes keep), on 5–6
``return`` to a spot within 10 cm of a friend (the keeper proposes spots; any legal one is accepted). **Estimated**
(page 45 is not in the seed): he comes back with his card's HP, unwounded, not in rout, out of contact with every
other fighter. Under option ``move_steps`` (third-edition rules: "movement in cm in 2.5 cm steps") the placement is
measured in the same steps: he stands a whole number of 2.5 cm steps (2.5, 5, 7.5 or 10 cm, edge to edge) from the
friend he is placed by; a battle stored before the option places him anywhere within 10 cm.
"""

from __future__ import annotations

import math

from rulekeeper.boards.table import edge_distance
from rulekeeper.core.chance import ChanceRequest, Fate, discrete

from .report_lines import ReportLine
from .skirmish import KEEP_APART, STEP_CM, STEP_SLACK, inside, stepped
from .state import SIDES, Fighter, SkirmishState, bearing, other, replace
from .terrain import barriers

#: "He must be placed within 10 cm of a friendly fighter".
WITHIN = 10.0
#: The keeper's proposed spots: this far (cm) edge to edge from a friend, in eight directions (a battle placing to the
#: millimetre; in 2.5 cm steps, one step: ``STEP_CM``).
GAP = 2.0


def losses(state: SkirmishState, side: str) -> list[Fighter]:
    """The area of losses: a side's killed fighters, not fled, not removed from play."""
    return [f for f in state.fighters if f.side == side and f.killed and not f.fled and not f.removed]


def affected(state: SkirmishState, side: str) -> Fighter | None:
    """The fighter with Reinforcement in the area of losses whose card costs least (None: no roll)."""
    mine = [f for f in losses(state, side) if f.card.has("Reinforcement")]
    return min(mine, key=lambda f: (f.card.cost, state.fighters.index(f))) if mine else None


def request(state: SkirmishState, side: str) -> ChanceRequest:
    f = affected(state, side)
    return discrete(f"Reinforcement: {state.name(side)}", [(str(n), 1.0) for n in range(1, 7)],
                    (f"for {f.key if f else '?'}: 1-2 may be removed from play, 3-4 nothing, 5-6 comes back",))


def roll_reinforcements(state: SkirmishState, fate: Fate, report: list[ReportLine]) -> SkirmishState:
    """The maintenance phase's Reinforcement rolls; a 1-2 or 5-6 leaves his player a choice (``returning``)."""
    for side in SIDES:
        f = affected(state, side)
        if f is None:
            continue
        n = int(fate.draw(request(state, side)).outcome)
        if n <= 2:
            report.append({"text": f"Reinforcement: {n} for {f.key}: his player may remove him from play",
                           "kind": "maintenance"})
            state = state.with_fighters(replace(f, returning="remove?"))
        elif n >= 5:
            report.append({"text": f"Reinforcement: {n} for {f.key}: he comes back within {WITHIN:g} cm of a friend",
                           "kind": "maintenance"})
            state = state.with_fighters(replace(f, returning="place"))
        else:
            report.append({"text": f"Reinforcement: {n} for {f.key}: no effect", "kind": "maintenance"})
    return state


def waiting_choice(state: SkirmishState) -> Fighter | None:
    return next((f for f in state.fighters if f.returning), None)


def spot_problem(state: SkirmishState, f: Fighter, x: float, y: float) -> str | None:
    """Why ``f`` cannot come back at (x, y), or None: on the table, clear of scenery and of contact with anyone, and
    within 10 cm (edge to edge) of a standing friend."""
    if not (math.isfinite(x) and math.isfinite(y)) or not inside(state, x, y, f.radius):
        return f"({x:g}, {y:g}) puts his base off the table"
    base = f.base.moved_to(x, y)
    if any(base.shape().intersection(o.shape()).area > 1e-6 for o in barriers(state, f.card)):
        return f"({x:g}, {y:g}) is in the scenery"
    if any(edge_distance(base, g.base) <= KEEP_APART for g in state.standing()):
        return f"({x:g}, {y:g}) is in contact with another fighter"
    near = [edge_distance(base, g.base) for g in state.standing(f.side)]
    if not any(d <= WITHIN + (STEP_SLACK if stepped(state) else 0.0) for d in near):
        return f"({x:g}, {y:g}) is not within {WITHIN:g} cm of a friendly fighter"
    if stepped(state) and not any(d <= WITHIN + STEP_SLACK and whole_steps(d) for d in near):
        closest = min(near)
        return f"({x:g}, {y:g}) is {closest:.1f} cm from the nearest friend: third-edition rules measure \"in 2.5 cm " \
               f"steps\", so he is placed 2.5, 5, 7.5 or 10 cm (edge to edge) from a friendly fighter"
    return None


def whole_steps(cm: float) -> bool:
    """Whether a distance is a whole number (at least one) of 2.5 cm steps, to the millimetre's rounding."""
    n = round(cm / STEP_CM)
    return n >= 1 and abs(cm - n * STEP_CM) <= STEP_SLACK


def proposals(state: SkirmishState, f: Fighter) -> list[list[float]]:
    """Spots the keeper offers: one 2.5 cm step (2 cm in a battle without steps) from each standing friend, in eight
    directions, the first legal ones."""
    out: list[list[float]] = []
    gap = STEP_CM if stepped(state) else GAP
    for g in state.standing(f.side):
        for k in range(8):
            angle = math.radians(180 + 45 * k)
            d = g.radius + f.radius + gap
            spot = [round(g.x + d * math.cos(angle), 1), round(g.y + d * math.sin(angle), 1)]
            if spot not in out and spot_problem(state, f, spot[0], spot[1]) is None:
                out.append(spot)
        if len(out) >= 4:
            break
    return out[:4]


def do_choice(state: SkirmishState, f: Fighter, kind: str, to: list[float] | None) -> tuple[SkirmishState,
                                                                                                list[ReportLine]]:
    if kind == "remove":
        return state.with_fighters(replace(f, returning="", removed=True)), [
            {"text": f"{f.key} is removed from play", "kind": "maintenance"}]
    if kind == "keep":
        return state.with_fighters(replace(f, returning="")), [
            {"text": f"{f.key} stays in the area of losses", "kind": "maintenance"}]
    assert to is not None
    x, y = to
    near = min(state.standing(other(f.side)), key=lambda e: math.hypot(e.x - x, e.y - y), default=None)
    facing = f.facing if near is None else bearing(x, y, near.x, near.y)
    back = replace(f, x=x, y=y, facing=facing, hp=f.card.HP, killed=False, stunned=False, fierce=False,
                   engaged=(), fought=(), rout=0, charged=False, returning="")
    return state.with_fighters(back), [{"text": f"{f.key} comes back to the field at ({x:g}, {y:g})",
                                        "kind": "maintenance"}]
