"""Odds shown next to each legal action before the player commits (the Fate Screen preview).

The headline numbers are read off the exact draws the resolution will make
(:func:`.draws.opening_draws`), never worked out a second way: the chance of a charge
reaction is the "Reacts" share of the reaction draws, the chance of a hit the target
assignment times each roll to hit, and so on. What the player scans in ``battle actions``
(CLI), the API and the web keeper is therefore the roll itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulekeeper.core.chance import ChanceRequest

from ..spells import cast_odds
from .actions import Legal
from .moves import charge_routes, classify, group_of, origin_direction
from .pursuit import SPEED_TEST, immune, pursuers
from .state import BattleState
from .tables import BattleTables

#: The few numbers (chances) and words shown next to an action before it is taken (``OddsPreview.headline``).
Headline = dict[str, float | str]

HIT_OUTCOMES = ("Attack", "Luck", "Blocked")
CLEAN_OUTCOMES = ("Attack", "Luck")


def _share(req: ChanceRequest, outcomes: Sequence[str]) -> float:
    return sum(p for o, p in req.odds() if o in outcomes)


def melee_headline(draws: Sequence[ChanceRequest]) -> dict[str, float]:
    """Chance that the first attack hits (clean or blocked), from its target assignment and rolls to hit."""
    assign = next((d for d in draws if d.label.startswith("target assignment:")), None)
    if assign is None:
        return {}
    rolls = {d.label.split(" → ", 1)[1]: d for d in draws if d.label.startswith("roll to hit:")}
    hit = clean = 0.0
    for mini, p in assign.odds():
        hit += p * _share(rolls[mini], HIT_OUTCOMES)
        clean += p * _share(rolls[mini], CLEAN_OUTCOMES)
    # a sum of products may round a hair above 1: a probability shown is never above 1
    return {"hits": min(1.0, hit), "clean hits": min(1.0, clean)}


def reaction_headline(draws: Sequence[ChanceRequest]) -> float:
    """The best chance any defender has to react (0 when every one is denied or cannot react)."""
    return max((_share(d, ("Reacts",)) for d in draws if d.label.startswith("charge reaction:")), default=0.0)


def preview(state: BattleState, t: BattleTables, lg: Legal, draws: Sequence[ChanceRequest]) -> Headline:
    """A few numbers that tell a player what an action risks and promises, read off ``draws``."""
    a = lg.action
    u = state.unit(a.unit)
    if u.zone is None:
        return {}
    if a.kind == "fight":
        return {**melee_headline(draws), "direction": classify(state, u.zone, u.side, u.approach)}
    if a.kind == "charge":
        route = next(r for r in charge_routes(state, t.rules, u) if state.board.name(r.to) == a.target)
        origin = route.path[-2] if len(route.path) >= 2 else u.zone
        direction = classify(state, route.to, u.side, origin_direction(state, route.to, origin))
        out: Headline = {**melee_headline(draws), "direction": direction}
        if state.enemies_in(route.to, u.side) and str(u.c.profile.movement) != "teleporter":
            out["reaction"] = reaction_headline(draws)
        return out
    if a.kind == "shoot":
        return _shot_headline(t, lg, draws)
    if a.kind == "cast":
        return _cast_headline(state, t, lg, draws)
    if a.kind == "retreat":
        return _retreat_headline(state, lg)
    return {}


#: Per kind of projectile (arrow, bolt of lightning, artillery boulder): the label of its first
#: draw, and the outcomes that strike an enemy and a friend.
SHOT_OUTCOMES = (
    ("where the shot falls:", ("Accurate Shot", "Enemy space", "Luck"), ("Allied space",)),
    ("where the bolt falls:", ("Bulk hit", "Luck"), ("Friendly fire",)),
    ("where the boulder falls:", ("Direct hit",), ("Friendly fire",)),
)


def _shot_headline(t: BattleTables, lg: Legal, draws: Sequence[ChanceRequest]) -> Headline:
    if t.rules.action(lg.action.option or "shot").long:
        return {"long action": "resolves when the unit's time comes again; Defences 0 meanwhile"}
    for prefix, enemy, friend in SHOT_OUTCOMES:
        fall = next((d for d in draws if d.label.startswith(prefix)), None)
        if fall is not None:
            return {"enemy hit": _share(fall, enemy), "friendly fire": _share(fall, friend)}
    return {}


def _cast_headline(state: BattleState, t: BattleTables, lg: Legal, draws: Sequence[ChanceRequest]) -> Headline:
    a = lg.action
    u, v = state.unit(a.unit), state.unit(a.target or "")
    resist = next((d for d in draws if d.label.startswith("resist roll:")), None)
    if v.zone is None or u.zone is None or resist is None:
        return {}
    o = cast_odds(u.c, v.c, a.option or "", state.board.distance(u.zone, v.zone), t.rules, state.options)
    return {"spell hit": _share(resist, ("Spell hit",)), "damage": f"{o.damage[0]}–{o.damage[1]}"}


def _retreat_headline(state: BattleState, lg: Legal) -> Headline:
    members = group_of(state, state.unit(lg.action.unit))
    if all(immune(m) for m in members):
        return {"cut down": "immune"}
    ps = pursuers(state, members)
    speed = min(m.movement() for m in members)
    worst = max((SPEED_TEST["faster" if speed > p.movement() else "equal" if speed == p.movement() else "slower"]
                 for p in ps), default=0.0)
    return {"pursuers": len(ps), "cut-down chance": worst}
