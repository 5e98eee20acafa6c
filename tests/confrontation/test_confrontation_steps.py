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
