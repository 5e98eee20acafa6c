"""The actions of a skirmish: what is legal now, why an action is refused, and its odds before the roll.

Actions are plain JSON (``{"kind": "move", "side": "A", "fighter": "Alahan guard", "to": [30.0, 20.0]}``).
A move may go anywhere legal (the CLI's ``move Kelt 30,20``); the legal list offers a few sensible
destinations: toward the nearest enemy, the whole way or half of it (with a detour when the straight
way is blocked), every charge in reach, and holding. The combat phase offers one fight per engagement.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import JsonDict, LegalAction, OddsPreview

from .fear import FearTest
from .fray import Fray, initiative_odds_of
from .fray_whole import fray_ends
from .shooting import WOUNDS, shot_of, shot_problem
from .skirmish import (
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
    walk_tests,
)
from .state import Fighter, SkirmishState
from .wounds import load_wound_table

KINDS = ("move", "charge", "shoot", "hold", "fight")
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
            to = point(f.x + step * math.cos(angle), f.y + step * math.sin(angle))
            if to not in [o for o, _ in out] and move_problem(state, f, to[0], to[1]) is None:
                detour = f" ({turn:+d}° detour)" if turn else ""
                out.append((to, f"{word} {near.key}{detour}"))
                break
    return out


def _activation(state: SkirmishState, f: Fighter) -> list[LegalAction]:
    side, out = f.side, []
    for t in state.standing("B" if side == "A" else "A") if can_charge(f) else ():
        reach = charge_of(state, f, t)
        if reach.possible:
            out.append(LegalAction({"kind": "charge", "side": side, "fighter": f.key, "target": t.key},
                                   f"{f.key} charges {t.key} ({reach.distance:.1f} cm)", side, round(reach.distance, 1),
                                   "", f"→ {t.key}", f"{f.key}: charge"))
    for t in state.standing("B" if side == "A" else "A") if f.card.weapon is not None else ():
        if shot_problem(state, f, t) is None:
            shot = shot_of(state, f, t)
            out.append(LegalAction({"kind": "shoot", "side": side, "fighter": f.key, "target": t.key},
                                   f"{f.key} shoots {t.key} ({shot.band} range, {shot.distance:.1f} cm, difficulty "
                                   f"{shot.difficulty})", side, round(shot.distance, 1), "", f"shoot {t.key}",
                                   f"{f.key}: shoot"))
    for to, why in _moves(state, f):
        dist = math.hypot(to[0] - f.x, to[1] - f.y)
        out.append(LegalAction({"kind": "move", "side": side, "fighter": f.key, "to": to},
                               f"{f.key} walks {dist:.1f} cm {why}", side, round(dist, 1),
                               "", f"{dist:.0f} cm {why}", f"{f.key}: move"))  # words, not "(15, 22)" (issue 26)
    out.append(LegalAction({"kind": "hold", "side": side, "fighter": f.key}, f"{f.key} holds", side, 0.0, "",
                           "hold", f"{f.key}: hold"))
    return out


def legal_actions(state: SkirmishState) -> list[LegalAction]:
    if state.over:
        return []
    side = state.to_act
    if state.phase == "combat":
        return [LegalAction({"kind": "fight", "side": side, "fighter": mine[0].key},
                            f"{names(mine)} fight{'s' if len(mine) == 1 else ''} {names(theirs)}", side, None,
                            "a duel" if len(mine) + len(theirs) == 2 else f"a fray of {len(mine) + len(theirs)}",
                            f"{names(mine)} vs {names(theirs)}", "Fight")
                for mine, theirs in groups(state)]
    out: list[LegalAction] = []
    for f in state.fighters:
        if f.side == side and can_activate(state, f):
            out += _activation(state, f)
    return out


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
    if (kind == "fight") != (state.phase == "combat"):
        raise IllegalActionError(f"round {state.round} is in its {state.phase} phase: no {kind} now", kind=str(kind))
    if kind == "fight":
        if group_of(state, f) is None:
            raise IllegalActionError(f"{f.key} has no fight left this round", field="fighter")
        return
    if not can_activate(state, f):
        why = "is engaged (he fights in the combat phase)" if f.engaged else "has already acted this round"
        raise IllegalActionError(f"{f.key} {why}" if f.standing else f"{f.key} is dead", field="fighter")
    if kind == "charge":
        t = _fighter(state, action, "target")
        if t.side == f.side or not t.standing:
            raise IllegalActionError(f"{t.key} is not a standing enemy of {f.key}", field="target")
        if not can_charge(f):
            raise IllegalActionError(f"{f.key} is in rout: he does not charge", field="fighter")
        reach = charge_of(state, f, t)
        if not reach.possible:
            raise IllegalActionError(f"{f.key} cannot charge {t.key}: {reach.reason}", field="target")
    elif kind == "shoot":
        t = _fighter(state, action, "target")
        if t.side == f.side or not t.standing:
            raise IllegalActionError(f"{t.key} is not a standing enemy of {f.key}", field="target")
        problem = shot_problem(state, f, t)
        if problem is not None:
            raise IllegalActionError(f"{f.key} cannot shoot {t.key}: {problem}", field="target")
    elif kind == "move":
        to = action.get("to")
        if not (isinstance(to, list) and len(to) == 2 and all(isinstance(v, int | float) and not isinstance(v, bool)
                                                               and math.isfinite(v) for v in to)):
            raise IllegalActionError(f"a move goes to [x, y] in cm, got {to!r}", field="to")
        x, y = float(to[0]), float(to[1])
        problem = move_problem(state, f, x, y)
        if problem is not None:
            raise IllegalActionError(f"{f.key} cannot walk to ({x:g}, {y:g}): {problem}", field="to")


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
        reach = charge_of(state, f, t)
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
    if kind == "move":
        x, y = action["to"]
        crossing = walk_tests(state, f, float(x), float(y))
        return OddsPreview((("distance", f"{math.hypot(x - f.x, y - f.y):.1f} cm of {f.card.MOV}"), *_odds(crossing)),
                           tuple(test.request() for test in crossing))
    return OddsPreview()
