"""Heights (issue 24): Tall/X, and the Sizes' heights that sight and Leap read; docs/rules/confrontation.md,
"Terrain". The seed: Tall/X "The fighter is X cm tall instead of what his size states"; Sapper's barricade "is
considered an obstacle of Small size of height 2 cm". Third-edition rules: sight is "blocked by anything larger than
both shooter and target"."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_confrontation_terrain import TRACKER, XBOW, with_ability, wood

from rulekeeper.core.game import Game
from rulekeeper.rulesets.confrontation.cards import canonical_ability
from rulekeeper.rulesets.confrontation.ground import Terrain
from rulekeeper.rulesets.confrontation.heights import fighter_height, size_height
from rulekeeper.rulesets.confrontation.shooting import shot_of, shot_problem, sight_blockers
from rulekeeper.rulesets.confrontation.state import SkirmishState

ROCK = Terrain("the great rock", ((24.0, 18.0), (26.0, 18.0), (26.0, 22.0), (24.0, 22.0)), "obstacle", "Very Large")


def duel(g: Game, *pieces: Terrain) -> SkirmishState:
    """The crossbowman (Medium) at (10, 20) facing the tracker (Large) at (40, 20); the rest far away."""
    s = wood(g, Alahan_crossbowman=(10.0, 20.0, 0.0), Wolfen_tracker=(40.0, 20.0, 180.0),
             Alahan_guard=(5.0, 36.0, 0.0), Alahan_paladin=(5.0, 4.0, 0.0), Swordsman_Aldo=(20.0, 36.0, 0.0),
             Wolfen_hunter=(55.0, 36.0, 180.0), Wolfen_predator=(55.0, 4.0, 180.0))
    return replace(s, terrain=pieces)


def test_sizes_state_heights_in_the_seeds_order() -> None:
    """Sapper: "an obstacle of Small size of height 2 cm"; the rest estimated, Small < Medium < Large < Very Large."""
    assert [size_height(s) for s in ("Small", "Medium", "Large", "Very Large")] == [2.0, 3.0, 4.0, 6.0]


def test_tall_x_replaces_the_height_of_his_size(g: Game) -> None:
    """Tall/X: "The fighter is X cm tall instead of what his size states"."""
    s = duel(g)
    xbow = s.fighter(XBOW)
    assert fighter_height(xbow.card) == 3.0 and fighter_height(with_ability(xbow, "Tall/7").card) == 7.0
    with pytest.raises(ValueError, match="Tall/X needs a whole number X"):
        canonical_ability("Tall/very")


def test_a_tall_shooter_sees_over_what_blocks_his_size(g: Game) -> None:
    """Third-edition rules: sight "blocked by anything larger than both shooter and target": a Very Large rock (6 cm)
    hides the Large tracker (4 cm) from a Medium crossbowman (3 cm), not from one Tall/7 (the rock then covers)."""
    s = duel(g, ROCK)
    assert "not in sight" in str(shot_problem(s, s.fighter(XBOW), s.fighter(TRACKER)))
    tall = s.with_fighters(with_ability(s.fighter(XBOW), "Tall/7"))
    assert shot_problem(tall, tall.fighter(XBOW), tall.fighter(TRACKER)) is None
    assert shot_of(tall, tall.fighter(XBOW), tall.fighter(TRACKER)).cover == "the great rock"


def test_a_tall_fighter_in_the_way_blocks_a_shot_his_size_would_not(g: Game) -> None:
    """A Medium guard (3 cm) between the crossbowman and the tracker blocks nothing; Tall/5, he is larger than both."""
    s = duel(g)
    guard = replace(s.fighter("Alahan guard"), x=25.0, y=20.0)
    s = s.with_fighters(guard)
    assert sight_blockers(s, s.fighter(XBOW), s.fighter(TRACKER)) == []
    tall = s.with_fighters(with_ability(guard, "Tall/5"))
    assert [g.key for g in sight_blockers(tall, tall.fighter(XBOW), tall.fighter(TRACKER))] == ["Alahan guard"]
    assert "not in sight" in str(shot_problem(tall, tall.fighter(XBOW), tall.fighter(TRACKER)))
