"""Every number the kernel needs, worked out once per request by the reference engine's own functions.

Why tables: in a duel of two units everything deterministic — Fatigue (each unit gains its
action's cost × Fatigue Rate per round it fights), hence Fatigue efficiency, Initiative order
and Morale Sensitivity — depends only on the strike's place in the fight, and the roll-to-hit
odds depend on that and on the morale state of the unit rolling. So the odds of every strike
are the reference :func:`..roll_to_hit.duel_odds` / :func:`..ranged.shot_odds` for that
strike's Fatigue and each morale state, and the kernel only plays the random part. The odds
the kernel draws from are therefore the Fate Screen's odds to the last bit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

import numpy as np

from ..combatants import MORALE_MIN, Combatant
from ..damage import bad_luck_damage
from ..fatigue import initiative, morale_sensitivity
from ..melee import MeleeContext, charge_statics, duel_odds
from ..morale import can_rout, intimidation_modifier, state_of
from ..ranged import ShotOdds, ShotSetup, shot_odds
from . import layout as L
from .fighters import Fighters

#: Fatigue efficiency is flat (20 %) from this many points on: odds past it are the same.
FLAT_FATIGUE = 21.0
STANDARD_THRESHOLDS = (180.0, 120.0, 60.0, 0.0)
TWO_STATE_THRESHOLDS = (0.0,)  # Soulless: Neutral / Disabled; Enraged: Neutral / Furious
K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True)
class Strike:
    """One unit's round (or volley) in the fight's fixed order, with both units' Fatigue before it."""

    attacker: int
    round: int
    charge: bool
    fatigue: tuple[float, float]


@dataclass(frozen=True)
class DuelTables:
    """The flat arrays of one request (columns named in :mod:`.layout`)."""

    shoot: bool
    side_i: np.ndarray
    side_f: np.ndarray
    thresholds: np.ndarray  # [side, 4] morale points at which each state starts, best first
    sched_i: np.ndarray
    sched_f: np.ndarray
    hit_cum: np.ndarray  # melee [strike, state, 1, 6]; shoot [strike, state, targets left, 7]: cumulative odds
    ret_cum: np.ndarray  # [strike, state of the defender, 6] cumulative retaliation odds
    sens: np.ndarray  # [strike, side] Morale Sensitivity in the strike's aftermath
    intim: np.ndarray  # [side, own miniatures, enemy miniatures] Intimidation modifier before sensitivity
    params: np.ndarray
    max_n: int
    orders: np.ndarray  # strikes orders[k] … orders[k + 1] - 1 are the fight when unit k was deployed first


def deployed_first(deployment: str) -> tuple[int, ...]:
    """The deployment orders a request's battles are fought in: both (a coin per battle), or the first unit's only."""
    return (0, 1) if deployment == "random" else (0,)


def thresholds_of(c: Combatant) -> tuple[float, ...]:
    rules = {r.lower() for r in c.profile.special_rules}
    return TWO_STATE_THRESHOLDS if {"soulless", "enraged"} & rules else STANDARD_THRESHOLDS


def state_points(c: Combatant) -> list[float]:
    """A morale value inside each of the unit's states (checked against :func:`state_of`)."""
    thr = thresholds_of(c)
    points = [*thr, MORALE_MIN]
    states = [state_of(replace(c, morale_base=p), False) for p in points]
    assert len(set(states)) == len(points), f"morale states of {c.name} are not {states}"
    return points


def schedule(f: Fighters, shoot: bool, charge: bool, max_rounds: int, first: int = 0) -> list[Strike]:
    """Who strikes when: each round the higher Initiative first, a charge opening round 1.

    Ties go to the unit deployed first (``first``): "Units deployed first have more AcP and will
    thus be activated first." Initiative falls with Fatigue thresholds, and Fatigue grows by each
    strike's cost × Fatigue Rate.
    """
    units = (f.first, f.second)
    rules = f.tables.rules
    fatigue = [0.0, 0.0]
    out: list[Strike] = []
    for rnd in range(1, max_rounds + 1):
        if rnd == 1 and charge:
            order = [0, 1]
        else:
            ini = [initiative(u.stat("ini"), fatigue[i], 0.0, f.options) for i, u in enumerate(units)]
            ahead = 0 if ini[0] > ini[1] else 1 if ini[1] > ini[0] else first
            order = [ahead, 1 - ahead]
        for x in order:
            if shoot and units[x].stat("range") < 1:
                continue
            opening = charge and rnd == 1 and x == 0
            action = "charge" if opening else ("shot" if shoot else "fight")
            out.append(Strike(x, rnd, opening, (fatigue[0], fatigue[1])))
            fatigue[x] += rules.action(action).fatigue.value * units[x].stat("fatigue_rate")
    return out


def _memo(fn: Callable[[K], V]) -> Callable[[K], V]:
    seen: dict[K, V] = {}

    def get(key: K) -> V:
        if key not in seen:
            seen[key] = fn(key)
        return seen[key]

    return get


def _cumulative(odds: list[tuple[str, float]], names: tuple[str, ...]) -> np.ndarray:
    probs = dict(odds)
    return np.cumsum([probs.get(n, 0.0) for n in names])


def _shot_setup(f: Fighters, shooter: Combatant, target: Combatant) -> ShotSetup:
    """A volley at distance 1 into the open (fields), the target alone in its zone."""
    return ShotSetup(shooter, (target,), "fields", (), 1, "shot", f.tables.rules, f.options)


def _side_arrays(f: Fighters, shoot: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    units = (f.first, f.second)
    space = f.options.space_bulk_key()
    rules = f.tables.rules
    side_i = np.zeros((2, L.SIDE_I), np.int64)
    side_f = np.zeros((2, L.SIDE_F), np.float64)
    thr = np.zeros((2, 4), np.float64)
    for x, c in enumerate(units):
        enemy = units[1 - x]
        t = thresholds_of(c)
        side_i[x] = (len(c.hp), c.attack_cap(space), int(can_rout(c)), int(c.stat("agg") > 0), len(t),
                     int(c.stat(space) > 0), int(shoot and c.stat("range") >= 1),
                     rules.action("shot").shots_per_miniature)
        thr[x, : len(t)] = t
        side_f[x, : L.MBLK] = (c.max_hp, max(1.0, c.stat("shd")),
                               min(1.0, c.stat("ret") * rules.stance(c.stance).retaliate),
                               bad_luck_damage(c.max_hp), c.morale)
        side_f[x, L.BULK] = c.stat(space)
        if shoot and enemy.stat("range") >= 1:
            o = shot_odds(_shot_setup(f, enemy, c))
            side_f[x, L.MBLK], side_f[x, L.SHOT_FINAL] = o.block[c.key], o.final[c.key]
    return side_i, side_f, thr


def _melee_tables(f: Fighters, strikes: list[Strike]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Roll-to-hit and retaliation odds of every strike for each morale state, and their damage."""
    units = (f.first, f.second)
    points = (state_points(f.first), state_points(f.second))
    fight = MeleeContext(f.tables.rules, f.options, "fight")
    charge = MeleeContext(f.tables.rules, f.options, "charge")

    def odds(key: tuple[int, bool, float, float, int, bool]) -> tuple[np.ndarray, float]:
        a, opening, fa, fd, m, retaliation = key
        att = replace(units[a], fatigue=fa, morale_base=points[a][m])
        dfn = replace(units[1 - a], fatigue=fd)
        o = duel_odds(att, dfn, charge if opening else fight, retaliation)
        return _cumulative(o.odds, L.MELEE_OUTCOMES), o.final_damage

    cached = _memo(odds)
    hit = np.zeros((len(strikes), L.STATES, 1, 6))
    ret = np.zeros((len(strikes), L.STATES, 6))
    finals = np.zeros((len(strikes), 2))
    for s, st in enumerate(strikes):
        a, d = st.attacker, 1 - st.attacker
        fa, fd = (min(FLAT_FATIGUE, st.fatigue[i]) for i in (a, d))
        for m in range(len(points[a])):
            hit[s, m, 0], finals[s, 0] = cached((a, st.charge, fa, fd, m, False))
        for m in range(len(points[d])):
            ret[s, m], finals[s, 1] = cached((d, False, fd, fa, m, True))
    return hit, ret, finals


def _shot_tables(f: Fighters, strikes: list[Strike], max_n: int) -> np.ndarray:
    """Where each projectile falls, for every strike, shooter morale state and number of targets left."""
    units = (f.first, f.second)
    points = (state_points(f.first), state_points(f.second))

    def odds(key: tuple[int, float, int, int]) -> np.ndarray:
        a, fa, m, left = key
        shooter = replace(units[a], fatigue=fa, morale_base=points[a][m])
        t = units[1 - a]
        target = replace(t, hp=(t.max_hp,) * left + (0.0,) * (len(t.hp) - left))
        o: ShotOdds = shot_odds(_shot_setup(f, shooter, target))
        return _cumulative(o.odds, L.SHOT_OUTCOMES)

    cached = _memo(odds)
    hit = np.zeros((len(strikes), L.STATES, max_n + 1, 7))
    for s, st in enumerate(strikes):
        a = st.attacker
        fa = min(FLAT_FATIGUE, st.fatigue[a])
        for m in range(len(points[a])):
            for left in range(1, len(units[1 - a].hp) + 1):
                hit[s, m, left] = cached((a, fa, m, left))
    return hit


def _intimidation(f: Fighters, max_n: int) -> np.ndarray:
    units = (f.first, f.second)
    out = np.zeros((2, max_n + 1, max_n + 1))
    for x, c in enumerate(units):
        mine, theirs = c.stat("intimidation"), units[1 - x].stat("intimidation")
        for own in range(max_n + 1):
            for enemy in range(max_n + 1):
                out[x, own, enemy] = intimidation_modifier(own * mine, enemy * theirs, f.options)
    return out


def build_tables(f: Fighters, shoot: bool, charge: bool, max_rounds: int,
                 deployment: str = "random") -> DuelTables:
    """All arrays of a request: sides, the strike schedules (one per deployment order) and each strike's
    odds, damage and sensitivity."""
    units = (f.first, f.second)
    max_n = max(len(u.hp) for u in units)
    plans = [schedule(f, shoot, charge, max_rounds, first) for first in deployed_first(deployment)]
    orders = np.cumsum([0, *(len(p) for p in plans)]).astype(np.int64)
    strikes = [st for plan in plans for st in plan]
    side_i, side_f, thr = _side_arrays(f, shoot)
    sched_i = np.array([(s.attacker, s.round, int(s.charge)) for s in strikes], np.int64).reshape(-1, L.SCHED_I)
    sched_f = np.zeros((len(strikes), L.SCHED_F))
    sens = np.array([[morale_sensitivity(u.stat("mrls"), s.fatigue[i], 0.0, f.options) for i, u in enumerate(units)]
                     for s in strikes]).reshape(-1, 2)
    if shoot:
        hit = _shot_tables(f, strikes, max_n)
        ret = np.zeros((len(strikes), L.STATES, 6))
    else:
        hit, ret, finals = _melee_tables(f, strikes)
        sched_f[:, : L.STATIC] = finals
        if charge and strikes:
            ctx = MeleeContext(f.tables.rules, f.options, "charge")
            static = sum(m.amount for m in charge_statics(f.first, units, ctx) if m.unit == f.second.key)
            sched_f[orders[:-1], L.STATIC] = static  # the opening strike of each order
    params = np.array([f.options.luck_multiplier, float(f.options.rout_on_breaking_casualty == "yes"),
                       float(orders[1]), float(f.options.charge_intimidation == "before-casualties")])
    return DuelTables(shoot, side_i, side_f, thr, sched_i, sched_f, hit, ret, sens, _intimidation(f, max_n),
                      params, max_n, orders)
