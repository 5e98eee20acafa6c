"""The exact chance requests an action's resolution will draw first, known before it starts.

The odds preview shows these to the player, and the conformance test checks them against
the chance records of the resolution (label by label: same outcomes, same probabilities).
They are built by the same functions the resolution calls (:func:`.reactions.charge_reactions`,
:func:`..melee.duel_odds`, :func:`..shots.first_request`, :func:`..spells.cast_odds`) on the
state the resolution will see, so the preview cannot drift from the roll.

Only the opening draws are known before the action: after the first strike or shot lands,
casualties and morale change what follows, and those later draws are shown as they happen.
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.chance import ChanceRequest, discrete

from ..melee import duel_odds
from ..ranged import ShotSetup
from ..shots import first_request
from ..spells import cast_odds
from .actions import Legal
from .charging import challenged, melee_context
from .moves import charge_routes, classify, group_of, origin_direction
from .reactions import charge_reactions
from .shooting import crossed as _crossed
from .state import BattleState, BattleUnit
from .tables import BattleTables

TARGET_EXPLAIN = ("weights are the Aggressiveness of each enemy miniature still able to receive an attack",)


def acting_state(state: BattleState) -> BattleState:
    """The state as :func:`.engine.apply` hands it to the handlers ("moved" lasts until the unit acts)."""
    return state.with_units({k: replace(state.unit(k), c=replace(state.unit(k).c, moved=False)) for k in state.active})


def opening_draws(state: BattleState, t: BattleTables, lg: Legal) -> tuple[ChanceRequest, ...]:
    """The first draws ``lg`` will make, in order, as far as they are known now."""
    state = acting_state(state)
    a = lg.action
    u = state.unit(a.unit)
    if u.zone is None:
        return ()
    if a.kind == "fight":
        first = _first_fighter(state, u)
        if first is None or first.zone is None:
            return ()
        direction = classify(state, first.zone, first.side, first.approach)
        return _melee_draws(state, t, first, "fight", direction, challenged(state, first, a.target))
    if a.kind == "charge":
        return _charge_draws(state, t, u, a.target or "")
    if a.kind == "shoot":
        return _shot_draws(state, t, u, a.target or "", a.option or "shot")
    if a.kind == "cast":
        return _cast_draws(state, t, u, a.target or "", a.option or "")
    return ()


def _first_fighter(state: BattleState, u: BattleUnit) -> BattleUnit | None:
    for m in group_of(state, u):
        if m.on_board and not m.c.fleeing and m.c.count and m.zone is not None and state.enemies_in(m.zone, m.side):
            return m
    return None


def _melee_draws(state: BattleState, t: BattleTables, att: BattleUnit, action: str, direction: str,
                 only: frozenset[str] | None = None) -> tuple[ChanceRequest, ...]:
    """Target assignment of the attacker's first miniature, then its roll to hit on each candidate.

    The round's context comes from :func:`.charging.melee_context`, as in the resolution.
    """
    assert att.zone is not None
    zone = state.in_zone(att.zone)
    ctx = melee_context(state, t, att.zone, action, direction)
    alive = att.c.alive()
    if not alive:
        return ()
    ai = alive[0]
    candidates: list[tuple[str, float]] = []
    targets = []
    for c in (x.c for x in zone):
        if c.side == att.side or (c.flying and not att.c.flying) or (only is not None and c.key not in only):
            continue
        if c.attack_cap(state.options.space_bulk_key()) <= 0:
            continue
        for di in c.alive():
            candidates.append((c.mini(di), c.stat("agg")))
            targets.append((c, di))
    if not candidates or sum(w for _, w in candidates) <= 0:
        return ()
    out = [discrete(f"target assignment: {att.c.mini(ai)}", candidates, TARGET_EXPLAIN)]
    odds_by_unit = {c.key: duel_odds(att.c, c, ctx) for c, _ in targets}
    for c, di in targets:
        o = odds_by_unit[c.key]
        out.append(discrete(f"roll to hit: {att.c.mini(ai)} → {c.mini(di)}", o.odds, o.explain))
    return tuple(out)


def _charge_draws(state: BattleState, t: BattleTables, u: BattleUnit, target: str) -> tuple[ChanceRequest, ...]:
    route = next((r for r in charge_routes(state, t.rules, u) if state.board.name(r.to) == target), None)
    if route is None or u.zone is None:
        return ()
    members = [m for m in group_of(state, u) if m.on_board]
    origin = route.path[-2] if len(route.path) >= 2 else u.zone
    came_from = origin_direction(state, route.to, origin)
    direction = classify(state, route.to, u.side, came_from)
    reactions = charge_reactions(state, t, members, route.to, direction)
    out = [r.request() for r in reactions if r.chance > 0]
    moved = state.with_units({m.key: replace(m, zone=route.to, c=replace(m.c, moved=False), approach=came_from)
                              for m in members})
    moved = replace(moved, fight_dirs=tuple(f for f in moved.fight_dirs if f[0] != route.to)
                    + ((route.to, u.side, came_from),))
    lead = moved.unit(members[0].key)
    if lead.c.count and moved.enemies_in(route.to, lead.side):
        out += _melee_draws(moved, t, lead, "charge", direction)
    return tuple(out)


def _shot_draws(state: BattleState, t: BattleTables, u: BattleUnit, target: str, shot: str,
                ) -> tuple[ChanceRequest, ...]:
    """The first projectile's draw (arrow, bolt or boulder: :func:`..shots.first_request`).

    A long action (Aim) draws nothing now: it resolves when the unit's time comes again, on the
    state of that moment, so there is nothing exact to show yet.
    """
    if t.rules.action(shot).long:
        return ()
    z = state.board.parse(target)
    for m in group_of(state, u):
        if not m.on_board or shot not in m.c.profile.shots or m.zone is None:
            continue
        bonus = 1.0
        if m.has_rule("Artillery") and m.last_target == target:
            bonus = 1.0 + min(1.0, t.rules.num("artillery_streak") * m.streak)
        setup = ShotSetup(m.c, tuple(x.c for x in state.in_zone(z)), state.terrain_at(z), _crossed(state, m.zone, z),
                          state.board.distance(m.zone, z), shot, t.rules, state.options, bonus)
        alive = m.c.alive()
        if not alive:
            return ()
        return (first_request(setup, m.c.mini(alive[0])),)
    return ()


def _cast_draws(state: BattleState, t: BattleTables, u: BattleUnit, target: str, spell: str,
                ) -> tuple[ChanceRequest, ...]:
    victim = state.unit(target)
    if victim.zone is None or not victim.on_board:
        return ()
    key = state.options.space_bulk_key()
    for m in group_of(state, u):
        if spell not in m.c.profile.spells or m.zone is None:
            continue
        alive = m.c.alive()
        if not alive or victim.c.count == 0:
            return ()
        o = cast_odds(m.c, victim.c, spell, state.board.distance(m.zone, victim.zone), t.rules, state.options)
        caster = m.c.mini(alive[0])
        out = [discrete(f"which miniature: {caster} → {victim.key}",
                        [(victim.c.mini(i), victim.c.stat(key)) for i in victim.c.alive()],
                        ("weights are each miniature's Bulk",))]
        out += [discrete(f"resist roll: {caster} → {victim.c.mini(i)}", o.odds, o.explain) for i in victim.c.alive()]
        return tuple(out)
    return ()
