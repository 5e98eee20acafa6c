"""Step 1 of the combat, "Determine combatants", for a campaign round: one battle per region.

The seed: "Based on the orders given, which units in a region are engaging in a battle. Most of
the time this will be 1 unit on each "side"", and step 4: "hits dealt by one side are divided
evenly across all enemy units involved in the battle". So a region where Attacks are given holds
**one** battle, fought by every unit engaged there: each unit that Attacks (and finds its target
in the region after the moves) and each unit it Attacks (an Attack on an Enclave engages all its
defenders). Two units attacking each other therefore fight once; two attackers against one
defender fight one battle and the defender's hits are split between them.

Sides are factions. When the region holds a standing Enclave whose faction is engaged, that
faction is the defending side (its "Enclave unit defending a settlement"); otherwise the faction
of the first unit (campaign order) that Attacks is the attacking side. Every other engaged unit is
on the other side. Each unit's role for the modifiers and for "a Bloodless unit … Attack[s] an
Enclave" is what its order made it: attacker, attacked, or both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..modifiers import BattleRole
from .model import CampaignState, Enclave, FieldUnit
from .orders import Order


@dataclass(frozen=True)
class Engagement:
    """One region's battle before it is fought: who is on which side, and who attacks whom."""

    region: str
    attackers: tuple[FieldUnit, ...]
    defenders: tuple[FieldUnit, ...]
    roles: dict[str, frozenset[BattleRole]]
    enclave: Enclave | None  # the standing Enclave whose faction defends, if any
    attacks: tuple[tuple[str, str], ...]  # (attacking unit, its order's target), in unit order

    @property
    def title(self) -> str:
        a = ", ".join(u.label for u in self.attackers)
        d = ", ".join(u.label for u in self.defenders)
        return f"Battle in {self.region}: {a} against {d}"


def targets_of(state: CampaignState, attacker: FieldUnit, target: str) -> list[FieldUnit]:
    """Who an Attack meets in the attacker's region now (after the moves): a unit, or an Enclave's defenders."""
    enclave = next((e for e in state.enclaves if e.name == target), None)
    if enclave is not None:
        return list(state.defenders_of(enclave)) if enclave.region == attacker.region else []
    unit = state.unit(target)
    return [unit] if unit.region == attacker.region and unit.health > 0 else []


def _engagement(state: CampaignState, region: str, hits: Sequence[tuple[FieldUnit, list[FieldUnit], str]]) -> Engagement:
    """The battle in ``region`` from its Attacks (each attacker with the units its Attack engages)."""
    roles: dict[str, set[BattleRole]] = {}
    for attacker, targets, _ in hits:
        roles.setdefault(attacker.label, set()).add("attacker")
        for t in targets:
            roles.setdefault(t.label, set()).add("defender")
    engaged = [u for u in state.units if u.label in roles]
    factions = {u.faction for u in engaged}
    enclave = state.enclave_in(region)
    if enclave is not None and not enclave.fallen and enclave.faction in factions:
        defending = enclave.faction
    else:
        enclave = None
        first = hits[0][0].faction
        defending = next(f for f in (u.faction for u in engaged) if f != first)
    return Engagement(
        region,
        tuple(u for u in engaged if u.faction != defending),
        tuple(u for u in engaged if u.faction == defending),
        {label: frozenset(r) for label, r in roles.items()},
        enclave,
        tuple((a.label, target) for a, _, target in hits),
    )


def engagements(state: CampaignState, attacks: Sequence[Order]) -> tuple[list[Engagement], list[str]]:
    """Every region's battle (in the order of each region's first Attack) and a log line per Attack that finds no one."""
    by_region: dict[str, list[tuple[FieldUnit, list[FieldUnit], str]]] = {}
    missed: list[str] = []
    for o in attacks:
        attacker = state.unit(o.unit)
        targets = targets_of(state, attacker, o.target or "") if attacker.health > 0 else []
        if not targets:
            missed.append(f"{o.unit}'s Attack on {o.target} finds no one to fight in {attacker.region}")
            continue
        by_region.setdefault(attacker.region, []).append((attacker, targets, o.target or ""))
    return [_engagement(state, region, hits) for region, hits in by_region.items()], missed
