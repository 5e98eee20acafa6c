"""Wound penalties inside a combat and the abilities that bend them, each quoting the seed.

Numbers: data/wound_table.yaml (`levels`, `penalties`, `penalised`), estimated but Serious = 2, which the
seed's own Sequence example fixes.
"""

from __future__ import annotations

from typing import Any

from rulekeeper.rulesets.confrontation.cards import FighterCard
from rulekeeper.rulesets.confrontation.duel import Duel, exact_odds
from rulekeeper.rulesets.confrontation.exchanges import Health, apply_wound
from rulekeeper.rulesets.confrontation.fighters import Combatant
from rulekeeper.rulesets.confrontation.fray import Fray
from rulekeeper.rulesets.confrontation.penalties import wound_penalties
from rulekeeper.rulesets.confrontation.wounds import load_wound_table, parse_wound_table

TABLE = load_wound_table()
ALL = ("INI", "ATT", "STR", "DEF", "AIM")


def card(name: str = "W", **kw: Any) -> FighterCard:
    base: dict[str, Any] = {"name": name, "MOV": 10, "INI": 3, "ATT": 4, "STR": 4, "DEF": 3, "RES": 4, "COU": 4,
                            "DIS": 2, "HP": 4}
    base.update(kw)
    return FighterCard.model_validate(base)


def pens(hp: int, stunned: bool = False, *abilities: str) -> dict[str, int]:
    return wound_penalties(card(abilities=list(abilities)), hp, stunned, TABLE)


def test_the_levels_and_their_penalties_are_marked_estimated_data() -> None:
    """Sequence: "he also suffers Serious wound penalties, so his ATT is 4 and DEF is 1" (from ATT 6, DEF 3)."""
    assert TABLE.estimated and TABLE.penalty_of("Serious") == 2
    assert pens(4) == {} and pens(3) == dict.fromkeys(ALL, 1) and pens(2) == dict.fromkeys(ALL, 2)
    assert pens(1) == dict.fromkeys(ALL, 3) and pens(4, True) == dict.fromkeys(ALL, 1)
    assert pens(3, True) == dict.fromkeys(ALL, 1)  # third-edition rules: Stunned "never stacks with wounds"
    mine = parse_wound_table({"estimated": False, "lines": [{"line": "No effect"}, {"line": "Light", "from": 5}],
                              "penalties": {"Light": 2}, "penalised": ["ATT"]}, "mine")
    assert wound_penalties(card(), 3, False, mine) == {"ATT": 2}


def test_sequence_golden_example() -> None:
    """Sequence/X: "Malek has ATT 6 and DEF 3, he also suffers Serious wound penalties, so his ATT is 4 and DEF is 1.
    He has Sequence/2. He can take one die, going to ATT 3, DEF 0, but he cannot take the second one as that would
    bring his DEF to -1"."""
    malek = Combatant(card("Malek", ATT=6, DEF=3, abilities=["Sequence/2"]), hp=2)
    fray = Fray(((malek,), (Combatant(card("Foe")),)), TABLE)
    s = fray.opening(0)
    assert fray.sequence == (1, 0) and fray.dice(0) == 3
    assert (fray.side(s, 0).attack, fray.side(s, 0).defence) == (3, 0)
    fresh = Fray(((Combatant(card("Malek", ATT=6, DEF=3, abilities=["Sequence/2"])),), (Combatant(card("Foe")),)),
                 TABLE)
    assert fresh.sequence == (2, 0) and (fresh.side(fresh.opening(0), 0).attack, fresh.side(fresh.opening(0), 0).defence) == (4, 1)


def test_possessed() -> None:
    """Possessed: "reduces by one level the wound penalties he suffers. This ability does not affect Stunned: a fighter
    with this ability that also lost 1 HP suffers no wound penalties but he suffers the penalties for being Stunned"."""
    assert pens(3, False, "Possessed") == {} and pens(3, True, "Possessed") == dict.fromkeys(ALL, 1)
    assert pens(2, False, "Possessed") == dict.fromkeys(ALL, 1)


def test_robustness() -> None:
    """Robustness: "ignore penalties due to Stunned and due to Light wounds. These effects are applied before Possessed,
    so they do not affect Serious Wounds becoming Light due to Possessed"."""
    assert pens(3, True, "Robustness") == {} and pens(2, False, "Robustness") == dict.fromkeys(ALL, 2)
    assert pens(2, False, "Robustness", "Possessed") == dict.fromkeys(ALL, 1)


def test_fine_blade_parade_vivacity_sharp_shooter_and_fanaticism_reduce_their_own_penalty() -> None:
    """Fine blade: "reduces by 1 wound penalties to ATT (this does not cumulate with Possessed)"; Parade the same to
    DEF, Vivacity to INI, Sharp shooter to AIM; Fanaticism: "reduces by 1 his wound penalties to STR, this does not
    cumulate with Possessed"."""
    for ability, characteristic in (("Fine blade", "ATT"), ("Parade", "DEF"), ("Vivacity", "INI"),
                                    ("Sharp shooter", "AIM"), ("Fanaticism", "STR")):
        assert pens(2, False, ability)[characteristic] == 1 and pens(2, False, ability)["INI" if characteristic != "INI"
                                                                                        else "ATT"] == 2
        assert characteristic not in pens(3, False, ability)
        assert pens(2, False, ability, "Possessed")[characteristic] == 1  # not 0: no cumulating
        assert pens(4, True, ability)[characteristic] == 1  # Stunned is no wound


def test_indestructible() -> None:
    """Indestructible/X: "A fighter with this ability has no health, so he cannot lose HP"."""
    rock = Combatant(card(abilities=["Indestructible"]))
    assert apply_wound(rock, TABLE, Health(4), "Critical") == Health(4)
    assert apply_wound(rock, TABLE, Health(4), "Killed outright") == Health(4)  # a decision: no health to lose
    assert wound_penalties(rock.card, 1, False, TABLE) == {}


def test_a_wound_penalises_the_rest_of_the_combat() -> None:
    """Issue 15: a wounded fighter's tests get the penalty for the rest of the combat; a fighter brings his wounds
    (HP left, Stunned) into his next combat."""
    a, b = Combatant(card("A", STR=6)), Combatant(card("B"))
    duel = Duel(a, b, TABLE)
    s = duel.start(0)
    light = duel.after_blow(s, ("hit", "Light"), Health(3))
    before, after = duel.sides(s)[1], duel.sides(light)[1]
    assert (after.attack, after.defence) == (before.attack - 1, before.defence - 1)
    params = duel.fray.damage_params(light.melee(), 1, 0, duel.fray.strike(light.melee(), 1, 0))
    assert params[0] == 4 - 1  # STR penalised too
    hurt = Duel(a, Combatant(card("B"), hp=2, stunned=True), TABLE)
    assert hurt.start(0).health[1] == Health(2, stunned=True)
    # third-edition rules: Stunned −1 "never stacks with wounds": Serious 2 alone
    assert hurt.sides(hurt.start(0))[1].attack == 4 - 2
    assert sum(exact_odds(hurt).values()) == 1
    serious = Duel(a, Combatant(card("B"), hp=2), TABLE)
    assert hurt.sides(hurt.start(0))[1] == serious.sides(serious.start(0))[1]
    dazed = Duel(a, Combatant(card("B"), stunned=True), TABLE)
    assert dazed.sides(dazed.start(0))[1].attack == 4 - 1
    assert exact_odds(dazed) != exact_odds(Duel(a, b, TABLE))


def test_stunned_never_stacks_with_wounds() -> None:
    """Third-edition rules: "Stunned −1 (that turn only, never stacks with wounds, never raises the wound level),
    Light −1, Serious −2, Critical −3"."""
    assert pens(4, True) == dict.fromkeys(ALL, 1)
    assert pens(3, True) == pens(3, False) == dict.fromkeys(ALL, 1)
    assert pens(2, True) == dict.fromkeys(ALL, 2) and pens(1, True) == dict.fromkeys(ALL, 3)
    assert pens(2, True, "Fine blade")["ATT"] == 1  # his own reduction, and Stunned does not add to it


def test_ethereal_res_is_never_penalised() -> None:
    """Ethereal: "Their RES cannot be altered by any generic bonus or penalty" — with a book whose wound penalties
    reach RES (the shipped table's do not), an Ethereal fighter's RES stays the card's."""
    book = parse_wound_table({"estimated": False, "lines": [{"line": "No effect"}, {"line": "Light", "from": 5}],
                              "penalised": ["ATT", "RES"]}, "book")
    assert wound_penalties(card(), 3, False, book) == {"ATT": 1, "RES": 1}
    assert wound_penalties(card(abilities=["Ethereal"]), 3, False, book) == {"ATT": 1}
    fray = Fray(((Combatant(card("A")),), (Combatant(card("G", abilities=["Ethereal"]), hp=3),)), book)
    plain = Fray(((Combatant(card("A")),), (Combatant(card("P"), hp=3),)), book)
    s = fray.opening(0)
    assert fray.damage_params(s, 0, 1, fray.strike(s, 0, 1))[1] == 4
    assert plain.damage_params(plain.opening(0), 0, 1, plain.strike(plain.opening(0), 0, 1))[1] == 3


def test_a_fighter_enters_a_combat_with_the_hp_he_has() -> None:
    """A fighter brings 1 to his card's HP into a combat (1 or 2 while standing thanks to Fierce); anything else is a
    typed error naming him."""
    import pytest

    from rulekeeper.core.errors import ImpossibleRequestError

    assert Combatant(card(), hp=4).hp == 4 and Combatant(card(abilities=["Fierce"]), hp=2, fierce=True).fierce
    for hp, fierce in ((0, False), (5, False), (3, True)):
        with pytest.raises(ImpossibleRequestError, match="W enters the combat with"):
            Combatant(card(), hp=hp, fierce=fierce)


def test_endurance_ignores_light_wound_penalties_only() -> None:
    """Endurance: "ignores Light-wound penalties" (third-edition rules, issue 24; not in the seed's list, whose
    Robustness also ignores Stunned)."""
    assert pens(3, False, "Endurance") == {} and pens(3) == dict.fromkeys(ALL, 1)
    assert pens(2, False, "Endurance") == dict.fromkeys(ALL, 2)  # Serious still counts
    assert pens(4, True, "Endurance") == dict.fromkeys(ALL, 1)  # Stunned still counts (Robustness: none)
    assert pens(4, True, "Robustness") == {}
