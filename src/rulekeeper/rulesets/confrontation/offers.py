"""A fighter's choices in the activation phase (and a victor's pursuit): walks, leaps, charges, shots, disengaging,
fleeing, holding.

A move may go anywhere legal (the CLI's ``move Kelt 30,20``); the keeper offers a few sensible destinations: toward
the nearest enemy, the whole way or half of it (with a detour when the straight way is blocked), every charge in
reach, every shot he can take, and holding.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from rulekeeper.core.game import LegalAction

from .accumulators import absorb_offers
from .action_types import ACTIONS, ByFighter, Charge, Disengage, Pursue, Shoot, ToPoint, at, offer
from .assault import assault_difficulty, assault_problem
from .cure import simple_offers
from .disengage import allowed_tests, disengagement, way_out
from .fear import may_steel
from .flight import flees, flight_of, pursuit_cm, pursuit_targets
from .leap import leap_charges, leap_offers, leap_pursuit_offers, over_text
from .magic_offers import cast_offers
from .shooting import shot_of, shot_problem
from .skirmish import STEP_CM, can_charge, charge_cm, charge_of, move_problem, out_of_reach, step_problem, stepped
from .state import Fighter, SkirmishState, replace

#: A move toward an enemy stops this far (cm) short of his base: contact is a charge's.
SHORT = 1.0
#: Detours tried (degrees off the straight line) when the way toward the nearest enemy is blocked.
DETOURS = (0, 30, -30, 60, -60, 90, -90)


def point(x: float, y: float) -> list[float]:
    """A destination as actions keep it: cm rounded to the millimetre."""
    return [round(x, 1), round(y, 1)]


def _destinations(state: SkirmishState, f: Fighter) -> Iterator[tuple[list[float], str]]:
    """The walks offered toward his nearest enemy, in order, each measured only when asked for (the search bot's
    rollouts want the first one only: ``bot.rollout_policy``)."""
    near = state.nearest_enemy(f)
    if near is None:
        return
    gap = math.hypot(near.x - f.x, near.y - f.y)
    room = gap - f.radius - near.radius - SHORT
    if room <= 0.5:
        return
    heading = math.atan2(near.y - f.y, near.x - f.x)
    found: list[list[float]] = []
    for share, word in ((1.0, "toward"), (0.5, "halfway toward")):
        step = min(f.card.MOV * share, room if share == 1.0 else room / 2)
        for turn in DETOURS:
            angle = heading + math.radians(turn)
            to = _walk_to(state, f, angle, step)
            if to is not None and to not in found:
                detour = f" ({turn:+d}° detour)" if turn else ""
                found.append(to)
                yield to, f"{word} {near.key}{detour}"
                break


def walks(state: SkirmishState, f: Fighter) -> Iterator[LegalAction]:
    """His walks toward the nearest enemy as offers (the whole way, then half of it), each measured when asked for."""
    for to, why in _destinations(state, f):
        dist = math.hypot(to[0] - f.x, to[1] - f.y)
        yield offer(ToPoint("move", f.side, f.key, at(to)), f"{f.key} walks {dist:.1f} cm {why}", f.side,
                    round(dist, 1), "", f"{dist:.0f} cm {why}", f"{f.key}: move")  # words, not "(15, 22)" (issue 26)


def _walk_to(state: SkirmishState, f: Fighter, angle: float, step: float) -> list[float] | None:
    """The farthest legal destination at ``angle`` within ``step`` cm: the whole step when it is legal (rounded
    down to a whole number of 2.5 cm steps when the option asks for them), else, in steps, shorter by 2.5 cm at a
    time (encumbered ground costs double: terrain.py)."""
    tries = [step]
    if stepped(state):
        whole = math.floor(step / STEP_CM + 1e-9)
        tries = [STEP_CM * n for n in range(whole, 0, -1)]
    for length in tries:
        to = point(f.x + length * math.cos(angle), f.y + length * math.sin(angle))
        if move_problem(state, f, to[0], to[1]) is None and \
                step_problem(state, math.hypot(to[0] - f.x, to[1] - f.y)) is None:
            return to
    return None


def _disengagements(state: SkirmishState, f: Fighter) -> list[LegalAction]:
    to = way_out(state, f)
    if to is None:
        return []
    out = []
    for test in allowed_tests(state, f):
        d = disengagement(state, f, test)
        vs = "automatic" if d.difficulty is None else f"{test} {d.value} vs {d.difficulty}"
        out.append(offer(Disengage(f.side, f.key, test, at(to)),
                         f"{f.key} tries to disengage ({vs}) to ({to[0]:g}, {to[1]:g})", f.side, None, "",
                         f"disengage ({test})", f"{f.key}: disengage"))
    return out


def pursuit_offers(f: Fighter, state: SkirmishState) -> list[LegalAction]:
    """A victor's pursuit movements, nearest first (the keeper's proposal), and not pursuing."""
    out = [offer(Pursue(f.side, f.key, t.key),
                 f"{f.key} pursues {t.key} ({reach.distance:.1f} cm of {pursuit_cm(f):g})", f.side,
                 round(reach.distance, 1), "", f"pursue {t.key}", f"{f.key}: pursuit")
           for t, reach in pursuit_targets(state, f)]
    out += [offer(Pursue(f.side, f.key, t.key, leap=True),
                  f"{f.key} pursues {t.key}, leaping over {over_text(over)} ({reach.distance:.1f} cm of "
                  f"{pursuit_cm(f):g})", f.side, round(reach.distance, 1), "", f"pursue {t.key} (leap)",
                  f"{f.key}: pursuit")
            for t, reach, over in leap_pursuit_offers(state, f)]  # Leap: "MOV/2 when making a pursuit movement"
    return [*out, offer(ByFighter("stay", f.side, f.key), f"{f.key} does not pursue", f.side,
                        0.0, "", "no pursuit", f"{f.key}: pursuit")]


def activation(state: SkirmishState, f: Fighter) -> list[LegalAction]:
    side, out = f.side, []
    if f.engaged:  # he may try to disengage, or stay in his fight (the keeper's proposal)
        return [*_disengagements(state, f), offer(ByFighter("hold", side, f.key),
                                                  f"{f.key} stays in his fight", side, 0.0, "", "stay",
                                                  f"{f.key}: hold")]
    if flees(f):  # in rout and free: his activation is his flight
        run = flight_of(state, f)
        where = "off the field" if run.leaves else f"to ({run.x:g}, {run.y:g})"
        return [offer(ByFighter("flee", side, f.key), f"{f.key} flees {run.distance:.1f} cm "
                      f"{where} (in rout)", side, run.distance, "", "flee", f"{f.key}: flee")]
    if f.covered:  # Dodge: after moving under cover, only cumulative actions (a shot) or holding
        return [*(lg for lg in strikes(state, f) if lg.action["kind"] == "shoot"),
                offer(ByFighter("hold", side, f.key), f"{f.key} holds", side, 0.0, "",
                      "hold", f"{f.key}: hold")]
    out += strikes(state, f)
    out += cast_offers(state, f)  # spells and miracles (magic.py)
    out += absorb_offers(state, f)  # Absorb/X: a Mystic action before his action (accumulators.py)
    out += simple_offers(state, f)  # Cure/X as a simple action, +1 (cure.py)
    out += walks(state, f)
    for to, over in leap_offers(state, f):  # Leap: "move over them without any penalties"
        dist = math.hypot(to[0] - f.x, to[1] - f.y)
        out.append(offer(ToPoint("leap", side, f.key, at(to)), f"{f.key} leaps over "
                         f"{over_text(over)} ({dist:.1f} cm)", side, round(dist, 1), "", f"leap {dist:.0f} cm",
                         f"{f.key}: move"))
    out.append(offer(ByFighter("hold", side, f.key), f"{f.key} holds", side, 0.0, "",
                     "hold", f"{f.key}: hold"))
    return out


def strikes(state: SkirmishState, f: Fighter) -> list[LegalAction]:
    """A free fighter's charges in reach and shots he can take (what the shipped policy picks first)."""
    side, out = f.side, []
    for t in state.standing("B" if side == "A" else "A") if can_charge(f) else ():
        plain = charge_offer(state, f, t)
        if plain is not None:
            out.append(plain)
    out += leap_charges(state, f) if can_charge(f) else []  # Leap: "up to his MOVx2"
    out += [offer(Charge(side, f.key, str(lg.action["target"]), assault=True), f"{lg.text.split(' (')[0]} with "
                  f"assault fire (AIM vs {assault_difficulty(f)})", side, lg.cost, "", f"→ {lg.action['target']}, firing",
                  f"{f.key}: charge")
            for lg in list(out) if lg.action["kind"] == "charge" and not lg.action.get("leap")
            and assault_problem(state, f, state.fighter(str(lg.action["target"]))) is None]
    out += [offer(replace(ACTIONS.decode(lg.action), resolute=True), f"{lg.text}, spending Resolute on his COU test "
                  f"(+{f.card.value_of('Resolute')} COU; not on an INI test this round)", side, lg.cost, "",
                  f"{lg.label}, Resolute", f"{f.key}: charge")
            for lg in list(out) if lg.action["kind"] == "charge"
            and may_steel(state, f, state.fighter(str(lg.action["target"])))]  # Resolute/X on his COU test
    return [*out, *shots(state, f)]


def charge_offer(state: SkirmishState, f: Fighter, t: Fighter) -> LegalAction | None:
    """His charge at ``t`` (straight or around), if it is in reach (a charger who can charge: :func:`can_charge`)."""
    if out_of_reach(f, t, float(charge_cm(f))):
        return None
    reach = charge_of(state, f, t)
    if not reach.possible:
        return None
    return offer(Charge(f.side, f.key, t.key), f"{f.key} charges {t.key} ({reach.distance:.1f} cm)", f.side,
                 round(reach.distance, 1), "", f"→ {t.key}", f"{f.key}: charge")


def shots(state: SkirmishState, f: Fighter) -> list[LegalAction]:
    """The shots he can take, at each enemy in sight and range."""
    side, out = f.side, []
    for t in state.standing("B" if side == "A" else "A") if f.card.weapon is not None else ():
        if shot_problem(state, f, t) is None:
            shot = shot_of(state, f, t)
            out.append(offer(Shoot(side, f.key, t.key),
                             f"{f.key} shoots {t.key} ({shot.where}, difficulty "
                             f"{shot.difficulty})", side, round(shot.distance, 1), "", f"shoot {t.key}",
                             f"{f.key}: shoot"))
    return out
