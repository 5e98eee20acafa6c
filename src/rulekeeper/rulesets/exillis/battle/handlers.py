"""What each battle action does. Called only by :func:`.engine.apply` (which validates first)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rulekeeper.boards.zones import Coord

from ..aftermath import Death, StaticModifier, add_fatigue
from ..combatants import Combatant
from ..fastcopy import evolve
from ..levels import at_level
from ..melee import MeleeContext, MeleeReport, UnitMods, resolve_round
from ..ranged import Crossed, ShotSetup, resolve_volley
from ..spells import resolve_cast
from .actions import Legal
from .morale_loop import morale_in_zone, rally
from .moves import charge_routes, classify, group_of, move_routes, origin_direction
from .pursuit import cut_down
from .reactions import REACTION_DIRECTION, REACTION_TABLE, charge_reactions, reaction_chance  # noqa: F401 (re-exported)
from .specials import disabused, unit_mods
from .state import BattleState, BattleUnit

if TYPE_CHECKING:
    from .engine import Run


def key_of(mini: str) -> str:
    return mini.rsplit(" #", 1)[0] if " #" in mini else mini


def _set(run: Run, units: dict[str, BattleUnit]) -> None:
    if units:  # nothing to change: keep the state (and what it has worked out already)
        run.state = evolve(run.state, units=tuple(units.get(u.key, u) for u in run.state.units))


def _members(run: Run, key: str) -> list[BattleUnit]:
    return [m for m in group_of(run.state, run.state.unit(key)) if m.on_board]


def _pay(run: Run, keys: list[str], acp: float) -> None:
    _set(run, {k: evolve(run.state.unit(k), acp=run.state.unit(k).acp - acp) for k in keys})


def _stance_after(kind: str, stance: str) -> str:
    """Defensive stances survive waits and moves; offensive ones moves, charges and fights."""
    if stance == "defensive" and kind not in ("wait", "move", "stance"):
        return "none"
    if stance == "offensive" and kind not in ("move", "charge", "fight", "stance"):
        return "none"
    return stance


def _zone(run: Run, z: Coord) -> tuple[Combatant, ...]:
    return tuple(u.c for u in run.state.in_zone(z))


def _absorb(run: Run, combatants: tuple[Combatant, ...] | list[Combatant], events: Any = ()) -> None:
    _set(run, {c.key: evolve(run.state.unit(c.key), c=c) for c in combatants})
    run.events.extend(events)


def _mods(run: Run, z: Coord, charging: bool) -> tuple[tuple[str, UnitMods], ...]:
    return tuple((u.key, unit_mods(run.state, u, charging)) for u in run.state.in_zone(z))


def _count_kills(run: Run, report: MeleeReport) -> None:
    kills: dict[str, int] = {}
    for d in report.duels:
        if d.strike.killed:
            kills[key_of(d.strike.attacker)] = kills.get(key_of(d.strike.attacker), 0) + 1
        if d.retaliation is not None and d.retaliation.killed:
            k = key_of(d.retaliation.attacker)
            kills[k] = kills.get(k, 0) + 1
    units = {}
    for k, n in kills.items():
        u = run.state.unit(k)
        total = u.kills + n
        c = u.c
        if u.has_rule("Disabused"):
            base = at_level(run.t.roster.get(u.name), c.level, run.state.options)
            c = replace(c, profile=disabused(base, total, run.t.rules.num("disabused_per_kill")))
        units[k] = replace(u, kills=total, c=c)
    _set(run, units)


def _foes(run: Run, z: Coord, side: str) -> bool:
    return any(e.c.count > 0 for e in run.state.enemies_in(z, side))


def _melee(run: Run, z: Coord, attacker: str, action: str, direction: str, only: frozenset[str] | None = None) -> None:
    ctx = MeleeContext(run.t.rules, run.state.options, action, direction, _mods(run, z, action == "charge"))
    report = resolve_round(_zone(run, z), attacker, ctx, run.fate, only, free=only is not None)
    _absorb(run, report.zone, report.events)
    _count_kills(run, report)
    run.report.append({"kind": "melee", "zone": run.state.board.name(z), **report.to_dict(events=False, units=False)})


def dispatch(run: Run, legal: Legal) -> None:
    a = legal.action
    fn = {
        "move": _move, "retreat": _retreat, "charge": _charge, "fight": _fight, "shoot": _shoot, "cast": _cast,
        "wait": _wait, "stance": _stance, "take_off": _fly, "land": _fly, "reload": _reload, "rally": _rally,
        "verse": _verse, "flee": _flee_action,
    }[a.kind]
    keys = [m.key for m in _members(run, a.unit)]
    fn(run, legal)
    units = {}
    for k in keys:
        u = run.state.unit(k)
        stance = a.option if a.kind == "stance" and a.option else _stance_after(a.kind, u.c.stance)
        if stance != u.c.stance:
            units[k] = evolve(u, c=evolve(u.c, stance=stance))
    _set(run, units)
    if a.kind != "flee":
        _pay(run, keys, legal.acp)


def _route(run: Run, legal: Legal, charge: bool) -> Any:
    u = run.state.unit(legal.action.unit)
    routes = charge_routes(run.state, run.t.rules, u) if charge else move_routes(run.state, run.t.rules, u)
    target = run.state.board.parse(legal.action.target or "")
    return next(r for r in routes if r.to == target)


def _move(run: Run, legal: Legal) -> None:
    r = _route(run, legal, False)
    members = _members(run, legal.action.unit)
    units = {}
    for m in members:
        c = replace(m.c, moved=True)
        if str(m.c.profile.movement) == "teleporter":
            c, _ = add_fatigue(c, run.t.rules.num("teleport_veil_per_zone") * len(r.path), veil=True)
        else:
            basic = run.t.rules.num("move_fatigue") + run.t.rules.num("slow_terrain_fatigue") * r.slow
            c, _ = add_fatigue(c, basic)
        units[m.key] = replace(m, zone=r.to, c=c, approach=None)
    _set(run, units)
    run.event("move", units=[m.key for m in members], to=run.state.board.name(r.to), acp=r.acp)
    run.note(f"{' + '.join(m.key for m in members)} move to {run.state.board.name(r.to)} ({r.acp:g} AcP)")


def _retreat(run: Run, legal: Legal) -> None:
    r = _route(run, legal, False)
    members = _members(run, legal.action.unit)
    z = members[0].zone
    assert z is not None
    before = run.state
    runners, cuts, deaths = cut_down(run.state, members, run.fate, run.state.options)
    _set(run, runners)
    for cut in cuts:
        run.report.append({"kind": "cut_down", **cut.__dict__})
    if deaths:
        casualty_morale(run, z, deaths, before)
    bury(run)
    units = {}
    for m in members:
        cur = run.state.unit(m.key)
        if cur.status != "active":
            continue
        moved = replace(cur.c, moved=True)
        tired, _ = add_fatigue(moved, run.t.rules.num("retreat_fatigue"), veil=str(m.c.profile.movement) == "teleporter")
        units[m.key] = replace(cur, zone=r.to, c=tired, approach=None)
    _set(run, units)
    run.event("retreat", units=list(units), to=run.state.board.name(r.to), cut_down=len(cuts))
    run.note(f"{' + '.join(units) or 'nobody'} retreat to {run.state.board.name(r.to)}; {len(cuts)} cut-down attack(s)")


def casualty_morale(run: Run, z: Coord | None, deaths: list[Death], before: BattleState) -> None:
    """Witnessed casualties outside a resolution (cut-downs): morale of everyone in ``z``."""
    if z is None:
        return
    keys = {u.key for u in before.in_zone(z)}
    run.state, changes = morale_in_zone(run.state, z, deaths, [], tuple(before.unit(k).c for k in keys))
    for m in changes:
        if m.reasons:
            run.report.append({"kind": "morale", **m.to_dict()})


def _charge(run: Run, legal: Legal) -> None:
    r = _route(run, legal, True)
    members = _members(run, legal.action.unit)
    lead = members[0]
    start = lead.zone
    assert start is not None
    dest = r.to
    origin = r.path[-2] if len(r.path) >= 2 else start
    came_from = origin_direction(run.state, dest, origin)
    direction = classify(run.state, dest, lead.side, came_from)
    reactions = charge_reactions(run.state, run.t, members, dest, direction)
    units = {m.key: replace(m, zone=dest, c=replace(m.c, moved=False), approach=came_from) for m in members}
    _set(run, units)
    run.state = replace(
        run.state,
        fight_dirs=tuple(f for f in run.state.fight_dirs if f[0] != dest) + ((dest, lead.side, came_from),),
    )
    run.event("charge", units=list(units), to=run.state.board.name(dest), direction=direction, came_from=came_from)
    run.note(f"{' + '.join(units)} charge {run.state.board.name(dest)} ({direction})")
    # charge reactions (see .reactions): the same list the odds preview shows
    reactions_first: list[str] = []
    reactions_after: list[str] = []
    for r in reactions:
        if r.chance > 0 and run.fate.chance(r.label, r.chance, "Reacts", "Caught"):
            (reactions_first if r.first else reactions_after).append(r.defender)
    only = frozenset(units)
    for k in reactions_first:
        if run.state.unit(k).c.count and not run.state.unit(k).c.fleeing and any(
            run.state.unit(x).c.count for x in only
        ):
            run.note(f"{k} reacts to the charge before it lands")
            _melee(run, dest, k, "fight", "front", only)
    for m in members:
        cur = run.state.unit(m.key)
        if cur.on_board and cur.c.count and not cur.c.fleeing and _foes(run, dest, cur.side):
            _melee(run, dest, m.key, "charge", direction)
    for k in reactions_after:
        cur = run.state.unit(k)
        if cur.on_board and cur.c.count and not cur.c.fleeing and any(run.state.unit(x).c.count for x in only):
            run.note(f"{k} strikes back after the charge")
            _melee(run, dest, k, "fight", "front", only)


def _fight(run: Run, legal: Legal) -> None:
    for m in _members(run, legal.action.unit):
        cur = run.state.unit(m.key)
        if not cur.on_board or cur.c.fleeing or not cur.c.count or cur.zone is None or not _foes(run, cur.zone, cur.side):
            continue
        direction = classify(run.state, cur.zone, cur.side, cur.approach)
        _melee(run, cur.zone, m.key, "fight", direction)


def _crossed(state: BattleState, frm: Coord, to: Coord) -> tuple[Crossed, ...]:
    out = []
    for z, frac in state.crossed(frm, to):
        bulk = sum(u.c.count * u.c.stat("bulk_range") for u in state.in_zone(z))
        out.append(Crossed(frac, bulk, state.terrain_at(z), state.board.name(z)))
    return tuple(out)


def _shoot(run: Run, legal: Legal) -> None:
    a = legal.action
    target = run.state.board.parse(a.target or "")
    shot = a.option or "shot"
    for m in _members(run, a.unit):
        if shot not in m.c.profile.shots or m.zone is None:
            continue
        distance = run.state.board.distance(m.zone, target)
        zone = tuple(u.c for u in run.state.in_zone(target))
        bonus = 1.0
        if m.has_rule("Artillery") and m.last_target == a.target:
            bonus = 1.0 + min(1.0, run.t.rules.num("artillery_streak") * m.streak)
        setup = ShotSetup(
            m.c, zone, run.state.terrain_at(target), _crossed(run.state, m.zone, target), distance, shot,
            run.t.rules, run.state.options, bonus,
        )
        report = resolve_volley(setup, run.fate)
        _absorb(run, [*report.zone, report.shooter_after] if m.key not in {c.key for c in report.zone} else list(report.zone), report.events)
        run.report.append({"kind": "shoot", "zone": a.target, **report.to_dict(events=False, units=False)})
        cur = run.state.unit(m.key)
        streak = cur.streak + 1 if cur.last_target == a.target else 1
        _set(run, {m.key: replace(cur, reloaded=not m.has_rule("Reload") and not m.has_rule("Artillery"),
                                  last_target=a.target, streak=streak)})
        if m.has_rule("Psychological Weapon"):
            statics = [StaticModifier(u.key, run.t.rules.num("psychological_weapon"), f"Psychological Weapon of {m.key}")
                       for u in run.state.in_zone(target) if u.side != m.side]
            run.state, changes = morale_in_zone(run.state, target, [], statics)
            for ch in changes:
                if ch.reasons:
                    run.report.append({"kind": "morale", **ch.to_dict()})
    run.event("shoot", unit=a.unit, target=a.target, shot=shot)


def _cast(run: Run, legal: Legal) -> None:
    a = legal.action
    victim = run.state.unit(a.target or "")
    assert victim.zone is not None
    for m in _members(run, a.unit):
        if (a.option or "") not in m.c.profile.spells or m.zone is None or not victim.on_board:
            continue
        zone = tuple(u.c for u in run.state.in_zone(victim.zone) if u.key != m.key)
        distance = run.state.board.distance(m.zone, victim.zone)
        report = resolve_cast(m.c, zone, victim.key, a.option or "", distance, run.t.rules, run.state.options, run.fate)
        after = [*report.zone] + ([report.caster_after] if report.caster_after is not None else [])
        _absorb(run, after, report.events)
        d = report.to_dict()
        d.pop("events", None)
        d.pop("units", None)
        run.report.append({"kind": "cast", **d})
    run.event("cast", unit=a.unit, target=a.target, spell=a.option)


def _wait(run: Run, legal: Legal) -> None:
    units = {}
    for m in _members(run, legal.action.unit):
        c = m.c
        if not run.state.engaged(m) and not m.flying:
            keep = 1 - run.t.rules.num("meditation_recovery" if m.has_rule("Meditation") else "wait_recovery")
            c = replace(c, fatigue=c.fatigue * keep, veil=c.veil * keep)
        units[m.key] = replace(m, c=c)
    _set(run, units)
    run.event("wait", unit=legal.action.unit)


def _stance(run: Run, legal: Legal) -> None:
    run.event("stance", unit=legal.action.unit, stance=legal.action.option)


def _fly(run: Run, legal: Legal) -> None:
    up = legal.action.kind == "take_off"
    units = {m.key: replace(m, c=replace(m.c, flying=up)) for m in _members(run, legal.action.unit)
             if str(m.c.profile.movement) == "flyer"}
    _set(run, units)
    run.event(legal.action.kind, unit=legal.action.unit)


def _reload(run: Run, legal: Legal) -> None:
    _set(run, {m.key: replace(m, reloaded=True) for m in _members(run, legal.action.unit)})
    run.event("reload", unit=legal.action.unit)


def _rally(run: Run, legal: Legal) -> None:
    run.state, notes = rally(run.state, legal.action.unit, run.t)
    for n in notes:
        run.note(n)
    run.event("rally", unit=legal.action.unit, rallied=len(notes))


def _verse(run: Run, legal: Legal) -> None:
    u = run.state.unit(legal.action.unit)
    assert u.zone is not None
    statics: dict[Coord, list[StaticModifier]] = {}
    for x in run.state.units:
        if x.side == u.side and x.on_board and x.zone is not None and run.state.board.distance(x.zone, u.zone) <= 2:
            statics.setdefault(x.zone, []).append(StaticModifier(x.key, run.t.rules.num("verse_morale"), f"Verse of {u.key}"))
    for z, ss in statics.items():
        run.state, _ = morale_in_zone(run.state, z, [], ss)
    run.event("verse", unit=u.key, allies=sum(len(s) for s in statics.values()))


def _flee_action(run: Run, legal: Legal) -> None:
    from .engine import _flee

    _flee(run, legal.action.unit, "flees on its turn")


def bury(run: Run) -> None:
    """Units with no miniature left are destroyed and leave the board."""
    units = {}
    for u in run.state.units:
        if u.status == "active" and u.c.count == 0:
            units[u.key] = replace(u, status="destroyed", zone=None, approach=None)
            run.event("destroyed", unit=u.key)
            run.note(f"{u.key} is destroyed")
    if units:
        _set(run, units)


def exasperation(run: Run) -> None:
    """Exasperation: "If the number of people Lucifer kills exceeds 2/3 of his point value, he leaves"."""
    for u in run.state.units:
        if u.on_board and u.has_rule("Exasperation") and u.points and u.kills > 2 * u.points / 3:
            _set(run, {u.key: replace(u, status="fled", zone=None)})
            run.note(f"{u.key} leaves the battlefield, exasperated ({u.kills} kills)")


def end_melees(run: Run) -> None:
    """'When a melee ends ... the units in the zone no longer have any fight direction.'"""
    keep = []
    units = {}
    for z, side, d in run.state.fight_dirs:
        if len({u.side for u in run.state.in_zone(z) if not u.c.fleeing}) > 1:
            keep.append((z, side, d))
        else:
            for u in run.state.in_zone(z):
                if u.approach is not None:
                    units[u.key] = evolve(u, approach=None)
    _set(run, units)
    if len(keep) != len(run.state.fight_dirs):
        run.state = evolve(run.state, fight_dirs=tuple(keep))
