"""The remaining abilities the combat, the cards and the maintenance phase implement, one test each quoting
the seed (the test hooks' abilities are in test_confrontation_abilities.py)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from pydantic import ValidationError

from rulekeeper.rulesets.confrontation.cards import FighterCard
from rulekeeper.rulesets.confrontation.duel import Duel, place
from rulekeeper.rulesets.confrontation.exchanges import Health
from rulekeeper.rulesets.confrontation.fighters import Combatant
from rulekeeper.rulesets.confrontation.fray import Fray
from rulekeeper.rulesets.confrontation.maintenance import cure_odds, hp_change_odds, upkeep_of
from rulekeeper.rulesets.confrontation.strikes import toxic_follows
from rulekeeper.rulesets.confrontation.wounds import load_wound_table

TABLE = load_wound_table()
F = Fraction


def card(name: str = "C", **kw: Any) -> FighterCard:
    base: dict[str, Any] = {"name": name, "MOV": 10, "INI": 3, "ATT": 4, "STR": 4, "DEF": 3, "RES": 4, "COU": 4,
                            "DIS": 2, "HP": 4}
    base.update(kw)
    return FighterCard.model_validate(base)


def test_additional_limb() -> None:
    """Additional limb: "A fighter using Additional limb swaps his ATT and DEF for the duration of the combat" (active:
    used when it raises his ATT, policy)."""
    limb = Combatant(card(ATT=2, DEF=5, abilities=["Additional limb"]))
    assert (limb.attack, limb.defence) == (5, 2)
    unused = Combatant(card(ATT=5, DEF=2, abilities=["Additional limb"]))
    assert (unused.attack, unused.defence) == (5, 2)


def test_ambidextrous() -> None:
    """Ambidextrous: "When a fighter with this ability succeeds in a DEF test, then the attack is parried and he gains
    an additional attack die"."""
    ambi = Combatant(card(abilities=["Ambidextrous"]))
    assert ambi.counter_margin == 0
    duel = Duel(Combatant(card("A")), ambi, TABLE)
    s = duel.start(0)
    after = duel.after_blow(s, ("parried", "gain"))
    assert after.attack[1] == s.attack[1] + 1 and after.defence[1] == s.defence[1] - 1


def test_brutish_charge() -> None:
    """Brutish charge: "When a fighter with this ability charges during the activation phase, he gets an additional
    attack die for the first combat he is involved in during this round"."""
    brute = Combatant(card(abilities=["Brutish charge"]), charged=True)
    assert brute.attack_only_dice() == 1 and place(brute, None).attack == 2
    assert Combatant(card(abilities=["Brutish charge"])).attack_only_dice() == 0


def test_construct() -> None:
    """Construct: "Constructs have Structure points (SP) instead of HP (so they cannot benefit from Regeneration nor
    Ephemeral), as well as the Immunity/Fear and Immunity/Toxic abilities"."""
    golem = card("Golem", abilities=["Construct", "Regeneration/2", "Repair/4"])
    assert [r[0] for r in upkeep_of(golem).rolls] == ["Repair"]
    fray = Fray(((Combatant(card("V", abilities=["Toxic/3"])),), (Combatant(golem),)), TABLE)
    assert toxic_follows(fray, fray.opening(0), 0, 1, "Light", Health(3)) is None


def test_being_of_and_living_dead_are_immune_to_toxic() -> None:
    """Being of/X: "All these fighters have Immunity/Toxic"; Living-dead: "The Living-dead benefit from the
    Immunity/Toxic and Immunity/Fear abilities"."""
    for ability in ("Being of/Light", "Living-dead"):
        fray = Fray(((Combatant(card("V", abilities=["Toxic/3"])),), (Combatant(card("T", abilities=[ability])),)),
                    TABLE)
        assert toxic_follows(fray, fray.opening(0), 0, 1, "Serious", Health(2)) is None


@pytest.mark.parametrize(("ability", "hp"), [("Enormous", 6), ("Colossal", 7), ("Gigantic", 8)])
def test_enormous_colossal_gigantic(ability: str, hp: int) -> None:
    """Enormous: "This is a fighter of Very Large Size; he has 6 HP and Force 3"; Colossal: "… he has 7 HP and Force
    4"; Gigantic: "… he has 8 HP and Force 5"; Divine blood: "1 additional HP than what his size dictates"."""
    assert card(size="Very Large", HP=hp, abilities=[ability]).HP == hp
    assert card(size="Very Large", HP=hp + 1, abilities=[ability, "Divine blood"]).HP == hp + 1
    with pytest.raises(ValidationError, match=f"needs size Very Large and HP {hp}"):
        card(size="Large", HP=hp, abilities=[ability])
    with pytest.raises(ValidationError, match=f"HP {hp}"):
        card(size="Very Large", HP=hp + 2, abilities=[ability])


def test_cure() -> None:
    """Cure/X: "during the maintenance phase, a fighter with this ability can cure a friendly fighter in base-to-base
    contact with him (he can also cure himself). One d6 is rolled. The targeted fighter is cured by one LP if the
    result on the die is equal to or greater than X. If this ability is used as a simple action, then the fighter
    gets a +1 bonus to this roll. This ability cannot be used on a target with SP"; Fierce: "he cannot be cured"."""
    healer = card(abilities=["Cure/4"])
    assert hp_change_odds(healer, 2) == {2: F(1, 2), 3: F(1, 2)}
    assert hp_change_odds(healer, 4) == {4: F(1)}
    assert cure_odds(4) == F(1, 2) and cure_odds(4, simple_action=True) == F(2, 3) and cure_odds(1, True) == 1
    assert hp_change_odds(card(abilities=["Cure/4", "Construct"]), 2) == {2: F(1)}
    assert hp_change_odds(card(abilities=["Cure/4", "Fierce"]), 2, fierce=True) == {0: F(1)}
