"""A fighter in a combat: what its card and abilities make of its tests, dice and damage rolls.

This module turns a :class:`~.cards.FighterCard` into the numbers a combat reads, through the
effect language (:mod:`.abilities`): the :class:`~.effects.TestShape` of its INI, ATT and DEF
tests, its combat dice, its damage-roll hooks against one opponent, and the HP a wound line
costs it. Each rule it applies is listed by :func:`ability_notes`, so the odds screen can say
what every ability did (or why it did nothing) in this combat. The choices of active abilities
and the conditions the seed leaves to the board are documented in docs/rules/confrontation.md
("Combat").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from rulekeeper.core.errors import ImpossibleRequestError

from .abilities import ABILITIES, damage_hooks_of, shape_of
from .cards import FighterCard, canonical_ability
from .combat_effects import CombatShape, compose_combat
from .effects import TestShape
from .penalties import FIERCE_HP, Penalties, hp_lost, penalty_table
from .wounds import DamageHook, WoundTable

if TYPE_CHECKING:
    from .exchanges import Health

#: Abilities whose test hooks a combat does not apply, and why (docs/rules/confrontation.md).
NOT_IN_COMBAT = {
    "Luck": "active once per round: the combat does not spend it (use `odds … test` for a Luck re-roll)",
    "Wild": "needs the distance to the nearest friend (the board): treated as not met outside skirmishes",
}


@dataclass(frozen=True, slots=True)
class Combatant:
    """One fighter in a combat: his card, whether he charged into it, and the state he enters it in.

    ``hp`` (``None``: the card's), ``stunned`` and ``fierce`` (standing only thanks to Fierce) carry a
    fighter's earlier wounds into this combat: his wound penalties are read from them (:mod:`.penalties`).
    """

    card: FighterCard
    charged: bool = False
    hp: int | None = None
    stunned: bool = False
    fierce: bool = False
    wild: bool = False  # Wild/X's "further than X cm from a friendly fighter" holds (measured by the skirmish)
    names: tuple[str, ...] = field(init=False, default=())
    combat: CombatShape = field(init=False, default=CombatShape())

    def __post_init__(self) -> None:  # both read on every blow of 10^5 combats: composed once
        most = FIERCE_HP if self.fierce else self.card.HP
        if self.hp is not None and not 1 <= self.hp <= most:
            raise ImpossibleRequestError(f"{self.card.name} enters the combat with {self.hp} HP: it must be 1 to {most}"
                                         + (" (standing thanks to Fierce)" if self.fierce else ""), field="hp")
        object.__setattr__(self, "names", self.card.ability_names)
        pairs = [canonical_ability(a) for a in self.card.abilities]
        object.__setattr__(self, "combat", compose_combat(pairs, self.charged, self.card.character))

    @property
    def name(self) -> str:
        return self.card.name

    def count(self, ability: str) -> int:
        return self.names.count(ability)

    def has(self, ability: str) -> bool:
        return self.count(ability) > 0

    # -- characteristics for this combat ------------------------------------------------------------

    @property
    def limb(self) -> bool:
        """Additional limb (active) "swaps his ATT and DEF": as his player announced (``Additional limb/used``:
        after_ini.py), else used when it raises his ATT (the keeper's policy)."""
        return self.combat.swap and (self.card.value_of("Additional limb") == "used" or self.card.DEF > self.card.ATT)

    @property
    def attack(self) -> int:
        return self.card.DEF if self.limb else self.card.ATT

    @property
    def defence(self) -> int:
        return self.card.ATT if self.limb else self.card.DEF

    @property
    def strength(self) -> int:
        """Charging strength/X: "his STR is replaced by X until the end of the first combat"."""
        return self.card.STR if self.combat.charge_strength is None else self.combat.charge_strength

    # -- combat dice ---------------------------------------------------------------------------------

    def combat_dice(self, opponents: int = 1) -> int:
        """The dice he places: "1 combat die, and another 1 per opponent", and his abilities' extra dice."""
        return 1 + opponents + self.combat.dice

    def attack_only_dice(self) -> int:
        """Dice that go to attack whatever the placement: War fury's, and Brutish charge's on a charge."""
        return self.combat.attack_dice

    @property
    def counter_margin(self) -> int | None:
        """The margin of a parry that gains an attack die (Counterattack 2 or 1, Ambidextrous 0), or ``None``."""
        return self.combat.parry_margin

    # -- tests -----------------------------------------------------------------------------------------

    def shape(self, test: str, desperate: bool) -> TestShape:
        return _shape(tuple(self.card.abilities), test, desperate, self.wild)

    def desperate(self, opponent: Combatant, fierce: bool) -> bool:
        """Desperate's conditions a duel can check: a costlier opponent, or "he is using Fierce"."""
        return self.has("Desperate") and (opponent.card.cost > self.card.cost or fierce)

    # -- damage ----------------------------------------------------------------------------------------

    def banes(self, target: Combatant) -> bool:
        """Bane/X against a target "designated by Bane": X names its people, a keyword, an ability or it.

        Personal enemy/X ("has Bane/X", X a fighter's name) and Hostile/X ("The possessor also has Bane/X")
        give the same Bane; Immunity/Bane on the target ignores it.
        """
        xs = {(self.card.value_of(a) or "").strip().lower() for a in ("Bane", "Personal enemy", "Hostile")} - {""}
        if not xs or target.immune_to("Bane"):
            return False
        t = target.card
        names = {t.name.lower(), t.people.lower(), *(k.lower() for k in t.keywords),
                 *(a.lower() for a in t.ability_names), *(["character"] if t.character else [])}
        return bool(xs & names)

    def immune_to(self, what: str) -> bool:
        """Immunity/X: "the fighter is immune to the effects of that ability" (X an ability, or Toxic, Stunned…);
        Immunity/Assassin is also Immunity/Deadly blow ("they are considered to have Immunity/deadly blow")."""
        wanted = {what.lower()} | ({"assassin"} if what.lower() == "deadly blow" else set())
        return any(canonical_ability(a)[0] == "Immunity" and canonical_ability(a)[1].strip().lower() in wanted
                   for a in self.card.abilities)

    def damage_hooks(self, target: Combatant) -> tuple[DamageHook, ...]:
        """Hooks of a damage roll this fighter inflicts on ``target``: his Bane and Ferocious (unless the target
        is immune to them), then the target's own (:meth:`suffered_hooks`)."""
        mine = [a for a in self.card.abilities if canonical_ability(a)[0] == "Ferocious"
                and not target.immune_to("Ferocious")]
        if self.banes(target):
            mine.append("Bane")
        return (*damage_hooks_of(_written(mine)), *target.suffered_hooks())

    def suffered_hooks(self) -> tuple[DamageHook, ...]:
        """The hooks of every damage roll he suffers: Hard-boiled, Survival instinct, Guardian."""
        return _suffered(tuple(self.card.abilities))

    def toxic_die(self) -> bool:
        """Toxic/X with a number X: he holds one Toxic die ("Fighters with Toxic/- cannot have any")."""
        return self.toxic_strength() > 0

    def toxic_strength(self) -> int:
        x = (self.card.value_of("Toxic") or "").strip()
        return int(x) if x.isdigit() else 0

    def immune_to_stunned(self) -> bool:
        """Ethereal: "They have the Immunity / Stunned"; or Immunity/Stunned on the card."""
        return self.combat.immune_to_stunned or self.immune_to("Stunned")

    def penalties(self, table: WoundTable, health: Health) -> Penalties:
        """His wound and Stunned penalties in this state (:mod:`.penalties`), as (characteristic, penalty)."""
        return penalty_table(table, self.names, hp_lost(self.card, health.hp, health.fierce), health.stunned)

    def penalty(self, table: WoundTable, health: Health, characteristic: str) -> int:
        return dict(self.penalties(table, health)).get(characteristic, 0)

    def hp_lost(self, table: WoundTable, line: str) -> int:
        """HP a wound line costs him: Vulnerable's +1, then Ethereal's −1 ("this effect applies last")."""
        return self.combat.hp_lost(table.hp_of(line))


def _written(names: list[str]) -> list[str]:
    """The names as :func:`~.abilities.hooks_of` reads them: canonical, with their X."""
    out = []
    for n in names:
        name, value = canonical_ability(n)
        out.append(f"{name}/{value}" if value else name)
    return out


@cache
def _suffered(abilities: tuple[str, ...]) -> tuple[DamageHook, ...]:
    mine = [a for a in abilities if canonical_ability(a)[0] in ("Hard-boiled", "Survival instinct", "Guardian")]
    return damage_hooks_of(_written(mine))


@cache
def _shape(abilities: tuple[str, ...], test: str, desperate: bool, wild: bool = False) -> TestShape:
    """The shape of a combat test: Resolute only on INI (its one use a round, as declared: before_ini.py), Desperate only
    when its condition holds, Wild only when the skirmish measured its distance, Luck never
    (:data:`NOT_IN_COMBAT`)."""
    keep: list[str] = []
    for written in abilities:
        name, _ = canonical_ability(written)
        if name not in ABILITIES or (name in NOT_IN_COMBAT and not (name == "Wild" and wild)):
            continue
        if (name == "Resolute" and test != "INI") or (name == "Desperate" and not desperate):
            continue
        keep.append(written)
    return shape_of(test, _written(keep))


def ability_notes(fighter: Combatant, opponent: Combatant) -> list[str]:
    """One line per ability on the card: what it does in this combat, or why it does nothing."""
    out: list[str] = []
    for written in fighter.card.abilities:
        out.append(f"{fighter.name}: {written} — {_note(fighter, opponent, written)}")
    return out


_COMBAT_NOTES = {
    "Born killer": "one more combat die",
    "War-horse": "one more combat die (no charge declared)",
    "War fury": "one more die, placed in attack; more dice in attack than in defence; −1 to the natural DEF (the "
                "last two until the round's end)",
    "Brutish charge": "one more attack die (he charged)",
    "Ambidextrous": "a successful DEF test gains an attack die",
    "Fierce": "at 0 HP he fights on with 2 more HP (used: active, policy); killed when he loses them",
    "Ethereal": "Immunity/Stunned; every HP loss reduced by one (applied last)",
    "Vulnerable": "every HP loss by a damage roll increased by one",
    "Additional limb": "ATT and DEF swapped for this combat",
    "Master strike": "two attack dice on an undefended target: STR + his card's ATT, no wound penalty (policy)",
    "Feint": "a hit takes a die instead of a damage roll that cannot wound (policy)",
    "Circular blow": "against two or more opponents: one attack on each for that many dice (policy; a fray)",
    "Fencer": "one die held in reserve (his player's choice), placed in attack or defence when needed (policy)",
    "Sequence": "up to X more dice, −1 ATT and DEF each, never below 0 (declared by his player before the INI test; "
                "the keeper's proposal: all he may take)",
    "Toxic": "his first attack is Toxic: a wound brings a damage roll STR X vs RES 0",
    "Possessed": "wound penalties one level lower",
    "Robustness": "no penalties for Stunned or a Light wound",
    "Fanaticism": "wound penalties to STR reduced by 1",
    "Indestructible": "loses no HP",
    "Immunity": "immune to that effect in combat (abilities, Stunned)",
    "Personal enemy": "Bane/X against the fighter X",
    "Hostile": "Bane/X",
    "Living-dead": "Immunity/Toxic",
    "Being of": "Immunity/Toxic",
}


def _note(f: Combatant, o: Combatant, written: str) -> str:
    name = canonical_ability(written)[0]
    if name == "Wild" and f.wild:
        return "+1 to INI, ATT and DEF: no friendly fighter within X cm"
    if name in NOT_IN_COMBAT:
        return "not applied: " + NOT_IN_COMBAT[name]
    if name == "Counterattack":
        return f"parries with a margin of {f.counter_margin} gain an attack die"
    if name == "Bane":
        return "damage read one line lower" if f.banes(o) else f"{o.name} is not designated: no effect"
    if name == "Desperate":
        return "+1 to final INI, ATT, DEF while outnumbered, facing a costlier opponent or using Fierce"
    if name == "Assassin":
        return "his first damage roll is a Deadly blow (he charged)" if f.charged else "no charge: no effect"
    if name == "Charging strength":
        return f"STR {f.strength} (he charged)" if f.charged else "no charge: no effect"
    if name == "War fury" and written.endswith("/lasting"):  # not used in this fight, used earlier this round
        return "not used in this fight; his earlier use this round binds him: more dice in attack than in defence, " \
               "−1 to the natural DEF"
    if name == "Additional limb" and not f.limb:
        return "not used: it would not raise his ATT (the keeper's policy; his player announces it after the INI test)"
    if name in _COMBAT_NOTES and (name != "Brutish charge" or f.charged) and (name != "War-horse" or not f.charged):
        return _COMBAT_NOTES[name]
    ability = ABILITIES.get(name)
    if ability is not None:
        touched = [t for t in ("INI", "ATT", "DEF") if _shape((written,), t, True) != _shape((), t, False)]
        if name in ("Hard-boiled", "Survival instinct", "Guardian", "Ferocious"):
            return "on damage rolls (" + ability.category + " ability)"
        if touched:
            return f"changes his {', '.join(touched)} tests" + (f" (not yet: {ability.partial})" if ability.partial else "")
        return f"touches no INI, ATT or DEF test ({ability.category} ability)"
    return "no effect in a combat (see docs/rules/confrontation.md, catalogue)"
