"""Special rules and heroic powers that change a resolution or act at the end of a turn.

Each is a small function named after the rule, quoting it; the combat code receives
their effect as :class:`~rulekeeper.rulesets.exillis.melee.UnitMods` multipliers.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulekeeper.boards.zones import Coord
from rulekeeper.core.events import Event

from ..aftermath import Death, StaticModifier
from ..combatants import round_half_up
from ..events import diff
from ..fastcopy import evolve
from ..melee import UnitMods
from .disabused import disabused as disabused  # where handlers and tests find it
from .state import BattleState, BattleUnit
from .tables import BattleTables

#: Against the Odds: "When outnumbered, the unit is given an Accuracy bonus" (seed table).
AGAINST_THE_ODDS: tuple[tuple[float, float], ...] = (
    (1.5, 0.17), (2.0, 0.33), (2.5, 0.50), (3.0, 0.67), (3.5, 0.83), (4.0, 1.00),
)


def _power_holder(state: BattleState, u: BattleUnit, power: str) -> BattleUnit | None:
    """The living hero whose heroic power ``power`` affects ``u`` (itself or its retinue)."""
    hero = u if u.is_hero else (state.unit(u.hero) if u.hero else None)
    if hero is None or not hero.on_board:
        return None
    return hero if hero.has_rule(power) else None


def unit_mods(state: BattleState, u: BattleUnit, charging: bool) -> UnitMods:
    acc, strength, tough, damage, vs_heroes = 1.0, 1.0, 1.0, 1.0, 1.0
    notes: list[str] = []
    hero = _power_holder(state, u, "Avenger")
    if hero is not None:
        retinue = state.unit(hero.retinue) if hero.retinue else None
        if retinue is not None:
            lost = len(retinue.c.hp) - retinue.c.count
            bonus = lost / len(retinue.c.hp)
            if bonus:
                damage *= 1 + bonus
                notes.append(f"Avenger +{bonus:.0%}")
    if _power_holder(state, u, "Hero Killer") is not None and not charging:
        vs_heroes *= 1.5  # wiki: does not apply on the charge (lances are the secondary weapon)
        notes.append("Hero Killer")
    if _power_holder(state, u, "Against the Odds") is not None and u.zone is not None:
        friendly = sum(x.c.count * x.c.stat("intimidation") for x in state.in_zone(u.zone) if x.side == u.side)
        enemy = sum(x.c.count * x.c.stat("intimidation") for x in state.in_zone(u.zone) if x.side != u.side)
        ratio = enemy / friendly if friendly else 0.0
        bonus = 0.0
        for at, b in AGAINST_THE_ODDS:
            if ratio >= at:
                bonus = b
        if bonus:
            acc *= 1 + bonus
            notes.append(f"Against the Odds +{bonus:.0%}")
    if u.has_rule("Enraged") and u.c.morale < 0:
        # "While Furious, the Emissarius gains 20% Initiative and Strength, but loses 20% Accuracy and Toughness."
        acc *= 0.8
        strength *= 1.2
        tough *= 0.8
        notes.append("Furious")
    return UnitMods(acc, strength, tough, damage, vs_heroes, tuple(notes))


def end_of_turn(state: BattleState, actors: tuple[str, ...], t: BattleTables) -> tuple[BattleState, list[StaticModifier], list[str]]:
    """Aura of Terror, flying fatigue and forced landing, Refreshing Presence (Dark Presence:
    :func:`dark_presence`, whose casualties the engine turns into morale).

    Returns the new state, static morale modifiers to apply, and notes for the log.
    """
    notes: list[str] = []
    statics: list[StaticModifier] = []
    units = {u.key: u for u in state.units}
    for key in actors:
        u = units[key]
        if not u.on_board or u.zone is None:
            continue
        if u.has_rule("Aura of Terror"):
            n = u.aura_turns + 1
            units[key] = evolve(units[key], aura_turns=n)
            for x in state.units:
                if x.side != u.side and x.on_board and x.zone is not None and state.board.distance(x.zone, u.zone) <= 1:
                    statics.append(StaticModifier(x.key, t.rules.num("aura_of_terror") * n, f"Aura of Terror of {key}"))
        if u.flying:
            rate = u.c.stat("fatigue_rate")
            c = evolve(u.c, fatigue=u.c.fatigue + t.rules.num("flying_fatigue") * rate)
            if c.fatigue >= t.rules.num("forced_landing"):
                c = evolve(c, flying=False)
                notes.append(f"{key} is forced to land (12 FtP)")
            units[key] = evolve(units[key], c=c)
        if _power_holder(state, u, "Refreshing Presence") is not None:
            r = t.rules.num("refreshing_presence")
            c = units[key].c
            units[key] = evolve(units[key], c=evolve(c, fatigue=max(0.0, c.fatigue - r), veil=max(0.0, c.veil - r)))
    return evolve(state, units=tuple(units[u.key] for u in state.units)), statics, notes


@dataclass(frozen=True)
class Drain:
    """What Dark Presence did: the state after it, zone events, casualties per zone, notes."""

    state: BattleState
    events: tuple[Event, ...] = ()
    deaths: tuple[tuple[Coord, tuple[Death, ...]], ...] = ()
    notes: tuple[str, ...] = ()


def dark_presence(state: BattleState, actors: tuple[str, ...], t: BattleTables) -> Drain:
    """Dark Presence: "Drains 2% of every miniature's life in the same zone", at the end of the
    unit's turn, friend and foe alike (exactly 2 %: 0.9 HP of a 45-HP miniature; option
    ``dark_presence_drain=whole-hp`` rounds to whole Hit Points, at least 1).

    Every HP change is a ``unit`` event, and each miniature it kills is a casualty its friends
    in the zone witness ("Each friendly casualty the unit witnesses causes a morale penalty").
    """
    units = {u.key: u for u in state.units}
    events: list[Event] = []
    deaths: list[tuple[Coord, tuple[Death, ...]]] = []
    notes: list[str] = []
    key_bulk = state.options.space_bulk_key()
    drain = t.rules.num("dark_presence")
    for key in actors:
        u = units[key]
        if not u.on_board or u.zone is None or not u.has_rule("Dark Presence"):
            continue
        dead: list[Death] = []
        for x in state.in_zone(u.zone):
            if x.key == key:
                continue
            before = units[x.key].c
            c = before
            for i in c.alive():
                c = c.with_hp(i, c.hp[i] - _drained(c.max_hp, drain, state.options.dark_presence_drain))
                if c.hp[i] <= 0:
                    dead.append(Death(x.side, x.key, c.mini(i), c.stat(key_bulk)))
            events += diff(before, c, f"Dark Presence of {key}")
            units[x.key] = evolve(units[x.key], c=c)
        notes.append(f"{key}: Dark Presence drains every other miniature in its zone"
                     + (f" ({len(dead)} killed)" if dead else ""))
        if dead:
            deaths.append((u.zone, tuple(dead)))
    new = evolve(state, units=tuple(units[u.key] for u in state.units)) if notes else state
    return Drain(new, tuple(events), tuple(deaths), tuple(notes))


def _drained(max_hp: float, drain: float, reading: str) -> float:
    """Hit Points Dark Presence takes from one miniature: 2 % of its maximum, exact or in whole HP."""
    return float(max(1, round_half_up(max_hp * drain))) if reading == "whole-hp" else max_hp * drain


