"""The Black Dragon: five hexes, five parts, the centre wounded three times, its widening access, never retreats."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dn_kit import SHEET, fighter

from rulekeeper.boards.hexes import Hex, hex_distance, hex_neighbours
from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError
from rulekeeper.rulesets.dragonnoir.blackdragon import (
    LIMBS,
    PARTS,
    BlackDragon,
    dragon_attacks,
    dragon_defends,
    dragon_step,
    push_destinations,
    pushed_aside,
    turn_dragon,
    wound,
)
from rulekeeper.rulesets.dragonnoir.combat import combat_odds, resolve_combat
from rulekeeper.rulesets.dragonnoir.special import ignores_infiltration

C = Hex(5, 5)
KEY = SHEET.combat.keys["foot"]


def wounded(dragon: BlackDragon, *parts: str) -> BlackDragon:
    for p in parts:
        dragon = wound(dragon, p)  # type: ignore[arg-type]
    return dragon


def test_the_counter_covers_five_hexes_around_its_centre() -> None:
    """"The counter that represents the Black Dragon occupies five hexes. ... the hex located at the centre of the
    cross formed by the counter is used as the base." "The body of the Black Dragon is divided into five parts. The
    head, the two front legs and the tail each have an attack potential and a defence potential.\""""
    for facing in range(6):
        d = BlackDragon(C, facing)
        hexes = d.hexes()
        assert set(hexes) == set(PARTS) and len(set(hexes.values())) == 5
        assert hexes["body"] == C and all(hex_distance(C, hexes[p]) == 1 for p in LIMBS)
        assert hex_distance(hexes["head"], hexes["tail"]) == 2  # the tail opposite the head
        assert all(d.part_at(h) == p for p, h in hexes.items())
    body = fighter("Black Dragon body")
    assert body.attack == 0 and body.defence > 0  # "The body proper has only a defence potential."
    assert all(fighter(f"Black Dragon {p}").attack > 0 for p in LIMBS)


def test_at_full_health_the_centre_is_attacked_from_two_hexes_only() -> None:
    """"As long as the dragon is in full health, the central part of its body can be attacked only from two hexes.\""""
    for facing in range(6):
        d = BlackDragon(C, facing)
        access = d.centre_access()
        assert len(access) == 2 and access <= set(hex_neighbours(C)) - set(d.hexes().values())
    d = BlackDragon(C)
    with pytest.raises(ImpossibleRequestError, match="only from two hexes"):
        d.check_attack("body", [d.hex_of("head")])
    d.check_attack("body", sorted(d.centre_access(), key=lambda h: (h.q, h.r)))


def test_a_limb_wounded_twice_loses_its_defence_and_opens_its_hex_to_the_centre() -> None:
    """"as soon as the head, the tail or one of the front legs receives a second wound, it no longer has any defence
    potential. A character can then temporarily occupy the hex to attack the central part, alone or with other
    characters. ... The number of hexes from which it is possible to attack the vital centre of the beast is thus
    progressively increased.\""""
    d = BlackDragon(C)
    once = wounded(d, "head")
    assert not once.disabled("head") and len(once.centre_access()) == 2
    twice = wounded(once, "head")
    assert twice.disabled("head") and twice.fighter(SHEET, "head").defence == 0
    assert twice.centre_access() == d.centre_access() | {d.hex_of("head")}
    twice.check_attack("body", [d.hex_of("head")])
    with pytest.raises(ImpossibleRequestError, match="no longer has any defence"):
        twice.check_attack("head", [d.hex_of("head")])
    all_limbs = wounded(d, *[p for p in LIMBS for _ in range(2)])
    assert len(all_limbs.centre_access()) == 6 and all_limbs.armed() == ()


def test_whoever_attacked_from_a_limbs_hex_steps_off_unless_the_dragon_is_dead() -> None:
    """"At the end of the combat, if the dragon is not dead, the character must reposition himself on an adjacent
    hex.\""""
    d = wounded(BlackDragon(C), "tail", "tail")
    spot = d.hex_of("tail")
    assert d.must_reposition(spot)
    assert not d.must_reposition(next(iter(d.centre_access() - {spot})))
    assert not wounded(d, "body", "body", "body").must_reposition(spot)


def test_the_dragon_dies_only_when_its_centre_is_wounded_three_times() -> None:
    """"It is possible to attack each part of the body separately, from the adjacent free hexes, exactly as for any
    other character. However, to kill the dragon, it is necessary to wound the central part three times.\""""
    d = wounded(BlackDragon(C), *[p for p in LIMBS for _ in range(2)])
    assert not d.dead
    d = wounded(d, "body", "body")
    assert not d.dead and d.state("body") == "wounded_twice"
    assert wounded(d, "body").dead
    assert BlackDragon(C).attack_hexes("head") == frozenset(
        n for n in hex_neighbours(BlackDragon(C).hex_of("head")) if n not in BlackDragon(C).hexes().values())


def test_d_e_and_f_become_dragon_wounded_and_it_never_retreats() -> None:
    """"The table used to fight the Black Dragon is the one for combats against characters on foot. The results D,
    E and F become "Dragon wounded". ... in attack as in defence, the dragon never retreats (results that make it
    retreat are ignored). It can, on the other hand, be wounded.\""""
    d = BlackDragon(C)
    for letter in "DEF":
        out = dragon_defends(d, letter, KEY[letter], ["tail"])
        assert out.wounded == "tail" and out.dragon.wounds_of("tail") == 1
    retreat = dragon_defends(d, "C", KEY["C"], ["tail"])
    assert retreat.dragon == d and retreat.ignored == "C" and "never retreats" in retreat.why
    assert dragon_defends(d, "A", KEY["A"], ["tail"]).dragon == d
    odds = combat_odds(SHEET, [fighter("Troll 1")], [d.fighter(SHEET, "tail")])
    assert odds.table == "foot"
    killed = dragon_defends(wounded(d, "body", "body"), "F", KEY["F"], ["body"])
    assert killed.killed and "dies" in killed.why


def test_the_dragon_attacking_ignores_attacker_retreats_and_applies_the_rest_normally() -> None:
    """"When the Black Dragon attacks, the appropriate combat table is used. The results are applied normally.
    However, in attack as in defence, the dragon never retreats\"."""
    kept, why = dragon_attacks("B", KEY["B"])
    assert KEY["B"].attacker == "retreat" and kept.attacker is None and "never retreats" in why
    assert dragon_attacks("E", KEY["E"])[0] == KEY["E"]


def test_several_parts_defending_the_dragons_player_picks_the_part_wounded() -> None:
    """"When the result of a combat indicates that one of the attackers or defenders has been stunned or wounded, it
    is the player of the side concerned who decides which of his characters takes the blow.\""""
    d = BlackDragon(C)
    with pytest.raises(ImpossibleRequestError, match="chooses") as err:
        dragon_defends(d, "E", KEY["E"], ["head", "left foreleg"])
    assert err.value.details["choices"] == ["head", "left foreleg"]
    assert dragon_defends(d, "E", KEY["E"], ["head", "left foreleg"], victim="left foreleg").wounded == "left foreleg"
    # a disabled part cannot soak the wound
    worn = wounded(d, "head", "head")
    assert dragon_defends(worn, "E", KEY["E"], ["head", "left foreleg"]).wounded == "left foreleg"


def test_two_parts_attacking_one_character_shift_one_column() -> None:
    """"The dragon benefits from a shift of the strength ratio of one column to the right when it attacks a character
    with two parts of its body. Example: the head and a front leg, or the tail and a front leg.\""""
    d = BlackDragon(C)
    target = hex_neighbours(d.hex_of("head"))[0]  # the hex ahead of the head: next to the head only
    beside = next(h for h in hex_neighbours(d.hex_of("head"))
                  if h not in d.hexes().values() and hex_distance(h, d.hex_of("left foreleg")) == 1)
    assert d.attackers_of([target]) == ("head",)
    pair = d.attackers_of([beside])
    assert pair == ("head", "left foreleg")
    odds = combat_odds(SHEET, [d.fighter(SHEET, p) for p in pair], [fighter("Grast")])
    one = combat_odds(SHEET, [d.fighter(SHEET, "head")], [fighter("Grast")])
    assert [s.columns for s in odds.shifts[1:]] == [1] and "two parts" in odds.shifts[1].why
    assert one.shifts[1:] == ()
    roll = resolve_combat(Fate.from_seed(4), odds)
    assert roll.letter == odds.rows[roll.die]


def test_a_disabled_limb_no_longer_attacks() -> None:
    """Decision: a limb that "no longer has any defence potential" no longer attacks either (its wounded-twice
    counter has attack 0)."""
    d = wounded(BlackDragon(C), "head", "head")
    assert "head" not in d.armed()
    assert d.fighter(SHEET, "head").attack == 0


def test_the_dragon_moves_in_all_directions_at_no_extra_cost_from_its_centre() -> None:
    """"Unlike mounted characters, the dragon can move in all directions, without spending additional movement
    points. To calculate its movement, the hex located at the centre of the cross formed by the counter is used as
    the base.\""""
    d = BlackDragon(C, facing=0)
    for n in hex_neighbours(C):
        moved, cost = dragon_step(SHEET, d, n, "flat")
        assert cost == 1 and moved.centre == n and moved.facing == 0
    backwards, cost = dragon_step(SHEET, d, hex_neighbours(C)[3], "flat", facing=3)
    assert cost == 1 and backwards.facing == 3
    assert turn_dragon(d, 4).facing == 4
    assert dragon_step(SHEET, d, hex_neighbours(C)[0], "brush")[1] == SHEET.terrain_named("brush").cost.value
    with pytest.raises(ImpossibleRequestError, match="crevasse"):
        dragon_step(SHEET, d, hex_neighbours(C)[0], "crevasse")
    with pytest.raises(ImpossibleRequestError, match="adjacent"):
        dragon_step(SHEET, d, Hex(9, 9), "flat")
    with pytest.raises(ImpossibleRequestError, match="on the map"):
        dragon_step(SHEET, d, hex_neighbours(C)[0], "flat", on_map={C})


def test_the_dragon_pushes_aside_whoever_is_in_its_path() -> None:
    """"When it moves, the dragon pushes aside any other character in its path. It can therefore never be
    blocked.\""""
    d = BlackDragon(C, facing=0)
    moved, _ = dragon_step(SHEET, d, hex_neighbours(C)[0], "flat")
    in_the_way = moved.hex_of("head")
    occupied = {in_the_way, Hex(50, 50)}
    assert pushed_aside(moved, occupied) == (in_the_way,)
    spots = push_destinations(moved, in_the_way, occupied)
    assert spots and all(hex_distance(s, in_the_way) == 1 and s not in moved.hexes().values() for s in spots)


def test_no_infiltration_roll_for_the_dragon_but_one_for_those_passing_near_it() -> None:
    """"The infiltration of enemy lines rule does not apply to the dragon. On the other hand, it applies to
    characters passing near the monster.\""""
    assert ignores_infiltration(fighter("Black Dragon head")) is not None
    d = BlackDragon(C)
    assert d.threatens(hex_neighbours(d.hex_of("head"))[0])
    assert not d.threatens(Hex(20, 20)) and not d.threatens(d.hex_of("tail"))
    # a hex next to a disabled limb only is no threat: that limb "no longer has any defence potential" (nor attack)
    worn = wounded(d, "head", "head")
    ahead = hex_neighbours(d.hex_of("head"))[0]
    assert d.threatens(ahead) and not worn.threatens(ahead)


def test_a_dead_dragon_neither_moves_nor_is_attacked() -> None:
    dead = replace(BlackDragon(C), wounds=(0, 0, 0, 0, 3))
    assert dead.dead
    with pytest.raises(ImpossibleRequestError, match="dead"):
        dragon_step(SHEET, dead, hex_neighbours(C)[0], "flat")
    with pytest.raises(ImpossibleRequestError, match="dead"):
        dead.check_attack("tail", [])


def test_the_dragon_is_stored_and_read_back() -> None:
    d = wounded(BlackDragon(C, 2), "head", "body")
    assert BlackDragon.from_dict(d.to_dict()) == d
    with pytest.raises(InvalidStatError):
        BlackDragon.from_dict({"facing": 1})
