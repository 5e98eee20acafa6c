"""Every worked example of the "Guide to the Battle System" (seed 002), to the printed digit.

Each test quotes the example it implements. The rolls the guide prints are drawn through a
:class:`RiggedFate` (the real chance request, a ``u`` inside the printed outcome's slice).
"""

from __future__ import annotations

import pytest
from rigged_fate import RiggedFate

from rulekeeper.rulesets.battlesystem import (
    BattleSystemOptions,
    Reach,
    Unit,
    UnitTypes,
    load_unit_types,
    resolve_attack,
    resolve_barrage,
    resolve_missile,
)


@pytest.fixture(scope="module")
def types() -> UnitTypes:
    return load_unit_types()


def fresh(types: UnitTypes, name: str) -> Unit:
    return Unit.fresh(types.get(name))


def test_light_infantry_vs_heavy_infantry_24(types: UnitTypes) -> None:
    # "Light infantry attack and roll 5d10+6+0-20 (or simply 5d10-14). The roll results in a 24 which means
    #  that the heavy infantry unit ends up losing 24 soldiers."
    fate = RiggedFate({"Attack: Light Infantry on Heavy Infantry": ["24"]})
    r = resolve_attack(fate, fresh(types, "Light Infantry"), fresh(types, "Heavy Infantry"), Reach(1))
    assert r.formula == "5d10+6+0-20 (or simply 5d10-14)"
    assert (r.roll, r.casualties, r.attacker_losses) == (24, 24, 0)
    assert r.defender.soldiers == 100 - 24
    assert fate.records[0].request.explain[0] == "5d10+6+0-20 (or simply 5d10-14)"
    # 5d10 = 38 in 1,745 of the 100,000 ways five d10 fall (checked against enumeration in the odds tests)
    assert fate.records[0].probability == 1745 / 100000


def test_military_police_vs_pikemen_minus_7(types: UnitTypes) -> None:
    # "Military Police attack and roll 5d10+2+0-25 (or simply 5d10-23). The roll results in a -7 which means that
    #  the military police unit ends up losing 7 soldiers."
    fate = RiggedFate({"Attack: Military Police on Pikemen": ["-7"]})
    r = resolve_attack(fate, fresh(types, "Military Police"), fresh(types, "Pikemen"), Reach(1))
    assert r.formula == "5d10+2+0-25 (or simply 5d10-23)"
    assert (r.roll, r.casualties, r.attacker_losses) == (-7, 0, 7)
    assert (r.attacker.soldiers, r.defender.soldiers) == (93, 100)


def test_archers_vs_light_infantry_32_and_one_ammunition(types: UnitTypes) -> None:
    # "Archers attack and roll 5d10+10+0-14 (or simply 5d10-4). The roll results in a 32 which means that the
    #  light infantry unit ends up losing 32 soldiers and the archers lose 1 ammunition."
    archers = fresh(types, "Archers")
    fate = RiggedFate({"Missile: Archers on Light Infantry": ["32"]})
    r = resolve_missile(fate, archers, fresh(types, "Light Infantry"), Reach(3, in_sight=True))
    assert r.formula == "5d10+10+0-14 (or simply 5d10-4)"
    assert (r.roll, r.casualties, r.attacker_losses, r.ammunition_spent) == (32, 32, 0, 1)
    assert r.defender.soldiers == 68
    assert r.attacker.ammunition == archers.ammunition - 1


def test_artillery_barrage_36_on_the_hex_and_19_next_to_it(types: UnitTypes) -> None:
    # "the artillery unit rolls a 5d10+15+0-14 (or simply 5d10+1). The roll results in a 36 which means that the
    #  light infantry unit ends up losing 36 soldiers and the artillery lose 1 ammunition. The military police
    #  adjacent to the targeted hex should lose 18, but since their Damage Reduction was 12 instead of 14, they
    #  lose 19 soldiers instead."
    artillery = fresh(types, "Artillery")
    # the barrage is drawn before Damage Reduction: 36 + 14 = 50 (5d10 = 35)
    fate = RiggedFate({"Barrage: Artillery": ["50"]})
    r = resolve_barrage(fate, artillery, fresh(types, "Light Infantry"), [fresh(types, "Military Police")])
    on_hex, adjacent = r.hits
    assert on_hex.formula == "5d10+15+0-14 (or simply 5d10+1)"
    assert (on_hex.unit.name, on_hex.damage, on_hex.casualties, on_hex.unit.soldiers) == ("Light Infantry", 36, 36, 64)
    assert adjacent.formula == "half of 5d10+15+0-12 (or simply 5d10+3)"
    assert (adjacent.unit.name, adjacent.damage, adjacent.casualties) == ("Military Police", 19, 19)
    assert (r.ammunition_spent, r.artillery.ammunition) == (1, artillery.ammunition - 1)


def test_artillery_barrage_the_naive_18(types: UnitTypes) -> None:
    # "The military police adjacent to the targeted hex should lose 18" ("they will take half of that"): the
    # other reading, kept as the option adjacent_damage=half-of-target.
    options = BattleSystemOptions(adjacent_damage="half-of-target")
    fate = RiggedFate({"Barrage: Artillery": ["50"]})
    r = resolve_barrage(fate, fresh(types, "Artillery"), fresh(types, "Light Infantry"),
                        [fresh(types, "Military Police")], options=options)
    assert [h.damage for h in r.hits] == [36, 18]
    assert r.hits[1].formula == "half of 5d10+15+0-14 (or simply 5d10+1)"


def test_light_cavalry_vs_light_cavalry_20_casualties_and_29_morale(types: UnitTypes) -> None:
    # "The light cavalry unit attacks and rolls 5d10+2+0-10 (or simply 5d10-8). The roll results in a 20 which will
    #  mean that the targeted light cavalry unit will lose 20 soldiers and then the attacker rolls an additional
    #  1d10+20, resulting in 29 morale damage for the targeted light cavalry."
    fate = RiggedFate({"Attack: Light Cavalry on Light Cavalry": ["20"],
                       "Morale damage: Light Cavalry on Light Cavalry": ["29"]})
    r = resolve_attack(fate, fresh(types, "Light Cavalry"), fresh(types, "Light Cavalry"), Reach(1))
    assert r.formula == "5d10+2+0-10 (or simply 5d10-8)"
    assert (r.roll, r.casualties) == (20, 20)
    assert r.morale is not None
    assert fate.records[1].request.explain[0].startswith("1d10+20")
    assert (r.morale.roll, r.morale.multiplier, r.morale.halved, r.morale.damage) == (29, 1, False, 29)
    assert (r.defender.soldiers, r.defender.morale) == (80, 100 - 29)
    assert [rec.outcome for rec in fate.records] == ["20", "29"]


def test_light_infantry_moves_4(types: UnitTypes) -> None:
    # "a light infantry unit has a movement rating of 4, this means if they want to move on flat land, they get to
    #  move up to four hexes."
    assert types.get("Light Infantry").movement == 4
