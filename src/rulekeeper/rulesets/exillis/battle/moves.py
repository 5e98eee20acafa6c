"""Where a unit (or a hero with its retinue) may move, charge or retreat, and what it costs.

Moving rules (seed, "Moving"): infantry and teleporters move 1 zone, cavalry and flying
flyers 2; never into an enemy zone (only a charge enters one); up to 3 units per side
in a zone, 2 in a forest (a Huge unit counts 2; a hero counts with its retinue).
Moving less than the unit's Movement costs 1000 AcP; moving its full Movement costs
1000 × the true centre-to-centre distance / Movement, which gives the seed's 1118 and
1414 for two zones with one or two diagonals and its "approximate 40% penalty" for a
diagonal step of infantry. Entering a zone that is slow to enter, or leaving one slow
to exit, adds 250 AcP (not for Long Stride, teleporters or flyers in the air);
Laborious Movements doubles the time.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from rulekeeper.boards.zones import Coord

from ..rules_data import RulesData
from .state import ACT_AT, BattleState, BattleUnit

SLOW_PENALTY = 250.0


@dataclass(frozen=True)
class Route:
    to: Coord
    path: tuple[Coord, ...]
    acp: float
    slow: int  # slow zones entered or left (extra fatigue)


def group_of(state: BattleState, u: BattleUnit) -> list[BattleUnit]:
    members = [u]
    partner = u.hero or u.retinue
    if partner:
        p = state.unit(partner)
        if p.on_board and p.zone == u.zone:
            members.append(p)
    return members


def slots(u: BattleUnit) -> int:
    """Capacity a unit takes in a zone: Huge units count 2, a hero counts with its retinue (0)."""
    if u.is_hero and u.retinue is not None:
        return 0
    return 2 if u.has_rule("Huge") else 1


def room(state: BattleState, rules: RulesData, z: Coord, side: str, movers: list[BattleUnit]) -> bool:
    """Can ``movers`` fit in zone ``z`` for ``side``?"""
    cap = rules.terrain_feature(state.terrain_at(z)).capacity
    keys = {m.key for m in movers}
    used = sum(slots(x) for x in state.in_zone(z) if x.side == side and x.key not in keys)
    return used + sum(slots(m) for m in movers) <= cap


def _flying(members: list[BattleUnit]) -> bool:
    return all(m.flying for m in members)


def _teleports(members: list[BattleUnit]) -> bool:
    return all(str(m.c.profile.movement) == "teleporter" for m in members)


def group_movement(members: list[BattleUnit]) -> int:
    return min(m.movement() for m in members)


def passable(state: BattleState, rules: RulesData, z: Coord, flying: bool) -> bool:
    t = state.terrain_at(z)
    if t == "obstacles":
        return False
    return flying or rules.terrain_feature(t).passable


@dataclass(frozen=True)
class _Ground:
    """The terrain facts route searches ask for every zone, worked out once per battle.

    Terrain never changes during a battle, so they are kept per (board, terrain, rules)
    and shared by every state of the battle.
    """

    obstacles: frozenset[Coord]  # impassable even in the air
    impassable: frozenset[Coord]  # impassable on foot
    slow_exit: frozenset[Coord]
    slow_enter: frozenset[Coord]
    capacity: dict[Coord, int]
    neighbours: dict[Coord, list[Coord]]

    @classmethod
    def of(cls, state: BattleState, rules: RulesData) -> _Ground:
        zones = state.board.zones()
        feature = {z: rules.terrain_feature(state.terrain_at(z)) for z in zones}
        return cls(
            frozenset(z for z in zones if state.terrain_at(z) == "obstacles"),
            frozenset(z for z in zones if not passable(state, rules, z, False)),
            frozenset(z for z in zones if feature[z].slow_exit),
            frozenset(z for z in zones if feature[z].slow_enter),
            {z: feature[z].capacity for z in zones},
            {z: state.board.neighbours(z) for z in zones},
        )

    def slow(self, start: Coord, path: tuple[Coord, ...]) -> int:
        """Slow-terrain penalties along ``path`` from ``start``: each slow zone left, each slow zone entered."""
        zones = (start, *path)
        return sum((a in self.slow_exit) + (b in self.slow_enter) for a, b in zip(zones, zones[1:], strict=False))


_GROUNDS: dict[tuple[object, ...], tuple[RulesData, _Ground]] = {}


def _ground(state: BattleState, rules: RulesData) -> _Ground:
    key = (state.board, state.terrain, id(rules))
    hit = _GROUNDS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_GROUNDS) >= 256:
        _GROUNDS.clear()
    ground = _Ground.of(state, rules)
    _GROUNDS[key] = (rules, ground)
    return ground


def _enemy_zones(state: BattleState, side: str) -> frozenset[Coord]:
    key = ("enemy zones", side)
    if key not in state.scratch:
        state.scratch[key] = frozenset(state.zones_with_enemies(side))
    zones: frozenset[Coord] = state.scratch[key]
    return zones


def _room(state: BattleState, ground: _Ground, z: Coord, g: _Group) -> bool:
    """:func:`room` for a destination of ``g`` (never its own zone, so no mover is counted twice)."""
    assert z != g.start
    return _used(state, g.side).get(z, 0) + g.slots <= ground.capacity[z]


def _used(state: BattleState, side: str) -> dict[Coord, int]:
    """Capacity taken by ``side`` in each zone, once per state."""
    key = ("used slots", side)
    if key not in state.scratch:
        used: dict[Coord, int] = {}
        for u in state.units:
            if u.on_board and u.zone is not None and u.side == side:
                used[u.zone] = used.get(u.zone, 0) + slots(u)
        state.scratch[key] = used
    out: dict[Coord, int] = state.scratch[key]
    return out


@dataclass(frozen=True)
class _Group:
    """What every route of one moving group shares, worked out once per list of routes."""

    members: list[BattleUnit]
    start: Coord
    side: str
    movement: int
    flying: bool
    teleports: bool
    ignore_terrain: bool  # in the air or Long Stride: no slow-terrain penalty
    laborious: bool
    slots: int  # capacity the group takes in a zone

    @classmethod
    def of(cls, members: list[BattleUnit]) -> _Group:
        start = members[0].zone
        assert start is not None
        flying = _flying(members)
        return cls(
            members, start, members[0].side, group_movement(members), flying, _teleports(members),
            flying or all(x.has_rule("Long Stride") for x in members),
            any(x.has_rule("Laborious Movements") for x in members),
            sum(slots(m) for m in members),
        )


def cost(state: BattleState, rules: RulesData, members: list[BattleUnit], path: tuple[Coord, ...]) -> tuple[float, int]:
    """AcP and number of slow-terrain penalties of moving ``members`` along ``path``."""
    return _cost(_ground(state, rules), _Group.of(members), path)


def _cost(ground: _Ground, g: _Group, path: tuple[Coord, ...]) -> tuple[float, int]:
    if g.teleports:
        return ACT_AT, 0
    start, dest = g.start, path[-1]
    acp = ACT_AT
    if len(path) >= g.movement:
        acp = float(round(ACT_AT * max(1.0, math.hypot(dest[0] - start[0], dest[1] - start[1]) / g.movement)))
    slow = 0 if g.ignore_terrain else ground.slow(start, path)
    acp += SLOW_PENALTY * slow
    if g.laborious:
        acp *= 2
    return acp, slow


def _paths(state: BattleState, rules: RulesData, g: _Group, through_enemies: bool) -> dict[Coord, tuple[Coord, ...]]:
    """Shortest step paths (≤ Movement) to every zone, never through enemies or impassable zones on foot.

    Among paths of equal steps the least slowed one wins (the first found on a tie); slow
    counts are only worked out when two paths of equal steps compete.
    """
    start = g.start
    flying = g.flying or g.teleports
    ground = _ground(state, rules)
    enemies = _enemy_zones(state, g.side)
    best: dict[Coord, tuple[Coord, ...]] = {}
    frontier: list[tuple[Coord, tuple[Coord, ...]]] = [(start, ())]
    for _ in range(g.movement):
        layer: dict[Coord, tuple[Coord, ...]] = {}
        for z, path in frontier:
            for n in ground.neighbours[z]:
                if n == start or n in best:
                    continue
                p = (*path, n)
                if n not in layer or ground.slow(start, p) < ground.slow(start, layer[n]):
                    layer[n] = p  # among equal steps, the least slowed path
        nxt: list[tuple[Coord, tuple[Coord, ...]]] = []
        for n, p in layer.items():
            best[n] = p
            blocked = not flying and (n in ground.impassable or n in enemies)
            if not blocked or through_enemies:
                nxt.append((n, p))
        frontier = nxt
    return best


def _clear(ground: _Ground, enemies: frozenset[Coord], zones: tuple[Coord, ...]) -> bool:
    """No impassable zone and no enemy on the way (for units on foot)."""
    return not any(p in ground.impassable or p in enemies for p in zones)


def _memoized(
    state: BattleState, rules: RulesData, u: BattleUnit, kind: str,
    find: Callable[[BattleState, RulesData, BattleUnit], list[Route]],
) -> list[Route]:
    """Routes of one kind for ``u``, worked out once per state: the legal actions and then the
    action itself (and the odds shown before it) all ask for them."""
    key = ("routes", kind, u.key)
    hit = state.scratch.get(key)
    if hit is not None and hit[0] is rules and hit[1] is u:
        return list(hit[2])
    routes = find(state, rules, u)
    state.scratch[key] = (rules, u, tuple(routes))
    return routes


def move_routes(state: BattleState, rules: RulesData, u: BattleUnit) -> list[Route]:
    """Every zone the unit's group may move (or retreat) to, with its cost."""
    return _memoized(state, rules, u, "move", _move_routes)


def charge_routes(state: BattleState, rules: RulesData, u: BattleUnit) -> list[Route]:
    """Zones with enemies the group may charge (cavalry in clear straight or diagonal lines only)."""
    return _memoized(state, rules, u, "charge", _charge_routes)


def _move_routes(state: BattleState, rules: RulesData, u: BattleUnit) -> list[Route]:
    g = _Group.of(group_of(state, u))
    side, flying = g.side, g.flying
    ground, enemies = _ground(state, rules), _enemy_zones(state, side)
    out: list[Route] = []
    for z, path in sorted(_paths(state, rules, g, False).items()):
        if z in enemies or z in (ground.obstacles if flying else ground.impassable):
            continue
        if flying and state.terrain_at(z) == "forests":
            continue  # wiki: flyers may not end a flight in a forest
        # on foot the way is clear: _paths never walks on from an impassable or enemy zone
        if not _room(state, ground, z, g):
            continue
        acp, slow = _cost(ground, g, path)
        out.append(Route(z, path, acp, slow))
    return out


def _charge_routes(state: BattleState, rules: RulesData, u: BattleUnit) -> list[Route]:
    g = _Group.of(group_of(state, u))
    side, start, flying = g.side, g.start, g.flying
    ground, enemy_zones = _ground(state, rules), _enemy_zones(state, side)
    cavalry = any(str(m.c.profile.movement) == "cavalry" for m in g.members) and not flying
    out: list[Route] = []
    for z, path in sorted(_paths(state, rules, g, True).items()):
        if z not in enemy_zones:
            continue
        enemies = state.enemies_in(z, side)
        if not flying:
            enemies = [e for e in enemies if not e.flying]  # grounded units cannot attack flyers
        if not enemies or z in (ground.obstacles if flying else ground.impassable):
            continue
        if cavalry and len(path) > 1:
            line = state.board.step_path(start, z)
            if line is None:
                continue  # "hook" charges (double-diagonals) are not possible
            path = tuple(line)
        if not flying and not g.teleports and not _clear(ground, enemy_zones, path[:-1]):
            continue
        if not _room(state, ground, z, g):
            continue
        acp, slow = _cost(ground, g, path)
        out.append(Route(z, path, acp, slow))
    return out


def origin_direction(state: BattleState, target: Coord, origin: Coord) -> int:
    """Direction (0-7, N clockwise) from ``target`` towards where a charger came from."""
    d = state.board.direction(target, origin)
    if d is not None:
        return d
    dx, dy = origin[0] - target[0], origin[1] - target[1]
    angle = math.degrees(math.atan2(dx, -dy)) % 360  # 0 = north (row - 1), clockwise
    return int(round(angle / 45.0)) % 8


def classify(state: BattleState, zone: Coord, side: str, came_from: int | None) -> str:
    """front / flank / rear of an attack by ``side`` coming from direction ``came_from``.

    "The front area includes all zones where charges would result in the same fight direction or a 45
    degree difference. The flank areas ... 90 or 135 degrees difference. The rear area ... 180 degrees."
    """
    fd = state.fight_dir(zone)
    if fd is None or came_from is None:
        return "front"
    setter, d = fd
    own = d if setter == side else (d + 4) % 8
    turn = state.board.turn(own, came_from)
    if turn <= 45:
        return "front"
    return "rear" if turn >= 180 else "flank"
