"""What each battle action does. Called only by :func:`.engine.apply` (which validates first)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from rulekeeper.boards.zones import Coord
from rulekeeper.core.events import Event
from rulekeeper.core.wording import counted

from ..aftermath import Death, add_fatigue
from ..combatants import Combatant
from ..exchange import Blow, resolve_exchange
from ..fastcopy import evolve
from ..levels import at_level
from ..melee import MeleeReport, resolve_round
from ..spells import resolve_cast
from . import chant, long_actions, shooting
from .actions import Legal
from .charging import challenged, melee_context
from .morale_loop import morale_in_zone, rally
from .moves import Route, charge_routes, classify, group_of, move_routes, origin_direction
from .pursuit import cut_down
from .reactions import REACTION_DIRECTION, REACTION_TABLE, charge_reactions, reaction_chance  # noqa: F401 (re-exported)
from .specials import disabused
from .state import BattleState, BattleUnit

if TYPE_CHECKING:
    from .engine import Run


_crossed = shooting.crossed  # re-exported: the odds preview and the web view measure visibility


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


def _absorb(run: Run, combatants: tuple[Combatant, ...] | list[Combatant], events: Iterable[Event] = ()) -> None:
    _set(run, {c.key: evolve(run.state.unit(c.key), c=c) for c in combatants})
    run.events.extend(events)


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


def _melee(run: Run, z: Coord, attacker: str, action: str, direction: str, only: frozenset[str] | None = None,
           reaction: bool = False) -> None:
    """One round; ``only`` limits the targets (a reaction strikes the chargers, a Challenge its hero)."""
    ctx = melee_context(run.state, run.t, z, action, direction, reaction)
    _reported(run, z, [resolve_round(_zone(run, z), attacker, ctx, run.fate, only, free=reaction)])


def _reported(run: Run, z: Coord, reports: list[MeleeReport]) -> None:
    if reports:
        _absorb(run, reports[-1].zone, [e for r in reports for e in r.events])
    for report in reports:
        _count_kills(run, report)
        run.report.append({"kind": "melee", "zone": run.state.board.name(z), **report.to_dict(events=False, units=False)})


def _can_strike(run: Run, key: str, dest: Coord, only: frozenset[str] | None = None) -> bool:
    cur = run.state.unit(key)
    if not cur.on_board or not cur.c.count or cur.c.fleeing:
        return False
    if only is not None:
        return any(run.state.unit(x).on_board and run.state.unit(x).c.count for x in only)
    return _foes(run, dest, cur.side)


def dispatch(run: Run, legal: Legal) -> None:
    a = legal.action
    fn = {
        "move": _move, "retreat": _retreat, "charge": _charge, "fight": _fight, "shoot": _shoot, "cast": _cast,
        "wait": _wait, "stance": _stance, "take_off": _fly, "land": _fly, "reload": _reload, "rally": _rally,
        "verse": chant.verse, "finale": chant.finale, "flee": _flee_action,
    }[a.kind]
    keys = [m.key for m in _members(run, a.unit)]
    if long_actions.is_long(run, legal):
        long_actions.start(run, legal, _members(run, a.unit))
    else:
        fn(run, legal)
    chant.end_verses(run, keys, a.kind)
    units = {}
    for k in keys:
        u = run.state.unit(k)
        stance = a.option if a.kind == "stance" and a.option else _stance_after(a.kind, u.c.stance)
        if stance != u.c.stance:
            units[k] = evolve(u, c=evolve(u.c, stance=stance))
    _set(run, units)
    if a.kind != "flee":
        _pay(run, keys, legal.acp)


def _route(run: Run, legal: Legal, charge: bool) -> Route:
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
            c, _ = add_fatigue(c, basic + diagonal_fatigue(run, m, r.path))
        units[m.key] = replace(m, zone=r.to, c=c, approach=None)
    _set(run, units)
    run.event("move", units=[m.key for m in members], to=run.state.board.name(r.to), acp=r.acp)
    run.note(f"{' + '.join(m.key for m in members)} move to {run.state.board.name(r.to)} ({r.acp:g} AcP)")


def diagonal_fatigue(run: Run, m: BattleUnit, path: tuple[Coord, ...]) -> float:
    """"Diagonal moves are permitted, but have an added cost in fatigue": ``diagonal_move_fatigue``
    (+0.4 FtP, estimate) per diagonal step of the path (teleporters pay Veil by distance instead)."""
    if m.zone is None:
        return 0.0
    steps = zip((m.zone, *path), path, strict=False)
    return run.t.rules.num("diagonal_move_fatigue") * sum(1 for a, b in steps if a[0] != b[0] and a[1] != b[1])


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
        teleports = str(m.c.profile.movement) == "teleporter"
        extra = 0.0 if teleports else diagonal_fatigue(run, m, r.path)
        tired, _ = add_fatigue(moved, run.t.rules.num("retreat_fatigue") + extra, veil=teleports)
        units[m.key] = replace(cur, zone=r.to, c=tired, approach=None)
    _set(run, units)
    run.event("retreat", units=list(units), to=run.state.board.name(r.to), cut_down=len(cuts))
    run.note(f"{' + '.join(units) or 'nobody'} retreat to {run.state.board.name(r.to)}; {counted(len(cuts), 'cut-down attack')}")


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
    route = _route(run, legal, True)
    members = _members(run, legal.action.unit)
    lead = members[0]
    start = lead.zone
    assert start is not None
    dest = route.to
    origin = route.path[-2] if len(route.path) >= 2 else start
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
    react = [r for r in reactions if r.chance > 0 and run.fate.chance(r.label, r.chance, "Reacts", "Caught")]
    only = frozenset(units)
    for r in react:
        if r.first and _can_strike(run, r.defender, dest, only):
            run.note(f"{r.defender} reacts to the charge before it lands")
            _melee(run, dest, r.defender, "fight", "front", only, reaction=True)
    blows = [Blow(m.key, melee_context(run.state, run.t, dest, "charge", direction)) for m in members
             if _can_strike(run, m.key, dest)]
    blows += [Blow(r.defender, melee_context(run.state, run.t, dest, "fight", "front", True), only, True)
              for r in react if r.simultaneous and _can_strike(run, r.defender, dest, only)]
    if not any(b.free for b in blows):  # nobody strikes at the same time: the chargers' rounds one after another
        for b in blows:
            if _can_strike(run, b.attacker, dest):
                _melee(run, dest, b.attacker, "charge", direction)
        blows = []
    for b in blows:
        if b.free:
            run.note(f"{b.attacker} strikes at the same time as the charge (equal priority)")
    _reported(run, dest, resolve_exchange(_zone(run, dest), blows, run.fate))
    for r in react:
        if not r.first and not r.simultaneous and _can_strike(run, r.defender, dest, only):
            run.note(f"{r.defender} strikes back after the charge")
            _melee(run, dest, r.defender, "fight", "front", only, reaction=True)


def _fight(run: Run, legal: Legal) -> None:
    hero = legal.action.target  # a Challenge: the Baneret attacks this hero directly
    for m in _members(run, legal.action.unit):
        cur = run.state.unit(m.key)
        if not cur.on_board or cur.c.fleeing or not cur.c.count or cur.zone is None or not _foes(run, cur.zone, cur.side):
            continue
        direction = classify(run.state, cur.zone, cur.side, cur.approach)
        only = challenged(run.state, cur, hero)
        _melee(run, cur.zone, m.key, "fight", direction, only)


def _shoot(run: Run, legal: Legal) -> None:
    a = legal.action
    shooting.shoot_with(run, _members(run, a.unit), a.target or "", a.option or "shot")
    run.event("shoot", unit=a.unit, target=a.target, shot=a.option or "shot")


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
            run.note(f"{u.key} leaves the battlefield, exasperated ({counted(u.kills, 'kill')})")


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
