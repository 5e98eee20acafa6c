"""Movement in 2.5 cm steps (issue 24, third-edition rules: "movement in cm in 2.5 cm steps; running is double
movement"); docs/rules/confrontation.md, "Skirmishes". Option ``move_steps``: ``2.5`` (default) or ``free``."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest
from cf_start import past_tactical

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.skirmish import STEP_CM
from rulekeeper.rulesets.confrontation.state import SkirmishState

SCENARIOS = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios"
GUARD = {"kind": "move", "side": "A", "fighter": "Alahan guard"}  # at (7, 15) on the ford, MOV 10


def start(g: Game, scenario: str = "the_ford", *options: str) -> SkirmishState:
    doc = g.setup(SetupRequest(scenario=SCENARIOS / f"{scenario}.yaml", seed=3, options=options)).document
    state = past_tactical(g.initial_state(doc))
    assert isinstance(state, SkirmishState)
    return replace(state, fighters=tuple(replace(f, braved=99) for f in state.fighters))


def steps(length: float) -> float:
    return abs(length / STEP_CM - round(length / STEP_CM)) * STEP_CM


def test_a_walk_is_a_whole_number_of_2_5_cm_steps(g: Game) -> None:
    """Third-edition rules: "movement in cm in 2.5 cm steps"."""
    s = start(g)
    assert s.option("move_steps", "free") == "2.5"
    with pytest.raises(IllegalActionError, match=r"8.0 cm is not a whole number of 2.5 cm steps .*walk 7.5 or 10 cm"):
        g.apply(s, {**GUARD, "to": [15.0, 15.0]})
    assert g.apply(s, {**GUARD, "to": [14.5, 15.0]}).state.fighter("Alahan guard").x == 14.5
    assert g.apply(s, {**GUARD, "to": [14.1, 22.1]}).state  # 10.04 cm on a slant: to the millimetre, 4 steps


@pytest.mark.parametrize("scenario", ["the_ford", "the_hunters_wood", "the_mill_race"])
def test_the_keeper_offers_walks_in_whole_steps(g: Game, scenario: str) -> None:
    s = start(g, scenario)
    moves = 0
    for _ in range(30):
        legal = g.legal_actions(s)
        for lg in legal:
            if lg.action["kind"] == "move":
                f = s.fighter(str(lg.action["fighter"]))
                length = math.hypot(lg.action["to"][0] - f.x, lg.action["to"][1] - f.y)
                assert steps(length) <= 0.1 and length >= STEP_CM - 0.1, (lg.text, length)
                moves += 1
        if s.over or not legal:
            break
        s = g.apply(s, g.policy(s) or legal[0].action).state
    assert moves > 3


def test_the_free_reading_and_a_battle_stored_before_the_rule_walk_to_the_millimetre(g: Game) -> None:
    free = start(g, "the_ford", "move_steps=free")
    assert g.apply(free, {**GUARD, "to": [15.0, 15.0]}).state.fighter("Alahan guard").x == 15.0
    old = replace(start(g), options=(("ephemeral_vs_regeneration", "cancel"),))  # no move_steps: stored earlier
    assert g.apply(old, {**GUARD, "to": [15.0, 15.0]}).state.fighter("Alahan guard").x == 15.0


def engaged_guard(s: SkirmishState) -> SkirmishState:
    """The guard (Medium, MOV 10) in base contact with the hunter, by the ford's top edge."""
    guard, hunter = s.fighter("Alahan guard"), s.fighter("Wolfen hunter")
    return s.with_fighters(replace(guard, x=12.0, y=27.0, facing=0.0, engaged=("Wolfen hunter",)),
                           replace(hunter, x=12.0 + 1.25 + 1.875, y=27.0, facing=180.0, engaged=("Alahan guard",)))


def test_a_disengagement_walks_out_in_whole_2_5_cm_steps(g: Game) -> None:
    """Third-edition rules: "movement in cm in 2.5 cm steps" — the walk out of a fight is a walk like any other."""
    s = engaged_guard(start(g))
    offered = next(lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "disengage")
    length = math.hypot(offered["to"][0] - 12.0, offered["to"][1] - 27.0)
    assert steps(length) <= 0.1 and length == pytest.approx(10.0, abs=0.1)
    with pytest.raises(IllegalActionError, match=r"cannot walk out to \(4, 27\): 8.0 cm is not a whole number of 2.5 cm"):
        g.apply(s, {**offered, "to": [4.0, 27.0]})
    assert g.apply(s, {**offered, "to": [4.5, 27.0]}).state  # 7.5 cm: three steps
    old = replace(s, options=())  # stored before the rule: to the millimetre
    assert g.apply(old, {**offered, "to": [4.0, 27.0]}).state


def test_reinforcement_places_him_a_whole_number_of_steps_from_a_friend(g: Game) -> None:
    """Reinforcement: "He must be placed within 10 cm of a friendly fighter", measured in the third-edition rules'
    "2.5 cm steps": 2.5, 5, 7.5 or 10 cm edge to edge from the friend he is placed by."""
    s = start(g)
    sword = s.fighter("Alahan swordsman")
    state = replace(s.with_fighters(replace(sword, killed=True, hp=0, returning="place")), phase="maintenance")
    spots = [lg.action["to"] for lg in g.legal_actions(state)]
    paladin, guard = state.fighter("Alahan paladin"), state.fighter("Alahan guard")
    assert spots and all(min(math.hypot(x - p.x, y - p.y) - 2.5 for p in (paladin, guard)) == pytest.approx(2.5, abs=0.1)
                         for x, y in spots)
    with pytest.raises(IllegalActionError, match=r"is 1.1 cm from the nearest friend: .*2.5, 5, 7.5 or 10 cm"):
        g.apply(state, {"kind": "return", "side": "A", "fighter": sword.key, "to": [5.0, 12.0]})
    assert g.apply(state, {"kind": "return", "side": "A", "fighter": sword.key, "to": [12.5, 8.0]}).state  # 5 cm from the paladin
    old = replace(state, options=())
    assert g.apply(old, {"kind": "return", "side": "A", "fighter": sword.key, "to": [5.0, 12.0]}).state
