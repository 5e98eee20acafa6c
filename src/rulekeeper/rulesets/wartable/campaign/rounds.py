"""One campaign round: every side's orders at once, then resolution in a fixed order of phases.

The seed gives the rules but not the order a round resolves them in; the order decided here
(documented with its reasons in docs/rules/wartable.md, "Campaign") is:

1. **move** — every move at once (simultaneous orders: nobody moves "first");
2. **reach** — each Bloodless unit that moved into an Enclave's region ("reach … an Enclave");
3. **direct attack** — an Enclave with no defender left after the moves, where a hostile unit
   that stayed in the region takes an action, is Fallen;
4. **battles** — one battle per region from every unit engaged there (:mod:`.engage`, the
   seed's step 1), each the calculator's six-step combat;
5. **Reclaim** (+20, once per Enclave per round), 6. **Delve** (a roll on the Dungeon's table);
7. **Downtime** (when due) — each Bloodless unit present in an Enclave at its start;
8. **Faith** — restorations last, so "to full" is the state the next round starts from.

:func:`resolve_round` is pure: the state and orders in, a new state and every change out; the
only chance (Delve rolls) is drawn through the given :class:`Fate`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from rulekeeper.core.chance import Fate

from ..combat import resolve_combat
from ..model import Combatant, EnclaveState, WarTableOptions
from ..report import CombatReport
from ..rounding import show
from .engage import engagements
from .model import CampaignOptions, CampaignState, Enclave, FieldUnit
from .orders import FaithOrder, Order, checked_faith, checked_orders
from .stability import (
    StabilityChange,
    apply_change,
    attacked_directly,
    bloodless_downtime,
    bloodless_reach,
    faith,
    from_battle,
    predetermined,
    reclaim,
)
from .tables import RollTable, TableRoll, roll_on, shipped_table


@dataclass(frozen=True)
class RoundResult:
    """The state after the round and everything that happened, in the order it happened."""

    state: CampaignState
    changes: tuple[StabilityChange, ...]
    battles: tuple[CombatReport, ...]
    rolls: tuple[TableRoll, ...]
    log: tuple[str, ...]
    unapplied: tuple[str, ...] = ()  # effects with nothing to act on (a Delve's Stability, no Enclave)


@dataclass
class _Round:
    """The round being resolved (local to :func:`resolve_round`; never escapes it)."""

    state: CampaignState
    orders: dict[str, Order]
    opts: CampaignOptions
    changes: list[StabilityChange] = field(default_factory=list)
    battles: list[CombatReport] = field(default_factory=list)
    rolls: list[TableRoll] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    moved: set[str] = field(default_factory=set)
    unapplied: list[str] = field(default_factory=list)

    def change(self, c: StabilityChange) -> None:
        if self.state.enclave(c.enclave).fallen and c.delta <= 0:
            c = replace(c, fallen_before=True, fallen_after=True)  # a loss never lifts a Fallen Enclave
        if c.after == 0 < c.before and not c.fallen_after and self.opts.zero_stability == "falls":
            c = replace(c, fallen_after=True, arithmetic=f"{c.arithmetic}; Stability 0: the Enclave is Fallen")
        self.state = apply_change(self.state, c)
        self.changes.append(c)
        self.log.append(f"{c.enclave}: Stability {c.before} -> {c.after} ({c.rule}: {c.arithmetic})")

    def set_unit(self, unit: FieldUnit) -> None:
        self.state = replace(self.state, units=tuple(unit if u.label == unit.label else u for u in self.state.units))

    def of_kind(self, kind: str) -> list[Order]:
        return [o for o in self.orders.values() if o.kind == kind]


def _move(r: _Round) -> None:
    """Phase 1 and 2: every move at once, then the Stability each Bloodless arrival costs."""
    for o in r.of_kind("move"):
        assert o.target is not None
        r.set_unit(replace(r.state.unit(o.unit), region=o.target))
        r.moved.add(o.unit)
        r.log.append(f"{o.unit} moves to {o.target}")
    for label in sorted(r.moved):
        unit = r.state.unit(label)
        enclave = r.state.enclave_in(unit.region)
        if unit.bloodless and enclave is not None and not enclave.fallen:
            r.change(bloodless_reach(enclave, unit))


def _direct_attacks(r: _Round) -> None:
    """Phase 3: an undefended Enclave where a hostile unit that stayed takes an action falls."""
    for enclave in r.state.enclaves:
        if enclave.fallen or r.state.defenders_of(enclave):
            continue
        actors = [
            u for u in r.state.units_in(enclave.region)
            if u.faction != enclave.faction and u.label not in r.moved
            and (r.opts.fallen_on == "any_order" or r.orders[u.label].kind != "hold")
        ]
        if actors:
            r.change(attacked_directly(enclave, actors[0].label))


def _battles(r: _Round, battle_options: WarTableOptions) -> None:
    """Phase 4: one battle per region from every unit engaged there (step 1), the six-step combat."""
    fights, missed = engagements(r.state, r.of_kind("attack"))
    r.log += missed
    for e in fights:
        report = resolve_combat(
            [Combatant.of(u.unit, u.health, label=u.label) for u in e.attackers],
            [Combatant.of(u.unit, u.health, label=u.label) for u in e.defenders],
            r.state.map.traits(e.region),
            battle_options,
            enclave=None if e.enclave is None else EnclaveState(e.enclave.name, e.enclave.stability, "defenders"),
            title=e.title,
            roles=e.roles,
        )
        r.battles.append(report)
        r.log.append(e.title)
        for u in (*e.attackers, *e.defenders):
            r.set_unit(replace(u, health=report.health_after(u.label)))
            r.log.append(f"{u.label}: Health {show(u.health)} -> {show(report.health_after(u.label))}")
        if e.enclave is not None and report.stability is not None:
            for change in from_battle(r.state.enclave(e.enclave.name), report.stability):
                r.change(change)


def _reclaim(r: _Round) -> None:
    """Phase 5: each Enclave is Reclaimed at most once a round, whoever else also Reclaims it."""
    done: set[str] = set()
    for o in r.of_kind("reclaim"):
        unit = r.state.unit(o.unit)
        enclave = r.state.enclave_in(unit.region)
        if unit.health <= 0 or enclave is None or enclave.name in done:
            continue
        if enclave.fallen and r.opts.reclaim_fallen == "stays":
            r.log.append(f"{unit.label} cannot Reclaim {enclave.name}: it is Fallen (reclaim_fallen=stays)")
            continue
        done.add(enclave.name)
        r.change(reclaim(enclave, unit.label, r.opts))


def _nearest_enclave(state: CampaignState, unit: FieldUnit) -> Enclave | None:
    """The delver's faction's Enclave nearest to it (ties by name): where a Delve's Stability goes."""
    own = [(state.map.distance(unit.region, e.region), e.name, e) for e in state.enclaves if e.faction == unit.faction]
    reachable = sorted((d, n, e) for d, n, e in own if d is not None)
    return reachable[0][2] if reachable else None


def _delve(r: _Round, fate: Fate, tables: Mapping[str, RollTable]) -> None:
    """Phase 6: each delving unit rolls on its Dungeon's table; Health, items, Faith, Stability follow."""
    for o in r.of_kind("delve"):
        unit = r.state.unit(o.unit)
        dungeon = next(d for d in r.state.dungeons if d.region == unit.region)
        if unit.health <= 0:
            continue
        table = tables.get(dungeon.table) or shipped_table(dungeon.table)
        roll = roll_on(table, fate, f"Delve {dungeon.name}: {unit.label}")
        r.rolls.append(roll)
        fx = roll.entry.effects
        r.log.append(f"{unit.label} delves {dungeon.name}: {roll.entry.span} {roll.entry.result} (odds {roll.odds})")
        r.set_unit(replace(unit, health=max(Fraction(0), unit.health + fx.health), items=unit.items + fx.items))
        if fx.faith:
            r.state = replace(r.state, factions=tuple(
                replace(f, faith=max(Fraction(0), f.faith + fx.faith)) if f.name == unit.faction else f
                for f in r.state.factions))
        enclave = _nearest_enclave(r.state, unit)
        if fx.stability and enclave is not None:
            r.change(predetermined(enclave, fx.stability, f"Delve {dungeon.name}: {roll.entry.result}", r.opts))
        elif fx.stability:
            sign = "+" if fx.stability > 0 else "-"
            r.unapplied.append(f"{unit.label}'s Delve ({roll.entry.result}): Stability {sign}{show(abs(fx.stability))} "
                               f"has no Enclave to act on — {unit.faction} holds none")
            r.log.append(r.unapplied[-1])


def _downtime(r: _Round) -> None:
    """Phase 7: at the start of Downtime, each Bloodless unit present in an Enclave costs a tenth of its Health.

    "Present … at the start of a round of Downtime": a unit that arrived this round was not there
    when the round started; its arrival already cost the Enclave a tenth ("reach"), so it is charged
    once in its arrival round, and by Downtime from the next round on (issue 25).
    """
    if r.state.round % r.opts.downtime_every != 0:
        return
    for enclave in r.state.enclaves:
        if enclave.fallen:
            continue
        for unit in r.state.units_in(enclave.region):
            if unit.bloodless and unit.label in r.moved:
                r.log.append(f"{unit.label} arrived in {enclave.name} this round and was charged on arrival: "
                             "Downtime charges it from the next round")
            elif unit.bloodless:
                r.change(bloodless_downtime(r.state.enclave(enclave.name), unit))


def _faith(r: _Round, orders: Sequence[FaithOrder]) -> None:
    """Phase 8: Faith restores a non-Fallen Enclave to full, if the faction has the Faith to spend."""
    for o in orders:
        faction, enclave = r.state.faction(o.faction), r.state.enclave(o.enclave)
        if faction.faith < r.opts.faith_cost or enclave.fallen:
            why = "it is Fallen" if enclave.fallen else f"Faith {show(faction.faith)} < {show(r.opts.faith_cost)}"
            r.log.append(f"{faction.name} cannot restore {enclave.name}: {why}")
            continue
        r.change(faith(enclave, faction.name))
        r.state = replace(r.state, factions=tuple(
            replace(f, faith=f.faith - r.opts.faith_cost) if f.name == faction.name else f for f in r.state.factions))


def resolve_round(
    state: CampaignState,
    orders: Sequence[Order],
    fate: Fate,
    *,
    faith_orders: Sequence[FaithOrder] = (),
    options: CampaignOptions | None = None,
    battle_options: WarTableOptions | None = None,
    tables: Mapping[str, RollTable] | None = None,
) -> RoundResult:
    """Resolve one round of ``orders`` (a unit given none holds); the next round's state and every change.

    Orders are checked first (:class:`.orders.OrderError` and nothing happens). ``tables`` maps a
    Dungeon's table name to a loaded table (a game master's own); others are the shipped ones.
    """
    opts = options or CampaignOptions()
    r = _Round(state, checked_orders(state, orders, opts), opts)
    faith_checked = checked_faith(state, faith_orders)
    _move(r)
    _direct_attacks(r)
    _battles(r, battle_options or WarTableOptions())
    _reclaim(r)
    _delve(r, fate, tables or {})
    _downtime(r)
    _faith(r, faith_checked)
    final = replace(r.state, round=state.round + 1)
    return RoundResult(final, tuple(r.changes), tuple(r.battles), tuple(r.rolls), tuple(r.log), tuple(r.unapplied))
