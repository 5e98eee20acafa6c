"""The campaign's pure rules: Battle Points of a game, levels, skill points, player level, Renown."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.core.errors import InvalidStatError
from rulekeeper.rulesets.exillis import campaign as c
from rulekeeper.rulesets.exillis.battle.result import bp_for as engine_bp_for
from rulekeeper.rulesets.exillis.musters_data import load_musters_data


@dataclass(frozen=True)
class E:
    unit: str
    hero: str | None = None


def muster(units: int, heroes: int) -> list[E]:
    """``units`` entries, the first ``heroes`` of them with a hero attached."""
    return [E(f"u{i}", f"h{i}" if i < heroes else None) for i in range(units)]


# -- Battle Points of a game -------------------------------------------------------------------


def test_seed_example_6_units_2_heroes_against_8_units_2_heroes_is_5_bp_each() -> None:
    """"if Player A fields an army of 6 units and 2 Heroes (so 2 BP) and Player B fields an army of 8
    units and 2 Heroes (so 3 BP), both players receive 5 BP at the end of the game.\""""
    a, b = muster(6, 2), muster(8, 2)
    assert c.army_size(a) == 8 and c.army_size(b) == 10
    assert c.bp_for(c.army_size(a)) == 2 and c.bp_for(c.army_size(b)) == 3
    assert c.game_battle_points([c.army_size(a), c.army_size(b)], points=[500, 480]) == (5, "")


@pytest.mark.parametrize(("count", "bp"), [
    (0, 0), (1, 0), (4, 0),          # "< 5 → 0"
    (5, 1), (6, 1),                  # "5-6 → 1"
    (7, 2), (8, 2), (9, 2),          # "7-9 → 2"
    (10, 3), (11, 3), (13, 3),       # "10-13 → 3"
    (14, 4), (16, 4), (18, 4),       # "14-18 → 4"
    (19, 5), (25, 5), (100, 5),      # "19+ → 5"
])
def test_every_row_of_the_bp_table(count: int, bp: int) -> None:
    assert c.bp_for(count) == bp == engine_bp_for(count) == load_musters_data().battle_points.bp_for(count)
    assert c.game_battle_points([count, 0]) == (bp, "")


def test_both_armies_add_up_and_every_unit_gets_the_total() -> None:
    assert c.game_battle_points([19, 19])[0] == 10
    assert c.game_battle_points([5, 4])[0] == 1


def test_no_bp_for_a_practice_game() -> None:
    assert c.game_battle_points([10, 10], practice=True) == (0, "practice game")


@pytest.mark.parametrize(("w", "h", "earns"), [(3, 3, False), (4, 3, False), (3, 4, False), (4, 4, True),
                                               (5, 4, True), (20, 3, False)])
def test_no_bp_on_a_board_smaller_than_4_by_4(w: int, h: int, earns: bool) -> None:
    bp, why = c.game_battle_points([10, 10], width=w, height=h)
    assert (bp == 6) is earns
    assert earns or "smaller than 4 × 4" in why


@pytest.mark.parametrize(("points", "earns"), [
    ((100, 85), True),    # exactly 15 %: "a difference of 15%" is not "more than"; we award
    ((85, 100), True),
    ((100, 84), False),   # 16 % of the larger army
    ((1000, 849), False),
    ((1000, 850), True),
    ((250, 249), True),
    ((0, 0), True),
])
def test_no_bp_when_more_than_15_percent_separates_the_armies(points: tuple[int, int], earns: bool) -> None:
    bp, why = c.game_battle_points([10, 10], points=points)
    assert (bp > 0) is earns
    assert earns or "15 %" in why


@pytest.mark.parametrize("name", ["Anything Goes", "anything goes", "ANYTHING GOES"])
def test_no_bp_for_anything_goes(name: str) -> None:
    data = load_musters_data()
    ag, common = data.game_type(name), data.game_type("Common")
    assert not ag.earns_bp and (ag.min_level, ag.max_level) == (1, 77)
    assert c.game_battle_points([10, 10], earns_bp=[ag.earns_bp, common.earns_bp])[0] == 0
    bp, why = c.game_battle_points([10, 10], earns_bp=[common.earns_bp, ag.earns_bp])
    assert bp == 0 and "Anything Goes" in why
    assert c.game_battle_points([10, 10], earns_bp=[True, True])[0] == 6


def test_game_types_and_named_characters() -> None:
    data = load_musters_data()
    assert [(g.name, g.min_level, g.max_level) for g in data.game_types][:2] == [("Common", 1, 10), ("Grand", 10, 20)]
    wallace = data.named("William Wallace")
    assert wallace is not None and wallace.level == 40 and data.named("Decurion") is None
    # "William Wallace, a Character of level 40, will be played at level 10 in a Common game, level 20 in a Grand"
    assert [c.effective_level(40, data.game_type(g).max_level) for g in ("Common", "Grand", "Homeric", "Anything Goes")
            ] == [10, 20, 40, 40]


# -- levels ------------------------------------------------------------------------------------


def test_bp_needed_is_the_level_below_10_then_10() -> None:
    assert [c.bp_needed(lv) for lv in range(1, 15)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10]
    with pytest.raises(InvalidStatError):
        c.bp_needed(0)


def test_level_1_with_5_bp_reaches_level_3_with_2_left() -> None:
    # level 1 needs 1 -> level 2 (4 left); level 2 needs 2 -> level 3 (2 left); level 3 needs 3 > 2.
    assert c.award(1, 0, 5, 30) == (3, 2, 0)


def test_levels_past_10_cost_10_each() -> None:
    assert c.award(9, 0, 9, 30) == (10, 0, 1)
    assert c.award(10, 0, 25, 30) == (12, 5, 0)
    assert c.award(9, 8, 92, 40) == (19, 1, 2)  # 100 BP: 9 -> 10 for 9, then 9 levels for 90, 1 left


def test_bp_carry_over_between_battles() -> None:
    level, bp, _ = c.award(3, 0, 2, 30)
    assert (level, bp) == (3, 2)
    assert c.award(level, bp, 2, 30) == (4, 1, 0)


@pytest.mark.parametrize(("level", "gained", "new_level", "skill"), [
    (4, 4, 5, 1),     # level 5: first Skill Point
    (9, 9, 10, 1),    # level 10
    (14, 10, 15, 1),  # level 15
    (1, 45, 10, 2),   # 1 -> 10 crosses 5 and 10 (1+2+...+9 = 45)
    (5, 5, 6, 0),     # already past 5: nothing new at 6
])
def test_a_skill_point_every_5_levels(level: int, gained: int, new_level: int, skill: int) -> None:
    got_level, _, got_skill = c.award(level, 0, gained, 45)
    assert (got_level, got_skill) == (new_level, skill)
    assert [c.skill_points_at(lv) for lv in (4, 5, 9, 10, 14, 15, 20)] == [0, 1, 1, 2, 2, 3, 4]


def test_a_unit_stops_receiving_bp_at_its_maximum_level() -> None:
    assert c.award(29, 0, 100, 30) == (30, 0, 1)       # leftover dropped
    assert c.award(30, 0, 5, 30) == (30, 0, 0)         # nothing more
    detail = c.award_detail(29, 3, 100, 30)
    assert detail.bp_received == 7 and detail.levels_gained == 1
    assert c.bp_to_next(30, 0, 30) is None and c.bp_to_next(29, 3, 30) == 7
    with pytest.raises(InvalidStatError, match="above the maximum"):
        c.award(31, 0, 1, 30)


@pytest.mark.parametrize("bad", [(0, 0, 1, 30), (1, -1, 1, 30), (1, 0, -1, 30), (1, 0, 1, 0)])
def test_bad_inputs_are_refused(bad: tuple[int, int, int, int]) -> None:
    with pytest.raises(InvalidStatError):
        c.award(*bad)


@given(level=st.integers(1, 77), bp=st.integers(0, 30), gained=st.integers(0, 500), max_level=st.integers(1, 77))
def test_award_properties(level: int, bp: int, gained: int, max_level: int) -> None:
    if level > max_level:
        return
    new_level, new_bp, skill = c.award(level, bp, gained, max_level)
    assert level <= new_level <= max_level            # never decreases, never exceeds max
    assert new_bp >= 0 and skill >= 0                 # BP never negative
    assert skill == new_level // 5 - level // 5
    if new_level < max_level:
        assert new_bp < c.bp_needed(new_level)        # it levels up whenever it can
        spent = sum(c.bp_needed(lv) for lv in range(level, new_level))
        assert spent + new_bp == bp + gained          # BP conserved below the maximum
    else:
        assert new_bp == 0


@given(st.lists(st.integers(0, 10), max_size=30), st.integers(1, 40))
def test_many_battles_never_lose_a_level(gains: list[int], max_level: int) -> None:
    level, bp = 1, 0
    for g in gains:
        new_level, bp, _ = c.award(level, bp, g, max_level)
        assert new_level >= level and bp >= 0
        level = new_level
    assert level <= max_level


# -- players and growth --------------------------------------------------------------------------


def test_player_level_estimate_and_renown() -> None:
    assert c.player_award(1, 0, 5) == (3, 2)
    assert c.player_award(50, 0, 5) == (50, 0)                  # "The maximum Player Level is actually set at 50"
    assert c.player_award(49, 9, 1000)[0] == c.PLAYER_MAX_LEVEL
    assert c.renown_for(1) == 1 and c.renown_for(12) == 12      # "equal to his Player Level"


def test_growth_follows_the_seed_formulas() -> None:
    # level-1 reading (the default): tables are level 1, so level 11 is 10 levels of growth
    stat, lvl = c.growth(11)
    assert stat == pytest.approx(1.333, abs=1e-3) and lvl == pytest.approx(2.0, abs=1e-5)
    assert c.growth(1) == (1.0, 1.0)
