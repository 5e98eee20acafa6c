"""The guide's rules one by one, each test quoting the sentence it checks, and the unit data file."""

from __future__ import annotations

import pytest
from rigged_fate import RiggedFate

from rulekeeper.core.errors import DataFileError, ImpossibleRequestError, UnknownNameError
from rulekeeper.rulesets.battlesystem import (
    BattleSystemOptions,
    Reach,
    Unit,
    UnitTypes,
    check_barrage_target,
    load_unit_types,
    morale_damage,
    resolve_attack,
    resolve_barrage,
    resolve_missile,
)

SEED_NUMBERS = {
    ("Light Infantry", "movement"): 4, ("Light Infantry", "melee"): 6, ("Light Infantry", "damage_reduction"): 14,
    ("Heavy Infantry", "damage_reduction"): 20, ("Military Police", "melee"): 2,
    ("Military Police", "damage_reduction"): 12, ("Pikemen", "damage_reduction"): 25, ("Archers", "missile"): 10,
    ("Artillery", "barrage"): 15, ("Light Cavalry", "melee"): 2, ("Light Cavalry", "damage_reduction"): 10,
}


@pytest.fixture(scope="module")
def types() -> UnitTypes:
    return load_unit_types()


def fresh(types: UnitTypes, name: str) -> Unit:
    return Unit.fresh(types.get(name))


def test_thirteen_unit_types_in_the_guides_four_groups(types: UnitTypes) -> None:
    # "Currently, there are thirteen different unit types" / "Melee units: Light Infantry, Light Cavalry, Heavy
    #  Infantry, Heavy Cavalry, Military Police, Pikemen / Missile units: Archers, Mounted Archers / Artillery units:
    #  Artillery, Battlemages / Support units: Engineers, Medics, Supply"
    # (the ethnic special units, issue 25, are "based on the normal ones": not among the thirteen)
    by = {c: [t.name for t in types.types if t.category == c and t.ethnicity is None]
          for c in ("melee", "missile", "artillery", "support")}
    assert by == {"melee": ["Light Infantry", "Light Cavalry", "Heavy Infantry", "Heavy Cavalry", "Military Police",
                            "Pikemen"],
                  "missile": ["Archers", "Mounted Archers"], "artillery": ["Artillery", "Battlemages"],
                  "support": ["Engineers", "Medics", "Supply"]}


def test_every_number_says_where_it_comes_from(types: UnitTypes) -> None:
    seeded = {(t.name, f) for t in types.types for f, (src, _) in t.provenance.items() if src == "seed"}
    assert seeded == set(SEED_NUMBERS) | {("Military Police", "abilities")}
    for (name, field), value in SEED_NUMBERS.items():
        assert getattr(types.get(name), field) == value
    for t in types.types:
        assert all(why for _, why in t.provenance.values()), t.name
        # "Each unit has a movement rating and this number has to be an even number."
        assert t.movement % 2 == 0


def test_a_players_file_replaces_numbers_and_adds_an_ethnic_special_unit() -> None:
    text = ("units:\n  Pikemen: {melee: 5}\nspecial_units:\n  Hill Pikes:\n    base: Pikemen\n"
            "    ethnicity: Hillfolk\n    damage_reduction: {value: 27, why: our campaign}\n")
    types = load_unit_types(texts=[("mine.yaml", text)])
    assert (types.get("pikemen").melee, types.get("Pikemen").provenance["melee"]) == (5, ("user", None))
    special = types.get("Hill Pikes")
    assert (special.base, special.ethnicity, special.damage_reduction, special.melee) == ("Pikemen", "Hillfolk", 27, 5)
    assert special.provenance["movement"][0] == "estimated"


@pytest.mark.parametrize(("text", "expect"), [
    ("units:\n  Pikemen: {movement: 3}\n", "units.Pikemen: Value error, movement 3 must be even"),
    ("units:\n  Pikemen: {melee: -1}\n", "units.Pikemen.melee.value"),
    ("special_units:\n  X: {base: Dragons}\n", "special_units.X.base: expected a unit type, got 'Dragons'"),
    ("units:\n  Pikemen: {abilities: [Flying]}\n", "units.Pikemen.abilities.value.0"),
])
def test_bad_files_are_refused_naming_file_and_field(text: str, expect: str) -> None:
    with pytest.raises(DataFileError) as err:
        load_unit_types(texts=[("mine.yaml", text)])
    assert "mine.yaml" in err.value.message and expect in err.value.message


def test_unknown_unit_suggests(types: UnitTypes) -> None:
    with pytest.raises(UnknownNameError) as err:
        types.get("Light Infantri")
    assert err.value.suggestions[0] == "Light Infantry"


def test_a_dash_skill_is_unavailable_a_zero_skill_is_not(types: UnitTypes) -> None:
    # "All units have access to a type of attack, even if they have 0 skill in that type of attack. Only skills
    #  that have a - instead of a number, are unavailable."
    with pytest.raises(ImpossibleRequestError, match="missile skill is '-'"):
        resolve_missile(RiggedFate({}), fresh(types, "Light Infantry"), fresh(types, "Archers"), Reach(1))
    fate = RiggedFate({"Attack: Archers on Medics": ["3"]})
    r = resolve_attack(fate, fresh(types, "Archers"), fresh(types, "Medics"), Reach(1))
    assert (r.formula, r.casualties) == ("5d10+0+0-8 (or simply 5d10-8)", 3)


def test_missile_needs_ammunition_range_and_sight(types: UnitTypes) -> None:
    # "the unit has to have ammunition (unless stated otherwise) and the enemy has to be within range and in sight."
    archers, li = fresh(types, "Archers"), fresh(types, "Light Infantry")
    with pytest.raises(ImpossibleRequestError, match="beyond its range 6"):
        resolve_missile(RiggedFate({}), archers, li, Reach(7))
    with pytest.raises(ImpossibleRequestError, match="not in sight"):
        resolve_missile(RiggedFate({}), archers, li, Reach(2, in_sight=False))
    empty = Unit(archers.card, "Archers", 100, 100, 0)
    with pytest.raises(ImpossibleRequestError, match="no ammunition") as err:
        resolve_missile(RiggedFate({}), empty, li, Reach(2))
    assert err.value.details["unit"] == "Archers"


def test_a_failed_missile_hurts_nobody(types: UnitTypes) -> None:
    # "These failed attacks don't affect ranged attacks such as the ones that use the missile or barrage skills."
    fate = RiggedFate({"Missile: Mounted Archers on Pikemen": ["-10"]})
    r = resolve_missile(fate, fresh(types, "Mounted Archers"), fresh(types, "Pikemen"), Reach(2))
    assert (r.roll, r.casualties, r.attacker_losses, r.ammunition_spent, r.morale) == (-10, 0, 0, 1, None)


def test_failed_attack_morale_option(types: UnitTypes) -> None:
    # "Every time a unit deals damage to a different unit, they also roll for morale damage." In a failed attack
    # the defender dealt the damage: with `failed_attack_morale=defender` it rolls 1d10 + losses, halved here
    # against Military Police. The default (issue 25) follows the failed-attack example, which rolls none.
    wanted = {"Attack: Military Police on Pikemen": ["-7"], "Morale damage: Pikemen on Military Police": ["15"]}
    rule = BattleSystemOptions(failed_attack_morale="defender")
    r = resolve_attack(RiggedFate(wanted), fresh(types, "Military Police"), fresh(types, "Pikemen"), Reach(1),
                       options=rule)
    assert r.morale is not None and (r.morale.victim, r.morale.roll, r.morale.damage) == ("Military Police", 15, 7)
    r = resolve_attack(RiggedFate(wanted), fresh(types, "Military Police"), fresh(types, "Pikemen"), Reach(1))
    assert r.morale is None and r.attacker.morale == 100


def test_morale_doubles_for_barrage_and_shock_and_awe_and_halves_against_military_police(types: UnitTypes) -> None:
    # "Some units have a special "Shock and Awe" ability and attacks that use the barrage stat allow them to deal
    #  two times more morale damage than normal." "Military police units reduce the effects of the morale damage
    #  by half."
    li, hc, mp, art = (types.get(n) for n in ("Light Infantry", "Heavy Cavalry", "Military Police", "Artillery"))
    assert morale_damage(29, li, li, False) == 29
    assert morale_damage(29, hc, li, False) == 58
    assert morale_damage(29, art, li, True) == 58
    assert morale_damage(29, hc, li, True) == 58  # both: still ×2
    assert morale_damage(29, li, mp, False) == 14
    assert morale_damage(29, li, mp, False, BattleSystemOptions(half_rounding="up")) == 15
    assert morale_damage(29, art, mp, True) == 29


def test_zero_morale_flees_and_cannot_attack(types: UnitTypes) -> None:
    # "A unit that has been reduced to 0 morale will be forced to flee toward the edge of the map."
    wanted = {"Attack: Heavy Cavalry on Light Infantry": ["30"], "Morale damage: Heavy Cavalry on Light Infantry": ["40"]}
    r = resolve_attack(RiggedFate(wanted), fresh(types, "Heavy Cavalry"), fresh(types, "Light Infantry"), Reach(1))
    assert r.morale is not None and (r.morale.damage, r.defender.morale, r.defender.fleeing) == (80, 20, False)
    wanted = {"Attack: Heavy Cavalry on Light Infantry": ["30"], "Morale damage: Heavy Cavalry on Light Infantry": ["39"]}
    r = resolve_attack(RiggedFate(wanted), fresh(types, "Heavy Cavalry"), r.defender, Reach(1))
    assert (r.defender.soldiers, r.defender.morale, r.defender.fleeing) == (40, 0, True)
    with pytest.raises(ImpossibleRequestError, match="fleeing"):
        resolve_attack(RiggedFate({}), r.defender, fresh(types, "Pikemen"), Reach(1))


def test_casualties_stop_at_the_last_soldier_and_the_dead_roll_no_morale(types: UnitTypes) -> None:
    li = fresh(types, "Light Infantry")
    few = Unit(types.get("Heavy Infantry"), "Heavy Infantry", 10, 100, 0)
    r = resolve_attack(RiggedFate({"Attack: Light Infantry on Heavy Infantry": ["24"]}), li, few, Reach(1))
    assert (r.casualties, r.defender.soldiers, r.defender.destroyed, r.morale) == (10, 0, True, None)


def test_normal_attacks_reach_adjacent_hexes_only(types: UnitTypes) -> None:
    with pytest.raises(ImpossibleRequestError, match="adjacent hex only"):
        resolve_attack(RiggedFate({}), fresh(types, "Light Infantry"), fresh(types, "Pikemen"), Reach(2))


def test_barrage_targets_a_hex_in_range_without_sight(types: UnitTypes) -> None:
    # "To perform a barrage attack, the unit has to target a hex that's in range. Barrage attacks don't require sight."
    art = fresh(types, "Artillery")
    check_barrage_target(art, 10)
    with pytest.raises(ImpossibleRequestError, match="beyond its range 10"):
        check_barrage_target(art, 11)
    with pytest.raises(ImpossibleRequestError, match="barrage skill is '-'"):
        check_barrage_target(fresh(types, "Archers"), 1)


def test_barrage_on_an_empty_hex_still_hits_around_it_and_doubles_morale(types: UnitTypes) -> None:
    # "The unit on the targeted hex will take all of the damage and if there are units on adjacent hexes, then they
    #  will take half of that." The target moved away: the shells land on the hex all the same.
    wanted = {"Barrage: Artillery": ["50"], "Morale damage: Artillery on Pikemen": ["20"]}
    r = resolve_barrage(RiggedFate(wanted), fresh(types, "Artillery"), None, [fresh(types, "Pikemen")])
    (hit,) = r.hits
    assert (hit.on_target, hit.damage, hit.unit.soldiers) == (False, 12, 88)  # (50 - 25) / 2 rounded down
    assert hit.morale is not None and (hit.morale.roll, hit.morale.multiplier, hit.morale.damage) == (20, 2, 40)
    assert r.artillery.ammunition == 4
