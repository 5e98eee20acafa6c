"""The Battle System golden playthrough replays action by action through the game protocol: the
same chance results (label, outcome and uniform number), the same state after every action, the
same final state; and it is what the policy plays today."""

import json

import pytest

from .battlesystem_playthrough import GOLDEN, path_for, play, start
from .playthrough import assert_replays


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_battlesystem_golden_playthrough_replays_exactly(scenario: str, seed: int) -> None:
    gold = json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
    g, state = start(scenario, seed)
    assert {"move", "attack", "barrage", "end_turn"} <= assert_replays(g, state, gold, min_steps=20)


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_battlesystem_golden_playthrough_is_what_the_policy_plays_today(scenario: str, seed: int) -> None:
    assert play(scenario, seed) == json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
