"""Morale: fear, the COU test it asks for, rout and rally — an estimated core bent by hooks of the effect language.

The seed names the rules of fear without printing them ("The rules on fear then apply in the usual way"); what it
does fix is their vocabulary, and that is what this core is built from (docs/rules/confrontation.md, "Morale"):

* fear-inducing opponents have a FEAR rate ("all fighters consider the Living-dead to be fear-inspiring opponents,
  if they have a higher FEAR"): a FEAR rate frightens a fighter with COU, or one whose own FEAR is lower;
* facing one asks for a COU test ("if the fighter must make a COU test, he can use his FEAR rate of X for it"),
  and passing it immunises against FEAR rates up to that one (War cry: "the charger is immunized to FEAR rates up to
  X as if he successfully passed the related COU test");
* failing it routs ("a fighter in rout"; Fanaticism: "has to flee or leave the field due to routing … the same
  difficulty as the failed COU (or rallying) test"), and a routed fighter cannot use his active abilities
  ("For the 'active' ones, their use … cannot be used by a fighter in rout"); he rallies by a rallying test.

Which abilities bend it are rows of :data:`MORALE_ABILITIES`, folded by :func:`morale_of` into one
:class:`MoraleShape`; the COU test itself is a test of :mod:`.effects` (Bravery, Hardened, Loved by the gods, Born
killer's automatic success, Dreadful's 2d6 keep lowest) drawn by :mod:`.rolls`. Everything not quoted is
**estimated**.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .abilities import ABILITIES, hooks_of
from .cards import FighterCard, canonical_ability
from .effects import Amount, Bonus, Hook, KeepOf2d6, TestShape, compose
from .wounds import DamageHook

#: Abilities the seed marks "(active)": "their use must be announced by the player and they cannot be used by a
#: fighter in rout".
ACTIVE = frozenset({
    "Absorb", "Additional limb", "Assault fire", "Attentive", "Circular blow", "Concentration", "Counterattack",
    "Cure", "Devotion", "Feint", "Fierce", "Harassment", "Implacable", "Indestructible", "Indirect fire", "Leap",
    "Luck", "Martyr", "Master strike", "Mastery of the arcana", "Mechanic", "Minelayer", "Mutagenic", "Piety",
    "Rallying cry", "Rapidity", "Rapid reloading", "Reaction fire", "Reorientation", "Resolute", "Sapper",
    "Sequence", "Transport", "War cry", "War fury", "Watchful",
})
#: Test abilities not used on a COU test of morale: active ones whose use is a choice the policy keeps for combat
#: (Resolute, Luck) or that need a strategic phase (Rallying cry), and Dreadful, whose 2d6 are the *opponent's*.
NOT_ON_MORALE = frozenset({"Resolute", "Luck", "Rallying cry", "Dreadful"})
COU = frozenset({"COU"})


@dataclass(frozen=True, slots=True)
class ImmuneToFear:
    """Immunity/Fear: "the fighter is immune to all forms of FEAR, he can never rout and never has to make any COU
    test" (Construct, Living-dead, Righteous, Hyperian and Beings of Darkness and Light have it)."""


class FearWhenCharging(Amount):
    """War cry/X: "When a fighter with this ability charges an enemy, he can choose that his COU is replaced by a
    FEAR rate of X until the end of his activation" (active: always chosen by the policy)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class LowestOf2d6ForOpponents:
    """Dreadful: "When a fighter has to make a COU test facing a Dreadful opponent … the COU test must be made using
    2d6. Only the lower natural result is then used"; it "does not apply if the fighter has a COU rate"."""


class LendsCourage(Amount):
    """Leadership/X: "Fighters within X cm … can use his COU … only the values as written on the card … If the
    fighter is fear-inducing, then his FEAR rate can be used as COU"; not across peoples (``value`` is X in cm)."""

    __slots__ = ()


class LendsStructure(Amount):
    """Emblem/X: "All friendly fighters within X cm of the possessor can use its SP value (excluding suffered wounds)
    for their COU and DIS tests" (reserved to fighters with SP: a Construct's card HP)."""

    __slots__ = ()


MoraleHook = ImmuneToFear | FearWhenCharging | LowestOf2d6ForOpponents | LendsCourage | LendsStructure


def _fixed(*hooks: MoraleHook) -> Callable[[str], tuple[MoraleHook, ...]]:
    return lambda _x: hooks


def _number(make: Callable[[int], MoraleHook]) -> Callable[[str], tuple[MoraleHook, ...]]:
    return lambda x: (make(int(x)),) if x.strip().lstrip("+-").isdigit() else ()


#: Ability name -> its morale hooks, from its X as written on the card.
MORALE_ABILITIES: dict[str, Callable[[str], tuple[MoraleHook, ...]]] = {
    "Immunity": lambda x: (ImmuneToFear(),) if x.strip().lower() == "fear" else (),
    "Construct": _fixed(ImmuneToFear()),  # "as well as the Immunity/Fear and Immunity/Toxic abilities"
    "Living-dead": _fixed(ImmuneToFear()),  # "benefit from the Immunity/Toxic and Immunity/Fear abilities"
    "Righteous": _fixed(ImmuneToFear()),  # "These fighters have Immunity/Fear"
    "Hyperian": _fixed(ImmuneToFear()),  # "benefit from the Alliance/ Cynwäll and Immunity/Fear abilities"
    # Darkness: "They have Immunity/Fear"; Light: "endowed with the Righteous ability"
    "Being of": lambda x: (ImmuneToFear(),) if x.strip().lower() in ("darkness", "light") else (),
    "War cry": _number(FearWhenCharging),
    "Dreadful": _fixed(LowestOf2d6ForOpponents()),
    "Leadership": _number(LendsCourage),
    "Emblem": _number(LendsStructure),
}


@dataclass(frozen=True, slots=True)
class MoraleShape:
    """Everything morale reads of a fighter's abilities once composed."""

    immune: bool = False
    war_cry: int | None = None
    dreadful: bool = False
    leadership: int | None = None
    emblem: int | None = None


def morale_of(card: FighterCard) -> MoraleShape:
    """Fold the morale hooks of a card (the largest X of each when listed twice)."""
    hooks = [h for written in card.abilities for name, x in [canonical_ability(written)]
             if name in MORALE_ABILITIES for h in MORALE_ABILITIES[name](x)]

    def most(kind: type[Amount]) -> int | None:
        return max((h.value for h in hooks if isinstance(h, kind)), default=None)

    return MoraleShape(any(isinstance(h, ImmuneToFear) for h in hooks), most(FearWhenCharging),
                       any(isinstance(h, LowestOf2d6ForOpponents) for h in hooks), most(LendsCourage),
                       most(LendsStructure))


def fear_rate(card: FighterCard, charging: bool = False) -> int | None:
    """The FEAR rate he frightens with: his card's, or War cry's X while he charges (the higher)."""
    rates = [r for r in (card.FEAR, morale_of(card).war_cry if charging else None) if r is not None]
    return max(rates) if rates else None


def frightens(fear: int | None, tester: FighterCard, braved: int = 0) -> bool:
    """Whether a FEAR rate asks ``tester`` for a COU test: he is not immune, has not already passed a test against
    a FEAR rate this high (``braved``), and has COU or a lower FEAR (**estimated**: "if they have a higher FEAR")."""
    if fear is None or fear <= braved or morale_of(tester).immune:
        return False
    return tester.FEAR is None or tester.FEAR < fear


@dataclass(frozen=True, slots=True)
class Lender:
    """A friendly fighter in range whose COU (Leadership) or SP (Emblem) a tester may use."""

    card: FighterCard
    cm: float


def courage(tester: FighterCard, lenders: Iterable[Lender] = (), war_cry: int | None = None) -> int:
    """The COU he tests with: the best of his own COU (or FEAR rate: War cry's "he can use his FEAR rate of X for
    it"), a Leadership/X fighter's card COU or FEAR within X cm of his people, an Emblem/X's SP within X cm."""
    own = [v for v in (tester.COU, tester.FEAR, war_cry) if v is not None]
    best = max(own)
    for lender in lenders:
        shape = morale_of(lender.card)
        if shape.leadership is not None and lender.cm <= shape.leadership and lender.card.people == tester.people \
                and not tester.has("Construct"):  # "Constructs cannot benefit from … Leadership"
            best = max(best, *(v for v in (lender.card.COU, lender.card.FEAR) if v is not None))
        if shape.emblem is not None and lender.cm <= shape.emblem and lender.card.has("Construct"):
            best = max(best, lender.card.HP)
    return best


def courage_shape(tester: FighterCard, dreadful_opponent: bool, heartened: bool = False) -> TestShape:
    """The COU test's shape: his passive test abilities (Bravery, Hardened, Loved by the gods, Born killer…) and,
    facing a Dreadful opponent with a FEAR rate, 2d6 keep lowest (cancelled by a keep-highest, :func:`compose`);
    heartened by a friendly Rallying cry, "a +1 bonus to the natural result of their COU tests"."""
    written = [f"{n}/{x}" if x else n for n, x in map(canonical_ability, tester.abilities)
               if n in ABILITIES and n not in NOT_ON_MORALE]
    hooks: list[Hook] = [h for h in hooks_of(written) if not isinstance(h, DamageHook)]
    if dreadful_opponent:
        hooks.append(KeepOf2d6(True, COU))
    if heartened:
        hooks.append(Bonus(1, COU, "natural"))
    return compose("COU", hooks)


def discipline_shape(tester: FighterCard) -> TestShape:
    """The DIS test's shape: his passive test abilities that touch DIS (Hardened…)."""
    written = [f"{n}/{x}" if x else n for n, x in map(canonical_ability, tester.abilities)
               if n in ABILITIES and n not in NOT_ON_MORALE]
    return compose("DIS", [h for h in hooks_of(written) if not isinstance(h, DamageHook)])


def without_active(card: FighterCard) -> FighterCard:
    """His card as a fighter in rout fights with: no active ability ("they cannot be used by a fighter in rout")."""
    kept = [a for a in card.abilities if canonical_ability(a)[0] not in ACTIVE]
    return card.model_copy(update={"abilities": kept})
