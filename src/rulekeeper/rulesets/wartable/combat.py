"""The six-step War Table combat, as one pure function.

``resolve_combat`` takes the units on each side, the region's traits and the
chosen rule readings and returns a :class:`~.report.CombatReport`; it draws no
chance (the War Table's combat is deterministic arithmetic) and changes nothing.
Several units per side are supported: each side's hits are pooled and shared
evenly over the enemy units (step 4), as the seed describes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache

from rulekeeper.core.errors import ImpossibleRequestError

from .data import WarTableData, shipped_data
from .model import (
    Battle,
    Combatant,
    EnclaveState,
    ModifierDef,
    SideName,
    UnitDef,
    WarTableOptions,
    fold,
    parse_options,
)
from .modifiers import BattleRole, stat_totals
from .report import (
    AllocationLine,
    BlockLine,
    CombatantLine,
    CombatReport,
    HealthLine,
    HitsLine,
    TotalsLine,
)
from .rounding import ceil_up, round_half_up, show
from .stability import UnitOutcome, stability_effects

HUNDRED = Fraction(100)


@lru_cache(maxsize=1)
def default_data() -> WarTableData:
    """The shipped units and modifiers, read once."""
    return shipped_data()


def hits_dealt(health: Fraction, attack: Fraction) -> Fraction:
    """Step 3: Health × Attack/100, rounded half up to a whole hit."""
    return round_half_up(health * attack / HUNDRED)


def allocate(total_hits: Fraction, enemy_units: int) -> Fraction:
    """Step 4: a side's hits shared evenly over ``enemy_units``, rounded up (0 if none)."""
    if enemy_units <= 0:
        return Fraction(0)
    return ceil_up(total_hits / enemy_units)


def block(allocated: Fraction, defense: Fraction, step5: str) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """Step 5: ``(blocked_exact, blocked, unblocked_exact, unblocked)``.

    Defense is a percentage chance, so it is capped at 100 (a unit cannot block more
    hits than it was allocated). ``step5="example"`` keeps the blocked hits exact and
    rounds the unblocked hits up (the seed's worked example: 16.5 blocked, 13.5 → 14
    casualties); ``step5="literal"`` rounds the blocked hits up (16.5 → 17).
    """
    pct = min(max(defense, Fraction(0)), HUNDRED)
    blocked_exact = allocated * pct / HUNDRED
    if step5 == "literal":
        blocked = ceil_up(blocked_exact)
        return blocked_exact, blocked, allocated - blocked, allocated - blocked
    unblocked_exact = allocated - blocked_exact
    return blocked_exact, blocked_exact, unblocked_exact, ceil_up(unblocked_exact)


def _as_combatant(item: Combatant | UnitDef) -> Combatant:
    return item if isinstance(item, Combatant) else Combatant(item)


def _labels(combatants: Sequence[Combatant]) -> list[str]:
    """Unique display names: a repeated profile becomes ``Bloodless Horde #2``."""
    counts = Counter(fold(c.unit.name) for c in combatants if c.label is None)
    seen: Counter[str] = Counter()
    labels: list[str] = []
    for c in combatants:
        if c.label is not None:
            labels.append(c.label)
            continue
        key = fold(c.unit.name)
        seen[key] += 1
        labels.append(c.unit.name if counts[key] == 1 else f"{c.unit.name} #{seen[key]}")
    dupes = [lab for lab, n in Counter(fold(lab) for lab in labels).items() if n > 1]
    if dupes:
        raise ImpossibleRequestError(f"two combatants share the label {dupes[0]!r}", label=dupes[0])
    return labels


def combatant_labels(combatants: Sequence[Combatant]) -> list[str]:
    """The labels the report gives ``combatants`` (attackers first, then defenders)."""
    return _labels(combatants)


def _unmatched_notes(
    region_traits: Sequence[str], combatants: Sequence[Combatant], modifiers: Sequence[ModifierDef]
) -> list[str]:
    """Notes for traits/marks/curses that no modifier reacts to (often a typo)."""
    keys: dict[str, set[str]] = {}
    for m in modifiers:
        keys.setdefault(m.source, set()).add(fold(m.key))
    pretty = {s: sorted({m.key for m in modifiers if m.source == s}) for s in keys}
    notes: list[str] = []
    checks: list[tuple[str, str, str]] = [("region_trait", "Region trait", t) for t in region_traits]
    for c in combatants:
        checks += [("mark", "Mark", m) for m in c.marks] + [("curse", "Curse", x) for x in c.curses]
    for source, kind, name in checks:
        if fold(name) not in keys.get(source, set()):
            known = ", ".join(pretty.get(source, [])) or "none"
            notes.append(f"{kind} {name!r} changes no stat in the data (known: {known}).")
    return list(dict.fromkeys(notes))


def _standing(
    sides: Mapping[SideName, list[Combatant]], label_of: Mapping[int, str], notes: list[str]
) -> tuple[list[str], dict[SideName, list[Combatant]]]:
    """Step 1: combatants are the named units still standing; the fallen are named in a note.

    Returns ``(excluded labels, live combatants per side)``; with no attacker standing there is
    nothing to resolve, with no defender the attackers' hits strike nothing.
    """
    everyone = [c for cs in sides.values() for c in cs]
    excluded = [label_of[id(c)] for c in everyone if c.base_health <= 0]
    live: dict[SideName, list[Combatant]] = {s: [c for c in cs if c.base_health > 0] for s, cs in sides.items()}
    if excluded:
        notes.append(f"Units at 0 Health do not fight: {', '.join(excluded)}.")
    if not live["attackers"]:
        raise ImpossibleRequestError("no attacking unit with Health above 0: nothing to resolve")
    if not live["defenders"]:
        notes.append("No defending unit: the attackers' hits strike nothing.")
    return excluded, live


def _combatant_lines(
    live: Mapping[SideName, list[Combatant]], label_of: Mapping[int, str]
) -> tuple[CombatantLine, ...]:
    """Step 1's report lines: each unit that fights, with its traits, Marks, Curses and Health."""
    return tuple(
        CombatantLine(label_of[id(c)], s, c.unit.name, c.unit.traits, c.marks, c.curses, c.base_health)
        for s, cs in live.items()
        for c in cs
    )


def _stat_totals_step(
    live: Mapping[SideName, list[Combatant]],
    label_of: Mapping[int, str],
    action: str,
    region_traits: Sequence[str],
    mods: Sequence[ModifierDef],
    opts: WarTableOptions,
    roles: Mapping[str, frozenset[BattleRole]],
) -> list[TotalsLine]:
    """Step 2: each live unit's Health, Attack and Defense totals with the modifiers that apply."""
    totals: list[TotalsLine] = []
    for s, cs in live.items():
        for c in cs:
            st = stat_totals(c, roles[label_of[id(c)]], action, region_traits, mods, opts)
            totals.append(TotalsLine(label_of[id(c)], s, st["health"], st["attack"], st["defense"]))
    return totals


def _hits_step(totals: Sequence[TotalsLine]) -> tuple[HitsLine, ...]:
    """Step 3: the hits each unit deals (exact and rounded), from its Health and Attack totals."""
    return tuple(
        HitsLine(
            t.label,
            t.side,
            t.health.total,
            t.attack.total,
            t.health.total * t.attack.total / HUNDRED,
            hits_dealt(t.health.total, t.attack.total),
        )
        for t in totals
    )


def _allocation_step(
    hits: Sequence[HitsLine], live: Mapping[SideName, list[Combatant]], label_of: Mapping[int, str]
) -> tuple[list[AllocationLine], dict[SideName, Fraction]]:
    """Step 4: pool each side's hits and share them over the enemy units.

    Returns the report lines and the hits allocated to each unit of a side (keyed by the
    side receiving them); a side that deals no hits allocates nothing.
    """
    allocations: list[AllocationLine] = []
    per_unit: dict[SideName, Fraction] = {}
    sides_in_order: tuple[SideName, SideName] = ("attackers", "defenders")
    for side in sides_in_order:
        enemy: SideName = "defenders" if side == "attackers" else "attackers"
        dealt = tuple((h.label, h.hits) for h in hits if h.side == side)
        if not dealt:
            continue
        total = sum((h for _, h in dealt), Fraction(0))
        targets = tuple(label_of[id(c)] for c in live[enemy])
        share = total / len(targets) if targets else Fraction(0)
        per_unit[enemy] = allocate(total, len(targets))
        allocations.append(AllocationLine(side, dealt, total, targets, share, per_unit[enemy]))
    return allocations, per_unit


def _block_line(t: TotalsLine, allocated: Fraction, step5: str) -> BlockLine:
    """Step 5 for one unit: how many of its ``allocated`` hits its Defense blocks."""
    b_exact, b, u_exact, u = block(allocated, t.defense.total, step5)
    return BlockLine(
        t.label,
        t.side,
        allocated,
        min(t.defense.total, HUNDRED),
        b_exact,
        b,
        u_exact,
        u,
        step5,
        t.defense.total > HUNDRED,
    )


def _health_start(t: TotalsLine, notes: list[str]) -> Fraction:
    """The Health step 6 starts from: never more than the unit had before rounding.

    Step 2's rounding may raise Health (0.5 -> 1 with stat_rounding=whole); it sets the hits
    dealt, but a battle must never heal, so step 6 starts from the lower value (and says so).
    """
    start = min(t.health.total, max(t.health.raw, Fraction(0)))
    if start != t.health.total:
        notes.append(
            f"{t.label}: Health {show(t.health.raw)} was rounded up to {show(t.health.total)} for the hits "
            f"it deals; step 6 starts from {show(start)} so rounding never adds Health."
        )
    return start


def _casualty_steps(
    totals: Sequence[TotalsLine],
    per_unit: Mapping[SideName, Fraction],
    unit_of: Mapping[str, Combatant],
    opts: WarTableOptions,
    notes: list[str],
    roles: Mapping[str, frozenset[BattleRole]],
) -> tuple[list[BlockLine], list[HealthLine], list[UnitOutcome]]:
    """Steps 5 and 6: each unit blocks what it can of its allocated hits and loses the rest as Health.

    The outcomes (Health before and after, Bloodless or not) feed the Enclave Stability effects.
    """
    blocks: list[BlockLine] = []
    health: list[HealthLine] = []
    outcomes: list[UnitOutcome] = []
    for t in totals:
        line = _block_line(t, per_unit.get(t.side, Fraction(0)), opts.step5)
        blocks.append(line)
        start = _health_start(t, notes)
        after = max(Fraction(0), start - line.unblocked)
        health.append(HealthLine(t.label, t.side, start, line.unblocked, after))
        outcomes.append(UnitOutcome(t.label, t.side, unit_of[t.label].unit.bloodless, start, after,
                                    "attacker" in roles[t.label]))
    return blocks, health, outcomes


def _roles(
    sides: Mapping[SideName, list[Combatant]],
    label_of: Mapping[int, str],
    given: Mapping[str, Collection[BattleRole]] | None,
) -> dict[str, frozenset[BattleRole]]:
    """Each unit's battle roles: the given ones (by label), else its side's (attacker / defender)."""
    out: dict[str, frozenset[BattleRole]] = {}
    for side, cs in sides.items():
        default: BattleRole = "attacker" if side == "attackers" else "defender"
        for c in cs:
            label = label_of[id(c)]
            chosen = (given or {}).get(label)
            out[label] = frozenset(chosen) if chosen else frozenset((default,))
    return out


def resolve_combat(
    attackers: Sequence[Combatant | UnitDef],
    defenders: Sequence[Combatant | UnitDef],
    region_traits: Sequence[str] = (),
    options: Mapping[str, str] | WarTableOptions | None = None,
    *,
    modifiers: Sequence[ModifierDef] | None = None,
    action: str = "attack",
    enclave: EnclaveState | None = None,
    title: str | None = None,
    roles: Mapping[str, Collection[BattleRole]] | None = None,
) -> CombatReport:
    """Resolve one War Table combat (steps 1–6) and its Enclave Stability effects.

    ``attackers`` perform ``action`` (normally ``"attack"``) against ``defenders``.
    ``roles`` (by label) overrides a unit's role for the modifiers and the Bloodless Attack
    rule: a campaign battle gathers every unit engaged in a region, and there a unit may
    attack, be attacked, or both, whichever side it is on; by default the attackers attack
    and the defenders are attacked.
    ``modifiers`` defaults to the shipped data's. ``enclave`` is the Enclave whose
    settlement is in the region, if any. Units at 0 Health do not fight (step 1).
    """
    if isinstance(region_traits, Mapping):
        raise TypeError("region_traits must be a sequence of trait names (options go in the 4th argument)")
    if isinstance(region_traits, str):
        region_traits = (region_traits,)
    opts = parse_options(options)
    mods = tuple(default_data().modifiers if modifiers is None else modifiers)
    sides: dict[SideName, list[Combatant]] = {
        "attackers": [_as_combatant(a) for a in attackers],
        "defenders": [_as_combatant(d) for d in defenders],
    }
    everyone = sides["attackers"] + sides["defenders"]
    label_of = dict(zip(map(id, everyone), _labels(everyone), strict=True))
    notes = _unmatched_notes(region_traits, everyone, mods)
    role_of = _roles(sides, label_of, roles)

    excluded, live = _standing(sides, label_of, notes)
    combatants = _combatant_lines(live, label_of)
    totals = _stat_totals_step(live, label_of, action, region_traits, mods, opts, role_of)
    hits = _hits_step(totals)
    allocations, per_unit = _allocation_step(hits, live, label_of)
    unit_of = {label_of[id(c)]: c for c in everyone}
    blocks, health, outcomes = _casualty_steps(totals, per_unit, unit_of, opts, notes, role_of)

    stability = None if enclave is None else stability_effects(enclave, outcomes, opts)
    return CombatReport(
        action=action,
        region_traits=tuple(region_traits),
        options=opts,
        combatants=combatants,
        excluded=tuple(excluded),
        totals=tuple(totals),
        hits=hits,
        allocations=tuple(allocations),
        blocks=tuple(blocks),
        health=tuple(health),
        stability=stability,
        notes=tuple(notes),
        title=title,
    )


def resolve_battle(battle: Battle, data: WarTableData | None = None) -> CombatReport:
    """Resolve a :class:`~.model.Battle` (from a battle file or CLI flags)."""
    return resolve_battle_with(battle, (data or default_data()).modifiers)


def resolve_battle_with(battle: Battle, modifiers: Sequence[ModifierDef] | None) -> CombatReport:
    """Resolve ``battle`` with these modifiers (a stored battle keeps the ones it started with)."""
    return resolve_combat(
        battle.attackers,
        battle.defenders,
        battle.region_traits,
        battle.options,
        modifiers=modifiers,
        action=battle.action,
        enclave=battle.enclave,
        title=battle.title,
    )
