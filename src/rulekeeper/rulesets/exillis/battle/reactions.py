"""Charge reactions: who may react to a charge, and the exact chance of each.

One function serves the resolution (:func:`.handlers._charge`) and the odds shown before
the charge (:mod:`.odds`), so the preview can never drift from the roll. The rules:

* "Difference in priority → Chance to perform a Charge Reaction": +3 → 100 %, +2 → 83 %,
  +1 → 67 %, 0 → 50 %, −1 → 33 %, −2 → 17 %, −3 → 0 % (:data:`REACTION_TABLE`).
* Direction: on a flank "the victim has a 50% chance it will miss its charge reaction",
  amplified from the rear (:data:`REACTION_DIRECTION`).
* Terrain: a zone with a terrain feature adds ``terrain_reaction_bonus`` Reaction Priority
  to its defenders; a defensive stance adds ``defensive_reaction_bonus``.
* Denial: each ally of the chargers already in the zone denies the most aggressive
  defender its reaction; a hero reacts through its Retinue; teleporters ignore reactions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rulekeeper.core.chance import ChanceRequest, discrete

from .state import BattleState, BattleUnit
from .tables import BattleTables

#: "Difference in priority → Chance to perform a Charge Reaction" (seed, Charge Reactions).
REACTION_TABLE = {3: 1.0, 2: 0.83, 1: 0.67, 0: 0.5, -1: 0.33, -2: 0.17, -3: 0.0}
#: "the victim has a 50% chance it will miss its charge reaction" on a flank; "amplified" from the rear.
REACTION_DIRECTION = {"front": 1.0, "flank": 0.5, "rear": 0.25}


def reaction_chance(diff: float) -> float:
    d = int(max(-3, min(3, round(diff))))
    return REACTION_TABLE[d]


@dataclass(frozen=True)
class Reaction:
    """One defender's chance to react to a charge, and the numbers behind it."""

    defender: str
    rp: float
    cp: float
    direction: str
    chance: float

    @property
    def label(self) -> str:
        return f"charge reaction: {self.defender} (RP {self.rp:g} vs CP {self.cp:g}, {self.direction})"

    @property
    def first(self) -> bool:
        """A defender of higher priority strikes before the charge lands."""
        return self.rp > self.cp

    @property
    def simultaneous(self) -> bool:
        """Equal priority: "they will both perform their actions at the same time" (seed)."""
        return self.rp == self.cp

    def request(self) -> ChanceRequest:
        """The draw the resolution makes (as :meth:`Fate.chance` builds it)."""
        p = min(1.0, max(0.0, self.chance))
        return discrete(self.label, [("Reacts", p), ("Caught", 1.0 - p)])

    def to_dict(self) -> dict[str, str | float]:
        return {"defender": self.defender, "rp": self.rp, "cp": self.cp, "direction": self.direction,
                "chance": self.chance}


def charge_reactions(state: BattleState, t: BattleTables, members: Sequence[BattleUnit], dest: tuple[int, int],
                     direction: str) -> list[Reaction]:
    """Every defender in ``dest`` entitled to react to ``members``' charge, with its chance.

    ``state`` is the battle before the chargers move in. A defender whose chance is 0 is
    listed (the preview shows it) but draws nothing.
    """
    if all(str(m.c.profile.movement) == "teleporter" for m in members):
        return []
    side = members[0].side
    charging = {m.key for m in members}
    allies_there = [u for u in state.in_zone(dest) if u.side == side and u.key not in charging]
    defenders = [u for u in state.enemies_in(dest, side) if not u.c.fleeing]
    entitled = sorted(defenders, key=lambda d: (-d.c.stat("agg"), d.deploy_index))[len(allies_there):]
    cp = max(m.c.stat("cp") for m in members)
    bonus_terrain = t.rules.num("terrain_reaction_bonus") if state.terrain_at(dest) != "fields" else 0.0
    keys = {x.key for x in entitled}
    out = []
    for d in entitled:
        if d.is_hero and d.retinue is not None and d.retinue in keys:
            continue  # the group reacts through its retinue
        rp = d.c.stat("rp") + bonus_terrain
        if d.c.stance == "defensive":
            rp += t.rules.num("defensive_reaction_bonus")
        out.append(Reaction(d.key, rp, cp, direction, reaction_chance(rp - cp) * REACTION_DIRECTION[direction]))
    return out
