"""Ex illis muster validation: every rule id, every problem reported at once, each naming its unit."""

from __future__ import annotations

from collections import Counter

import pytest

from rulekeeper.core.armylist import ArmyList, ListedUnit, Problem
from rulekeeper.rulesets.exillis.muster_checks import check_army
from rulekeeper.rulesets.exillis.musters_data import load_musters_data
from rulekeeper.rulesets.exillis.pricing import ExIllisArmyRules
from rulekeeper.rulesets.exillis.profiles import load_profiles

ROSTER = load_profiles()
DATA = load_musters_data()
RULES = ExIllisArmyRules(ROSTER, DATA)


def army(*units: ListedUnit, game_type: str = "Common", general: str | None = None, faction: str | None = None,
         generals: tuple[str, ...] = ()) -> ArmyList:
    extra = {"generals": generals} if generals else {}
    return ArmyList(name="Test", ruleset="exillis", game_type=game_type, units=units,
                    general=general or (generals[0] if generals else None), faction=faction, extra=extra)


def rules_of(a: ArmyList) -> list[str]:
    return [p.rule for p in RULES.problems(a)]


def only(a: ArmyList) -> Problem:
    found = RULES.problems(a)
    assert len(found) == 1, found
    return found[0]


def test_a_valid_muster_has_no_problem() -> None:
    a = army(ListedUnit("Billmen", level=3, attached="Decurion", attached_level=3), ListedUnit("Longbowmen", level=3),
             general="Decurion", faction="Broken Wing")
    assert RULES.problems(a) == [] and check_army(a, ROSTER, DATA) == []


def test_aliases_and_case_are_accepted() -> None:
    a = army(ListedUnit("billman", level=3, attached="centurion", attached_level=3), general="Decurion/Centurion",
             faction="broken wing")
    assert RULES.problems(a) == []


def test_unknown_unit_suggests_the_closest() -> None:
    p = only(army(ListedUnit("Vilains")))
    assert (p.entry, p.unit, p.rule) == (1, "Vilains", "unknown-unit") and "Vileins" in p.message


def test_unknown_hero_suggests_the_closest() -> None:
    p = only(army(ListedUnit("Billmen", attached="Decurian")))
    assert p.rule == "unknown-hero" and "Decurion" in p.message


def test_unknown_game_type_suggests_and_lists_the_types() -> None:
    p = only(army(ListedUnit("Billmen"), game_type="Comon"))
    assert (p.entry, p.rule) == (0, "unknown-game-type") and "'Common'" in p.message and "Anything Goes 1-77" in p.message


def test_unknown_faction_suggests() -> None:
    a = army(ListedUnit("Billmen", attached="Decurion"), general="Decurion", faction="Broken Wings")
    p = only(a)
    assert p.rule == "unknown-faction" and "Broken Wing" in p.message


@pytest.mark.parametrize(("game_type", "level", "expected"), [
    ("Common", 11, ["level-range"]),
    ("Grand", 9, ["level-range"]),
    ("Legendary", 35, ["level-max"]),         # Billmen max 30, Legendary 30-40
    ("Epic", 45, ["level-max"]),
    ("Homeric", 61, ["level-range", "level-max"]),
    ("Anything Goes", 30, []),
    ("Common", 0, ["level-range"]),
])
def test_levels_against_the_game_type_and_the_units_maximum(game_type: str, level: int, expected: list[str]) -> None:
    found = RULES.problems(army(ListedUnit("Billmen", level=level), game_type=game_type))
    assert [p.rule for p in found] == expected
    assert all(p.unit == "Billmen" and p.entry == 1 for p in found)


def test_hero_level_is_checked_too() -> None:
    p = only(army(ListedUnit("Billmen", level=5, attached="Decurion", attached_level=12)))
    assert (p.unit, p.rule) == ("Decurion", "level-range") and "hero_level 12" in p.message


def test_named_characters_are_never_a_level_problem_in_a_game_they_reach() -> None:
    assert rules_of(army(ListedUnit("Billmen", attached="William Wallace", attached_level=77))) == []


def test_a_named_character_below_the_game_types_minimum_is_a_problem() -> None:
    found = RULES.problems(army(ListedUnit("Billmen", level=55, attached="William Wallace"), game_type="Homeric"))
    assert [(p.unit, p.rule) for p in found] == [("Billmen", "level-max"), ("William Wallace", "level-range")]
    assert "level 40" in found[1].message


@pytest.mark.parametrize(("unit", "miniatures", "expected"), [
    ("Billmen", 4, "miniatures-minimum"), ("Billmen", 5, None), ("Billmen", 8, None), ("Billmen", 9, "miniatures-maximum"),
    ("Franc Chevalers", 2, "miniatures-minimum"), ("Franc Chevalers", 3, None), ("Soffrances", 1, "miniatures-minimum"),
    ("Ympes", 6, None), ("Ympes", 5, "miniatures-minimum"), ("Billmen", 0, "miniatures-minimum"),
    ("Billmen", -3, "miniatures-minimum"),
])
def test_partial_units_keep_the_majority(unit: str, miniatures: int, expected: str | None) -> None:
    """Seed: "as long as you use the majority (50% + 1) ... 8 archers ... 5 to 8 ... 4 knights ... 3 or 4"."""
    assert rules_of(army(ListedUnit(unit, miniatures=miniatures))) == ([] if expected is None else [expected])


def test_a_hero_listed_as_a_unit_has_no_retinue() -> None:
    p = only(army(ListedUnit("Decurion")))
    assert (p.unit, p.rule) == ("Decurion", "hero-without-retinue") and "Retinue" in p.message


def test_a_unit_listed_as_a_hero() -> None:
    p = only(army(ListedUnit("Billmen", attached="Vileins")))
    assert (p.unit, p.rule) == ("Vileins", "unit-as-hero")


def test_a_hero_with_two_units() -> None:
    p = only(army(ListedUnit("Billmen", attached="Decurion"), ListedUnit("Vileins", attached="Centurion")))
    assert (p.entry, p.unit, p.rule) == (2, "Decurion", "hero-twice") and "entry 1" in p.message


def test_lucifer_is_a_unit_on_his_own() -> None:
    assert rules_of(army(ListedUnit("Lucifer"))) == []
    p = only(army(ListedUnit("Vileins", attached="Lucifer")))
    assert (p.unit, p.rule) == ("Lucifer", "loner-joins")
    p = only(army(ListedUnit("Lucifer", attached="Marrenne")))
    assert (p.unit, p.rule) == ("Lucifer", "loner-retinue") and "Marrenne" in p.message


def test_two_generals() -> None:
    a = army(ListedUnit("Billmen", attached="Decurion"), ListedUnit("Vileins", attached="Marrenne"),
             generals=("Decurion", "Marrenne"))
    assert rules_of(a) == ["one-general", "general-faction-missing", "general-faction-missing"]


def test_the_general_must_be_a_hero_of_this_muster() -> None:
    p = only(army(ListedUnit("Billmen", attached="Decurion"), general="Marrenne"))
    assert (p.entry, p.unit, p.rule) == (0, "Marrenne", "general-not-in-muster")
    assert only(army(ListedUnit("Billmen"), general="Billmen")).rule == "general-not-hero"
    assert only(army(ListedUnit("Billmen"), general="Nobody")).rule == "unknown-general"


def test_the_faction_must_be_one_of_the_generals() -> None:
    p = only(army(ListedUnit("Billmen", attached="Decurion"), general="Decurion", faction="French Crown"))
    assert (p.unit, p.rule) == ("Decurion", "faction-not-generals") and "Broken Wing" in p.message


def test_a_faction_needs_a_general() -> None:
    assert only(army(ListedUnit("Billmen"), faction="Broken Wing")).rule == "faction-without-general"


def test_a_general_with_several_factions_must_choose_one() -> None:
    p = only(army(ListedUnit("Billmen", attached="Decurion"), general="Decurion"))
    assert p.rule == "general-faction-missing" and "Ardenti" in p.message
    assert rules_of(army(ListedUnit("Billmen", attached="Wallace"), general="William Wallace")) == []


def test_an_empty_muster() -> None:
    assert rules_of(army()) == ["empty-muster"]


def test_every_problem_at_once_army_wide_first_then_entries_in_order() -> None:
    a = army(ListedUnit("Billmen", level=12, miniatures=4, attached="Decurion"),
             ListedUnit("Longbowman", attached="Decurion"),
             ListedUnit("Lucifer", attached="Marrenne"),
             ListedUnit("Knight Baneret"),
             ListedUnit("Vileins", attached="Lucifer"),
             ListedUnit("Hobelars", miniatures=6),
             ListedUnit("Vilains"),
             game_type="Common", faction="Sons of Scotland", generals=("Decurion", "Marrenne"))
    found = RULES.problems(a)
    rules = [p.rule for p in found]
    assert set(rules) >= {"one-general", "faction-not-generals", "miniatures-minimum", "level-range", "hero-twice",
                          "loner-retinue", "hero-without-retinue", "loner-joins", "miniatures-maximum", "unknown-unit"}
    assert [p.entry for p in found] == sorted(p.entry for p in found)
    assert all(p.rule and p.message for p in found)
    assert all(p.unit for p in found if p.entry)
    assert Counter(rules)["faction-not-generals"] == 2


def test_problem_text_names_the_entry_the_unit_and_the_rule() -> None:
    p = only(army(ListedUnit("Billmen", miniatures=3)))
    assert p.text().startswith("entry 1 (Billmen): miniatures-minimum: ")
    assert p.to_dict() == {"entry": 1, "unit": "Billmen", "rule": "miniatures-minimum", "message": p.message}


def test_an_invalid_muster_is_still_priced() -> None:
    r = RULES.report(army(ListedUnit("Vilains"), ListedUnit("Billmen", level=500, miniatures=10**12)))
    assert not r.valid and r.lines[0].line.total == 0 and r.lines[1].line.total > 0
