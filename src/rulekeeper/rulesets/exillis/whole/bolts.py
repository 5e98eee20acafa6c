"""Lightning as a distribution: where each bolt falls, whom it strikes, whether it is resisted, what it does.

The draws of :func:`..lightning.resolve_lightning`, caster miniature by caster miniature, over
every reachable state of the target zone (or for the particles of :mod:`.sampled_volley`), with
the volley's bookkeeping of :mod:`.volleys`:

* where the bolt falls: the engine's own :func:`..lightning.bolt_odds` (Bulk hit, Friendly fire,
  Cover, Luck, Bad Luck) for the zone's living miniatures as the earlier bolts left it;
* which miniature: by :func:`..lightning.bolt_weight` (Bulk, halved if it moved, × its Armour
  type's pull), enemies or exposed allies (friendly fire: −5 morale per ally struck);
* the resist roll of :func:`..spells.spell_odds` (not on a Luck; an immune unit always resists),
  then the damage (the exact law of ``damage.roll``, × 1.5 on a Luck);
* the engine's own :meth:`..volley.Volley.finish` on every outcome (casualty and friendly-fire
  morale, the caster's Veil).

The elemental chain: a bolt that hurts a unit sets its chain (``spell_odds``' ``chain``); a later
bolt on the same unit reads the new one. Where that changes the resist roll or the damage (a unit
last struck by the element before lightning in the chain order), the exact programme gives way to
the sampled one, whose particles carry each unit's chain (:class:`Bolts` ``chain_matters``).
"""

from __future__ import annotations

import math
from dataclasses import replace

from ..aftermath import Death, StaticModifier
from ..combatants import Combatant
from ..damage import bad_luck_damage
from ..lightning import LUCK_DAMAGE, bolt_odds, bolt_weight
from ..morale import FRIENDLY_FIRE_PENALTY
from ..ranged import ShotOdds, ShotSetup, _check
from ..spells import CastOdds, spell_odds
from ..volley import Volley
from .rounds import Unit, least_hurt, rebuilt, records
from .volleys import VState, _Spec, _Volleys


class Bolts(_Volleys):
    """The volley's programme with lightning's draws (see the module docstring)."""

    enemy_falls = ("Bulk hit", "Luck")
    ally_fall = "Friendly fire"

    def __init__(self, sp: _Spec) -> None:
        super().__init__(sp)
        setup = sp.setup
        data, action = _check(setup)
        assert action.spell is not None
        self.spell = data.spell(action.spell)
        key = setup.options.space_bulk_key()
        self.weight = [bolt_weight(c, key) for _, c in sp.units]
        self.luck = LUCK_DAMAGE
        self.immune = [self.spell.element in c.profile.immune for _, c in sp.units]
        self.before = [self._cast(c) for _, c in sp.units]  # each unit's resist and damage as the volley begins
        self.after = [self._cast(replace(c, chain=o.chain)) for (_, c), o in zip(sp.units, self.before, strict=True)]
        self.chain_matters = [not im and (a.odds != b.odds or a.final != b.final)
                              for a, b, im in zip(self.before, self.after, self.immune, strict=True)]
        self.resist = [_resisted(o) for o in self.before]
        self.resist_after = [_resisted(o) for o in self.after]

    def _cast(self, c: Combatant) -> CastOdds:
        assert self.sp.setup.data is not None
        return spell_odds(self.sp.shooter, c, self.spell, self.sp.setup.data, self.sp.setup.options)

    def odds(self, st: VState) -> ShotOdds:
        """Where one bolt falls (the engine's ``bolt_odds``, once per set of living counts), with each unit's resist
        chance (as ``block``: 1 for an immune unit) and final damage as the volley began."""
        counts = (sum(1 for r in st[0] if r[0] > 0), *(sum(1 for r in recs if r[0] > 0) for recs in st[1]))
        hit = self.odds_at.get(counts)
        if hit is None:
            sp = self.sp
            shooter = rebuilt(sp.shooter, sp.s_unit, st[0])
            zone = tuple(shooter if c.key == shooter.key else c for c in self._zone(st))
            law, _lines = bolt_odds(replace(sp.setup, shooter=shooter, target_zone=zone))
            keys = [u.key for u, _c in sp.units]
            hit = self.odds_at[counts] = ShotOdds(
                law, {}, [], {}, {k: 1.0 if im else r for k, im, r in zip(keys, self.immune, self.resist, strict=True)},
                {k: o.final for k, o in zip(keys, self.before, strict=True)}, True)
        return hit

    def blocked_on_luck(self, j: int) -> bool:
        return self.immune[j]

    def exact_ok(self) -> bool:
        """The exact programme keeps no chain: it serves only where no bolt changes what a later one does."""
        return not any(self.chain_matters)

    def chained(self, j: int) -> tuple[float, float]:
        """Unit ``j``'s resist chance and final damage once a bolt has hurt it (its chain set)."""
        return (1.0 if self.immune[j] else self.resist_after[j]), self.after[j].final

    def finished(self, st: VState) -> tuple[tuple[Combatant, ...], Combatant]:
        """The engine's own :meth:`..volley.Volley.finish` on one outcome: morale, then the caster's Veil."""
        sp = self.sp
        shooter_recs, _tgt, deaths, ff = st
        v = _QuietVolley(sp.shooter, sp.setup.target_zone, sp.setup.options)
        shooter = self.rebuilt(-1, shooter_recs)
        v.everyone[shooter.key] = shooter
        for c in self._zone(st):
            if c.key == shooter.key:
                c = shooter
            v.zone[c.key] = v.everyone[c.key] = c
        key = sp.setup.options.space_bulk_key()
        for j in deaths:
            c = sp.shooter if j < 0 else sp.units[j][1]
            v.deaths.append(Death(c.side, c.key, c.key, c.stat(key)))
        for (u, _c), n in zip(sp.units, ff, strict=True):
            v.statics += [StaticModifier(u.key, FRIENDLY_FIRE_PENALTY, f"friendly fire from {sp.shooter.key}",
                                         static=False)] * n
        report = v.finish(sp.setup.action, self.action().title, self.spell.veil.value, veil=True)
        return report.zone, report.shooter_after


class _QuietVolley(Volley):
    """The engine's :class:`..volley.Volley`, its finish worked out without the event log (a preview reads the zone)."""

    def put(self, new: Combatant, cause: str) -> None:
        self.everyone[new.key] = new
        if new.key in self.zone:
            self.zone[new.key] = new


def _resisted(o: CastOdds) -> float:
    return dict(o.odds).get("Resisted", 0.0)


def bolts_spec(setup: ShotSetup, pooled: bool) -> tuple[Bolts, VState]:
    """The bolts' fixed parts and starting state (as :func:`.volleys.volley_spec` for arrows)."""
    _data, action = _check(setup)
    s = setup.shooter
    law, _lines = bolt_odds(setup)
    bad = any(n == "Bad Luck" and q > 0 for n, q in law) and pooled
    s_unit = Unit(s.key, s.side, False, tuple(s.alive()), float(bad_luck_damage(s.max_hp)) if bad else math.inf)
    probe = _Spec(setup, s, s_unit, [(Unit(c.key, c.side, pooled, tuple(c.alive())), c)
                                     for c in setup.target_zone if c.key != s.key], action.shots_per_miniature)
    b = Bolts(probe)
    if pooled:  # the floors: the least positive damage a bolt can deal each unit
        units = [(replace(u, floor=least_hurt([("Attack", 1.0), ("Luck", 1.0)], o.final, LUCK_DAMAGE, 1.0)), c)
                 for (u, c), o in zip(probe.units, b.before, strict=True)]
        b = Bolts(_Spec(setup, s, s_unit, units, action.shots_per_miniature))
    sp = b.sp
    start: VState = (records(s, s_unit), tuple(records(c, un) for un, c in sp.units), (), (0,) * len(sp.units))
    return b, start


__all__ = ["Bolts", "bolts_spec"]
