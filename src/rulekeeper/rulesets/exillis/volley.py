"""Bookkeeping shared by the zone attacks that are not arrows (lightning, artillery).

A :class:`Volley` holds the zone while projectiles fall on it: every change is recorded as
a zone event, casualties and friendly-fire penalties are collected, and :meth:`Volley.finish`
applies morale and the shooter's Fatigue (or Veil) exactly as a volley of arrows does, so
the three kinds of shot end the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.events import Event

from .aftermath import Death, StaticModifier, add_fatigue, apply_morale
from .combatants import Combatant
from .events import record
from .morale import FRIENDLY_FIRE_PENALTY
from .options import ExIllisOptions
from .ranged import RangedReport, ShotRecord, ShotSetup

POOL_EXPLAIN = ("weights are each miniature's Bulk",)


@dataclass
class Volley:
    """The zone under fire and what has happened to it so far (mutable, local to one resolution)."""

    shooter: Combatant
    target_zone: tuple[Combatant, ...]
    options: ExIllisOptions
    zone: dict[str, Combatant] = field(default_factory=dict)
    everyone: dict[str, Combatant] = field(default_factory=dict)
    log: list[Event] = field(default_factory=list)
    deaths: list[Death] = field(default_factory=list)
    statics: list[StaticModifier] = field(default_factory=list)
    records: list[ShotRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.zone = {c.key: c for c in self.target_zone}
        self.everyone = {**self.zone, self.shooter.key: self.shooter}

    @property
    def key(self) -> str:
        return self.options.space_bulk_key()

    def now(self) -> tuple[Combatant, ...]:
        return tuple(self.zone.values())

    def enemies_left(self) -> bool:
        return any(c.side != self.shooter.side and c.count > 0 for c in self.zone.values())

    def put(self, new: Combatant, cause: str) -> None:
        record(self.everyone, new, self.log, cause)
        if new.key in self.zone:
            self.zone[new.key] = new

    def current_shooter(self) -> Combatant:
        return self.everyone[self.shooter.key]

    def firing(self, setup: ShotSetup) -> Iterator[tuple[int, str, ShotSetup]]:
        """Each living miniature of the shooter, with the shot's set-up as the zone stands now.

        A miniature that finds no enemy left is recorded as such and skipped: lightning and
        artillery fire miniature by miniature at a zone their earlier shots changed.
        """
        for si in self.shooter.alive():
            name = self.shooter.mini(si)
            if not self.enemies_left():
                self.records.append(ShotRecord(name, "No target left"))
                continue
            yield si, name, replace(setup, shooter=self.current_shooter(), target_zone=self.now())

    def hurt(self, key: str, i: int, amount: int, cause: str) -> tuple[Combatant, float, bool]:
        """Take ``amount`` HP from miniature ``i`` of ``key``; returns the unit, its HP left, killed."""
        t = self.everyone[key]
        new_hp = max(0.0, t.hp[i] - amount)
        self.put(t.with_hp(i, new_hp), cause)
        killed = amount > 0 and new_hp <= 0 < t.hp[i]
        if killed:
            self.deaths.append(Death(t.side, t.key, t.mini(i), t.stat(self.key)))
        return self.everyone[key], new_hp, killed

    def friendly_fire(self, key: str) -> None:
        """"it will cause a Morale penalty of 5 for each ally hit"."""
        self.statics.append(StaticModifier(key, FRIENDLY_FIRE_PENALTY, f"friendly fire from {self.shooter.key}", static=False))

    def pick(self, fate: Fate, label: str, pool: list[tuple[str, int, float]]) -> tuple[str, int] | None:
        """Draw a miniature from ``pool`` (unit key, index, weight); ``None`` if nobody is left."""
        live = [(k, i, w) for k, i, w in pool if self.zone[k].hp[i] > 0 and w > 0]
        if not live:
            return None
        names = {self.zone[k].mini(i): (k, i) for k, i, _ in live}
        request: ChanceRequest = discrete(label, [(self.zone[k].mini(i), w) for k, i, w in live], POOL_EXPLAIN)
        return names[fate.draw(request).outcome]

    def finish(self, action: str, title: str, cost: float, veil: bool) -> RangedReport:
        """Morale from casualties and friendly fire, then the shooter's Fatigue or Veil."""
        s = self.shooter
        before = self.target_zone
        after = tuple(self.zone[c.key] for c in before)
        after, morale = apply_morale(before, after, self.deaths, self.statics, self.options, self.key)
        for c in after:
            self.put(c, "morale")
        tired, fat = add_fatigue(self.current_shooter(), cost, veil=veil)
        self.put(tired, f"{title}: {'veil' if veil else 'fatigue'}")
        after = tuple(self.zone[c.key] for c in before)
        return RangedReport(
            s.key, action, self.records, [d.miniature for d in self.deaths], morale, fat, after, tired, tuple(self.log)
        )
