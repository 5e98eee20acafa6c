"""Odds shown next to each legal action before the player commits (the Fate Screen preview)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..melee import MeleeContext, duel_odds, target_odds
from ..ranged import ShotSetup, shot_odds
from ..spells import cast_odds
from .actions import Legal
from .handlers import _crossed
from .moves import charge_routes, classify, group_of, origin_direction
from .pursuit import SPEED_TEST, immune, pursuers
from .reactions import charge_reactions
from .specials import unit_mods
from .state import BattleState
from .tables import BattleTables


def _melee_preview(state: BattleState, t: BattleTables, key: str, zone: Any, action: str, direction: str) -> dict[str, Any]:
    u = state.unit(key)
    zone_units = [x for x in state.in_zone(zone) if x.key != key] + [u]
    combatants = tuple(x.c for x in zone_units)
    mods = tuple((x.key, unit_mods(state, x, action == "charge")) for x in zone_units)
    ctx = MeleeContext(t.rules, state.options, action, direction, mods)
    hit = clean = 0.0
    for target, p in target_odds(u.c, combatants):
        o = dict(duel_odds(u.c, next(c for c in combatants if c.key == target), ctx).odds)
        hit += p * (o["Attack"] + o["Luck"] + o["Blocked"])
        clean += p * (o["Attack"] + o["Luck"])
    # a sum of products may round a hair above 1: a probability shown is never above 1
    return {"hits": min(1.0, hit), "clean hits": min(1.0, clean), "direction": direction}


def preview(state: BattleState, t: BattleTables, lg: Legal) -> dict[str, Any]:
    """A few numbers that tell a player what an action risks and promises."""
    a = lg.action
    u = state.unit(a.unit)
    if u.zone is None:
        return {}
    if a.kind == "fight":
        return _melee_preview(state, t, u.key, u.zone, "fight", classify(state, u.zone, u.side, u.approach))
    if a.kind == "charge":
        route = next(r for r in charge_routes(state, t.rules, u) if state.board.name(r.to) == a.target)
        origin = route.path[-2] if len(route.path) >= 2 else u.zone
        came = origin_direction(state, route.to, origin)
        direction = classify(state, route.to, u.side, came)
        moved = state.with_units({u.key: replace(u, zone=route.to)})
        out = _melee_preview(moved, t, u.key, route.to, "charge", direction)
        members = [m for m in group_of(state, u) if m.on_board]
        reactions = charge_reactions(state, t, members, route.to, direction)
        if state.enemies_in(route.to, u.side) and str(u.c.profile.movement) != "teleporter":
            out["reaction"] = max((r.chance for r in reactions), default=0.0)  # 0 when allies deny them all
        return out
    if a.kind == "shoot":
        z = state.board.parse(a.target or "")
        setup = ShotSetup(u.c, tuple(x.c for x in state.in_zone(z)), state.terrain_at(z), _crossed(state, u.zone, z),
                          state.board.distance(u.zone, z), a.option or "shot", t.rules, state.options)
        so = dict(shot_odds(setup).odds)
        return {"enemy hit": so["Accurate Shot"] + so["Enemy space"] + so["Luck"], "friendly fire": so["Allied space"]}
    if a.kind == "cast":
        v = state.unit(a.target or "")
        if v.zone is None:
            return {}
        o = cast_odds(u.c, v.c, a.option or "", state.board.distance(u.zone, v.zone), t.rules, state.options)
        return {"spell hit": dict(o.odds)["Spell hit"], "damage": f"{o.damage[0]}–{o.damage[1]}"}
    if a.kind == "retreat":
        members = group_of(state, u)
        if all(immune(m) for m in members):
            return {"cut down": "immune"}
        ps = pursuers(state, members)
        speed = min(m.movement() for m in members)
        worst = max((SPEED_TEST["faster" if speed > p.movement() else "equal" if speed == p.movement() else "slower"]
                     for p in ps), default=0.0)
        return {"pursuers": len(ps), "cut-down chance": worst}
    return {}
