"""The actions of a skirmish: what is legal now, why an action is refused, and its odds before the roll.

Actions are plain JSON (``{"kind": "move", "side": "A", "fighter": "Alahan guard", "to": [30.0, 20.0]}``).
A move may go anywhere legal (the CLI's ``move Kelt 30,20``); the legal list offers a few sensible
destinations: toward the nearest enemy, the whole way or half of it (with a detour when the straight
way is blocked), every charge in reach, and holding. The combat phase offers one fight per engagement.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import JsonDict, LegalAction, OddsPreview

from .authority import holder
from .disengage import allowed_tests, disengagement, out_problem, way_out
from .fear import FearTest
from .flight import fanaticism_test, flee_cm, flees, flight_of, pursuers, pursuit_cm, pursuit_targets
from .fray import MAX_FIGHTERS, Fray, initiative_odds_of
from .fray_whole import fray_ends
from .leap import charge_problem, leap_charge, leap_charges, leap_offers, leap_problem, over_text
from .reinforcement import proposals, spot_problem, waiting_choice
from .shooting import WOUNDS, shot_of, shot_problem
from .skirmish import (
    STEP_CM,
    can_activate,
    can_charge,
    charge_cm,
    charge_draws,
    charge_of,
    fray_of,
    group_of,
    groups,
    initiative_requests,
    move_problem,
    names,
    step_problem,
    stepped,
    too_large,
    walk_tests,
)
from .splitting import candidates, split_problem
from .state import Fighter, SkirmishState
from .tactical import general, lead_choices, request, roll_odds, win_odds
from .wounds import load_wound_table

KINDS = ("move", "charge", "shoot", "hold", "fight", "tactical", "lead", "flee", "pursue", "stay", "remove", "keep",
         "return", "disengage", "split", "leap", "authority")
#: The phase each kind of action belongs to (the rest are the activation phase's).
PHASE_OF = {"fight": "combat", "tactical": "tactical", "authority": "tactical", "lead": "lead", "pursue": "combat", "stay": "combat", "split": "combat",
            "remove": "maintenance", "keep": "maintenance", "return": "maintenance"}
#: A move toward an enemy stops this far (cm) short of his base: contact is a charge's.
SHORT = 1.0
#: Detours tried (degrees off the straight line) when the way toward the nearest enemy is blocked.
DETOURS = (0, 30, -30, 60, -60, 90, -90)


def point(x: float, y: float) -> list[float]:
    """A destination as actions keep it: cm rounded to the millimetre."""
    return [round(x, 1), round(y, 1)]


def _moves(state: SkirmishState, f: Fighter) -> list[tuple[list[float], str]]:
    near = state.nearest_enemy(f)
    if near is None:
        return []
    gap = math.hypot(near.x - f.x, near.y - f.y)
    room = gap - f.radius - near.radius - SHORT
    if room <= 0.5:
        return []
    heading = math.atan2(near.y - f.y, near.x - f.x)
    out: list[tuple[list[float], str]] = []
    for share, word in ((1.0, "toward"), (0.5, "halfway toward")):
        step = min(f.card.MOV * share, room if share == 1.0 else room / 2)
        for turn in DETOURS:
            angle = heading + math.radians(turn)
            to = _walk_to(state, f, angle, step)
            if to is not None and to not in [o for o, _ in out]:
                detour = f" ({turn:+d}° detour)" if turn else ""
                out.append((to, f"{word} {near.key}{detour}"))
                break
    return out


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
        out.append(LegalAction({"kind": "disengage", "side": f.side, "fighter": f.key, "test": test, "to": to},
                               f"{f.key} tries to disengage ({vs}) to ({to[0]:g}, {to[1]:g})", f.side, None, "",
                               f"disengage ({test})", f"{f.key}: disengage"))
    return out


def _pursuit(f: Fighter, state: SkirmishState) -> list[LegalAction]:
    """A victor's pursuit movements, nearest first (the keeper's proposal), and not pursuing."""
    out = [LegalAction({"kind": "pursue", "side": f.side, "fighter": f.key, "target": t.key},
                       f"{f.key} pursues {t.key} ({reach.distance:.1f} cm of {pursuit_cm(f):g})", f.side,
                       round(reach.distance, 1), "", f"pursue {t.key}", f"{f.key}: pursuit")
           for t, reach in pursuit_targets(state, f)]
    return [*out, LegalAction({"kind": "stay", "side": f.side, "fighter": f.key}, f"{f.key} does not pursue", f.side,
                              0.0, "", "no pursuit", f"{f.key}: pursuit")]


def _activation(state: SkirmishState, f: Fighter) -> list[LegalAction]:
    side, out = f.side, []
    if f.engaged:  # he may try to disengage, or stay in his fight (the keeper's proposal)
        return [*_disengagements(state, f), LegalAction({"kind": "hold", "side": side, "fighter": f.key},
                                                        f"{f.key} stays in his fight", side, 0.0, "", "stay",
                                                        f"{f.key}: hold")]
    if flees(f):  # in rout and free: his activation is his flight
        run = flight_of(state, f)
        where = "off the field" if run.leaves else f"to ({run.x:g}, {run.y:g})"
        return [LegalAction({"kind": "flee", "side": side, "fighter": f.key}, f"{f.key} flees {run.distance:.1f} cm "
                            f"{where} (in rout)", side, run.distance, "", "flee", f"{f.key}: flee")]
    out += strikes(state, f)
    for to, why in _moves(state, f):
        dist = math.hypot(to[0] - f.x, to[1] - f.y)
        out.append(LegalAction({"kind": "move", "side": side, "fighter": f.key, "to": to},
                               f"{f.key} walks {dist:.1f} cm {why}", side, round(dist, 1),
                               "", f"{dist:.0f} cm {why}", f"{f.key}: move"))  # words, not "(15, 22)" (issue 26)
    for to, over in leap_offers(state, f):  # Leap: "move over them without any penalties"
        dist = math.hypot(to[0] - f.x, to[1] - f.y)
        out.append(LegalAction({"kind": "leap", "side": side, "fighter": f.key, "to": to}, f"{f.key} leaps over "
                               f"{over_text(over)} ({dist:.1f} cm)", side, round(dist, 1), "", f"leap {dist:.0f} cm",
                               f"{f.key}: move"))
    out.append(LegalAction({"kind": "hold", "side": side, "fighter": f.key}, f"{f.key} holds", side, 0.0, "",
                           "hold", f"{f.key}: hold"))
    return out


def strikes(state: SkirmishState, f: Fighter) -> list[LegalAction]:
    """A free fighter's charges in reach and shots he can take (what the shipped policy picks first)."""
    side, out = f.side, []
    for t in state.standing("B" if side == "A" else "A") if can_charge(f) else ():
        reach = charge_of(state, f, t)
        if reach.possible:
            out.append(LegalAction({"kind": "charge", "side": side, "fighter": f.key, "target": t.key},
                                   f"{f.key} charges {t.key} ({reach.distance:.1f} cm)", side, round(reach.distance, 1),
                                   "", f"→ {t.key}", f"{f.key}: charge"))
    out += leap_charges(state, f) if can_charge(f) else []  # Leap: "up to his MOVx2"
    for t in state.standing("B" if side == "A" else "A") if f.card.weapon is not None else ():
        if shot_problem(state, f, t) is None:
            shot = shot_of(state, f, t)
            out.append(LegalAction({"kind": "shoot", "side": side, "fighter": f.key, "target": t.key},
                                   f"{f.key} shoots {t.key} ({shot.where}, difficulty "
                                   f"{shot.difficulty})", side, round(shot.distance, 1), "", f"shoot {t.key}",
                                   f"{f.key}: shoot"))
    return out


def legal_actions(state: SkirmishState) -> list[LegalAction]:
    if state.over:
        return []
    side = state.to_act
    if state.phase in ("tactical", "lead"):
        return _tactical(state)
    if state.phase == "maintenance":
        return _reinforcement(state)
    chasing = pursuers(state)
    if state.phase == "combat" and chasing:
        return _pursuit(chasing[0], state)
    if state.phase == "combat":
        return _combat(state)
    aiming = [f for f in state.fighters if f.aiming and f.standing]
    if aiming:  # he walked: he may still shoot (at +1) or end his activation
        f = aiming[0]
        shots = [lg for lg in _activation(state, replace(f, activated=False)) if lg.action["kind"] == "shoot"]
        return [*shots, LegalAction({"kind": "hold", "side": side, "fighter": f.key}, f"{f.key} does not shoot",
                                    side, 0.0, "", "no shot", f"{f.key}: shoot")]
    out: list[LegalAction] = []
    for f in state.fighters:
        if f.side == side and can_activate(state, f):
            out += _activation(state, f)
    return out


def _combat(state: SkirmishState) -> list[LegalAction]:
    """The Tactical roll's winner's choices: which fray is fought next (each group's ``fight``, the keeper's proposal
    first) and how to split a fray of more than two (``split``: splitting.py); a group too large for one fray offers
    its splits in its fight's place, the keeper's (his first fighter with his own opponents, as before) first."""
    side, out, splits = state.to_act, [], []
    for mine, theirs in groups(state):
        group = {f.key for f in (*mine, *theirs)}
        blocks = candidates(state, group, mine[0].key) if len(group) > 2 else []
        offered = [_split(state, mine[0], group, block) for block in blocks]
        if too_large((mine, theirs)):
            out += offered
            continue
        out.append(LegalAction({"kind": "fight", "side": side, "fighter": mine[0].key},
                               f"{names(mine)} fight{'s' if len(mine) == 1 else ''} {names(theirs)}", side, None,
                               "a duel" if len(mine) + len(theirs) == 2 else f"a fray of {len(mine) + len(theirs)}",
                               f"{names(mine)} vs {names(theirs)}", "Fight"))
        splits += offered
    return [*out, *splits]


def _split(state: SkirmishState, lead: Fighter, group: set[str], block: set[str]) -> LegalAction:
    order = [f.key for f in state.fighters]
    keys = [k for k in order if k in block]
    rest = [k for k in order if k in group - block]
    return LegalAction({"kind": "split", "side": lead.side, "fighter": lead.key, "apart": keys},
                       f"split {' and '.join(keys)} off into a fray of their own (the rest: {' and '.join(rest)})",
                       lead.side, None, "", f"split off {' and '.join(keys)}", f"{lead.key}: split the fray")


def _tactical(state: SkirmishState) -> list[LegalAction]:
    """The Tactical roll (one action: both Generals' dice), then its winner's choice of who acts first (his own
    side proposed first)."""
    side, g = state.to_act, general(state, state.to_act).key
    if state.phase == "tactical" and state.drawn:  # Authority: the holder's choice after a draw
        return [LegalAction({"kind": "authority", "side": side, "fighter": g}, "Spend an Authority token and win "
                            "the Tactical roll (the keeper's proposal)", side, None, "", "Authority token",
                            f"{g}: Tactical roll"),
                LegalAction({"kind": "tactical", "side": side, "fighter": g}, "Roll the Tactical roll again, keeping "
                            "the token", side, None, "", "roll again", f"{g}: Tactical roll")]
    if state.phase == "tactical":
        return [LegalAction({"kind": "tactical", "side": side, "fighter": g}, f"Round {state.round}: roll the Tactical "
                            "roll", side, None, "", "Tactical roll", f"{g}: Tactical roll")]
    return [LegalAction({"kind": "lead", "side": side, "fighter": g, "first": first},
                        f"{state.name(first)} act first" + (" (the keeper's proposal)" if i == 0 else ""), side, None,
                        "", f"{state.name(first)} first", f"{g}: who acts first")
            for i, first in enumerate(lead_choices(state))]


def _reinforcement(state: SkirmishState) -> list[LegalAction]:
    """A Reinforcement roll's choice: on 1-2 keep him (the keeper's proposal) or remove him from play; on 5-6 where
    he comes back (the keeper's spots; any legal one may be named)."""
    f = waiting_choice(state)
    if f is None:
        return []
    side = f.side
    if f.returning == "remove?":
        return [LegalAction({"kind": kind, "side": side, "fighter": f.key}, text, side, None, "", kind,
                            f"{f.key}: Reinforcement")
                for kind, text in (("keep", f"{f.key} stays in the area of losses (the keeper's proposal)"),
                                   ("remove", f"{f.key} is removed from play"))]
    if not proposals(state, f):
        return [LegalAction({"kind": "keep", "side": side, "fighter": f.key}, f"{f.key}: no room within 10 cm of a "
                            "friend, he stays in the area of losses", side, None, "", "keep", f"{f.key}: Reinforcement")]
    return [LegalAction({"kind": "return", "side": side, "fighter": f.key, "to": to},
                        f"{f.key} comes back at ({to[0]:g}, {to[1]:g})", side, None, "", f"back at {to[0]:g},{to[1]:g}",
                        f"{f.key}: Reinforcement") for to in proposals(state, f)]


def _fighter(state: SkirmishState, action: JsonDict, key: str = "fighter") -> Fighter:
    name = str(action.get(key, ""))
    try:
        return state.fighter(name)
    except LookupError:
        raise IllegalActionError(f"no fighter {name!r} in this skirmish", field=key) from None


def check(state: SkirmishState, action: JsonDict) -> None:
    """Refuse (typed error naming what and why) an action that is not legal now."""
    kind = action.get("kind")
    if kind not in KINDS:
        raise IllegalActionError(f"not a Confrontation skirmish action: {kind!r} ({', '.join(KINDS)})", kind=str(kind))
    if state.over:
        raise IllegalActionError("the skirmish is over")
    if action.get("side") != state.to_act:
        raise IllegalActionError(f"it is side {state.to_act}'s turn to act, not {action.get('side')!r}",
                                 side=str(action.get("side")))
    f = _fighter(state, action)
    if f.side != state.to_act:
        raise IllegalActionError(f"{f.key} is not side {state.to_act}'s", field="fighter")
    if PHASE_OF.get(str(kind), "activation") != state.phase:
        raise IllegalActionError(f"round {state.round} is in its {state.phase} phase: no {kind} now", kind=str(kind))
    if kind == "tactical":
        return
    if kind == "authority":
        if not state.drawn:
            raise IllegalActionError("an Authority token wins a Tactical roll that was a draw: no draw to break now",
                                     kind="authority")
        return
    if kind in ("remove", "keep", "return"):
        chooser = waiting_choice(state)
        if chooser is None or chooser.key != f.key:
            raise IllegalActionError(f"{f.key} has no Reinforcement choice to make", field="fighter")
        if (kind == "return" and f.returning != "place") or (kind == "remove" and f.returning != "remove?") or                 (kind == "keep" and f.returning == "place" and proposals(state, f)):
            raise IllegalActionError(f"{f.key}'s Reinforcement roll does not allow a {kind}", kind=str(kind))
        to = action.get("to")
        if kind == "return":
            if not (isinstance(to, list) and len(to) == 2 and all(isinstance(v, int | float) for v in to)):
                raise IllegalActionError(f"a return goes to [x, y] in cm, got {to!r}", field="to")
            problem = spot_problem(state, f, float(to[0]), float(to[1]))
            if problem is not None:
                raise IllegalActionError(f"{f.key} cannot come back there: {problem}", field="to")
        return
    if kind == "lead":
        if action.get("first") not in lead_choices(state):
            raise IllegalActionError(f"the side that acts first is A or B, got {action.get('first')!r}", field="first")
        return
    if kind in ("pursue", "stay"):
        if not f.pursuing:
            raise IllegalActionError(f"{f.key} has no pursuit movement to make now", field="fighter")
        if kind == "pursue":
            t = _fighter(state, action, "target")
            if t.key not in {e.key for e, _ in pursuit_targets(state, f)}:
                raise IllegalActionError(f"{f.key} cannot pursue {t.key}: a pursuit movement of {pursuit_cm(f):g} cm "
                                         "goes into contact with a free enemy in sight", field="target")
        return
    if kind == "fight" and pursuers(state):
        raise IllegalActionError(f"{pursuers(state)[0].key} makes his pursuit movement first", field="fighter")
    if kind == "fight":
        group = group_of(state, f)
        if group is None:
            raise IllegalActionError(f"{f.key} has no fight left this round", field="fighter")
        if too_large(group):
            raise IllegalActionError(f"{f.key}'s fray holds {len(group[0]) + len(group[1])} fighters, more than "
                                     f"{MAX_FIGHTERS}: split it first", field="fighter")
        return
    if kind == "split":
        _check_split(state, f, action)
        return
    aiming = [g for g in state.fighters if g.aiming and g.standing]
    if aiming and (aiming[0].key != f.key or kind not in ("shoot", "hold")):
        raise IllegalActionError(f"{aiming[0].key} walked and may still shoot: his activation is not over",
                                 field="fighter")
    if aiming:
        pass
    elif not can_activate(state, f):
        why = "is engaged (he fights in the combat phase)" if f.engaged else "has already acted this round"
        raise IllegalActionError(f"{f.key} {why}" if f.standing else f"{f.key} is dead", field="fighter")
    if f.engaged and kind not in ("disengage", "hold"):
        raise IllegalActionError(f"{f.key} is engaged: he may try to disengage or stay in his fight", field="fighter")
    if kind == "disengage":
        if not f.engaged:
            raise IllegalActionError(f"{f.key} is not engaged: he has nothing to disengage from", field="fighter")
        if action.get("test") not in allowed_tests(state, f):
            raise IllegalActionError(f"{f.key} disengages with {' or '.join(allowed_tests(state, f))}, not "
                                     f"{action.get('test')!r}", field="test")
        to = action.get("to")
        if not (isinstance(to, list) and len(to) == 2 and all(isinstance(v, int | float) for v in to)):
            raise IllegalActionError(f"a disengagement walks to [x, y] in cm, got {to!r}", field="to")
        problem = out_problem(state, f, float(to[0]), float(to[1]))
        if problem is not None:
            raise IllegalActionError(f"{f.key} cannot walk out to ({to[0]:g}, {to[1]:g}): {problem}", field="to")
        return
    if flees(f) != (kind == "flee"):
        why = "is in rout: his activation is his flight" if flees(f) else "is not in rout: he does not flee"
        raise IllegalActionError(f"{f.key} {why}", field="fighter")
    if kind == "charge":
        t = _fighter(state, action, "target")
        if t.side == f.side or not t.standing:
            raise IllegalActionError(f"{t.key} is not a standing enemy of {f.key}", field="target")
        if not can_charge(f):
            raise IllegalActionError(f"{f.key} is in rout: he does not charge", field="fighter")
        problem = charge_problem(state, f, t, bool(action.get("leap")))
        if problem is not None:
            raise IllegalActionError(f"{f.key} cannot charge {t.key}{' leaping' * bool(action.get('leap'))}: "
                                     f"{problem}", field="target")
    elif kind == "shoot":
        t = _fighter(state, action, "target")
        if t.side == f.side or not t.standing:
            raise IllegalActionError(f"{t.key} is not a standing enemy of {f.key}", field="target")
        problem = shot_problem(state, f, t)
        if problem is not None:
            raise IllegalActionError(f"{f.key} cannot shoot {t.key}: {problem}", field="target")
    elif kind in ("move", "leap"):
        to = action.get("to")
        if not (isinstance(to, list) and len(to) == 2 and all(isinstance(v, int | float) and not isinstance(v, bool)
                                                               and math.isfinite(v) for v in to)):
            raise IllegalActionError(f"a move goes to [x, y] in cm, got {to!r}", field="to")
        x, y = float(to[0]), float(to[1])
        problem = leap_problem(state, f, x, y) if kind == "leap" else \
            move_problem(state, f, x, y) or step_problem(state, math.hypot(x - f.x, y - f.y))
        if problem is not None:
            raise IllegalActionError(f"{f.key} cannot {'leap' if kind == 'leap' else 'walk'} to ({x:g}, {y:g}): "
                                     f"{problem}", field="to")


def _check_split(state: SkirmishState, f: Fighter, action: JsonDict) -> None:
    group = group_of(state, f)
    if group is None:
        raise IllegalActionError(f"{f.key} has no fight left this round", field="fighter")
    apart = action.get("apart")
    if not (isinstance(apart, list) and apart and all(isinstance(k, str) for k in apart)):
        raise IllegalActionError(f"a split names the fighters it splits off, got {apart!r}", field="apart")
    for k in apart:
        _fighter(state, {"fighter": k})
    problem = split_problem(state, {g.key for g in (*group[0], *group[1])}, set(apart))
    if problem is not None:
        raise IllegalActionError(f"cannot split {' and '.join(apart)} off {f.key}'s fray: {problem}", field="apart")


def _pct(p: Fraction | float) -> float:
    return float(p)


def _odds(tests: list[FearTest]) -> list[tuple[str, float | str]]:
    return [(f"{test.tester} passes COU {test.characteristic} vs FEAR {test.fear}", _pct(test.chance()))
            for test in tests]


def fray_outlook(group: tuple[tuple[Fighter, ...], tuple[Fighter, ...]], fray: Fray) -> list[tuple[str, float | str]]:
    """The whole fray's outcome (issue 24: "the preview of a fight shows the kill odds, not only the initiative
    dice"): each side's chance of killing every enemy in it, of no one being killed, and each fighter's chance of
    being killed (the enemies first); :func:`~.fray_whole.fray_ends`: exact when small, else the numpy kernel's
    estimate with its error (the seed is fixed, so the preview of one state is always the same)."""
    flat = [*group[0], *group[1]]
    camp_a = len(group[0])
    found = fray_ends(fray)  # the whole fray, fast (issue 27): exact when small, else the numpy kernel
    ends: dict[tuple[str, ...], float] = found.odds
    how: list[tuple[str, float | str]] = [("odds", "exact" if found.method == "exact" else
                                           f"estimate, ±{100 * found.error_bound:.1f} % ({found.note})")]
    out = list(how)
    first, second = flat[0].side, flat[camp_a].side
    for side, enemies in ((first, range(camp_a, len(flat))), (second, range(camp_a))):
        won = sum(p for e, p in ends.items() if all(e[k] == "killed" for k in enemies))
        out.append((f"side {side} kills every enemy in the fight", _pct(won)))
    out.append(("no one killed", _pct(sum(p for e, p in ends.items() if "killed" not in e))))
    for at in [*range(camp_a, len(flat)), *range(camp_a)]:  # the enemies first
        killed = sum(p for e, p in ends.items() if e[at] == "killed")
        out.append((f"{flat[at].key} killed", _pct(killed)))
    return out


def preview(state: SkirmishState, action: JsonDict) -> OddsPreview:
    """A fight's two INI tests (its first draws, exactly) and its exact odds when small enough; a move's or
    charge's measured distance."""
    kind = action.get("kind")
    if kind == "tactical" and holder(state) is not None:  # a draw stops the roll: the token's holder chooses
        a, b, draw = roll_odds(state)
        return OddsPreview(((f"{state.name('A')} win the Tactical roll", _pct(a)),
                            (f"{state.name('B')} win the Tactical roll", _pct(b)),
                            (f"a draw: {state.name(str(holder(state)))} may spend an Authority token", _pct(draw))),
                           (request(state, "A"), request(state, "B")))
    if kind == "tactical":
        return OddsPreview(((f"{state.name('A')} win the Tactical roll", _pct(win_odds(state, "A"))),
                            (f"{state.name('B')} win the Tactical roll", _pct(win_odds(state, "B")))),
                           (request(state, "A"), request(state, "B")))
    try:
        f = state.fighter(str(action.get("fighter")))
    except LookupError:
        return OddsPreview()
    if kind == "fight":
        group = group_of(state, f)
        if group is None:
            return OddsPreview()
        fray = fray_of(group, state)
        headline: list[tuple[str, float | str]] = [("wins initiative", _pct(initiative_odds_of(fray)))]
        return OddsPreview((*headline, *fray_outlook(group, fray)), initiative_requests(fray))
    if kind == "charge":
        t = state.fighter(str(action["target"]))
        reach = (leap_charge(state, f, t)[0] if action.get("leap") else None) or charge_of(state, f, t)
        mine, passing, theirs = charge_draws(state, f, t)
        tests = [test for test in (mine, *passing, theirs) if test is not None]
        lines: list[tuple[str, float | str]] = [("distance", f"{reach.distance:.1f} cm of {charge_cm(f)}")]
        return OddsPreview((*lines, *_odds(tests)), tuple(test.request() for test in tests))
    if kind == "shoot":
        shot = shot_of(state, f, state.fighter(str(action["target"])))
        ends = shot.outcomes(load_wound_table())
        wounded = sum((p for line, p in ends.items() if line in WOUNDS), Fraction(0))
        return OddsPreview((("distance", f"{shot.distance:.1f} cm, {shot.band} range"),
                            ("difficulty", f"AIM {shot.aim} vs {shot.difficulty}"),
                            ("hits", _pct(1 - ends.get("miss", Fraction(0)))), ("wounds", _pct(wounded)),
                            (f"{shot.target} killed", _pct(ends.get("Killed outright", Fraction(0))))),
                           (shot.request(),))
    if kind == "flee":
        test = fanaticism_test(f)
        run = flight_of(state, f)
        ran: tuple[str, float | str] = ("run", f"{run.distance:.1f} cm of {flee_cm(f):g}"
                                             + (", off the field" if run.leaves else ""))
        if test is None:
            return OddsPreview((ran,))
        return OddsPreview((ran, (f"{f.key} passes DIS {test.characteristic} vs {test.fear} and does not flee",
                                     _pct(test.chance()))), (test.request(),))
    if kind == "disengage":
        d = disengagement(state, f, str(action.get("test")))
        if d.difficulty is None:
            return OddsPreview((("disengages", 1.0),))
        return OddsPreview(((f"disengages ({d.test} {d.value} vs {d.difficulty})", d.chance()),), (d.request(),))
    if kind == "pursue":
        reach = charge_of(state, f, state.fighter(str(action["target"])), pursuit_cm(f))
        return OddsPreview((("distance", f"{reach.distance:.1f} cm of {pursuit_cm(f):g}"),))
    if kind in ("move", "leap"):
        x, y = action["to"]
        crossing = walk_tests(state, f, float(x), float(y))
        return OddsPreview((("distance", f"{math.hypot(x - f.x, y - f.y):.1f} cm of {f.card.MOV}"), *_odds(crossing)),
                           tuple(test.request() for test in crossing))
    return OddsPreview()
