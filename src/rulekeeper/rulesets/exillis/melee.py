"""Melee: target assignment by Aggressiveness, the roll to hit, damage and retaliation.

One round: every living miniature of the attacking unit, in order, (1) is assigned a
target by a Weighted Random Draw of Aggressiveness over the living enemy miniatures
in the zone that have not yet received their Bulk's worth of attacks this round (a
"Miss" when none is left), (2) rolls to hit — a WRD of its Melee Accuracy against the
target's Block, Evade and Deflect, each scaled by its side's Fatigue efficiency, with
5 % Luck and 5 % Bad Luck set aside — and (3) deals damage. A miniature that
defended itself may retaliate once per round with its RET chance; retaliations are
free and cannot be retaliated against.

The roll to hit itself is :mod:`.roll_to_hit`, the round's context :mod:`.melee_context`;
their names are re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.errors import ImpossibleRequestError, UnknownNameError
from rulekeeper.core.events import Event
from rulekeeper.core.wording import counted

from . import damage as dmg
from .aftermath import Death, FatigueChange, MoraleChange, StaticModifier, add_fatigue, apply_morale
from .combatants import Combatant
from .events import record
from .melee_context import DIRECTION_DEFENCE, NO_MODS, MeleeContext, UnitMods
from .morale import cavalry_charge_penalty, flank_penalty, state_of
from .records import DuelLine, MeleeLine, StrikeLine
from .roll_to_hit import BAD_LUCK, DEFENCES, LUCK, DuelOdds, duel_odds
from .weapons import CHARGE_RULES

__all__ = [
    "BAD_LUCK", "DEFENCES", "DIRECTION_DEFENCE", "LUCK", "NO_MODS", "Duel", "DuelOdds", "MeleeContext", "MeleeReport",
    "Strike", "Strikes", "UnitMods", "charge_statics", "duel_odds", "finish_round", "relabelled", "resolve_round",
    "strike_round", "target_odds",
]


@dataclass(frozen=True)
class Strike:
    attacker: str
    target: str | None
    outcome: str
    damage: int = 0
    target_hp: float = 0.0
    killed: bool = False
    self_damage: int = 0

    def to_dict(self) -> StrikeLine:
        return {"attacker": self.attacker, "target": self.target, "outcome": self.outcome, "damage": self.damage,
                "target_hp": self.target_hp, "killed": self.killed, "self_damage": self.self_damage}


@dataclass(frozen=True)
class Duel:
    strike: Strike
    retaliation: Strike | None = None

    def to_dict(self) -> DuelLine:
        return {"strike": self.strike.to_dict(), "retaliation": self.retaliation.to_dict() if self.retaliation else None}


@dataclass(frozen=True)
class MeleeReport:
    attacker: str
    action: str
    direction: str
    duels: list[Duel]
    casualties: list[str]
    morale: list[MoraleChange]
    fatigue: FatigueChange
    zone: tuple[Combatant, ...]
    statics: list[StaticModifier] = field(default_factory=list)
    events: tuple[Event, ...] = ()

    def to_dict(self, events: bool = True, units: bool = True) -> MeleeLine:
        """JSON-able report; ``events``/``units`` False leave out those keys (the battle log has both already)."""
        d: MeleeLine = {
            "attacker": self.attacker,
            "action": self.action,
            "direction": self.direction,
            "duels": [duel.to_dict() for duel in self.duels],
            "casualties": self.casualties,
            "morale": [m.to_dict() for m in self.morale],
            "fatigue": self.fatigue.to_dict(),
        }
        if events:
            d = {"events": [e.to_dict() for e in self.events], **d}
        if units:
            d["units"] = [
                {"unit": c.key, "side": c.side, "alive": c.count, "hp": [round(h, 2) for h in c.hp],
                 "morale": round(c.morale, 2), "state": state_of(c),
                 "fatigue": round(c.fatigue, 3)}
                for c in self.zone
            ]
        return d


def target_odds(att: Combatant, zone: tuple[Combatant, ...]) -> list[tuple[str, float]]:
    """Chance that the first attack of the round lands on each enemy unit (by Aggressiveness)."""
    enemies = [c for c in zone if c.side != att.side and c.count > 0]
    weights = [(c.key, c.count * c.stat("agg")) for c in enemies]
    total = sum(w for _, w in weights)
    if total <= 0:
        raise ImpossibleRequestError(f"{att.key} has no enemy to attack in the zone")
    return [(k, w / total) for k, w in weights]


def relabelled(request: ChanceRequest, label: str) -> ChanceRequest:
    """``request`` under another label: what :func:`discrete` gives for the same odds and explanation.

    A round (or volley) draws many times from the same odds; normalising them once is enough.
    """
    return ChanceRequest(
        label, request.kind, request.outcomes, request.probabilities, request.weights, request.low, request.high,
        request.explain,
    )


def _strike(
    fate: Fate, zone: dict[str, Combatant], a_key: str, ai: int, d_key: str, di: int,
    ctx: MeleeContext, deaths: list[Death], retaliation: bool, log: list[Event],
    cache: dict[tuple[str, str, bool], tuple[DuelOdds, ChanceRequest]],
) -> tuple[Strike, str]:
    att, dfn = zone[a_key], zone[d_key]
    # odds depend on stats, fatigue, morale and stance, none of which change within a round
    label = f"{'retaliation' if retaliation else 'roll to hit'}: {att.mini(ai)} → {dfn.mini(di)}"
    hit = cache.get((a_key, d_key, retaliation))
    if hit is None:
        odds = duel_odds(att, dfn, ctx, retaliation)
        hit = cache[(a_key, d_key, retaliation)] = (odds, discrete(label, odds.odds, odds.explain))
    o, request = hit
    outcome = fate.draw(relabelled(request, label)).outcome
    space = ctx.options.space_bulk_key()
    if outcome == "Bad Luck":
        hurt = dmg.bad_luck_damage(att.max_hp)
        new_hp = att.hp[ai] - hurt
        record(zone, att.with_hp(ai, new_hp), log, f"{label}: Bad Luck")
        if new_hp <= 0:
            deaths.append(Death(att.side, a_key, att.mini(ai), att.stat(space)))
        return Strike(att.mini(ai), dfn.mini(di), outcome, 0, dfn.hp[di], False, hurt), outcome
    amount = 0
    if outcome in ("Attack", "Luck", "Blocked"):
        mult = ctx.options.luck_multiplier if outcome == "Luck" else 1.0
        div = max(1.0, dfn.stat("shd")) if outcome == "Blocked" else 1.0
        amount = dmg.roll(fate, label, o.final_damage, mult, div)
    new_hp = max(0.0, dfn.hp[di] - amount)
    record(zone, dfn.with_hp(di, new_hp), log, f"{label}: {outcome}")
    killed = amount > 0 and new_hp <= 0
    if killed:
        deaths.append(Death(dfn.side, d_key, dfn.mini(di), dfn.stat(space)))
    return Strike(att.mini(ai), dfn.mini(di), outcome, amount, new_hp, killed), outcome


def _targets(
    zone: tuple[Combatant, ...], att: Combatant, only: frozenset[str] | None, ctx: MeleeContext,
) -> list[tuple[str, list[str], int, float]]:
    """Enemy units ``att`` may strike this round: key, miniature names, attacks each can receive, Aggressiveness.

    Worked out once per round: Bulk, movement, Aggressiveness and the number of miniatures
    do not change while the round is resolved (only Hit Points do).
    """
    bulk = ctx.options.space_bulk_key()
    return [
        (c.key, [c.mini(i) for i in range(len(c.hp))], c.attack_cap(bulk), c.stat("agg"))
        for c in zone
        if c.side != att.side and (only is None or c.key in only)
    ]


TARGET_EXPLAIN = ("weights are the Aggressiveness of each enemy miniature still able to receive an attack",)


def _assignment(
    label: str, candidates: list[tuple[str, float]], seen: dict[tuple[tuple[str, float], ...], ChanceRequest],
) -> ChanceRequest:
    """The target-assignment draw (``Fate.choose``'s request), normalised once per set of candidates in a round."""
    key = tuple(candidates)
    hit = seen.get(key)
    if hit is None:
        hit = seen[key] = discrete(label, candidates, TARGET_EXPLAIN)
    return relabelled(hit, label)


@dataclass
class Strikes:
    """The strikes of one round before its aftermath: who is hit, who died, the zone's units after the blows."""

    units: dict[str, Combatant]
    duels: list[Duel]
    deaths: list[Death]
    log: list[Event]


def strike_round(
    zone: tuple[Combatant, ...], attacker: str, ctx: MeleeContext, fate: Fate, only: frozenset[str] | None = None,
) -> Strikes:
    """Every living miniature of ``attacker`` strikes once (target, roll to hit, damage, retaliation).

    Morale, routing and Fatigue are left to :func:`finish_round` (or to a simultaneous exchange,
    which removes the casualties of several rounds at once).
    """
    units = {c.key: c for c in zone}
    if attacker not in units:
        raise UnknownNameError("unit in the zone", attacker, units)
    att0 = units[attacker]
    if att0.fleeing:
        raise ImpossibleRequestError(f"{attacker} is Fleeing and cannot attack")
    if not [c for c in zone if c.side != att0.side and c.count > 0]:
        raise ImpossibleRequestError(f"{attacker} has no enemy to attack in the zone")
    received: dict[tuple[str, int], int] = {}
    retaliated: set[tuple[str, int]] = set()
    out = Strikes(units, [], [], [])
    cache: dict[tuple[str, str, bool], tuple[DuelOdds, ChanceRequest]] = {}
    targets = _targets(zone, att0, only, ctx)
    assignments: dict[tuple[tuple[str, float], ...], ChanceRequest] = {}
    for ai in att0.alive():
        if units[attacker].hp[ai] <= 0:
            continue  # killed earlier this round (by a retaliation or its own Bad Luck)
        candidates: list[tuple[str, float]] = []
        where: dict[str, tuple[str, int]] = {}
        for key, names, cap, agg in targets:
            c = units[key]
            if c.flying and not units[attacker].flying:
                continue  # "A flying miniature cannot be targeted by melee attacks from grounded units"
            for di in c.alive():
                if received.get((key, di), 0) < cap:
                    candidates.append((names[di], agg))
                    where[names[di]] = (key, di)
        if not candidates or sum(w for _, w in candidates) <= 0:
            out.duels.append(Duel(Strike(units[attacker].mini(ai), None, "Miss")))
            continue
        pick = fate.draw(_assignment(f"target assignment: {units[attacker].mini(ai)}", candidates, assignments)).outcome
        d_key, di = where[pick]
        received[(d_key, di)] = received.get((d_key, di), 0) + 1
        strike, outcome = _strike(fate, units, attacker, ai, d_key, di, ctx, out.deaths, False, out.log, cache)
        ret: Strike | None = None
        dfn = units[d_key]
        if (
            outcome in ("Blocked", "Evaded", "Deflected")
            and dfn.hp[di] > 0
            and units[attacker].hp[ai] > 0
            and (d_key, di) not in retaliated
        ):
            chance = min(1.0, dfn.stat("ret") * ctx.data.stance(dfn.stance).retaliate)
            if chance > 0 and fate.chance(f"retaliation chance: {dfn.mini(di)}", chance, "Retaliates", "No retaliation"):
                retaliated.add((d_key, di))
                ret, _ = _strike(fate, units, d_key, di, attacker, ai, ctx, out.deaths, True, out.log, cache)
        out.duels.append(Duel(strike, ret))
    return out


def finish_round(
    zone: tuple[Combatant, ...], attacker: str, ctx: MeleeContext, hit: Strikes, free: bool = False,
) -> MeleeReport:
    """The aftermath of a round: casualty, Intimidation and charge morale, then the attacker's Fatigue."""
    units, log = hit.units, hit.log
    statics = charge_statics(next(c for c in zone if c.key == attacker), zone, ctx)
    after = tuple(units[c.key] for c in zone)
    after, morale = apply_morale(zone, after, hit.deaths, statics, ctx.options, ctx.options.space_bulk_key(),
                                 charge=ctx.action == "charge")
    for c in after:
        record(units, c, log, "morale")
    action = ctx.data.action(ctx.action)
    tired, fatigue = add_fatigue(units[attacker], 0.0 if free else action.fatigue.value)
    record(units, tired, log, f"{action.title}: fatigue")
    final = tuple(units[c.key] for c in zone)
    return MeleeReport(
        attacker, ctx.action, ctx.direction, hit.duels, [d.miniature for d in hit.deaths], morale, fatigue, final,
        statics, tuple(log),
    )


def resolve_round(
    zone: tuple[Combatant, ...], attacker: str, ctx: MeleeContext, fate: Fate, only: frozenset[str] | None = None,
    free: bool = False,
) -> MeleeReport:
    """Resolve one round of attacks by every living miniature of ``attacker``.

    ``only``: restrict targets to these units (a charge reaction strikes the chargers).
    ``free``: a reflex (charge reaction) — "they do not cost any Action Points or Fatigue".
    """
    return finish_round(zone, attacker, ctx, strike_round(zone, attacker, ctx, fate, only), free)


def charge_statics(att: Combatant, zone: tuple[Combatant, ...], ctx: MeleeContext) -> list[StaticModifier]:
    """Static morale penalties a charge inflicts: flank/rear Intimidation and cavalry charges."""
    out: list[StaticModifier] = []
    if ctx.action != "charge":
        return out
    direction = ctx.direction_of(att.key)
    for c in zone:
        if c.side == att.side or c.count == 0:
            continue
        if direction in ("flank", "rear"):
            pen = flank_penalty(
                att.count * att.stat("intimidation"), c.count * c.stat("intimidation"), direction == "rear", ctx.options
            )
            if pen:
                out.append(StaticModifier(c.key, pen, f"{direction} charge by {att.key}"))
        for rule in CHARGE_RULES:
            if att.has_rule(rule):
                pen = cavalry_charge_penalty(rule, att.count, c.stat(ctx.options.space_bulk_key()))
                if pen:
                    out.append(StaticModifier(c.key, pen, f"{rule} ({counted(att.count, 'knight')})"))
    return out
