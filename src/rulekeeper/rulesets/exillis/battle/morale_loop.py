"""The battle's morale loop: Leadership, a leader's death, routing, fleeing and Rally.

Quotes (seed, "Morale" and "Routing"):
- "If you attach a Hero to a unit, their Leadership will modify the unit's Basic Morale."
- "If a General is present, his/her Leadership is applied to the whole army."
- "If a Hero or a General dies, their Leadership bonus is transformed into a penalty."
- "While fleeing, the unit will try to either run toward a Hero or the nearest battlefield
  edge. If it reaches the battlefield edge, it is removed from the game."
- "Routing models who end their turn in a zone with friendly miniatures in them cause morale
  damage to their allies: Point value of the fleeing unit / Total point value of the army x 100"
- "Generals can perform a Rally, which gives their Leadership to every Broken unit within range
  and stops them from routing."
"""

from __future__ import annotations

import math

from rulekeeper.boards.zones import Coord
from rulekeeper.core.chance import Fate

from ..aftermath import Death, MoraleChange, StaticModifier, apply_morale, end_intimidation
from ..combatants import Combatant, Modifier
from ..fastcopy import evolve
from ..modifiers import put, shift
from ..morale import can_rout, state_of
from .affinity import cause_leadership
from .moves import group_of, passable, room
from .pursuit import CutDown, cut_down
from .state import BattleState, BattleUnit
from .tables import BattleTables


def motive(hero: BattleUnit, t: BattleTables) -> float:
    """A hero's basic Motive (estimate: the one printed motive, 10)."""
    return t.rules.num("hero_motive")


def _received(u: BattleUnit, hero: BattleUnit, t: BattleTables, state: BattleState) -> float:
    if u.has_rule("Soulless"):
        return 0.0  # "does not receive the Basic Leadership value of allied Heroes"
    m = motive(hero, t)
    if u.has_rule("Generic"):
        m *= t.rules.num("generic_leadership")
    return max(m, cause_leadership(state, hero, u, t))  # Motives × Affinities (see .affinity)


def leadership(state: BattleState, u: BattleUnit, t: BattleTables) -> float:
    """Leadership perceived by ``u`` from its living hero and its army's living General."""
    if u.is_hero and u.retinue is not None:
        return 0.0
    parts: list[float] = []
    own = state.unit(u.hero) if u.hero else None
    if own is not None and own.status == "active":
        parts.append(_received(u, own, t, state))
    general = _general(state, u.side)
    if general is not None and general is not own and general.key != u.key:
        parts.append(_received(u, general, t, state))
    if not parts:
        return 0.0
    if len(parts) > 1 and state.options.leadership_combine == "average":
        return sum(parts) / len(parts)
    return sum(parts)


def _general(state: BattleState, side: str) -> BattleUnit | None:
    """The first active General of ``side`` (looked up once per state: every unit asks)."""
    key = ("general", side)
    if key not in state.scratch:
        state.scratch[key] = next((g for g in state.units if g.side == side and g.general and g.status == "active"), None)
    general: BattleUnit | None = state.scratch[key]
    return general


def apply_initial_leadership(state: BattleState, t: BattleTables) -> BattleState:
    """"Leadership is considered to be a dynamic modifier, since the unit loses the bonus when the
    leader dies": a ``leadership`` modifier, alive while its leaders live."""
    units = []
    for u in state.units:
        lead = leadership(state, u, t)
        units.append(evolve(u, c=put(u.c, Modifier("morale", lead, "leadership"))))
    return evolve(state, units=tuple(units))


def after_deaths(state: BattleState, t: BattleTables) -> tuple[BattleState, list[str]]:
    """A leader died: its Leadership bonus turns into a penalty (not scaled by sensitivity).

    "A leader's death ... creates a permanent negative modifier equivalent to the previous
    Leadership bonus": the lost part of the ``leadership`` modifier ends, and the same amount
    is taken from the base (static).
    """
    notes: list[str] = []
    units = {u.key: u for u in state.units}
    for u in state.units:
        if u.status != "active" or (u.is_hero and u.retinue is not None):
            continue  # a hero with a retinue has the retinue's morale (see sync_heroes)
        new = leadership(state, u, t)
        if new < u.leadership:
            lost = u.leadership - new
            was_broken = u.c.morale < 0
            c = shift(put(u.c, Modifier("morale", new, "leadership")), -lost)
            if was_broken and can_rout(c):
                c = evolve(c, fleeing=True)
            units[u.key] = evolve(u, c=c)
            notes.append(f"{u.key}: leader lost, Leadership {u.leadership:+g} becomes a penalty ({-2 * lost:+g})")
    if not notes:
        return state, notes  # nothing changed: keep the state (and what it has worked out already)
    return evolve(state, units=tuple(units[u.key] for u in state.units)), notes


def _goal(state: BattleState, u: BattleUnit) -> Coord | None:
    assert u.zone is not None
    heroes = [h for h in state.units if h.side == u.side and h.is_hero and h.on_board and not h.c.fleeing
              and h.zone is not None and h.zone != u.zone]
    if heroes:
        heroes.sort(key=lambda h: (state.board.distance(h.zone, u.zone), h.deploy_index))  # type: ignore[arg-type]
        return heroes[0].zone
    return None


def _with(state: BattleState, units: dict[str, BattleUnit]) -> BattleState:
    """``state`` with these units (in the state's own order)."""
    return evolve(state, units=tuple(units[x.key] for x in state.units))


def _cut_down_as_they_flee(
    state: BattleState, members: list[BattleUnit], fate: Fate, units: dict[str, BattleUnit]
) -> tuple[BattleState, list[BattleUnit], list[CutDown], list[Death]]:
    """An engaged group turning to run is cut down first; only members with survivors flee on.

    ``units`` is updated with the runners; returns the new state, the members still fleeing,
    the cuts and the deaths.
    """
    runners, cuts, deaths = cut_down(state, members, fate, state.options)
    for k, r in runners.items():
        units[k] = r
    state = _with(state, units)
    members = [state.unit(m.key) for m in members if state.unit(m.key).c.count > 0]
    return state, members, cuts, deaths


def _leave_battle(
    state: BattleState, members: list[BattleUnit], units: dict[str, BattleUnit], status: str
) -> BattleState:
    """The fleeing group leaves the battle (``fled`` off the edge, or ``destroyed``)."""
    for m in members:
        units[m.key] = evolve(units[m.key], status=status, zone=None)
    return _with(state, units)


def _flight_end(
    state: BattleState, t: BattleTables, members: list[BattleUnit], lead: BattleUnit, target: Coord
) -> Coord:
    """Where the group's run toward ``target`` ends: zone by zone, as far as its slowest member
    moves, never into enemies or a zone without room for it."""
    assert lead.zone is not None
    here = lead.zone
    flying = all(m.flying for m in members)
    for _ in range(min(m.movement() for m in members)):
        options = [
            n for n in state.board.toward(here, target)
            if passable(state, t.rules, n, flying) and not state.enemies_in(n, lead.side)
            and room(state, t.rules, n, lead.side, members)
        ]
        if not options:
            break
        here = options[0]
        if here == target:
            break
    return here


def _rout_into_friends(
    state: BattleState, members: list[BattleUnit], lead: BattleUnit, here: Coord, friends: list[BattleUnit]
) -> BattleState:
    """"Routing models who end their turn in a zone with friendly miniatures in them cause morale
    damage to their allies: Point value of the fleeing unit / Total point value of the army x 100"."""
    total = max(1, state.army_total(lead.side))
    pen = -sum(m.points for m in members) / total * 100
    statics = [StaticModifier(f.key, pen, f"{lead.key} routs into the zone") for f in friends]
    state, _ = morale_in_zone(state, here, [], statics)
    return state


def _reach_hero(
    state: BattleState, members: list[BattleUnit], hero: BattleUnit, t: BattleTables, notes: list[str]
) -> BattleState:
    """Fleeing to a hero: his Motive lifts each member's morale; back at 0 or above, it stops fleeing."""
    units = {x.key: x for x in state.units}
    for m in members:
        c = state.unit(m.key).c
        c = shift(c, motive(hero, t))
        if c.morale >= 0:
            c = evolve(c, fleeing=False)
            notes.append(f"{m.key} reaches {hero.key} and stops fleeing")
        units[m.key] = evolve(units[m.key], c=c)
    return _with(state, units)


def flee(
    state: BattleState, key: str, fate: Fate, t: BattleTables
) -> tuple[BattleState, list[str], list[CutDown], list[Death]]:
    """The compulsory rout of ``key``'s group: cut down, then run toward a hero or off the board."""
    u = state.unit(key)
    members = [m for m in group_of(state, u) if m.c.fleeing or m.key == key]
    notes: list[str] = []
    cuts: list[CutDown] = []
    deaths: list[Death] = []
    units = {x.key: x for x in state.units}
    if state.engaged(u):
        state, members, cuts, deaths = _cut_down_as_they_flee(state, members, fate, units)
    for m in members:
        units[m.key] = evolve(units[m.key], acp=0.0, approach=None)
    if not members:
        return _with(state, units), notes, cuts, deaths
    lead = members[0]
    assert lead.zone is not None
    if any(m.has_rule("Laborious Movements") for m in members):
        notes.append(f"{lead.key} flees and, with Laborious Movements, is considered destroyed")
        return _leave_battle(state, members, units, "destroyed"), notes, cuts, deaths
    goal = _goal(state, lead)
    if goal is None and state.board.is_edge(lead.zone):
        notes.append(f"{lead.key} routs off the battlefield")
        return _leave_battle(state, members, units, "fled"), notes, cuts, deaths
    target = goal if goal is not None else state.board.nearest_edge_exits(lead.zone)[0]
    here = _flight_end(state, t, members, lead, target)
    for m in members:
        units[m.key] = evolve(units[m.key], zone=here, c=evolve(units[m.key].c, moved=True))
    state = _with(state, units)
    notes.append(f"{lead.key} flees to {state.board.name(here)}" if here != lead.zone else f"{lead.key} is trapped")
    friends = [x for x in state.in_zone(here) if x.side == lead.side and x.key not in {m.key for m in members}]
    hero = next((h for h in friends if h.is_hero and not h.c.fleeing), None)
    if friends and here != lead.zone:
        state = _rout_into_friends(state, members, lead, here, friends)
    if hero is not None:
        state = _reach_hero(state, members, hero, t, notes)
    return state, notes, cuts, deaths


def morale_in_zone(
    state: BattleState, z: Coord, deaths: list[Death], statics: list[StaticModifier],
    before: tuple[Combatant, ...] | None = None,
) -> tuple[BattleState, list]:  # type: ignore[type-arg]
    """Apply casualty and static morale effects to every unit in zone ``z``."""
    present = [u for u in state.units if u.zone == z and (u.status == "active" or any(d.unit == u.key for d in deaths))]
    after = tuple(u.c for u in present)
    if not after:
        return state, []
    new, changes = apply_morale(before or after, after, deaths, statics, state.options, state.options.space_bulk_key())
    units = {u.key: u for u in state.units}
    for c in new:
        units[c.key] = evolve(units[c.key], c=c)
    return evolve(state, units=tuple(units[u.key] for u in state.units)), changes


def rally(state: BattleState, key: str, t: BattleTables) -> tuple[BattleState, list[str]]:
    """The General gives its Leadership to every Broken or fleeing unit within range."""
    g = state.unit(key)
    general = g if g.general else next(m for m in group_of(state, g) if m.general)
    assert general.zone is not None
    rng = int(t.rules.num("rally_range"))
    notes: list[str] = []
    units = {u.key: u for u in state.units}
    for u in state.units:
        if u.side != general.side or not u.on_board or u.zone is None:
            continue
        if state.board.distance(u.zone, general.zone) > rng or not (u.c.morale < 0 or u.c.fleeing):
            continue
        bonus = _received(u, general, t, state)
        units[u.key] = evolve(u, c=evolve(shift(u.c, bonus), fleeing=False))  # "The effects of a Rally are considered Static Modifiers"
        notes.append(f"{u.key} rallies ({bonus:+g} morale)")
    return evolve(state, units=tuple(units[u.key] for u in state.units)), notes


def sync_heroes(state: BattleState) -> BattleState:
    """'Heroes do not have a morale value: they use their Retinue's morale instead.'

    Returns ``state`` itself when every hero already has its retinue's morale and flight.
    """
    units = {u.key: u for u in state.units}
    changed = False
    for h in state.units:
        if h.is_hero and h.retinue and units[h.retinue].status != "active" and h.status == "active" and h.leadership:
            # his Retinue gone, he keeps its last morale but not the Leadership it drew from him: no modifier
            # outlives its cause (a Knight Baneret kept +10 from himself once his Franc Chevalers were destroyed)
            units[h.key] = evolve(h, c=put(h.c, Modifier("morale", 0.0, "leadership")))
            changed = True
        elif h.is_hero and h.retinue and units[h.retinue].status == "active" and h.status == "active":
            r = units[h.retinue]
            if _same(h.c.morale_base, r.c.morale_base) and h.c.modifiers == r.c.modifiers and h.c.fleeing is r.c.fleeing:
                continue
            units[h.key] = evolve(h, c=evolve(h.c, morale_base=r.c.morale_base, modifiers=r.c.modifiers, fleeing=r.c.fleeing))
            changed = True
    return evolve(state, units=tuple(units[u.key] for u in state.units)) if changed else state


def _same(a: float, b: float) -> bool:
    """Equal and saved the same way in JSON (``0.0`` is not ``-0.0``, ``1`` is not ``1.0``)."""
    return a == b and type(a) is type(b) and math.copysign(1.0, a) == math.copysign(1.0, b)


def in_melee(state: BattleState, u: BattleUnit) -> bool:
    """``u`` stands in a melee: it is not fleeing and a living, not fleeing enemy shares its zone."""
    return (u.on_board and not u.c.fleeing and u.zone is not None
            and any(e.c.count > 0 and not e.c.fleeing for e in state.enemies_in(u.zone, u.side)))


def lapse_intimidation(state: BattleState) -> tuple[BattleState, list[MoraleChange]]:
    """Intimidation ends with the melee.

    "Intimidation represents how the unit perceives its own chance of coming out of the melee
    victorious ... Total Intimidation of every friendly miniature in the melee / Total
    Intimidation of every enemy miniature in the melee" — a dynamic modifier. A unit no longer
    in a melee (its enemies dead, routed or gone, or it retreated or routs itself) loses the
    modifier it had; the next melee computes a new one.
    """
    units: dict[str, BattleUnit] = {}
    changes: list[MoraleChange] = []
    for u in state.units:
        if u.status != "active" or not u.c.intimidation_mod or in_melee(state, u):
            continue
        c = end_intimidation(u.c)
        units[u.key] = evolve(u, c=c)
        changes.append(MoraleChange(u.key, u.c.morale, c.morale, state_of(u.c), state_of(c),
                                    (f"no longer in a melee: intimidation modifier {u.c.intimidation_mod:+.1f} ends",)))
    return (state.with_units(units) if units else state), changes
