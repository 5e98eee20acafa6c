"""Rule tests of the Ex illis battle engine: the end of a battle and Battle Points.

Each test quotes the seed sentence it checks (shared/seeds/000_5e8e85320d1136c5.txt, "Morale" and
"Battle Points").
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from exillis_battle_kit import act, battle, do, nobody_acts, put, unit

from rulekeeper.rulesets.exillis.battle.result import battle_points, bp_for, check_end, summary

# -- The end of a battle ----------------------------------------------------------------------


def test_side_with_nothing_on_the_board_loses():
    """"If a unit routs outside the board, it is removed from the game." — a side with no unit left on
    the board has lost the battle."""
    s = battle([unit("Billmen", "B2"), unit("Longbowmen", "A1")], [unit("Vileins", "E4")])
    assert check_end(s).over is False
    s2 = check_end(put(s, "B:Vileins", status="fled", zone=None))
    assert (s2.over, s2.winner, s2.active) == (True, "A", ())
    assert s2.end_reason == "a side has nothing left on the board"


def test_last_unit_routing_off_the_board_ends_the_battle():
    """"While fleeing, the unit will try to either run toward a Hero or the nearest battlefield edge. If
    it reaches the battlefield edge, it is removed from the game."."""
    s = battle([unit("Billmen", "B2")], [unit("Vileins", "E4")])
    s = act(replace(s.with_units({"B:Vileins": replace(s.unit("B:Vileins"), c=replace(
        s.unit("B:Vileins").c, morale_base=-20.0, fleeing=True))})), "B:Vileins")
    o = do(s, "flee", "B:Vileins")
    assert o.state.unit("B:Vileins").status == "fled"
    assert (o.state.over, o.state.winner) == (True, "A")
    assert o.state.active == ()


def test_destroyed_units_count_as_gone():
    """"If a unit routs outside the board, it is removed from the game." (a destroyed unit is gone too)."""
    s = battle([unit("Billmen", "B2")], [unit("Vileins", "E4"), unit("Longbowmen", "E3")])
    s = put(s, "B:Vileins", status="destroyed", zone=None)
    assert check_end(s).over is False
    s = put(s, "B:Longbowmen", status="destroyed", zone=None)
    assert check_end(s).winner == "A"


def test_turn_limit_ends_the_battle():
    """Scenario ``turn_limit`` in rounds (a round is 1000 AcP of an Initiative-100 unit): the battle
    ends when it is reached; the side with more surviving points wins.

    Seed (Turns): "Between two turns, every active unit gains Action Points (AcP) based on its
    Initiative. As soon as one unit reaches 1000 AcP, it is ready to take a turn." A limit of N
    rounds is the time in which an Initiative-100 unit takes N turns (at rounds 0 … N−1): a turn
    that falls due exactly at round N is not taken (issue 9: it used to be, one turn too many)."""
    s = battle([unit("Billmen", "B2")], [unit("Vileins", "E4")], turn_limit=3)
    turns = 0
    while not s.over:
        s = do(s, "wait", s.active[0]).state
        turns += 1
    assert s.end_reason == "turn limit (3 rounds)"
    # Billmen act at rounds 0, 1, 2, Vileins at 0.5, 1.5, 2.5: three turns each; the Billmen's turn
    # due at round 3.0 is not taken
    assert s.round == pytest.approx(3.0) and turns == 6
    assert s.winner == "A"  # Billmen 43 points against Vileins 26


def test_turn_limit_winner_by_surviving_points():
    """The turn limit gives the battle to the side with more surviving points (casualties count)."""
    s = battle([unit("Billmen", "B2")], [unit("Vileins", "E4")], turn_limit=1)
    # 6 of 8 Billmen dead: 43 x 2/8 = 10.75 surviving points against 26
    hp = s.unit("A:Billmen").c.hp
    s = s.with_units({"A:Billmen": replace(s.unit("A:Billmen"), c=replace(s.unit("A:Billmen").c,
                                                                            hp=(0.0,) * 6 + hp[6:]))})
    s = check_end(replace(s, clock=10.0))
    assert (s.over, s.winner) == (True, "B")
    assert summary(s)["armies"]["A"]["surviving_points"] == 10.8


# -- Battle Points ----------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "bp"), [(0, 0), (4, 0), (5, 1), (6, 1), (7, 2), (9, 2), (10, 3), (13, 3),
                                           (14, 4), (18, 4), (19, 5), (40, 5)])
def test_battle_points_table(count, bp):
    """"Number of units and Heroes in the army	BP earned / < 5	0 / 5-6	1 / 7-9	2 / 10-13	3 / 14-18
    4 / 19+	5"."""
    assert bp_for(count) == bp


def _example(practice: bool = False, width: int = 5, height: int = 4, b_unit: str = "Billmen"):
    """Player A: 6 units and 2 Heroes (2 BP); player B: 8 units and 2 Heroes (3 BP)."""
    cols = "ABCDE"[:width]
    a = [unit("Longbowmen", f"A{i + 1}" if i < height else f"B{i - height + 1}") for i in range(6)]
    a[0]["hero"], a[1]["hero"] = "Marrenne", "Decurion"
    b = [unit(b_unit, f"{cols[-1]}{i % height + 1}") for i in range(8)]
    b[0]["hero"], b[1]["hero"] = "Marrenne", "Decurion"
    return battle(a, b, practice=practice, width=width, height=height)


def test_seed_example_both_players_earn_5_bp():
    """"For example, if Player A fields an army of 6 units and 2 Heroes (so 2 BP) and Player B fields an
    army of 8 units and 2 Heroes (so 3 BP), both players receive 5 BP at the end of the game."."""
    s = _example()
    assert sum(1 for u in s.units if u.side == "A") == 8
    assert sum(1 for u in s.units if u.side == "B") == 10
    pts = dict(s.army_points)
    assert abs(pts["A"] - pts["B"]) / max(pts.values()) <= 0.15
    assert battle_points(s) == (5, "")
    assert summary(s)["battle_points"] == 5


def test_battle_points_whatever_the_outcome():
    """"Once the game is over, both players earn the total amount of Battle Points the game is worth,
    whatever the outcome of the battle."."""
    s = _example()
    lost = s
    for u in s.units:
        if u.side == "B":
            lost = put(lost, u.key, status="fled", zone=None)
    lost = check_end(lost)
    assert lost.winner == "A"
    assert summary(lost)["battle_points"] == 5


def test_no_battle_points_for_practice():
    """"No Battle Point will be given for a Practice game"."""
    assert battle_points(_example(practice=True)) == (0, "practice game")


def test_no_battle_points_on_a_small_board():
    """"No Battle Point will be given ... if the battlefield is less than four zones by four"."""
    assert battle_points(_example(width=5, height=3))[0] == 0
    assert battle_points(_example(width=4, height=4))[0] == 5


def test_no_battle_points_when_armies_differ_by_more_than_15_percent():
    """"No Battle Point will be given ... if a difference of 15% separates both armies."."""
    s = _example(b_unit="Vileins")  # 8 x 26 + heroes: far below 6 Longbowmen + heroes
    pts = dict(s.army_points)
    assert abs(pts["A"] - pts["B"]) / max(pts.values()) > 0.15
    assert battle_points(s) == (0, "more than 15 % between the armies")
    close = replace(_example(), army_points=(("A", 100), ("B", 90)))
    assert battle_points(close) == (5, "")
    far = replace(_example(), army_points=(("A", 100), ("B", 80)))
    assert battle_points(far)[0] == 0


def test_summary_lists_casualties():
    """"After a game, both armies receive Battle Points" — the summary gives the result per unit."""
    s = _example()
    s = nobody_acts(s)
    out = summary(s)
    assert out["over"] is False
    assert {u["unit"] for u in out["armies"]["A"]["units"]} >= {"A:Longbowmen", "A:Marrenne", "A:Decurion"}
    assert all(u["casualties"] == 0 for side in ("A", "B") for u in out["armies"][side]["units"])


def test_both_sides_gone_is_a_draw():
    """"If a unit routs outside the board, it is removed from the game." — when both sides have nothing
    left on the board at once, nobody wins."""
    s = battle([unit("Billmen", "B2")], [unit("Vileins", "E4")])
    s = put(put(s, "B:Vileins", status="fled", zone=None), "A:Billmen", status="destroyed", zone=None)
    s = check_end(s)
    assert (s.over, s.winner) == (True, "draw")
