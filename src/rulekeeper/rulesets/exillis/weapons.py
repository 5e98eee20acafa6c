"""The weapon a melee attack is made with: the main melee weapon, or a secondary one.

The seed gives units one melee weapon line but names two occasions for another: the cavalry
charge (wiki: on the charge "lances count as the secondary melee weapon", which is why the
Baneret's Hero Killer does not apply to it) and the Polearm rule ("Charge reaction attacks are
done with their Secondary melee weapon"). Their multipliers are estimates in
``data/actions.yaml`` (``battle`` section).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .combatants import Combatant

if TYPE_CHECKING:
    from .melee_context import MeleeContext

#: The special rules that make a unit's charge a cavalry charge (undeflectable, a lance).
CHARGE_RULES = ("Heavy Cavalry Charge", "Light Cavalry Charge")


def undeflectable(att: Combatant, ctx: MeleeContext) -> str | None:
    """The cavalry charge rule of ``att``'s charge: "This unit's charge is impossible to deflect"."""
    if ctx.action != "charge":
        return None
    for rule in CHARGE_RULES:
        if att.has_rule(rule):
            return rule
    return None


@dataclass(frozen=True)
class Weapon:
    """Multipliers of the weapon an attack is made with, when it is not the main melee weapon."""

    wpd: float = 1.0
    ap: float = 1.0
    note: str = ""


MAIN_WEAPON = Weapon()


def weapon_of(att: Combatant, ctx: MeleeContext, retaliation: bool = False) -> Weapon:
    """The weapon of ``att``'s attacks in this round.

    * A cavalry charge (Heavy / Light Cavalry Charge) strikes with the lance — "lances count as
      the secondary melee weapon" on the charge (wiki) — whose impact multiplies Weapon Damage
      and Armour Piercing: cavalry "usually have a powerful charge if they can manage to perform
      it at units in the open" (seed). Against a zone with a terrain feature only the share
      ``charge_impact_in_terrain`` of the bonus is kept.
    * Polearm: "Charge reaction attacks are done with their Secondary melee weapon."

    Retaliations are made with the main weapon.
    """
    if retaliation:
        return MAIN_WEAPON
    const = ctx.data.num
    if ctx.action == "charge":
        rule = undeflectable(att, ctx)
        if rule is None:
            return MAIN_WEAPON
        full = const("heavy_charge_impact" if rule == CHARGE_RULES[0] else "light_charge_impact")
        keep = 1.0 if ctx.open_ground else const("charge_impact_in_terrain")
        impact = 1.0 + (full - 1.0) * keep
        where = "in the open" if ctx.open_ground else f"blunted by terrain, {keep:.0%} of ×{full:g} kept"
        return Weapon(impact, impact, f"{rule}: lance impact ×{impact:g} ({where})")
    if ctx.reaction and att.has_rule("Polearm"):
        return Weapon(const("polearm_reaction_wpd"), const("polearm_reaction_ap"),
                      "Polearm: secondary weapon for a charge reaction")
    return MAIN_WEAPON
