"""A battle's initial state from a scenario, and the state as JSON (for snapshots and replay).

Deployment order gives the initial AcP (the first deployed unit starts at 1000 and acts
first); a hero deploys with its Retinue and shares its AcP; Leadership of heroes and the
General is added to each unit's Basic Morale before the first turn.
"""

from __future__ import annotations

import functools
from typing import Any

from rulekeeper.boards.zones import ZoneGrid
from rulekeeper.core.rng import RngState

from ..combatants import Combatant, Modifier
from ..fastcopy import evolve
from ..levels import at_level
from ..options import ExIllisOptions
from ..scenario import Scenario, unit_cost
from ..setup import Tables as _Tables
from ..setup import UnitSpec, build
from .morale_loop import apply_initial_leadership, sync_heroes
from .specials import disabused
from .state import BattleState, BattleUnit, PendingAction
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


def state_to_dict(state: BattleState) -> dict[str, Any]:
    """Everything that changes during a battle, as JSON-able data (profiles by name and level)."""
    name = state.board.name
    return {
        "scenario": state.scenario,
        "board": state.board.to_dict(),
        "terrain": [[name(z), t] for z, t in state.terrain],
        "rng": state.rng.to_dict(),
        "options": state.options.to_dict(),
        "fight_dirs": [[name(z), s, d] for z, s, d in state.fight_dirs],
        "active": list(state.active),
        "activations": state.activations,
        "clock": state.clock,
        "turn_limit": state.turn_limit,
        "over": state.over,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "armies": [list(a) for a in state.armies],
        "army_points": [list(a) for a in state.army_points],
        "practice": state.practice,
        "units": [_unit_to_dict(state, u) for u in state.units],
    }


def _unit_to_dict(state: BattleState, u: BattleUnit) -> dict[str, Any]:
    c = u.c
    return {
        "key": u.key, "side": u.side, "name": c.name, "level": c.level, "zone": None if u.zone is None else state.board.name(u.zone),
        "acp": u.acp, "status": u.status, "hero": u.hero, "retinue": u.retinue, "general": u.general,
        "leadership": u.leadership, "reloaded": u.reloaded, "approach": u.approach, "deploy_index": u.deploy_index,
        "points": u.points, "kills": u.kills, "last_target": u.last_target, "streak": u.streak, "aura_turns": u.aura_turns,
        "hp": list(c.hp), "max_hp": c.max_hp, "fatigue": c.fatigue, "veil": c.veil, "morale": c.morale,
        "morale_base": c.morale_base, "modifiers": [m.to_list() for m in c.modifiers], "fleeing": c.fleeing, "stance": c.stance, "moved": c.moved,
        "flying": c.flying, "chain": list(c.chain),
        "pending": None if u.pending is None else u.pending.to_list(), "verses": u.verses,
    }


def state_from_dict(d: dict[str, Any], t: BattleTables) -> BattleState:
    """Rebuild a state saved by :func:`state_to_dict` (profiles come from ``t``).

    Cheap enough to call for every request: the options and the scaled profiles are memoized.
    """
    board = ZoneGrid.from_dict(d["board"])
    opts = _options(tuple((str(k), str(v)) for k, v in d["options"].items()))
    per_kill = t.rules.num("disabused_per_kill")
    units = []
    for x in d["units"]:
        profile = disabused(at_level(t.roster.get(x["name"]), int(x["level"]), opts), int(x["kills"]), per_kill)
        c = Combatant(
            x["key"], profile, x["side"], tuple(x["hp"]), x["max_hp"], x["fatigue"], x["veil"], *_morale_of(x), x["fleeing"], x["stance"], x["moved"], int(x["level"]), tuple(x["chain"]), x["flying"],
        )
        units.append(BattleUnit(
            x["key"], x["side"], c, None if x["zone"] is None else board.parse(x["zone"]), x["acp"], x["status"],
            x["hero"], x["retinue"], x["general"], x["reloaded"], x["approach"], x["deploy_index"],
            x["points"], x["kills"], x["last_target"], x["streak"], x["aura_turns"],
            PendingAction.from_list(x.get("pending")), int(x.get("verses", 0)),
        ))
    return BattleState(
        scenario=d["scenario"], board=board, terrain=tuple((board.parse(z), f) for z, f in d["terrain"]),
        units=tuple(units), rng=RngState.from_dict(d["rng"]), options=opts,
        fight_dirs=tuple((board.parse(z), s, int(dd)) for z, s, dd in d["fight_dirs"]), active=tuple(d["active"]),
        activations=d["activations"], clock=d["clock"], turn_limit=d["turn_limit"], over=d["over"], winner=d["winner"],
        end_reason=d["end_reason"], armies=tuple((a, b) for a, b in d["armies"]),
        army_points=tuple((a, int(b)) for a, b in d["army_points"]), practice=d["practice"],
    )


def _morale_of(x: dict[str, Any]) -> tuple[float, tuple[Modifier, ...]]:
    """A saved unit's morale base and live modifiers (a battle saved before issue 29 kept morale
    with its Intimidation modifier and its Leadership folded in: they become modifiers again)."""
    if "morale_base" in x:
        return x["morale_base"], tuple(Modifier.from_list(m) for m in x["modifiers"])
    mods = [Modifier("morale", x["intimidation_mod"], "intimidation"), Modifier("morale", x["leadership"], "leadership")]
    live = tuple(m for m in mods if m.amount)
    return x["morale"] - sum(m.amount for m in live), live


@functools.lru_cache(maxsize=64)
def _options(items: tuple[tuple[str, str], ...]) -> ExIllisOptions:
    """Saved options, parsed once per distinct set (parsing copies the options once per name)."""
    return ExIllisOptions.parse([f"{k}={v}" for k, v in items])
