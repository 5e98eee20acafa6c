"""Rounds struck at the same time, casualties removed afterwards.

The seed (Movement: Charges): "If the charger and the target have the same value, they will
both perform their actions at the same time, and only after are the casualties removed."

Every round of the exchange is struck on the zone as it stood before any of them (so a
defender cut down by the charge still strikes back, and the reverse); the Hit Points each
miniature lost in every round are then added up, and the casualties, morale (casualties,
Intimidation, the charge's static penalties) and Fatigue follow once, as after one round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rulekeeper.core.chance import Fate

from .aftermath import Death, FatigueChange, MoraleChange, add_fatigue, apply_morale
from .combatants import Combatant
from .events import diff
from .fastcopy import evolve
from .melee import MeleeContext, MeleeReport, Strikes, charge_statics, strike_round


@dataclass(frozen=True)
class Blow:
    """One round of the exchange: who strikes, how, at whom (``only``), and whether it is free (a reaction)."""

    attacker: str
    ctx: MeleeContext
    only: frozenset[str] | None = None
    free: bool = False


def _can_strike(before: dict[str, Combatant], blow: Blow) -> bool:
    att = before.get(blow.attacker)
    if att is None or att.count == 0 or att.fleeing:
        return False
    return any(c.side != att.side and c.count > 0 and (blow.only is None or c.key in blow.only)
               for c in before.values())


def _merged(zone: tuple[Combatant, ...], hits: list[tuple[Blow, Strikes]], space: str,
            ) -> tuple[dict[str, Combatant], list[Death]]:
    """The zone with every round's lost Hit Points taken at once, and the casualties in the order they fell."""
    before = {c.key: c for c in zone}
    loss = {c.key: [0.0] * len(c.hp) for c in zone}
    for _, hit in hits:
        for k, c in hit.units.items():
            for i, h in enumerate(c.hp):
                loss[k][i] += before[k].hp[i] - h
    merged = {k: evolve(c, hp=tuple(max(0.0, h - loss[k][i]) for i, h in enumerate(c.hp))) for k, c in before.items()}
    deaths: list[Death] = []
    seen: set[str] = set()
    for d in (d for _, hit in hits for d in hit.deaths):
        if d.miniature not in seen:
            seen.add(d.miniature)
            deaths.append(d)
    for k, c in before.items():  # killed by wounds from two rounds, neither deadly alone
        for i in c.alive():
            if merged[k].hp[i] <= 0 and c.mini(i) not in seen:
                seen.add(c.mini(i))
                deaths.append(Death(c.side, k, c.mini(i), c.stat(space)))
    return merged, deaths


def settle(zone: tuple[Combatant, ...], struck: Sequence[Blow], merged: dict[str, Combatant], deaths: list[Death],
           ) -> tuple[tuple[Combatant, ...], list[MoraleChange], list[FatigueChange]]:
    """The exchange's aftermath, once for all its rounds: the casualties ``deaths`` removed from the zone ``merged``
    (every round's lost Hit Points taken), morale (casualties, Intimidation, the charge's static penalties), then
    each attacker's Fatigue (none for a free reaction). Also the whole-action odds' (:mod:`.whole.exchange`)."""
    before = {c.key: c for c in zone}
    options = struck[0].ctx.options
    space = options.space_bulk_key()
    statics = [s for b in struck for s in charge_statics(before[b.attacker], zone, b.ctx)]
    charge = any(b.ctx.action == "charge" for b in struck)
    after, morale = apply_morale(zone, tuple(merged[c.key] for c in zone), deaths, statics, options, space, charge)
    units = {c.key: c for c in after}
    tired = []
    for b in struck:
        action = b.ctx.data.action(b.ctx.action)
        units[b.attacker], change = add_fatigue(units[b.attacker], 0.0 if b.free else action.fatigue.value)
        tired.append(change)
    return tuple(units[c.key] for c in zone), morale, tired


def resolve_exchange(zone: tuple[Combatant, ...], blows: Sequence[Blow], fate: Fate) -> list[MeleeReport]:
    """Strike every round of ``blows`` on ``zone`` as it stands, then remove the casualties together.

    Returns one report per round that struck; the casualties, morale and the zone after the
    exchange are on the last one (with every event, folded over ``zone``).
    """
    before = {c.key: c for c in zone}
    hits = [(b, strike_round(zone, b.attacker, b.ctx, fate, b.only)) for b in blows if _can_strike(before, b)]
    if not hits:
        return []
    merged, deaths = _merged(zone, hits, hits[0][0].ctx.options.space_bulk_key())
    final, morale, tired = settle(zone, [b for b, _ in hits], merged, deaths)
    events = tuple(e for c in final for e in diff(before[c.key], c, "simultaneous exchange"))
    reports = []
    for n, ((b, hit), fatigue) in enumerate(zip(hits, tired, strict=True)):
        last = n == len(hits) - 1
        reports.append(MeleeReport(
            b.attacker, b.ctx.action, b.ctx.direction, hit.duels, [d.miniature for d in deaths] if last else [],
            morale if last else [], fatigue, final, charge_statics(before[b.attacker], zone, b.ctx),
            events if last else (),
        ))
    return reports
