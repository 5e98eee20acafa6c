"""The roll to hit of one melee attack: a WRD of Melee Accuracy against Block, Evade and Deflect.

Each defence is scaled by the defender's Fatigue efficiency, the direction of the attack and
its stance, 5 % Luck and 5 % Bad Luck are set aside (no Bad Luck for a basic action or a free
attack), and each outcome's damage is worked out up front so the Fate Screen shows it before
anything is rolled. :mod:`.melee` re-exports the public names.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.core.wrd import with_fixed

from . import damage as dmg
from .combatants import Combatant
from .damage import num
from .fatigue import efficiency
from .melee_context import DIRECTION_DEFENCE, MeleeContext, UnitMods
from .morale import state_of
from .records import DuelOddsLine
from .rules_data import Action, RulesData
from .weapons import MAIN_WEAPON, undeflectable, weapon_of

LUCK = 0.05
BAD_LUCK = 0.05
DEFENCES = (("Blocked", "blk"), ("Evaded", "eva"), ("Deflected", "dfl"))
_DEFENCE_NAME = {"Blocked": "Block", "Evaded": "Evade", "Deflected": "Deflect"}


@dataclass(frozen=True)
class DuelOdds:
    """Everything the Fate Screen shows before one duel is rolled."""

    attacker: str
    defender: str
    odds: list[tuple[str, float]]
    weights: dict[str, float]
    explain: list[str]
    damage: dict[str, tuple[int, int]]
    final_damage: float
    retaliation_chance: float
    calc: dmg.DamageCalc

    def to_dict(self) -> DuelOddsLine:
        return {
            "attacker": self.attacker,
            "defender": self.defender,
            "odds": {k: p for k, p in self.odds},
            "weights": self.weights,
            "damage": {k: list(v) for k, v in self.damage.items()},
            "final_damage": round(self.final_damage, 3),
            "retaliation_chance": self.retaliation_chance,
            "explain": self.explain,
        }


def _mods(c: Combatant, data: RulesData) -> tuple[float, float]:
    state = state_of(c, False)
    m = data.morale_states.get(state)
    return (m.accuracy, m.luck) if m else (1.0, 0.0)


def _attack_weight(att: Combatant, ctx: MeleeContext, action: Action, am: UnitMods) -> tuple[float, str, float]:
    """The Attack weight of the roll to hit, the line explaining it, and the morale's Luck modifier.

    Melee Accuracy scaled by the attacker's Fatigue efficiency, morale state, stance, the
    action and the heroic powers and special rules on it.
    """
    a_eff = efficiency(att.fatigue)
    a_state, a_luck = _mods(att, ctx.data)
    a_stance = ctx.data.stance(att.stance)
    acc = att.stat("acc")
    attack = acc * a_eff * a_state * a_stance.accuracy * action.accuracy.value * am.accuracy
    line = (
        f"Attack = ACC {num(acc)} × fatigue efficiency {a_eff:.3f} ({att.fatigue:g} FtP)"
        f" × morale {a_state:g} ({state_of(att, False)}) × stance {a_stance.accuracy:g} ({att.stance})"
        f" × {action.title} {action.accuracy.value:g}"
        + (f" × {am.accuracy:.3g} ({', '.join(am.notes)})" if am.accuracy != 1 else "")
        + f" = {attack:.2f}"
    )
    return attack, line, a_luck


def _defence_weights(
    att: Combatant, dfn: Combatant, ctx: MeleeContext, direction: str, retaliation: bool,
    weights: dict[str, float], lines: list[str],
) -> None:
    """Block, Evade and Deflect weights (into ``weights``, explained in ``lines``).

    Each is the defender's stat scaled by its Fatigue efficiency, the direction it is attacked
    from and its stance; some weapons cannot be deflected (never on a retaliation).
    """
    d_eff = efficiency(dfn.fatigue)
    d_stance = ctx.data.stance(dfn.stance)
    dir_mult = DIRECTION_DEFENCE[direction]
    no_deflect = None if retaliation else undeflectable(att, ctx)
    for outcome, key in DEFENCES:
        base = dfn.stat(key)
        w = base * d_eff * dir_mult * d_stance.defences
        note = ""
        if key == "dfl" and no_deflect:
            w, note = 0.0, f" → 0 ({no_deflect}: impossible to deflect)"
        weights[outcome] = w
        lines.append(
            f"{_DEFENCE_NAME[outcome]} = {key.upper()} {num(base)} × fatigue efficiency {d_eff:.3f}"
            f" ({dfn.fatigue:g} FtP) × {direction} {dir_mult:g} × stance {d_stance.defences:g} ({dfn.stance})"
            f" = {w:.2f}{note}"
        )


def _hit_odds(
    att: Combatant, action: Action, retaliation: bool, a_luck: float, weights: dict[str, float], lines: list[str]
) -> list[tuple[str, float]]:
    """The roll to hit's odds: Luck (moved by morale) and Bad Luck set aside, the rest shared by weight.

    A basic action or a free attack (retaliation) has no Bad Luck.
    """
    luck = max(0.0, LUCK + a_luck)
    bad = 0.0 if (action.basic or retaliation) else BAD_LUCK
    lines.append(
        f"Luck {luck:.0%}" + (f" (morale {a_luck:+.0%})" if a_luck else "")
        + (", Bad Luck 0 % (basic action / free attack)" if bad == 0 else f", Bad Luck {bad:.0%}")
        + "; the rest shared by weight"
    )
    if sum(weights.values()) <= 0:
        raise ImpossibleRequestError(f"{att.name} cannot attack: every roll-to-hit weight is 0")
    odds = with_fixed({"Luck": luck, "Bad Luck": bad}, weights)
    order = ["Attack", "Blocked", "Evaded", "Deflected", "Luck", "Bad Luck"]
    odds.sort(key=lambda kv: order.index(kv[0]))
    return odds


def _duel_damage(
    att: Combatant, dfn: Combatant, ctx: MeleeContext, retaliation: bool, lines: list[str]
) -> tuple[dmg.DamageCalc, float, dict[str, tuple[int, int]]]:
    """The damage of each roll-to-hit outcome: the weapon used, the units' modifiers, Shield and Luck.

    Returns the physical calculation, the final damage of an Attack and each outcome's bounds.
    """
    am, dm = ctx.mods_of(att.key), ctx.mods_of(dfn.key)
    arm = weapon_of(att, ctx, retaliation)
    calc = dmg.physical(
        att.stat("wpd") * arm.wpd, att.stat("str") * am.strength, dfn.stat("tgh") * dm.toughness,
        att.stat("ap") * arm.ap, dfn.stat("armour"),
    )
    if arm is not MAIN_WEAPON:
        lines.append(f"{arm.note}: Weapon Damage {num(att.stat('wpd'))} × {arm.wpd:g}, Armour Piercing"
                     f" {num(att.stat('ap'))} × {arm.ap:g}")
    lines += calc.lines()
    shd = max(1.0, dfn.stat("shd"))
    bonus = am.damage * (am.damage_vs_heroes if str(dfn.profile.kind) == "hero" else 1.0)
    final = calc.final * bonus
    if bonus != 1:
        lines.append(f"damage × {bonus:.3g} ({', '.join(am.notes)}) = {final:.1f}")
    damages = {
        "Attack": dmg.bounds(final),
        "Blocked": dmg.bounds(final, divisor=shd),
        "Evaded": (0, 0),
        "Deflected": (0, 0),
        "Luck": dmg.bounds(final, multiplier=ctx.options.luck_multiplier),
        "Bad Luck": (dmg.bad_luck_damage(att.max_hp),) * 2,
    }
    lines.append(f"blocked damage = {final:.1f} / Shield {shd:g} = {final / shd:.1f}; Luck × {ctx.options.luck_multiplier:g}")
    return calc, final, damages


def duel_odds(att: Combatant, dfn: Combatant, ctx: MeleeContext, retaliation: bool = False) -> DuelOdds:
    """The WRD of one attack of ``att`` on ``dfn``, with every modifier explained."""
    action = ctx.data.action("fight" if retaliation else ctx.action)
    direction = "front" if retaliation else ctx.direction_of(att.key)
    attack, line, a_luck = _attack_weight(att, ctx, action, ctx.mods_of(att.key))
    lines = [line]
    weights: dict[str, float] = {"Attack": attack}
    _defence_weights(att, dfn, ctx, direction, retaliation, weights, lines)
    odds = _hit_odds(att, action, retaliation, a_luck, weights, lines)
    calc, final, damages = _duel_damage(att, dfn, ctx, retaliation, lines)
    p_def = sum(p for k, p in odds if k in ("Blocked", "Evaded", "Deflected"))
    ret = 0.0 if retaliation else min(1.0, dfn.stat("ret") * ctx.data.stance(dfn.stance).retaliate)
    return DuelOdds(att.mini(0), dfn.mini(0), odds, weights, lines, damages, final, p_def * ret, calc)
