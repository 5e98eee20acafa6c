"""Movement: the seed's conversion examples (golden), terrain costs, corpses, a horseman's turns."""

from __future__ import annotations

from fractions import Fraction

import pytest
from dn_kit import SHEET, fighter

from rulekeeper.boards.hexes import Hex, hex_neighbour
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.rulesets.dragonnoir.movement import (
    Corpses,
    Horseman,
    carrying,
    corpse_extra,
    dismount,
    half_turn,
    mount,
    roll_table,
    step_cost,
    turn_extra,
)


def test_golden_laberne_has_4_points_after_dismounting() -> None:
    # "Laberne covers 4 hexes mounted, then dismounts. He therefore has a potential of 15 minus 6 = 9 points left.
    # This potential is divided by 2, which gives 4.5, rounded down to 4. Laberne still has 4 movement points
    # after dismounting."
    laberne = fighter("Laberne", True)
    spent = sum(step_cost(SHEET, laberne, "flat", "flat") for _ in range(4))
    c = dismount(SHEET, laberne, spent)
    assert (c.potential, c.spent + c.cost, c.remaining, c.divisor, c.left) == (15, 6, 9, 2, 4)
    assert c.arithmetic == "15 minus 6 (4 spent + 2 to dismount) = 9; divided by 2 = 4.5, rounded down: 4"


def test_golden_wounded_grast_has_0_points_after_dismounting() -> None:
    # "wounded Grast covers 6 hexes mounted, then dismounts. He has 12 minus 9 = 3 points left. Divided by 4, this
    # gives less than 1. He therefore ends his movement next to his horse, without going any further."
    grast = fighter("Grast", True, "wounded")
    c = dismount(SHEET, grast, 6)
    assert (c.potential, c.spent + c.cost, c.remaining, c.divisor, c.left) == (12, 9, 3, 4, 0)


def test_thrug_divides_by_4_or_8() -> None:
    # "(Special case: for Thrug, instead of dividing by 2 or 4, divide by 4 or 8.)"
    assert dismount(SHEET, fighter("Thrug", True), 2).divisor == 4
    assert dismount(SHEET, fighter("Thrug", True, "wounded"), 2).divisor == 8


def test_mounting_doubles_what_is_left() -> None:
    # "if the character mounts, the points remaining to the character on foot are multiplied by two"
    c = mount(SHEET, fighter("Grast"), 1)  # 7 - 1 - 3 (heavy) = 3, times 2
    assert (c.cost, c.remaining, c.left) == (3, 3, 6)
    with pytest.raises(ImpossibleRequestError):
        mount(SHEET, fighter("Grast"), 5)  # 7 - 5 - 3 < 0
    with pytest.raises(ImpossibleRequestError, match="no horseman"):
        mount(SHEET, fighter("Zed"), 0)


def test_terrain_costs_and_who_may_enter() -> None:
    zed, goblin, grast, rider = fighter("Zed"), fighter("Goblin 1"), fighter("Grast"), fighter("Jon", True)
    assert step_cost(SHEET, zed, "flat", "trees") == SHEET.terrain_named("trees").cost.value
    # "They spend only 2 movement points to cross a water hex." (Goblins)
    assert step_cost(SHEET, goblin, "flat", "water") == 2 < step_cost(SHEET, zed, "flat", "water")
    # "Characters in armour and horses with barding can never pass through a water hex."
    with pytest.raises(ImpossibleRequestError, match="armour"):
        step_cost(SHEET, grast, "flat", "water")
    # "Ford hexes ... can however be used by characters on foot with or without armour, but not by horses."
    assert step_cost(SHEET, grast, "flat", "ford") >= 1
    with pytest.raises(ImpossibleRequestError):
        step_cost(SHEET, rider, "flat", "ford")
    # "Mounted characters cannot pass through a tree hex"
    with pytest.raises(ImpossibleRequestError):
        step_cost(SHEET, rider, "flat", "trees")
    # "The hexes of a bridge are not accessible from a water hex and vice versa." (Goblins: "They can pass freely")
    with pytest.raises(ImpossibleRequestError, match="bridge"):
        step_cost(SHEET, zed, "water", "bridge")
    assert step_cost(SHEET, goblin, "water", "bridge") == 1
    # "No character can be on a crevasse hex."
    with pytest.raises(ImpossibleRequestError):
        step_cost(SHEET, zed, "flat", "crevasse")


def test_corpses_slow_and_block() -> None:
    # "Hexes containing three dead men or one dead horse cost one movement point more than their normal cost. A hex
    # becomes impassable if it contains six dead characters or two dead horses (or three characters and a dead
    # horse)."
    assert [corpse_extra(SHEET, Corpses(n)) for n in (0, 2, 3, 5, 6)] == [0, 0, 1, 1, None]
    assert corpse_extra(SHEET, Corpses(0, 1)) == 1 and corpse_extra(SHEET, Corpses(0, 2)) is None
    assert corpse_extra(SHEET, Corpses(3, 1)) is None and corpse_extra(SHEET, Corpses(2, 1)) == 1
    assert step_cost(SHEET, fighter("Zed"), "flat", "flat", Corpses(3)) == 2


def test_a_horseman_turns_at_a_cost() -> None:
    # "as soon as the horseman turns his horse more sharply, he spends 1, 2 or 3 points more than the normal cost"
    h = Horseman(Hex(0, 0), 0)  # facing east; rear hex to the west
    assert h.rear == Hex(-1, 0)
    costs = {}
    for d in range(6):
        to = hex_neighbour(h.front, d)
        if to != h.rear:
            costs[to] = turn_extra(SHEET, h, to)[1]
    for d in (2, 3, 4):
        costs[hex_neighbour(h.rear, d)] = turn_extra(SHEET, h, hex_neighbour(h.rear, d))[1]
    assert sorted(costs.values()) == [0, 0, 0, 1, 1, 2, 2, 3]  # the eight hexes around the two
    moved, extra, _ = turn_extra(SHEET, h, Hex(1, 0))
    assert extra == 0 and moved.front == Hex(1, 0) and moved.rear == Hex(0, 0)
    # "A horseman who performs a complete half-turn on the spot spends 3 movement points."
    turned, cost = half_turn(SHEET, h)
    assert cost == 3 and set(turned.hexes) == set(h.hexes) and turned.facing == 3
    with pytest.raises(ImpossibleRequestError):
        turn_extra(SHEET, h, Hex(5, 5))


def test_carrying_a_stunned_character_halves_what_is_left() -> None:
    # "the movement points he has left are then halved (rounding down if necessary)"
    assert [carrying(n) for n in (0, 1, 5, 6)] == [0, 0, 2, 3]


def test_the_infiltration_and_jump_rolls_share_out_the_d10() -> None:
    # "When a character crosses, during his movement, a hex adjacent to an enemy in a position to attack, the player
    # concerned must roll the die and consult the corresponding table on the game sheet."
    infiltration = roll_table(SHEET, "infiltration")
    assert sum(p for p, _ in infiltration.values()) == 1
    assert infiltration["pass"][0] == Fraction(7, 10)
    # "A mounted character can try to jump over a water hex or a crevasse hex."
    for obstacle in ("water", "crevasse"):
        jump = roll_table(SHEET, obstacle)
        assert sum(p for p, _ in jump.values()) == 1 and jump["cleared"][0] == Fraction(3, 5)
    assert "killed" in roll_table(SHEET, "crevasse")["fell"][1]
    with pytest.raises(ImpossibleRequestError):
        roll_table(SHEET, "lava")
