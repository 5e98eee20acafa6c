"""Artillery: a boulder that falls like an arrow, then the fragments of its blast.

The seed's "Artillery Possible Results":

- "Direct hit: The centre of the shot is a potent boulder and hits a very unlucky victim for
  massive damage."
- "Partial Hit: The blast of the artillery attack hits an enemy."
- "Friendly Fire: The blast of the artillery attack has hit an ally."
- "Missed: The whole blast fails to hit anything."

and its Artillery special rule: "Must reload between each shot. Heroes are less likely to be
hit. Each consecutive shot in the same zone scatters less."

Rules decisions (docs/rules/exillis-battles.md): the boulder's draw is the arrow's zone model
without Luck (none is listed): Accurate marbles (Ranged Accuracy × Fatigue × visibility ×
the same-zone bonus) and enemy space give a Direct hit, allied space Friendly Fire, free space
and cover a Miss of the whole blast. A boulder that lands throws ``artillery_fragments``
fragments (estimate), each drawn like a blind arrow (enemy space: Partial Hit, allied space:
Friendly Fire, free space and cover: nothing) and dealing ``artillery_fragment_damage`` of the
boulder's damage. A hero's Bulk counts ``artillery_hero_weight`` (estimate) everywhere.
No shield blocks a boulder (Missile Block is against "an enemy arrow or bolt").
"""

from __future__ import annotations

from rulekeeper.core.chance import ChanceRequest, Fate, discrete

from . import damage as dmg
from .combatants import Combatant
from .fatigue import efficiency
from .ranged import ZONE_SPACE, RangedReport, ShotRecord, ShotSetup, _check, exposed_ally, visibility, weighed_space
from .roll_to_hit import _mods
from .rules_data import RulesData
from .volley import Volley


def _weight(c: Combatant, key: str, data: RulesData) -> float:
    """One miniature's space: Bulk, halved if it moved, × the hero weight for heroes."""
    hero = data.num("artillery_hero_weight") if str(c.profile.kind) == "hero" else 1.0
    return c.stat(key) * (0.5 if c.moved else 1.0) * hero


def _spaces(setup: ShotSetup, zone: tuple[Combatant, ...]) -> tuple[float, float, float, float, list[str]]:
    """Enemy space, allied space, free space and cover of the target zone, with the arithmetic."""
    assert setup.data is not None
    s, key, data = setup.shooter, setup.options.space_bulk_key(), setup.data
    enemy, allied, counted = weighed_space(s, zone, setup.own_zone, lambda c: _weight(c, key, data))
    lines = []
    for c, w in counted:
        hero = " × hero weight" if str(c.profile.kind) == "hero" else ""
        lines.append(f"{'enemy' if c.side != s.side else 'allied'} space: {c.count} × {c.name} bulk {c.stat(key):g}{hero} = {w:g}")
    free = max(0.0, ZONE_SPACE - enemy - allied)
    cover = data.terrain_feature(setup.terrain).cover
    lines.append(f"free space = 80 − {allied:g} − {enemy:g} = {free:g}; cover ({setup.terrain}) = {cover:g}")
    return enemy, allied, free, cover, lines


def boulder_request(setup: ShotSetup, name: str) -> ChanceRequest:
    """Where the boulder falls: Direct hit (Accurate marbles + enemy space), Friendly Fire, Missed."""
    data, action = _check(setup)
    s = setup.shooter
    vis, lines = visibility(setup.crossed, data)
    eff = efficiency(s.fatigue)
    m_acc, _ = _mods(s, data)
    accurate = s.stat("racc") * eff * vis * action.accuracy.value * m_acc * setup.accuracy_bonus
    lines.insert(0, f"shooter: {s.name}, {action.title}, range {setup.distance}")
    lines.append(
        f"Accurate = RACC {s.stat('racc'):g} × fatigue efficiency {eff:.3f} × visibility {vis:.3f} × morale {m_acc:g}"
        + (f" × {setup.accuracy_bonus:g} (same zone again: scatters less)" if setup.accuracy_bonus != 1 else "")
        + f" = {accurate:.2f}"
    )
    enemy, allied, free, cover, more = _spaces(setup, setup.target_zone)
    lines += more
    weights = [("Direct hit", accurate + enemy), ("Friendly fire", allied), ("Missed", free + cover)]
    return discrete(f"where the boulder falls: {name}", weights, lines)


def fragment_request(setup: ShotSetup, zone: tuple[Combatant, ...], label: str) -> ChanceRequest:
    """Where one fragment of the blast falls: a blind draw over the zone (no Accuracy)."""
    enemy, allied, free, cover, lines = _spaces(setup, zone)
    return discrete(label, [("Partial hit", enemy), ("Friendly fire", allied), ("Missed", free + cover)], lines)


def _pool(v: Volley, setup: ShotSetup, friendly: bool) -> list[tuple[str, int, float]]:
    assert setup.data is not None
    s = v.shooter
    return [
        (c.key, i, _weight(c, v.key, setup.data))
        for c in v.now()
        if (exposed_ally(s, c, setup.own_zone) if friendly else c.side != s.side)
        for i in c.alive()
    ]


def _damage(s: Combatant, t: Combatant) -> float:
    calc = dmg.physical(s.stat("ranged_wpd"), s.stat("sht"), t.stat("tgh"), s.stat("ranged_ap"), t.stat("armour"), ranged=True)
    return calc.final


def _land(v: Volley, fate: Fate, setup: ShotSetup, name: str, what: str, friendly: bool, share: float) -> None:
    """A boulder or fragment falls on a miniature (drawn by Bulk) and deals ``share`` of the damage."""
    hit = v.pick(fate, f"which miniature: {name} ({what})", _pool(v, setup, friendly))
    if hit is None:
        v.records.append(ShotRecord(name, "Missed"))
        return
    t_key, ti = hit
    if friendly:
        v.friendly_fire(t_key)
    t = v.zone[t_key]
    amount = dmg.roll(fate, f"{name} → {t.mini(ti)}", _damage(v.current_shooter(), t), share)
    _, left, killed = v.hurt(t_key, ti, amount, f"{name}: {what}")
    v.records.append(ShotRecord(name, what, t.mini(ti), False, amount, left, killed))


def resolve_artillery(setup: ShotSetup, fate: Fate) -> RangedReport:
    """One boulder per miniature of the engine; each that lands throws its fragments."""
    data, action = _check(setup)
    s = setup.shooter
    v = Volley(s, setup.target_zone, setup.options)
    fragments = int(data.num("artillery_fragments"))
    share = data.num("artillery_fragment_damage")
    for _, name, now in v.firing(setup):
        where = fate.draw(boulder_request(now, name)).outcome
        if where == "Missed":
            v.records.append(ShotRecord(name, "Missed"))
            continue
        _land(v, fate, setup, f"{name} boulder", "Direct hit" if where == "Direct hit" else "Friendly fire",
              where == "Friendly fire", 1.0)
        for k in range(fragments):
            frag = f"{name} fragment {k + 1}"
            fell = fate.draw(fragment_request(setup, v.now(), f"where the fragment falls: {frag}")).outcome
            if fell == "Missed":
                v.records.append(ShotRecord(frag, "Missed"))
                continue
            _land(v, fate, setup, frag, "Partial hit" if fell == "Partial hit" else "Friendly fire",
                  fell == "Friendly fire", share)
    return v.finish(setup.action, action.title, action.fatigue.value, veil=False)
