"""Confrontation's golden playthrough (tests/golden/confrontation_ruined_wall_seed7.json) replays action by
action through the game protocol: the same chance results (label, outcome, uniform number), the same state
after every action, the same final state; and it is what the policy plays today.

It depends on the duel, the Wound Table and the skirmish rules: after a deliberate rules change, regenerate
it with ``python tests/golden/confrontation_playthrough.py``.
"""

from __future__ import annotations

import json

import pytest

from golden.confrontation_playthrough import GOLDEN, path_for, play, start
from golden.playthrough import assert_replays


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_confrontation_golden_playthrough_replays_exactly(scenario: str, seed: int) -> None:
    gold = json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
    g, state = start(scenario, seed)
    assert {"move", "charge", "fight"} <= assert_replays(g, state, gold, min_steps=20)
    labels = {c[0].split(":")[0] for s in gold["steps"] for c in s["chance"]}
    assert {"INI test", "ATT test", "DEF test", "damage roll", "maintenance", "COU test"} <= labels


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_confrontation_golden_playthrough_is_what_the_policy_plays_today(scenario: str, seed: int) -> None:
    assert play(scenario, seed) == json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_the_golden_fights_placed_as_proposed_end_as_the_keepers_one_action_fights(scenario: str, seed: int) -> None:
    """Each player places his fighters' dice now (placing.py); placed as the keeper proposes, with the same dice
    drawn in the same order, the skirmish ends exactly where the one-action fight of ``placement=keeper`` (a
    battle stored before the choice) ends (War fury declared by the players in both: before_ini.py)."""
    from golden.playthrough import autoplay
    from rulekeeper.core.game import SetupRequest
    from rulekeeper.core.ruleset import game

    gold = json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
    g = game("confrontation")
    setup = g.setup(SetupRequest(scenario=path_for(scenario, seed).parents[2] / scenario, seed=seed,
                                 options=("placement=keeper",)))
    _, kept = autoplay(g.initial_state(setup.document), lambda now: g.status(now).over,
                       lambda now: g.apply(now, g.policy(now)), g.state_to_json)
    placed = sum(step["action"]["kind"] == "place" for step in gold["steps"])
    assert placed >= 10 and gold["final"]["options"]["placement"] == "players"
    assert {**g.state_to_json(kept), "options": None} == {**gold["final"], "options": None}
