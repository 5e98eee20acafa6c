"""The Dragon Noir golden playthrough replays action by action through the game protocol: the same chance
results (label, outcome and uniform number), the same state after every action, the same final state; and it is
what the policy plays today."""

import json

import pytest

from .dragonnoir_playthrough import GOLDEN, path_for, play, start
from .playthrough import assert_replays


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_dragonnoir_golden_playthrough_replays_exactly(scenario: str, seed: int) -> None:
    gold = json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
    g, state = start(scenario, seed)
    assert {"shoot", "move", "attack", "advance", "cast", "counter", "end_phase"} <= assert_replays(g, state, gold, min_steps=50)


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_dragonnoir_golden_playthrough_is_what_the_policy_plays_today(scenario: str, seed: int) -> None:
    assert play(scenario, seed) == json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_dragonnoir_golden_playthrough_fires_at_characters_who_stood_still(scenario: str, seed: int) -> None:
    """'It is not possible to make a defensive shot against a character who has not yet started to move, unless the
    opposing player does not intend to move him during his turn.' The playthrough holds at least one such decision:
    a side ends its movement and the other fires defensively at a character who did not move."""
    gold = json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
    g, state = start(scenario, seed)
    answered = []
    for step in gold["steps"]:
        if state.pending is not None and state.pending.kind == "standstill":
            answered.append(step["action"]["kind"])
        state = g.apply(state, step["action"]).state
    assert "shoot" in answered
