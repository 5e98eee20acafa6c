"""One test per implemented ability, each quoting its sentence from the seed (the A–Z list).

The numbers are exact: a test's success chance or a damage roll's line odds under the shipped
(estimated) core, so a change of the composition order or of a hook shows up as a number.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulekeeper.rulesets.confrontation.abilities import ABILITIES, damage_hooks_of, hooks_of, shape_of
from rulekeeper.rulesets.confrontation.effects import TestShape
from rulekeeper.rulesets.confrontation.rolls import natural_distribution, p_success
from rulekeeper.rulesets.confrontation.wounds import INSTINCT, damage_odds, load_wound_table

PLAIN = TestShape()
F = Fraction
TABLE = load_wound_table()


def opens_five(test: str, ability: str) -> None:
    shape = shape_of(test, [ability])
    assert shape.opens == {5, 6}
    assert shape_of("POW" if test != "POW" else "ATT", [ability]).opens == {6}
    assert p_success(shape, 0, 7) == F(1, 3)  # a 5 read as a 6 opens: 6 + anything reaches 7
    assert p_success(PLAIN, 0, 7) == F(1, 6)


def no_negative(test: str, ability: str) -> None:
    shape = shape_of(test, [ability])
    assert not shape.negative_opening and PLAIN.negative_opening
    assert natural_distribution(shape)[1] == F(1, 6)  # the 1 stays a 1: still a natural fail
    assert min(natural_distribution(shape)) == 1 and min(natural_distribution(PLAIN)) == -5


def test_bravery() -> None:
    """"a 1 in COU tests must not be negatively opened and a 5 in COU tests can be opened as if it were a 6"."""
    no_negative("COU", "Bravery")
    assert shape_of("COU", ["Bravery"]).opens == {5, 6}


def test_brutal() -> None:
    """"a 5 in ATT tests can be opened as if it were a 6"."""
    opens_five("ATT", "Brutal")


def test_dodge() -> None:
    """"a 5 in DEF tests can be opened as if it were a 6"."""
    opens_five("DEF", "Dodge")


def test_enlightened() -> None:
    """"a 5 in FAI tests can be opened as if it were a 6"."""
    opens_five("FAI", "Enlightened")


def test_exalted() -> None:
    """"a 1 in FAI tests must not be negatively opened"."""
    no_negative("FAI", "Exalted")


def test_fine_blade() -> None:
    """"a 1 in ATT tests must not be negatively opened"."""
    no_negative("ATT", "Fine blade")


def test_focus() -> None:
    """"a 5 in POW tests can be opened as if it were a 6"."""
    opens_five("POW", "Focus")


def test_hardened() -> None:
    """"a 5 in INI, ATT, DEF, AIM, COU and DIS tests can be opened as if it were a 6"."""
    for test in ("INI", "ATT", "DEF", "AIM", "COU", "DIS"):
        opens_five(test, "Hardened")
    assert shape_of("POW", ["Hardened"]).opens == {6} and shape_of("FAI", ["Hardened"]).opens == {6}


def test_loved_by_the_gods() -> None:
    """"a 4 or 5 in INI, ATT, DEF, AIM, COU and DIS tests can be opened as if it were a 6"."""
    shape = shape_of("DIS", ["Loved by the gods"])
    assert shape.opens == {4, 5, 6}
    assert p_success(shape, 0, 7) == F(1, 2)  # a 4, 5 or 6 read as a 6, then anything added
    assert p_success(shape, 0, 8) == F(1, 2) * F(5, 6)  # …then anything but a 1
    assert shape_of("POW", ["Loved by the gods"]).opens == {6}


def test_parade() -> None:
    """"a 1 in DEF tests must not be negatively opened"."""
    no_negative("DEF", "Parade")


def test_precision() -> None:
    """"a 5 in AIM tests can be opened as if it were a 6"."""
    opens_five("AIM", "Precision")


def test_reflexes() -> None:
    """"a 5 in INI tests can be opened as if it were a 6"."""
    opens_five("INI", "Reflexes")


def test_rigour() -> None:
    """"a 1 in DIS tests must not be negatively opened"."""
    no_negative("DIS", "Rigour")


def test_sharp_shooter() -> None:
    """"a 1 in AIM tests must not be negatively opened"."""
    no_negative("AIM", "Sharp shooter")


def test_spirit_of() -> None:
    """"For a fighter with this ability, a 1 in POW tests must not be negatively opened"."""
    no_negative("POW", "Spirit of X")


def test_strategist() -> None:
    """"a 5 in DIS tests can be opened as if it were a 6"."""
    opens_five("DIS", "Strategist")


def test_vivacity() -> None:
    """"a 1 in INI tests must not be negatively opened"."""
    no_negative("INI", "Vivacity")


def test_cursed() -> None:
    """"A Cursed fighter cannot re-roll nor open a roll of the dice, even if a game effect normally would allow him"."""
    shape = shape_of("ATT", ["Cursed", "Brutal", "Luck"])
    assert shape.opens == frozenset() and not shape.re_roll
    assert max(natural_distribution(shape)) == 6
    assert p_success(shape, 0, 7) == 0


def test_luck() -> None:
    """"The test is then cancelled and rolled again … It cannot be rolled again in any way"."""
    shape = shape_of("ATT", ["Luck"])
    assert shape.re_roll
    plain = p_success(PLAIN, 3, 7)  # 4, 5 or a 6: 1/2
    assert plain == F(1, 2) and p_success(shape, 3, 7) == 1 - (1 - plain) ** 2 == F(3, 4)


def test_dreadful() -> None:
    """"the COU test must be made using 2d6. Only the lower natural result is then used"."""
    shape = shape_of("COU", ["Dreadful"])
    assert shape.dice == 2 and shape.keep_lowest
    assert p_success(shape, 3, 7) == F(9, 36)  # both dice 4 or more
    assert shape_of("ATT", ["Dreadful"]).dice == 1


def test_rallying_cry() -> None:
    """"get a +1 bonus to the natural result of their COU tests"."""
    shape = shape_of("COU", ["Rallying cry"])
    assert shape.natural_bonus == 1
    assert p_success(shape, 0, 5) == F(2, 6) + F(1, 6) * 1  # a 4 read 5, a 5 read 6 opens, a 6 opens
    assert 1 not in natural_distribution(shape) and min(natural_distribution(shape)) == 2


def test_war_fury() -> None:
    """"he suffers a -1 to the natural result of his DEF"."""
    shape = shape_of("DEF", ["War fury"])
    assert natural_distribution(shape)[0] == F(2, 6) * F(1, 6)  # a 1 or a 2 read as 1, opened by a 1
    assert p_success(shape, 4, 7) == F(1, 2)  # a 4, 5 or 6 read 3, 4 or 5: the 6 no longer opens
    assert p_success(shape, 4, 10) == 0 and p_success(PLAIN, 4, 10) == F(1, 6)


def test_resolute() -> None:
    """"For that test, the Characteristic is increased by X which counts as written on the card"."""
    assert shape_of("ATT", ["Resolute/2"]).modifier == 2
    assert p_success(shape_of("ATT", ["Resolute/2"]), 2, 7) == p_success(PLAIN, 4, 7) == F(2, 3)
    assert shape_of("AIM", ["Resolute/2"]).modifier == 0


def test_desperate() -> None:
    """"he benefits from a +1 on the final results of his INI, ATT and DEF tests"."""
    assert p_success(shape_of("INI", ["Desperate"]), 3, 7) == F(2, 3)
    assert shape_of("COU", ["Desperate"]).modifier == 0


def test_wild() -> None:
    """"gets a +1 bonus to INI, ATT and DEF as long as he is further than X cm from a friendly fighter"."""
    assert shape_of("DEF", ["Wild/10"]).modifier == 1 and shape_of("AIM", ["Wild/10"]).modifier == 0


def test_born_killer() -> None:
    """Born killer: "a fighter with this ability automatically succeeds all COU tests with a difficulty that is less
    than or equal to the COU he is using, even if it is transmitted to him by a commander"."""
    shape = shape_of("COU", ["Born killer"])
    assert shape.auto_success and not shape_of("ATT", ["Born killer"]).auto_success
    assert p_success(shape, 4, 4) == 1 and p_success(PLAIN, 4, 4) < 1  # even a natural fail
    assert p_success(shape, 4, 5) == p_success(PLAIN, 4, 5)


def test_bane() -> None:
    """"the damage is read one line lower in the Wound Table … It is not possible to go lower than the last line"."""
    # third-edition rules: the higher of 2d6 (1, 2 … 6 with 1, 3 … 11 chances in 36) + STR 4 − RES 3
    assert damage_odds(TABLE, 4, 3) == {"Stunned": F(1, 9), "Light": F(1, 3), "Serious": F(5, 9)}
    assert damage_odds(TABLE, 4, 3, damage_hooks_of(["Bane/Acheron"])) == {
        "Light": F(1, 9), "Serious": F(1, 3), "Critical": F(5, 9)}
    assert damage_odds(TABLE, 12, 0, damage_hooks_of(["Bane/Elite"])) == {"Killed outright": 1}


def test_hard_boiled() -> None:
    """"read the result one line higher in the Wounds table … not possible to go further than the first line"."""
    assert damage_odds(TABLE, 4, 3, damage_hooks_of(["Hard-boiled"])) == {
        "No effect": F(1, 9), "Stunned": F(1, 3), "Light": F(5, 9)}
    assert damage_odds(TABLE, 0, 9, damage_hooks_of(["Hard-boiled"])) == {"No effect": 1}


def test_ferocious() -> None:
    """"Results of "Stunned" (after applying modifiers) on Damage Rolls … are considered to be results of "1 Wound"."""
    assert damage_odds(TABLE, 4, 3, damage_hooks_of(["Ferocious"])) == {"Light": F(4, 9), "Serious": F(5, 9)}
    hooks = damage_hooks_of(["Ferocious", "Hard-boiled"])  # after modifiers: a Light read Stunned is a wound again
    assert damage_odds(TABLE, 4, 3, hooks) == {"No effect": F(1, 9), "Light": F(8, 9)}


def test_survival_instinct() -> None:
    """"that fighter rolls 1d6 … on a result of 6 or more, the Damage Roll is cancelled" (its once-an-exchange limit:
    test_confrontation_instinct.py); rolled before Guardian's roll (a decision)."""
    odds = damage_odds(TABLE, 4, 3, damage_hooks_of(["Survival instinct"]))
    assert odds == {INSTINCT: F(1, 6), "Stunned": F(5, 54), "Light": F(5, 18), "Serious": F(25, 54)}
    both = damage_odds(TABLE, 4, 3, damage_hooks_of(["Survival instinct", "Guardian/4"]))
    assert (both[INSTINCT], both["Cancelled"]) == (F(1, 6), F(5, 6) * F(1, 2))


def test_guardian() -> None:
    """"Before any Damage Roll the Nexus should suffer, roll 1d6, on a result of X or more the Damage Roll is cancelled"."""
    assert damage_odds(TABLE, 4, 3, damage_hooks_of(["Guardian/4"]))["Cancelled"] == F(1, 2)


def test_every_implemented_ability_has_a_test_here() -> None:
    tested = {name.removeprefix("test_") for name in globals() if name.startswith("test_")}
    for ability in ABILITIES:
        key = ability.lower().replace(" of x", " of").replace("-", "_").replace(" ", "_")
        assert key in tested, ability
    assert hooks_of(["Resolute/3"]) == hooks_of(["Resolute/+3"])


def test_a_numeric_x_is_a_whole_number_not_below_0() -> None:
    """Resolute: "the Characteristic is increased by X"; Guardian: "on a result of X or more": X counts up."""
    assert hooks_of(["Resolute/0"]) == hooks_of(["Resolute/-0"])
    for written, problem in [("Resolute/-3", "Resolute/X cannot be negative"), ("Guardian/-1", "Guardian/X cannot"),
                             ("Resolute/2.5", "Resolute/X needs a whole number X"), ("Resolute/1000", "whole number")]:
        with pytest.raises(ValueError, match=problem):
            hooks_of([written])
