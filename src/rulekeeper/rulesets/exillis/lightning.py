"""Lightning: bolts drawn to Bulk, Armour and cover, then resisted or not.

The seed's "Lightning Attacks Possible Results" replace the arrow's draw:

- "Bulk Hit: The projectile hits an enemy because of the zone's density (Bulk). Armour
  multiplies each miniature's Bulk." — Medium Armour: "the Bulk is multiplied by 2 for
  targeting", Heavy Armour: "multiplied by 3".
- "Friendly Fire: The projectile hits a friendly miniature in accordance with the rule of Bulk."
- "Cover: ... Lightning is drawn to cover and has twice the chances to hit cover."
- "Resisted: The projectile strikes a miniature, but it resists all of its effects."
- "Luck: ... 50% increased damage, leaving the miniature no chance to resist."
- "Bad Luck: ... losing 10% of its maximum HP."

There is no Accurate hit and no Missed among them: a bolt never falls on free space, it
always strikes a miniature (friend or foe) or the cover (a rules decision, see
docs/rules/exillis-battles.md). Each caster miniature throws one bolt at the zone.
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.wrd import with_fixed

from . import damage as dmg
from .combatants import Combatant
from .ranged import RangedReport, ShotRecord, ShotSetup, _check, exposed_ally, weighed_space
from .roll_to_hit import BAD_LUCK, LUCK, _mods
from .rules_data import Spell
from .spells import spell_odds
from .volley import Volley

#: Armour type → how much each miniature's Bulk draws lightning (seed, "Armour Types").
ARMOUR_DRAW = {"light": 1.0, "medium": 2.0, "heavy": 3.0}
#: "Lightning is drawn to cover and has twice the chances to hit cover."
COVER_DRAW = 2.0
#: "The projectile strikes an enemy miniature with 50% increased damage".
LUCK_DAMAGE = 1.5


def bolt_weight(c: Combatant, key: str) -> float:
    """One miniature's pull on a bolt: Bulk (halved if it moved) × its Armour type's factor."""
    return c.stat(key) * (0.5 if c.moved else 1.0) * ARMOUR_DRAW[str(c.profile.armour_type)]


def bolt_odds(setup: ShotSetup) -> tuple[list[tuple[str, float]], list[str]]:
    """Where one bolt falls: enemy Bulk, exposed allied Bulk, cover × 2; Luck and Bad Luck 5 % each."""
    data, action = _check(setup)
    s, key = setup.shooter, setup.options.space_bulk_key()
    lines = [f"caster: {s.count} × {s.name}, {action.title}, range {setup.distance}"]
    enemy, allied, counted = weighed_space(s, setup.target_zone, setup.own_zone, lambda c: bolt_weight(c, key))
    for c, w in counted:
        lines.append(
            f"{'enemy' if c.side != s.side else 'allied'} {c.name}: {c.count} × bulk {c.stat(key):g}"
            + (" × ½ (moved)" if c.moved else "") + f" × {c.profile.armour_type} armour {ARMOUR_DRAW[str(c.profile.armour_type)]:g} = {w:g}"
        )
    cover = COVER_DRAW * data.terrain_feature(setup.terrain).cover
    lines.append(f"cover ({setup.terrain}) × 2 = {cover:g}; lightning never falls on free space")
    _, m_luck = _mods(s, data)
    luck = max(0.0, LUCK + m_luck)
    lines.append(f"Luck {luck:.0%}, Bad Luck {BAD_LUCK:.0%}")
    weights = {"Bulk hit": enemy, "Friendly fire": allied, "Cover": cover}
    if sum(weights.values()) <= 0:
        weights["Cover"] = 1.0  # nothing to strike at all cannot happen: _check wants an enemy
    return with_fixed({"Luck": luck, "Bad Luck": BAD_LUCK}, weights), lines


def bolt_request(setup: ShotSetup, name: str) -> ChanceRequest:
    """The draw of where the bolt of miniature ``name`` falls (the preview shows the first)."""
    odds, lines = bolt_odds(setup)
    return discrete(f"where the bolt falls: {name}", odds, lines)


def _pool(v: Volley, friendly: bool, own: bool) -> list[tuple[str, int, float]]:
    s = v.shooter
    return [
        (c.key, i, bolt_weight(c, v.key))
        for c in v.now()
        if (exposed_ally(s, c, own) if friendly else c.side != s.side)
        for i in c.alive()
    ]


def resolve_lightning(setup: ShotSetup, fate: Fate) -> RangedReport:
    """Every caster miniature throws a bolt at the zone; casualties, morale and Veil follow."""
    data, action = _check(setup)
    assert action.spell is not None
    spell = data.spell(action.spell)
    s = setup.shooter
    v = Volley(s, setup.target_zone, setup.options)
    for si, name, now in v.firing(setup):
        where = fate.draw(bolt_request(now, name)).outcome
        if where == "Bad Luck":
            hurt = dmg.bad_luck_damage(s.max_hp)
            v.hurt(s.key, si, hurt, f"{name}: Bad Luck")
            v.records.append(ShotRecord(name, "Bad Luck", self_damage=hurt))
            continue
        if where == "Cover":
            v.records.append(ShotRecord(name, "Cover"))
            continue
        friendly = where == "Friendly fire"
        hit = v.pick(fate, f"which miniature: {name} ({where})", _pool(v, friendly, setup.own_zone))
        if hit is None:
            v.records.append(ShotRecord(name, "Cover"))
            continue
        _strike(v, fate, name, hit, where, spell, setup, friendly)
    return v.finish(setup.action, action.title, spell.veil.value, veil=True)


def _strike(v: Volley, fate: Fate, name: str, hit: tuple[str, int], where: str, spell: Spell, setup: ShotSetup,
            friendly: bool) -> None:
    """A bolt strikes miniature ``hit``: resist roll (not on a Luck), damage, elemental chain."""
    assert setup.data is not None
    t_key, ti = hit
    t = v.zone[t_key]
    if friendly:
        v.friendly_fire(t_key)
    caster = v.current_shooter()
    if spell.element in t.profile.immune:
        v.records.append(ShotRecord(name, "Resisted", t.mini(ti), True, 0, t.hp[ti]))
        return
    o = spell_odds(caster, t, spell, setup.data, setup.options)
    if where != "Luck":
        resisted = fate.draw(discrete(f"resist roll: {name} → {t.mini(ti)}", o.odds, o.explain)).outcome == "Resisted"
        if resisted:
            v.records.append(ShotRecord(name, "Resisted", t.mini(ti), True, 0, t.hp[ti]))
            return
    mult = LUCK_DAMAGE if where == "Luck" else 1.0
    amount = dmg.roll(fate, f"{name} → {t.mini(ti)}", o.final, mult)
    if amount > 0 and o.chain != t.chain:
        v.put(replace(t, chain=o.chain), f"{name}: {where} (elemental chain)")
    _, hp_left, killed = v.hurt(t_key, ti, amount, f"{name}: {where}")
    v.records.append(ShotRecord(name, where, t.mini(ti), False, amount, hp_left, killed))
