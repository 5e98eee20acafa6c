"""A battle state as JSON and back (checkpoints, snapshots, replay), apart from setting a battle up.

Why a module of its own: ``battle show`` reads a stored state and draws it; the set-up (scenarios,
leadership, the morale loop) and the rest of the engine are not needed for that, and importing them
was a good part of the command's start-up (issue 22, point 6). :mod:`.setup` re-exports both.
"""

from __future__ import annotations

import functools
from typing import Any, NotRequired, TypedDict

from rulekeeper.boards.zones import GridJson, ZoneGrid
from rulekeeper.core.rng import RngState

from ..combatants import Combatant, Modifier
from ..levels import at_level
from ..options import ExIllisOptions
from .disabused import disabused
from .state import BattleState, BattleUnit, PendingAction
from .tables import BattleTables


class StoredUnit(TypedDict):
    """One unit as a checkpoint keeps it: its place and counters, and its combatant's changing numbers (its
    profile by name and level)."""

    key: str
    side: str
    name: str
    level: int
    zone: str | None
    acp: float
    status: str
    hero: str | None
    retinue: str | None
    general: bool
    reloaded: bool
    approach: int | None
    deploy_index: int
    points: int
    kills: int
    last_target: str | None
    streak: int
    aura_turns: int
    hp: list[float]
    max_hp: float
    fatigue: float
    veil: float
    morale: float
    morale_base: NotRequired[float]  # a battle saved before issue 29 has none (see :func:`_morale_of`)
    modifiers: list[list[str | float]]
    fleeing: bool
    stance: str
    moved: bool
    flying: bool
    leadership: float
    chain: list[str | int]
    pending: list[str | None] | None
    verses: int
    intimidation_mod: NotRequired[float]  # before issue 29 only


class StoredState(TypedDict):
    """A battle state as its checkpoints keep it (:func:`state_to_dict`), in this key order."""

    scenario: str
    board: GridJson
    terrain: list[list[str]]
    rng: dict[str, int]
    options: dict[str, str]
    fight_dirs: list[list[str | int]]
    active: list[str]
    activations: int
    clock: float
    turn_limit: int
    over: bool
    winner: str | None
    end_reason: str
    armies: list[list[str]]
    army_points: list[list[str | int]]
    practice: bool
    units: list[StoredUnit]


def state_to_dict(state: BattleState) -> StoredState:
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


def _unit_to_dict(state: BattleState, u: BattleUnit) -> StoredUnit:
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


def _morale_of(x: StoredUnit) -> tuple[float, tuple[Modifier, ...]]:
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
