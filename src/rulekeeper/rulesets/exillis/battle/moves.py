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


def cost(state: BattleState, rules: RulesData, members: list[BattleUnit], path: tuple[Coord, ...]) -> tuple[float, int]:
    """AcP and number of slow-terrain penalties of moving ``members`` along ``path``."""
    start = members[0].zone
    assert start is not None
    dest = path[-1]
    m = group_movement(members)
    steps = len(path)
    if _teleports(members):
        return ACT_AT, 0
    dx, dy = dest[0] - start[0], dest[1] - start[1]
    acp = ACT_AT
    if steps >= m:
        acp = ACT_AT * max(1.0, math.hypot(dx, dy) / m)
        acp = float(round(acp))
    slow = 0
    ignore_terrain = _flying(members) or all(x.has_rule("Long Stride") for x in members)
    if not ignore_terrain:
        zones = (start, *path)
        for a, b in zip(zones, zones[1:], strict=False):
            if rules.terrain_feature(state.terrain_at(a)).slow_exit:
                slow += 1
            if rules.terrain_feature(state.terrain_at(b)).slow_enter:
                slow += 1
    acp += SLOW_PENALTY * slow
    if any(x.has_rule("Laborious Movements") for x in members):
        acp *= 2
    return acp, slow


def _paths(state: BattleState, rules: RulesData, members: list[BattleUnit], through_enemies: bool) -> dict[Coord, tuple[Coord, ...]]:
    """Shortest step paths (≤ Movement) to every zone, never through enemies or impassable zones on foot."""
    start = members[0].zone
    assert start is not None
    side = members[0].side
    flying = _flying(members) or _teleports(members)
    m = group_movement(members)
    best: dict[Coord, tuple[Coord, ...]] = {}
    frontier: list[tuple[Coord, tuple[Coord, ...]]] = [(start, ())]

    def slow(path: tuple[Coord, ...]) -> int:
        zones = (start, *path)
        return sum(
            int(rules.terrain_feature(state.terrain_at(a)).slow_exit) + int(rules.terrain_feature(state.terrain_at(b)).slow_enter)
            for a, b in zip(zones, zones[1:], strict=False)
        )

    for _ in range(m):
        layer: dict[Coord, tuple[Coord, ...]] = {}
        for z, path in frontier:
            for n in state.board.neighbours(z):
                if n == start or n in best:
                    continue
                p = (*path, n)
                if n not in layer or slow(p) < slow(layer[n]):  # among equal steps, the least slowed path
                    layer[n] = p
        nxt: list[tuple[Coord, tuple[Coord, ...]]] = []
        for n, p in layer.items():
            best[n] = p
            blocked = not flying and (not passable(state, rules, n, False) or bool(state.enemies_in(n, side)))
            if not blocked or through_enemies:
                nxt.append((n, p))
        frontier = nxt
    return best


def move_routes(state: BattleState, rules: RulesData, u: BattleUnit) -> list[Route]:
    """Every zone the unit's group may move (or retreat) to, with its cost."""
    members = group_of(state, u)
    side = u.side
    flying = _flying(members)
    out: list[Route] = []
    for z, path in sorted(_paths(state, rules, members, False).items()):
        if state.enemies_in(z, side) or not passable(state, rules, z, flying):
            continue
        if flying and state.terrain_at(z) == "forests":
            continue  # wiki: flyers may not end a flight in a forest
        if not flying and not _teleports(members):
            if any(not passable(state, rules, p, False) or state.enemies_in(p, side) for p in path):
                continue
        if not room(state, rules, z, side, members):
            continue
        acp, slow = cost(state, rules, members, path)
        out.append(Route(z, path, acp, slow))
    return out


def charge_routes(state: BattleState, rules: RulesData, u: BattleUnit) -> list[Route]:
    """Zones with enemies the group may charge (cavalry in clear straight or diagonal lines only)."""
    members = group_of(state, u)
    side = u.side
    start = u.zone
    assert start is not None
    flying = _flying(members)
    cavalry = any(str(m.c.profile.movement) == "cavalry" for m in members) and not flying
    out: list[Route] = []
    for z, path in sorted(_paths(state, rules, members, True).items()):
        enemies = state.enemies_in(z, side)
        if not flying:
            enemies = [e for e in enemies if not e.flying]  # grounded units cannot attack flyers
        if not enemies or not passable(state, rules, z, flying):
            continue
        if cavalry and len(path) > 1:
            line = state.board.step_path(start, z)
            if line is None:
                continue  # "hook" charges (double-diagonals) are not possible
            path = tuple(line)
        if not flying and not _teleports(members):
            if any(not passable(state, rules, p, False) or state.enemies_in(p, side) for p in path[:-1]):
                continue
        if not room(state, rules, z, side, members):
            continue
        acp, slow = cost(state, rules, members, path)
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
