"""What kind of attack a fighter makes, and the damage rolls it causes: Master strike, Feint, Toxic, Assassin.

Active abilities are choices; the combat makes them by a documented policy (docs/rules/confrontation.md,
"Abilities in combat"), a function of the state only, so exact odds and resolutions agree:

* **Master strike/X**: "use two of his attack dice to make a single attack … If the attack is not
  defended, the STR of the blow does not suffer wound penalties; increases by X where X is the ATT of the
  fighter as written on his card". "Not defended" is read as "no DEF test against it" (a parried blow
  makes no damage roll, so the words would otherwise say nothing); the policy uses it when he has two
  attack dice and the target no defence die. Not with Charging strength ("cannot make a Master strike"),
  nor against Immunity/Master strike.
* **Feint**: "instead of making a Damage Roll, the fighter causes his opponent to lose one defence or
  attack die"; the policy feints when the damage roll cannot wound (no Light line or worse), taking an
  attack die first.
* **Toxic/X**: the fighter holds one Toxic die (estimated: the army's count of dice needs army lists) and
  makes his first attack Toxic; "if the related Damage Roll wounds the target (Stunned is not a wound),
  then the target suffers another Damage Roll with STR X and for which his RES is considered 0", which
  "does not benefit from Bane, Assassin, STR bonuses"; Living-dead, Constructs (SP), Beings of and
  Immunity/Toxic are immune; "Immortals read the wounds caused by Toxic one line higher".
* **Circular blow/X**: "he can replace all attacks he should make during that exchange to perform a single
  circular blow. The fighter sacrifices Y attack dice, where Y is the number of fighters he is fighting
  against -1, then he makes a single attack … each of them can attempt to defend it individually … Each
  fighter that does not successfully defend suffers a Damage Roll with the STR altered by X. The first
  fighter that suffers a Damage Roll is also affected by abilities such as Assassin or Toxic"; the policy
  uses it when X ≥ 0, he fights two or more and holds an attack die for each (:mod:`.circular`).
* **Assassin**: after a charge, "the first Damage Roll he causes in the first combat he is involved is a
  Deadly blow"; a Deadly blow is a core rule the seed does not give: estimated as the damage read one line
  lower (as Bane, and cumulative with it); Immunity/Assassin ("Immunity/deadly blow") ignores it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from .wounds import DamageHook, InstinctRoll, LineShift, damage_odds

if TYPE_CHECKING:
    from .exchanges import Health
    from .melee import Fray, Melee

#: Damage lines that wound ("Stunned is not a wound").
WOUNDS = ("Light", "Serious", "Critical", "Killed outright")
#: Abilities that make a fighter immune to Toxic ("Fighters with Living-dead or SP are immune"; Beings of
#: "have Immunity/Toxic").
TOXIC_IMMUNE = ("Living-dead", "Construct", "Being of")


@dataclass(frozen=True, slots=True)
class Strike:
    """One attack as the policy chose it: attack dice it spends, Master strike's STR bonus, a Feint."""

    dice: int = 1
    master: int = 0
    feint: bool = False
    circular: int | None = None
    fencer: bool = False

    def margin(self, fray: Fray, t: int) -> int | None:
        """The target's parry margin that gains a die; none against Fencer's reserve die in attack ("any defence
        against this attack does not benefit from Counterattack nor Ambidextrous")."""
        return None if self.fencer else fray.fighters[t].counter_margin

    def title(self) -> str:
        if self.circular is not None:
            return f" (Circular blow, STR {self.circular:+d})"
        return " (Master strike)" if self.master else " (Feint)" if self.feint else ""


PLAIN = Strike()
DamageParams = tuple[int, int, tuple[DamageHook, ...]]


def damage_params(fray: Fray, s: Melee, i: int, t: int, strike: Strike) -> DamageParams:
    """STR, RES and hooks of the damage roll ``i`` causes ``t``: wound penalties to STR (none for a Master
    strike, which adds the card's ATT), the target's RES (penalised only if the table says so), his Bane and Ferocious, the target's Hard-boiled, Survival instinct,
    Guardian, and Assassin's Deadly blow while it is held."""
    f, target = fray.fighters[i], fray.fighters[t]
    if strike.master:
        strength = f.strength + strike.master
    else:
        strength = f.strength - f.penalty(fray.table, s.health[i], "STR") + (strike.circular or 0)
    hooks = fray.hooks(i, t)
    if s.health[t].instinct:  # "cannot use it anymore for the duration of the exchange"
        hooks = tuple(h for h in hooks if not isinstance(h, InstinctRoll))
    if s.deadly[i] and not target.immune_to("Deadly blow"):
        hooks = (*hooks, LineShift(1))
    return strength, target.card.RES - target.penalty(fray.table, s.health[t], "RES"), hooks


def toxic_follows(fray: Fray, s: Melee, i: int, t: int, line: str, health: Health) -> DamageParams | None:
    """Toxic's follow-up damage roll (STR X, RES 0, the target's own hooks only), or ``None``."""
    f, target = fray.fighters[i], fray.fighters[t]
    if not s.toxic[i] or line not in WOUNDS or health.killed:
        return None
    if target.immune_to("Toxic") or any(target.has(a) for a in TOXIC_IMMUNE):
        return None
    hooks = target.suffered_hooks()
    if health.instinct:
        hooks = tuple(h for h in hooks if not isinstance(h, InstinctRoll))
    if any(k.lower() == "immortal" for k in target.card.keywords):
        hooks = (*hooks, LineShift(-1))
    return f.toxic_strength(), 0, hooks


def _can_wound(fray: Fray, s: Melee, i: int, t: int) -> bool:
    odds = damage_odds(fray.table, *damage_params(fray, s, i, t, PLAIN))
    return any(odds.get(line, Fraction(0)) > 0 for line in WOUNDS)


def circular_value(written: str | None) -> int | None:
    """Circular blow/X's X, "bound to a sign: + or -" (``+1``, ``-2``; a bare sign is 0); ``None`` without it."""
    if written is None:
        return None
    digits = written.strip().lstrip("+-")
    return (-1 if written.strip().startswith("-") else 1) * int(digits) if digits.isdigit() else 0


def choose_strike(fray: Fray, s: Melee, i: int, t: int) -> Strike:
    """The policy: a Circular blow (X ≥ 0) against two or more opponents when he has a die for each; a Master
    strike on an undefended target with two attack dice; a Feint when the damage roll
    cannot wound and the target has a die to lose; otherwise one plain attack."""
    f, target = fray.fighters[i], fray.fighters[t]
    foes = len(fray.foes(s, i))
    circular = circular_value(f.card.value_of("Circular blow"))
    if circular is not None and circular >= 0 and foes >= 2 and s.attack[i] >= foes:
        return Strike(dice=foes, circular=circular)
    if (f.has("Master strike") and s.attack[i] >= 2 and s.defence[t] == 0 and f.combat.charge_strength is None
            and not target.immune_to("Master strike")):
        return Strike(dice=2, master=f.card.ATT)
    if f.has("Feint") and s.attack[t] + s.defence[t] > 0 and not _can_wound(fray, s, i, t):
        return Strike(feint=True)
    return PLAIN
