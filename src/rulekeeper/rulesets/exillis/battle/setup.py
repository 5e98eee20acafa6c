"""A battle's initial state from a scenario (the state as JSON and back: :mod:`.stored`, re-exported here).

Deployment order gives the initial AcP (the first deployed unit starts at 1000 and acts
first); a hero deploys with its Retinue and shares its AcP; Leadership of heroes and the
General is added to each unit's Basic Morale before the first turn.
"""

from __future__ import annotations

from rulekeeper.boards.zones import ZoneGrid
from rulekeeper.core.rng import RngState

from ..fastcopy import evolve
from ..options import ExIllisOptions
from ..scenario import Scenario, unit_cost
from ..setup import Tables as _Tables
from ..setup import UnitSpec, build
from .morale_loop import apply_initial_leadership, sync_heroes
from .state import BattleState, BattleUnit
from .stored import state_from_dict as state_from_dict
from .stored import state_to_dict as state_to_dict
from .tables import BattleTables
from .turnbar import advance, initial_acp


def initial_state(
    scenario: Scenario, seed: int, t: BattleTables, options: ExIllisOptions | None = None, practice: bool = False
) -> BattleState:
    """The battle before its first action, with the first group active."""
    opts = options or ExIllisOptions()
    tables = _Tables(t.roster, t.rules)
    board = ZoneGrid(scenario.board.width, scenario.board.height)
    terrain = tuple((board.parse(p.zone), p.feature) for p in scenario.terrain)
    order = scenario.deployment_order()
    units: list[BattleUnit] = []
    taken: set[str] = set()

    def key_for(side: str, name: str) -> str:
        k, n = f"{side}:{name}", 2
        while k in taken:
            k, n = f"{side}:{name} ({n})", n + 1
        taken.add(k)
        return k

    for i, (side, idx) in enumerate(order):
        army = scenario.army(side)
        entry = army.units[idx]
        zone = board.parse(entry.zone)
        acp = initial_acp(i, len(order))
        profile = t.roster.get(entry.unit)
        size = entry.miniatures if entry.miniatures is not None else profile.miniatures
        is_general = entry.unit in army.general
        key = key_for(side, profile.name)
        c = build(tables, UnitSpec(entry.unit, entry.miniatures, entry.level), side, set(), options=opts, general=is_general)
        hero_key = key_for(side, t.roster.get(entry.hero).name) if entry.hero else None
        units.append(BattleUnit(
            key, side, evolve(c, key=key), zone, acp, hero=hero_key, general=is_general, deploy_index=len(units),
            points=unit_cost(profile.stat("cost"), entry.level, size, profile.miniatures),
        ))
        if entry.hero and hero_key:
            hp = t.roster.get(entry.hero)
            hero_general = entry.hero in army.general
            hc = build(tables, UnitSpec(entry.hero, None, entry.hero_level), side, set(), options=opts, general=hero_general)
            hc = evolve(hc, key=hero_key, morale_base=c.morale_base)
            units.append(BattleUnit(
                hero_key, side, hc, zone, acp, retinue=key, general=hero_general, deploy_index=len(units),
                points=unit_cost(hp.stat("cost"), entry.hero_level, hp.miniatures, hp.miniatures),
            ))
    points = scenario.points(t.roster)
    state = BattleState(
        scenario=scenario.name, board=board, terrain=terrain, units=tuple(units), rng=RngState.from_seed(seed),
        options=opts, turn_limit=scenario.board.turn_limit,
        armies=tuple((a.side, a.name) for a in scenario.armies), army_points=tuple(sorted(points.items())),
        practice=practice,
    )
    state = sync_heroes(apply_initial_leadership(state, t))
    return advance(state)
