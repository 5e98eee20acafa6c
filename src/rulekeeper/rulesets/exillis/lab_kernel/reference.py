"""The same duels fought by the reference engine itself: ``resolve_round`` and ``resolve_volley``.

One battle per index, its Fate seeded by (request seed, battle index). Each round the unit of
higher Initiative (after its Fatigue thresholds) acts first, ties to the unit deployed first
(with ``deployment="random"`` the battle's first draw, a fair coin, says which); a charge
opening makes round 1 the first unit's Charge, answered by the second unit's Fight. A melee is
fought to the end: a unit destroyed or fleeing ends it; in shoot mode every unit with a ranged
attack looses a volley per round at the other (distance 1, open ground).
"""

from __future__ import annotations

from collections import Counter

from rulekeeper.core.chance import Fate
from rulekeeper.core.duels import (
    DRAW,
    FIRST_DESTROYS,
    FIRST_ROUTS,
    SECOND_DESTROYS,
    SECOND_ROUTS,
    DuelRequest,
    DuelTally,
)

from ..combatants import Combatant
from ..fatigue import initiative
from ..melee import MeleeContext, resolve_round
from ..ranged import ShotSetup, resolve_volley
from .fighters import Fighters, fighters

METHOD = "monte carlo (reference engine)"


def battle_seed(seed: int, index: int) -> int:
    """The reference Fate's seed for battle ``index``: (seed, index) packed into one integer."""
    return (seed << 64) | index


def ended(first: Combatant, second: Combatant) -> str | None:
    """The same order as the kernel: a unit destroyed before one fleeing, the second unit read first."""
    if second.count == 0:
        return FIRST_DESTROYS
    if first.count == 0:
        return SECOND_DESTROYS
    if second.fleeing:
        return FIRST_ROUTS
    if first.fleeing:
        return SECOND_ROUTS
    return None


def _order(f: Fighters, units: list[Combatant], first: int) -> list[int]:
    """Higher Initiative first; a tie goes to the unit deployed first ("Units deployed first have more AcP")."""
    ini = [initiative(u.stat("ini"), u.fatigue, u.veil, f.options) for u in units]
    ahead = 0 if ini[0] > ini[1] else 1 if ini[1] > ini[0] else first
    return [ahead, 1 - ahead]


def deployed_first(request: DuelRequest, fate: Fate) -> int:
    """0 when the first unit was deployed first; with ``deployment="random"`` a fair coin of the battle's Fate."""
    if request.deployment != "random":
        return 0
    return 1 if fate.chance("deployed first", 0.5, "second unit", "first unit") else 0


def _melee(f: Fighters, request: DuelRequest, fate: Fate) -> tuple[str, int, list[Combatant]]:
    fight = MeleeContext(f.tables.rules, f.options, "fight")
    charge = MeleeContext(f.tables.rules, f.options, "charge")
    units = [f.first, f.second]
    first = deployed_first(request, fate)
    for rnd in range(1, request.max_rounds + 1):
        opening = request.charge and rnd == 1
        for x in [0, 1] if opening else _order(f, units, first):
            ctx = charge if opening and x == 0 else fight
            zone = resolve_round((units[0], units[1]), units[x].key, ctx, fate).zone
            units = [zone[0], zone[1]]
            outcome = ended(units[0], units[1])
            if outcome:
                return outcome, rnd, units
    return DRAW, request.max_rounds, units


def _shoot(f: Fighters, request: DuelRequest, fate: Fate) -> tuple[str, int, list[Combatant]]:
    units = [f.first, f.second]
    first = deployed_first(request, fate)
    for rnd in range(1, request.max_rounds + 1):
        for x in _order(f, units, first):
            if units[x].stat("range") < 1:
                continue
            setup = ShotSetup(units[x], (units[1 - x],), "fields", (), 1, "shot", f.tables.rules, f.options)
            report = resolve_volley(setup, fate)
            units[x], units[1 - x] = report.shooter_after, report.zone[0]
            outcome = ended(units[0], units[1])
            if outcome:
                return outcome, rnd, units
    return DRAW, request.max_rounds, units


def reference_tally(request: DuelRequest) -> DuelTally:
    """Every battle of ``request`` fought with the reference engine, tallied."""
    f = fighters(request)
    battle = _shoot if request.mode == "shoot" else _melee
    tally = DuelTally(method=METHOD)
    outcomes: Counter[str] = Counter()
    rounds: Counter[int] = Counter()
    first: Counter[int] = Counter()
    second: Counter[int] = Counter()
    for index in range(request.start, request.start + request.count):
        outcome, took, units = battle(f, request, Fate.from_seed(battle_seed(request.seed, index)))
        outcomes[outcome] += 1
        rounds[took] += 1
        first[units[0].count] += 1
        second[units[1].count] += 1
    tally.battles, tally.outcomes, tally.rounds = request.count, outcomes, rounds
    tally.first_survivors, tally.second_survivors = first, second
    return tally
