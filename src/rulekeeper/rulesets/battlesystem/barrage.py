"""Barrages: a hex targeted on one turn, fired at the start of the next, one roll for every unit hit.

"When the hex has been selected, the unit will have to wait until their next turn to fire. This
means that the unit doing the barrage attack has to predict enemy movement". So the target is
checked when the hex is chosen (:func:`check_barrage_target`: in range, no sight needed) and
the roll hits whoever stands on and around that hex when it fires (:func:`resolve_barrage`).
The roll is drawn once, before any Damage Reduction, because every unit hit subtracts its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rulekeeper.core.chance import ChanceRequest, Fate
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.core.wording import counted

from .combat import DEFAULT, MoraleHit, Unit, check_able, morale_hit, spend
from .options import BattleSystemOptions
from .rolls import ATTACK_DICE, SIDES, drawn, roll_request, simply, written


@dataclass(frozen=True)
class BarrageHit:
    """One unit a barrage hit: on the targeted hex, or on an adjacent one."""

    unit: Unit
    on_target: bool
    formula: str
    damage: int
    casualties: int
    morale: MoraleHit | None


@dataclass(frozen=True)
class BarrageResult:
    artillery: Unit
    formula: str
    roll: int
    hits: tuple[BarrageHit, ...]
    ammunition_spent: int


def check_barrage_target(artillery: Unit, distance: int) -> None:
    """"To perform a barrage attack, the unit has to target a hex that's in range. Barrage attacks don't
    require sight.\""""
    check_able(artillery, "barrage")
    if distance > artillery.card.range:
        raise ImpossibleRequestError(
            f"{artillery.name}: the hex is {counted(distance, 'hex', 'hexes')} away, "
            f"beyond its range {artillery.card.range}",
            unit=artillery.name, distance=distance, range=artillery.card.range)


def barrage_request(artillery: Unit, bonus: int = 0) -> ChanceRequest:
    """5d10 + barrage skill + other bonuses, before any unit's Damage Reduction."""
    skill = artillery.card.barrage or 0
    mod = skill + bonus
    text = f"{written(ATTACK_DICE, (skill, bonus))} (or simply {simply(ATTACK_DICE, mod)}), minus each unit's DR"
    return roll_request(f"Barrage: {artillery.name}", ATTACK_DICE, SIDES, mod, (text, "exact via icepool"))


def barrage_damage(roll: int, dr: int, on_target: bool, target_dr: int | None,
                   options: BattleSystemOptions = DEFAULT) -> int:
    """Soldiers a barrage roll kills on one unit (before the cap at the soldiers it has).

    The targeted hex takes ``roll − DR``. An adjacent hex takes half: by default half of the roll
    against its own DR, which is how the guide's example gets 19 from a Military Police unit (DR 12)
    where the Light Infantry (DR 14) took 36: (50 − 12) / 2 = 19. With ``adjacent_damage=half-of-target``
    it takes half of what the targeted hex took (18); with nobody on that hex, half of the bare roll.
    Never below 0: "These failed attacks don't affect ranged attacks such as ... barrage".
    """
    if on_target:
        return max(0, roll - dr)
    against = dr if options.adjacent_damage == "own-dr" else (target_dr or 0)
    return options.halve(max(0, roll - against))


def hit_formula(artillery: Unit, bonus: int, dr: int, on_target: bool) -> str:
    """One unit's share as the guide writes it: ``5d10+15+0-14 (or simply 5d10+1)``, halved off the target."""
    skill = artillery.card.barrage or 0
    text = f"{written(ATTACK_DICE, (skill, bonus, dr), '++-')} (or simply {simply(ATTACK_DICE, skill + bonus - dr)})"
    return text if on_target else f"half of {text}"


def _hit(fate: Fate, artillery: Unit, unit: Unit, roll: int, on_target: bool, target_dr: int | None,
         bonus: int, options: BattleSystemOptions) -> BarrageHit:
    dr = unit.card.damage_reduction
    damage = barrage_damage(roll, dr, on_target, target_dr, options)
    shown_dr = dr if on_target or options.adjacent_damage == "own-dr" else (target_dr or 0)
    casualties = min(damage, unit.soldiers)
    after = replace(unit, soldiers=unit.soldiers - casualties)
    morale, after = morale_hit(fate, artillery, after, casualties, True, options)
    return BarrageHit(after, on_target, hit_formula(artillery, bonus, shown_dr, on_target), damage, casualties, morale)


def resolve_barrage(fate: Fate, artillery: Unit, target: Unit | None, adjacent: Sequence[Unit], bonus: int = 0,
                    options: BattleSystemOptions = DEFAULT) -> BarrageResult:
    """Fire a barrage chosen last turn: ``target`` on the hex (or None), ``adjacent`` around it.

    Every unit hit takes its casualties, then its morale damage (×2: the barrage stat), in the
    order given: the targeted hex first. One ammunition is spent even when nobody is hit.
    """
    check_able(artillery, "barrage")
    request = barrage_request(artillery, bonus)
    roll = drawn(fate.draw(request))
    target_dr = None if target is None else target.card.damage_reduction
    hits = [] if target is None or target.destroyed else [_hit(fate, artillery, target, roll, True, None, bonus, options)]
    hits += [_hit(fate, artillery, u, roll, False, target_dr, bonus, options) for u in adjacent if not u.destroyed]
    artillery, spent = spend(artillery)
    return BarrageResult(artillery, request.explain[0], roll, tuple(hits), spent)
