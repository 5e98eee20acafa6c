"""Concentration/X (issue 24): a fighter's points raised on his bold characteristics before his fight.

The seed: "Concentration/X (active): The fighter is an accumulator. Reserve: temporary. Maximum: X. Charges (ratio):
the fighter has Generation/X. X indicates the total number of points the player can distribute in each round among
the Characteristic that this ability is bound to (These Characteristics of fighters endowed with this ability are
printed in bold type on their reference card.). These bonuses can be given at any time and not necessarily all at the
same time, yet while taking into account the following restrictions: • The increase of a Characteristic can never
modify a test that has already been made. • A fighter's DEF and ATT can be increased at the beginning of an exchange
but not during one. • POW and FAI can never be increased. These bonuses remain valid until the end of the round."
Third-edition rules (issue 24): "Concentration: bonuses only at the start of an exchange".

Played here (docs/rules/confrontation.md, "Concentration"):

* Generation/X: X points before each Tactical roll (the round's start); unused points are lost at the round's end
  (a temporary reserve of at most X);
* which characteristics are bold is card data (``bold: [ATT, DEF]``; no card of the seed prints one, so the shipped
  example cards that carry Concentration mark it **estimated**);
* the moment: at the beginning of the combat phase, before any exchange of his fight (a **reading**: the bonuses
  "remain valid until the end of the round", so given there they hold for every exchange of his fight), each side
  with an engaged fighter who has points left and a bold combat characteristic (INI, ATT, STR, DEF, RES) declares in
  turn, the loser of the Tactical roll first (as Additional limb: "the loser of the INI roll is the first one to
  announce"): ``concentrate FIGHTER ATT 2 [DEF 1 …]`` as often as points remain, then ``steady`` (the keeper's
  proposal: no concentration; autoplay's choice);
* a bonus counts as written on his card for the rest of the round (a **reading**, as Resolute's "counts as written");
  the fray's odds before the fight are computed with it, and the fight rolls with it (preview = roll).
"""

from __future__ import annotations

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import LegalAction

from .action_types import ByFighter, Concentrate, Points, offer
from .skirmish import pending
from .state import Fighter, SkirmishState, other, replace
from .tactical import general

#: The characteristics a fight reads: what a bonus given at the beginning of the combat phase can change.
COMBAT = ("INI", "ATT", "STR", "DEF", "RES")


def points(f: Fighter) -> int:
    """X of Concentration/X (0 without it)."""
    x = f.card.value_of("Concentration")
    return 0 if x is None else int(x.strip().lstrip("+"))


def generate(state: SkirmishState) -> SkirmishState:
    """Before each Tactical roll: Generation/X's X points (at most X: the reserve is temporary), last round's
    bonuses gone ("These bonuses remain valid until the end of the round")."""
    changed = [replace(f, charges=points(f), boosts=()) for f in state.fighters
               if f.standing and (points(f) or f.boosts or f.charges)]
    return state.with_fighters(*changed) if changed else state


def raisable(f: Fighter) -> list[str]:
    """His bold characteristics a fight reads (POW and FAI are never bold: cards.py refuses them)."""
    return [c for c in COMBAT if c in f.card.bold]


def may_concentrate(f: Fighter) -> bool:
    """An active ability ("cannot be used by a fighter in rout"), points left, a bold combat characteristic, and a
    fight still to come this round."""
    return f.standing and not f.rout and f.charges > 0 and bool(raisable(f)) and pending(f)


def declaring(state: SkirmishState) -> str | None:
    """The side declaring Concentration now: in the combat phase, before the next fight, the Tactical roll's loser
    first, each side until it is ``steady``."""
    if state.phase != "combat" or state.over or any(f.pursuing and f.standing for f in state.fighters):
        return None
    return next((s for s in (other(state.leader), state.leader) if s not in state.concentrated
                 and any(may_concentrate(f) for f in state.standing(s))), None)


def points_of(value: object) -> dict[str, int]:
    """An action's ``points`` ({"ATT": 2, "DEF": 1}) in the order of :data:`COMBAT`, or a typed error naming it."""
    if not isinstance(value, dict) or not value:
        raise IllegalActionError(f"Concentration's points are CHARACTERISTIC: N pairs, e.g. {{\"ATT\": 2}}, got "
                                 f"{value!r}", field="points")
    out: dict[str, int] = {}
    for key, n in value.items():
        name = str(key).strip().upper()
        if name not in COMBAT or isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise IllegalActionError(f"Concentration's points: {key!r}: {n!r} is not one of {', '.join(COMBAT)} with a "
                                     "whole number of points from 1", field="points")
        out[name] = out.get(name, 0) + n
    return {c: out[c] for c in COMBAT if c in out}


def concentrate_problem(state: SkirmishState, f: Fighter, given: dict[str, int]) -> str | None:
    if declaring(state) != f.side:
        return f"side {f.side} is not declaring Concentration now (at the beginning of the combat phase)"
    if not may_concentrate(f):
        return f"{f.key} may not concentrate (Concentration/X with points left, a bold characteristic, a fight to " \
               "come, not in rout)"
    wrong = [c for c in given if c not in raisable(f)]
    if wrong:
        return f"{', '.join(wrong)} is not bold on {f.key}'s card (bold: {', '.join(f.card.bold)}; a fight reads " \
               f"{', '.join(COMBAT)})"
    if sum(given.values()) > f.charges:
        return f"{f.key} has {f.charges} point{'s' if f.charges != 1 else ''} of Concentration left this round, " \
               f"not {sum(given.values())}"
    return None


def spelled(given: dict[str, int]) -> str:
    return ", ".join(f"{c} +{n}" for c, n in given.items())


def concentrate_offers(state: SkirmishState, side: str) -> list[LegalAction]:
    """``steady`` (the keeper's proposal), then for each fighter who may: every point on one bold characteristic,
    and, with ATT and DEF both bold and two points or more, half on each (any split may be named)."""
    g = general(state, side)
    out = [offer(ByFighter("steady", side, g.key), "Steady: no (more) Concentration this "
                 "round (the keeper's proposal)", side, None, "", "steady", "Concentration")]
    for f in state.standing(side):
        if not may_concentrate(f):
            continue
        choices = [{c: f.charges} for c in raisable(f)]
        if {"ATT", "DEF"} <= set(raisable(f)) and f.charges >= 2:
            choices.append({"ATT": f.charges - f.charges // 2, "DEF": f.charges // 2})
        for given in choices:
            out.append(offer(Concentrate(side, f.key, Points.of(given)),
                             f"{f.key} concentrates: {spelled(given)} until the end of the round", side,
                             float(sum(given.values())), "", spelled(given), f"{f.key}: Concentration"))
    return out


def do_concentrate(state: SkirmishState, f: Fighter, given: dict[str, int]) -> tuple[SkirmishState, str]:
    boosts = dict(f.boosts)
    for c, n in given.items():
        boosts[c] = boosts.get(c, 0) + n
    left = f.charges - sum(given.values())
    changed = replace(f, charges=left, boosts=tuple((c, boosts[c]) for c in COMBAT if c in boosts))
    return state.with_fighters(changed), f"{f.key} concentrates: {spelled(given)} until the end of the round " \
        f"({left} point{'s' if left != 1 else ''} left)"


def do_steady(state: SkirmishState, side: str) -> tuple[SkirmishState, str]:
    return replace(state, concentrated=state.concentrated + side), \
        f"{state.name(side)} are steady: no more Concentration this round"
